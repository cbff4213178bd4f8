from sqlalchemy.orm import Session

from app.models import Sport, Workout, db
from app.repository import SportRepository
from app.weather import get_weather


def load_sport(sport_id):
    # queries the request's session and returns with its transaction open
    return Sport.query.filter_by(id=sport_id).one()


def load_and_commit(sport_id):
    sport = Sport.query.filter_by(id=sport_id).one()
    db.session.commit()
    return sport


def load_with_own_session(engine, sport_id):
    session = Session(engine)
    return session.query(Sport).get(sport_id)


class CreationService:
    def __init__(self, sport_id):
        self.sport = Sport.query.filter_by(id=sport_id).one()

    def process(self):
        workout = Workout(sport_id=self.sport.id)
        db.session.add(workout)
        workout.weather = get_weather({"sport": self.sport.id})
        db.session.commit()
        return workout


def create(sport_id):
    sport = load_sport(sport_id)
    workout = Workout(sport_id=sport.id)
    workout.weather = get_weather({"sport": sport.id})  # expect: RES301 "`load_sport()` left open"
    db.session.add(workout)
    db.session.commit()


def create_committed(sport_id):
    sport = load_and_commit(sport_id)
    workout = Workout(sport_id=sport.id)
    workout.weather = get_weather({"sport": sport.id})
    db.session.add(workout)
    db.session.commit()


def create_elsewhere(engine, sport_id):
    sport = load_with_own_session(engine, sport_id)
    weather = get_weather({"sport": sport.id})
    db.session.add(Workout(sport_id=sport.id))
    db.session.commit()
    return weather


def create_with_service(sport_id):
    service = CreationService(sport_id)
    result = service.process()  # expect: RES301 "`CreationService()` left open"
    db.session.commit()
    return result


def refresh_weather(session, sport_id):
    # the repository's method is named like a session's (`get_one`): a project call all the same
    repo = SportRepository(session)
    sport = repo.get_one(sport_id)
    sport.weather = get_weather({"sport": sport.id})  # expect: RES301 "`repo.get_one()` left open"
    repo.update(sport)
    session.close()
