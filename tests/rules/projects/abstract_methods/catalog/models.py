from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=200)


class Work(models.Model):
    title = models.CharField(max_length=200)
    authors = models.ManyToManyField(Author)
