"""Settings the application fills in at start-up, from its configuration file."""
SOCKET_TIMEOUT = None
LEGACY_TIMEOUT = None
SESSION = None
