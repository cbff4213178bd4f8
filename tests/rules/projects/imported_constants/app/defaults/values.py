LONG_TIMEOUT = 300


def read_int(config, key, default):
    try:
        return int(config[key])
    except (KeyError, ValueError):
        return default
