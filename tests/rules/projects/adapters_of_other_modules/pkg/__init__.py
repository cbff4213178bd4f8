# select: RES101
