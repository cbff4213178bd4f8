"""pyicloud/services/findmyiphone.py, reduced: a POST through the session it is handed."""
import json

HTTP_TIMEOUT = (3.05, 10)


class AppleDevice:
    def __init__(self, service_root, session):
        self.session = session
        self.sound_url = "%s/fmipservice/client/web/playSound" % service_root

    def play_sound(self, subject="Find My iPhone Alert"):
        data = json.dumps({"device": "x", "subject": subject})
        self.session.post(self.sound_url, data=data, timeout=HTTP_TIMEOUT)  # expect: RES201
