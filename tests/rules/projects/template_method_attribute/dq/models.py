# select: RES105,RES301
from django.db import models


class Schedule(models.Model):
    func = models.CharField(max_length=256)
    repeats = models.IntegerField(default=-1)
