import requests

TIMEOUT = (3.05, 10)


class RefreshService:
    def __init__(self, workout, is_creation=False, get_elevation_on_refresh=True, get_weather=True):
        self.workout = workout
        self.is_creation = is_creation
        self.get_elevation_on_refresh = get_elevation_on_refresh
        self.get_weather = get_weather

    def process(self):
        # on creation, or on a refresh that asks for it
        if (self.is_creation or (self.workout.has_gpx and self.get_elevation_on_refresh)) and self.workout.missing:
            requests.post("https://elevation.example/lookup", json={"id": self.workout.id}, timeout=TIMEOUT)
        if not (self.get_weather and self.workout.outdoor):
            return self.workout
        requests.get(f"https://weather.example/{self.workout.id}", timeout=TIMEOUT)
        return self.workout
