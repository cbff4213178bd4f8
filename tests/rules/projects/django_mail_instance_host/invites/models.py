from django.db import models


class MailConfiguration(models.Model):
    host = models.CharField(max_length=200)
    port = models.IntegerField(default=587)
    user = models.CharField(max_length=200)
    password = models.CharField(max_length=200)
