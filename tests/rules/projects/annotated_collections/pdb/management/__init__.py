# select: RES301
