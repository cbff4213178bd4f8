"""Loops that look like retries but are not, shared as VALID examples by the RES2xx rules."""

# A queue worker: each pass takes new work and stops on a sentinel; a failed job is not tried
# again, so nothing is retried.
QUEUE_WORKER = """
        import logging, time, requests
        log = logging.getLogger(__name__)
        def worker(q, url):
            while True:
                try:
                    job = q.get()
                    if job is None:
                        break
                    requests.post(url, json=job, timeout=5)
                except Exception:
                    log.exception("job failed")
                    time.sleep(1)
        """

# Pagination: the page number feeds the request, so a failed page is skipped, not retried.
PAGINATION = """
        import time, requests
        def fetch_pages(url):
            out = []
            for page in range(1, 50):
                try:
                    r = requests.post(url, json={"page": page}, timeout=5)
                    items = r.json()["items"]
                    if not items:
                        break
                    out.extend(items)
                except requests.RequestException:
                    print("page failed", page)
                time.sleep(0.5)
            return out
        """

# Asking again: each pass sends the new input it asked for, so a conflict (the name is taken)
# is answered with a different request, not the same one repeated.
ASK_AGAIN = """
        import click
        def create_user(api):
            while True:
                name = click.prompt("user name")
                try:
                    return api.create_user(name)
                except Exception:
                    click.echo("taken, choose another")
        """

# A watch loop: it leaves when the polled job reaches a final state and goes round on one that
# is merely unfinished; a failed status read is tolerated, not the point of the loop.
WATCH_JOB = """
        import time, requests
        def wait_for_job(client, job_id):
            while True:
                try:
                    job = client.get_job(job_id)
                    if job.status in ("SUCCEEDED", "FAILED"):
                        return job
                except Exception:
                    print("could not read the job status")
                time.sleep(10)
        """
# A watch loop that waits for a remote value to reach one it holds, tolerating read errors in
# the meantime (bodhi's mirror sync): it leaves on the value, not when a call stops failing.
WATCH_VALUE = """
        import hashlib, time
        from urllib.error import URLError
        from urllib.request import urlopen
        def wait_for_sync(url, checksum):
            while True:
                try:
                    newsum = hashlib.sha1(urlopen(url, timeout=30).read()).hexdigest()
                except URLError:
                    time.sleep(200)
                    continue
                if newsum == checksum:
                    return
                time.sleep(200)
        """

# Starting a browser on this machine (Selenium, Playwright): the failure waited out comes from
# local automation, not from a call to another service.
LOCAL_BROWSER_START = """
        import time
        from selenium import webdriver
        def start_browser(options):
            driver = None
            for i in range(3):
                try:
                    driver = webdriver.Firefox(options=options)
                    driver.set_window_size(1024, 768)
                    break
                except Exception:
                    time.sleep(5)
            return driver
        """

# A UI step retried on Selenium's timeout around a helper that polls a page assertion against a
# deadline: both loops wait for the browser driven here, neither repeats a call to a service.
PAGE_ASSERTION_POLL = """
        import time
        from selenium.common.exceptions import TimeoutException, WebDriverException
        def wait_for(check, timeout=10):
            start = time.time()
            while time.time() - start < timeout:
                try:
                    return check()
                except (AssertionError, WebDriverException):
                    time.sleep(0.1)
            return check()
        def delete_user(driver):
            for i in range(15):
                try:
                    driver.find_element("css selector", ".delete-user a").click()
                    wait_for(lambda: driver.find_element("id", "delete-selected"))
                    break
                except TimeoutException:
                    pass
        """

# Asking again through a wrapper of ``input()`` kept for tests to patch: the wrapper does
# nothing but ask, so each pass checks a new answer.
ASK_THROUGH_WRAPPER = """
        from models import InvalidName, check_name
        def obtain_input(text):
            return input(text)
        def get_username():
            while True:
                username = obtain_input("Username: ")
                try:
                    check_name(username)
                except InvalidName as e:
                    print("Invalid username: " + str(e))
                else:
                    return username
        """
