from core.model import meta


class Dashboard(object):
    @classmethod
    def get(cls, user_id):
        query = meta.Session.query(cls)
        query = query.filter(cls.user_id == user_id)
        return query.first()
