import contextlib

import requests_mock


class HttpMocker(contextlib.ContextDecorator):
    # airbyte-cdk's test double: requests-mock is on while it is active
    def __init__(self):
        self._mocker = requests_mock.Mocker()

    def __enter__(self):
        self._mocker.__enter__()
        return self

    def __exit__(self, *exc):
        self._mocker.__exit__(*exc)
