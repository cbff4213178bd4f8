PROVIDERS = {}


def register(key):
    def deco(cls):
        PROVIDERS[key] = cls
        return cls
    return deco


class GenAIClient:
    def __init__(self, cfg, timeout: int = 120):
        self.cfg = cfg
        self.timeout = timeout
