from django.contrib.auth.models import AbstractUser
from django.db import models


class Member(AbstractUser):
    pass


class Team(models.Model):
    name = models.CharField(max_length=50)
