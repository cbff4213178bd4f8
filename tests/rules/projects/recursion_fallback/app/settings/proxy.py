from app.db import EventSetting


class EventSettingsProxy:
    def __init__(self, module):
        self.module = module

    def get(self, event, name):
        return EventSetting.get(self.module, event, name)
