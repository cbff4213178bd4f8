from .timing import *  # noqa: F403
