# select: RES105,RES301
