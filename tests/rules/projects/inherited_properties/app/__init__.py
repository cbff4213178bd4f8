# select: RES103, RES104
