from pkg.base import PROVIDERS


def get_client(cfg):
    cls = PROVIDERS.get(cfg.provider)
    return cls(cfg) if cls else None
