from django.db import models


class Product(models.Model):
    name = models.CharField(max_length=100)


class Engagement(models.Model):
    name = models.CharField(max_length=100)


class Note(models.Model):
    text = models.TextField()


class Address(models.Model):
    host = models.CharField(max_length=100)
