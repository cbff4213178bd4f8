# select: RES202, RES203
import random
import time

from scanner.fetching import Fetcher


class LeakLookup:
    def __init__(self, fetcher: Fetcher, opts):
        self.fetcher = fetcher
        self.opts = opts

    def query_email(self, email):
        res = self.fetcher.fetch_url("https://leaks.example/api/search?q=" + email, timeout=self.opts["timeout"])
        if res["code"] == "429":
            time.sleep(10)  # expect: RES202 "constant interval"
            return self.query_email(email)  # expect: RES203 "calls itself again after a failure"
        return res["content"]

    def lookup_ip(self, ip):
        retry = 0
        while retry < 3:  # expect: RES203 "a `continue` before `retry` is counted"
            res = self.fetcher.fetch_url("https://api.example/ip/" + ip, timeout=self.opts["timeout"])
            if res["code"] == "200":
                return res["content"]
            if res["code"] == "404":
                continue
            if res["code"] == "429":
                time.sleep(2)  # expect: RES202 "constant interval"
            retry += 1
        return None

    def lookup_domain(self, domain):
        # counted on every path, and each wait drawn at random: nothing to report
        for attempt in range(3):
            res = self.fetcher.fetch_url("https://api.example/domain/" + domain, timeout=self.opts["timeout"])
            if res["status"] == 200:
                return res["content"]
            time.sleep(random.uniform(0, 2 ** attempt))
        return None

    def report_status(self, job):
        # a job's state, not a failed call: a poll, not a retry
        while True:
            res = self.fetcher.fetch_url("https://api.example/jobs/" + job, timeout=self.opts["timeout"])
            if res["content"] == "done":
                return True
            time.sleep(5)

    def wait_for_snapshot(self, name):
        # the status unpacked from the pair the wrapper returns, and only 200 leaves
        while True:  # expect: RES203 "retries forever"
            time.sleep(1)  # expect: RES202 "constant interval"
            _, status_code = self.fetcher.fetch_pair("https://search.example/_snapshot/" + name, timeout=self.opts["timeout"])
            if status_code == 200:
                break

    def wait_for_exit(self, worker):
        # an exit code compared with 0 is no HTTP status: a local poll, not a retry
        while True:
            _, exit_code = self.fetcher.fetch_pair("https://api.example/workers/" + worker, timeout=self.opts["timeout"])
            if exit_code == 0:
                break
            time.sleep(1)
