class PluginError(Exception):
    pass
