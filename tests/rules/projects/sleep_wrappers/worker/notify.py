# select: RES202
import requests

from worker.cancellation import Throttled


class Notifier(Throttled):
    retry_wait = 5

    def send(self, url, payload, retry=3):
        wait = None
        while True:
            self.throttle(wait=wait)  # expect: RES202 "`self.throttle(wait=wait)` waits a constant interval"
            response = requests.post(url, json=payload, timeout=5)
            if response.status_code == 429 and retry:
                retry -= 1
                if retry > 0:
                    wait = self.retry_wait
                    continue
            return response.ok

    def send_logged(self, url, payload):
        for _ in range(3):
            try:
                return requests.post(url, json=payload, timeout=5)
            except requests.ConnectionError:
                self.throttle(last_io=None)
