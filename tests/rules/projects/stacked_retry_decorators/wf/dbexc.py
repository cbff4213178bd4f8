class WriteConflictError(Exception):
    pass
