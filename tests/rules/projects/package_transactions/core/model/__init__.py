from core.model import meta
from core.model.dashboard import Dashboard


class Repository(object):
    def __init__(self, session):
        self.session = session
        self.commit = session.commit

    def commit_and_remove(self):
        self.session.commit()
        self.session.remove()


repo = Repository(meta.Session)
