import time

from api.plus import PlusAPI


class TraceBatchManager:
    def __init__(self):
        self.plus_api = PlusAPI()

    def initialize(self, payload):
        max_retries = 1
        response = None
        for attempt in range(max_retries + 1):
            response = self.plus_api.initialize_trace_batch(payload)  # expect: RES201 "through `_make_request`"
            if response is not None and response.status_code < 500:
                break
            if attempt < max_retries:
                time.sleep(0.2)
        return response
