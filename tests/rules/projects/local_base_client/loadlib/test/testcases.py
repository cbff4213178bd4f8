import unittest

import gevent.pywsgi


class WebserverTestCase(unittest.TestCase):
    def setUp(self):
        self._web_server = gevent.pywsgi.WSGIServer(("127.0.0.1", 0), lambda e, s: [])
        gevent.spawn(lambda: self._web_server.serve_forever())
        gevent.sleep(0.01)
        self.port = self._web_server.server_port
