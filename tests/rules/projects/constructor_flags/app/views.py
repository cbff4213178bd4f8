from app.models import Workout, db
from app.services import GpxService, RefreshService


def change_sport(workout_id):
    workout = Workout.query.get(workout_id)
    db.session.flush()
    # neither flag is set: refresh() calls out to no service
    RefreshService(workout, update_weather=False, update_elevation=False).refresh()
    db.session.commit()


def refresh_everything(workout_id):
    workout = Workout.query.get(workout_id)
    db.session.flush()
    RefreshService(workout, update_weather=True).refresh()  # expect: RES301 "`Weather.fetch`"
    db.session.commit()


def add_elevation(workout_id):
    workout = Workout.query.get(workout_id)
    db.session.flush()
    # the elevation client is the second element of the tuple _sources() returns
    GpxService(workout, get_weather=False).process()  # expect: RES301 "`Elevation.points`"
    db.session.commit()
