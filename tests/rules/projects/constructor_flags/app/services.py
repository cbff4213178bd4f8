from app.models import db
from app.remote import Elevation, Weather


class BaseService:
    def __init__(self, workout, get_weather=True, get_elevation=True):
        self.workout = workout
        self.get_weather = get_weather
        self.get_elevation = get_elevation
        self.weather, self.elevation = self._sources()

    def _sources(self):
        return Weather(), Elevation()

    def process(self):
        if self.get_elevation:
            self.elevation.points(self.workout.id)
        if not self.get_weather:
            return self.workout
        self.weather.fetch(self.workout.id)
        db.session.flush()
        return self.workout


class GpxService(BaseService):
    def __init__(self, workout, get_weather=True, get_elevation=True):
        super().__init__(workout, get_weather, get_elevation)


class RefreshService:
    def __init__(self, workout, update_weather=False, update_elevation=False):
        self.workout = workout
        self.update_weather = update_weather
        self.update_elevation = update_elevation

    def refresh(self):
        service = GpxService(self.workout, get_weather=self.update_weather, get_elevation=self.update_elevation)
        return service.process()
