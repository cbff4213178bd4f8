from .base import *  # noqa: F403

# never read: manage.py names the production settings
EXPORT_TIMEOUT = 5
CATALOG_TIMEOUT = 1
