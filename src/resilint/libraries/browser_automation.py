"""Browser automation that drives a browser on this machine: Selenium (and tbselenium's Tor
Browser driver, a Selenium Firefox driver) and Playwright.

Starting the browser and every UI call (``find_element``, ``click``, ``page.goto``, an
``expect`` on the page) talk to a browser process started here, not to a remote dependency:
a loop that waits for the browser to start or for the page to reach a state polls local
automation, and its failures (Selenium's ``WebDriverException``, Playwright's ``Error``) come
from that automation. A loop that repeats them retries no outbound call.

Not local, and left unknown: a browser reached over the network (Selenium's ``Remote``
driver on a grid's ``command_executor``, Playwright's ``connect``/``connect_over_cdp``), and
Playwright's HTTP client (``page.request.get``, ``APIRequestContext``), which sends requests
of its own.
"""

from __future__ import annotations

from typing import Optional

_LIBRARIES = ("selenium.", "tbselenium.", "playwright.")
# Selenium's driver for a browser elsewhere (``webdriver.Remote`` is this class).
_REMOTE_DRIVERS = ("selenium.webdriver.Remote", "selenium.webdriver.remote.webdriver.WebDriver")
# Parts of a Playwright name that reach a browser elsewhere or send HTTP requests themselves.
_REMOTE_PARTS = frozenset({"connect", "connect_over_cdp", "request", "APIRequestContext", "APIRequest"})
# Where the libraries define the errors their drivers raise.
_ERROR_MODULES = ("selenium.common.", "playwright.sync_api.", "playwright.async_api.", "playwright._impl._errors.")
_PLAYWRIGHT_ERRORS = frozenset({"Error", "TimeoutError", "TargetClosedError"})


def remote_browser_call(name: Optional[str]) -> bool:
    """Whether ``name`` (a canonical qualified name) is a call of a browser-automation library
    that reaches another machine: a remote driver, a browser connected to over the network,
    Playwright's HTTP client."""
    if name is None or not name.startswith(_LIBRARIES):
        return False
    if any(name == driver or name.startswith(driver + ".") for driver in _REMOTE_DRIVERS):
        return True
    return name.startswith("playwright.") and not _REMOTE_PARTS.isdisjoint(name.split("."))


def local_browser_call(name: Optional[str]) -> bool:
    """Whether calling ``name`` drives a browser on this machine: starting it, or a UI call."""
    return name is not None and name.startswith(_LIBRARIES) and not remote_browser_call(name)


def browser_error(name: Optional[str]) -> bool:
    """Whether ``name`` is an error that browser automation raises (Selenium's
    ``TimeoutException``, ``WebDriverException``…, Playwright's ``Error``, ``TimeoutError``)."""
    if name is None or not name.startswith(_ERROR_MODULES):
        return False
    if name.startswith("selenium."):
        return True
    return name.rsplit(".", 1)[-1] in _PLAYWRIGHT_ERRORS
