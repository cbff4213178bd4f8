from pyramid.request import Request


class HelpdeskService:
    def __init__(self, *, session, token):
        self.http = session
        self.token = token

    @classmethod
    def create_service(cls, _context, request: Request):
        response = request.http.post("https://helpdesk.example/oauth2/token", json={})  # expect: RES101
        return cls(session=request.http, token=response.json()["access_token"])

    def open_ticket(self, subject):
        return self.http.post("https://helpdesk.example/tickets", json={"subject": subject}, timeout=10)  # expect: RES103


class BreachedPasswords:
    def __init__(self, session):
        self._http = session

    @classmethod
    def create_service(cls, context, request):
        return cls(request.http)

    def check(self, prefix):
        return self._http.get(f"https://passwords.example/range/{prefix}")  # expect: RES101


class Captcha:
    def __init__(self, request):
        self.request = request

    def verify(self, payload):
        return self.request.http.post("https://captcha.example/verify", payload, timeout=(3.05, 9))  # expect: RES103


def greeting(request):
    # ``request.user`` is what ``_user`` returns: no client, nothing to report
    return request.user.get("name")


def profile(request):
    # a ``request`` whose ``http`` no ``add_request_method`` adds would be unknown: only the
    # attributes the project adds are followed
    return request.session.get("https://profile.example/me")

