# select: RES201
