from sqlalchemy import select

from app.models import Sport


class SportRepository:
    """A repository over the caller's session: its reads leave that session's transaction open."""

    def __init__(self, session):
        self.session = session

    def get_one(self, sport_id):
        return self.session.execute(select(Sport).where(Sport.id == sport_id)).scalars().one()

    def update(self, sport):
        self.session.merge(sport)
        self.session.commit()
