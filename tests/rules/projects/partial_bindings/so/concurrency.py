from collections import deque
from concurrent.futures import ThreadPoolExecutor as _ThreadPoolExecutor


class ThreadPoolExecutor(_ThreadPoolExecutor):
    def imap(self, fn, *iterables, timeout=None):
        futures = deque()
        for args in zip(*iterables):
            futures.append(self.submit(fn, *args))
        while futures:
            yield futures.popleft().result(timeout)
