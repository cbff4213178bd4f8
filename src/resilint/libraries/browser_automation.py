"""Browser automation that drives a browser on this machine: Selenium (and tbselenium's Tor
Browser driver, a Selenium Firefox driver) and Playwright.

Starting the browser and every UI call (``find_element``, ``click``, ``page.goto``, an
``expect`` on the page) talk to a browser process started here, not to a remote dependency:
a loop that waits for the browser to start or for the page to reach a state polls local
automation, and its failures (Selenium's ``WebDriverException``, Playwright's ``Error``) come
from that automation. A loop that repeats them retries no outbound call.

An object the file cannot type (an element or a page object passed as a parameter, or set by
a base class in another module) is
taken for the browser's when the module imports one of these libraries and the method is one
of their element, driver or action-chain methods (``field.click()``, ``page.find_by_xpath(…)``,
``driver.execute_script(…)``); ``get`` is not among them, a client's name too.

Not local, and left unknown: a browser reached over the network (Selenium's ``Remote``
driver on a grid's ``command_executor``, Playwright's ``connect``/``connect_over_cdp``), and
Playwright's HTTP client (``page.request.get``, ``APIRequestContext``), which sends requests
of its own.
"""

from __future__ import annotations

from typing import Optional, Sequence

_LIBRARIES = ("selenium.", "tbselenium.", "playwright.", "splinter.")
# Methods of Selenium's elements, drivers and action chains, and splinter's finders, which no
# HTTP or database client names a request after.
_UI_METHODS = frozenset({
    "click", "double_click", "context_click", "send_keys", "submit", "get_attribute", "get_property",
    "get_dom_attribute", "is_displayed", "is_enabled", "is_selected", "value_of_css_property",
    "execute_script", "execute_async_script", "save_screenshot", "get_screenshot_as_png",
    "get_screenshot_as_file", "maximize_window", "set_window_size", "move_to_element", "drag_and_drop",
    "key_down", "key_up", "perform", "select_by_value", "select_by_visible_text", "mouse_over",
})
_UI_PREFIXES = ("find_element", "find_by_")
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


def drives_browser(imported_modules: Sequence[str]) -> bool:
    """Whether a module imports a library that drives a browser on this machine."""
    return any((module + ".").startswith(_LIBRARIES) for module in imported_modules)


def ui_method(method: str) -> bool:
    """Whether ``method`` is named like a browser element, driver or action-chain method."""
    return method in _UI_METHODS or method.startswith(_UI_PREFIXES)
