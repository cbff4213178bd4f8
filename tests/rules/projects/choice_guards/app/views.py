# select: RES301
from app.models import Workout, db
from app.services import RefreshService


def change_sport(workout_id):
    workout = Workout.query.get(workout_id)
    db.session.flush()
    # not a creation, no elevation, no weather: neither side of either choice calls out
    RefreshService(workout, get_elevation_on_refresh=False, get_weather=False).process()
    db.session.commit()


def refresh(workout_id):
    workout = Workout.query.get(workout_id)
    db.session.flush()
    # the elevation lookup runs: the refresh asks for it
    RefreshService(workout, get_weather=False).process()  # expect: RES301 "`requests.post`"
    db.session.commit()


def create(workout_id):
    workout = Workout.query.get(workout_id)
    db.session.flush()
    RefreshService(workout, is_creation=True, get_elevation_on_refresh=False, get_weather=False).process()  # expect: RES301 "`requests.post`"
    db.session.commit()
