class Status:
    QUEUED = 1
    SUCCESSFUL = 2
    FAILED = 3
    IN_PROGRESS = 4
