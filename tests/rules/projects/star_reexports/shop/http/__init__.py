# everything the package offers, re-exported with star imports
from .helpers import *  # noqa: F403
