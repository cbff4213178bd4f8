import time

import requests


class Fetcher:
    def fetch(self, url, timeout, post_data=None):
        """Every failure is an empty result: the callers read the status it returns."""
        result = {"code": None, "content": None}
        try:
            if post_data:
                response = requests.post(url, data=post_data, timeout=timeout)
            else:
                response = requests.get(url, timeout=timeout)
        except Exception:
            return result
        result["code"] = str(response.status_code)
        result["content"] = response.text
        return result


class Module:
    def __init__(self, timeout):
        self.fetcher = Fetcher()
        self.timeout = timeout

    def submit(self, url, data, failures=0):
        # a 500 may come after the server acted: going round on it repeats the POST
        result = self.fetcher.fetch(url, self.timeout, post_data=data)  # expect: RES201
        if result["code"] == "500":
            if failures == 3:
                return None
            time.sleep(2)
            failures += 1
            return self.submit(url, data, failures)
        return result["content"]

    def submit_bounded(self, url, data, attempt=0):
        result = self.fetcher.fetch(url, self.timeout, post_data=data)  # expect: RES201
        if result["code"] == "503" and attempt < 3:
            time.sleep(2)
            return self.submit_bounded(url, data, attempt + 1)
        return result["content"]

    def submit_until_it_answers(self, url, data):
        # a retry on errors: the fetcher's catch-all handler ends every one of them
        for _ in range(3):
            try:
                return self.fetcher.fetch(url, self.timeout, post_data=data)
            except Exception:
                time.sleep(1)
        return None
