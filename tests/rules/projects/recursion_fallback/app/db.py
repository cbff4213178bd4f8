class EventSetting:
    store = {}

    @classmethod
    def get(cls, module, event, name):
        return cls.store[(module, event, name)]
