from django.db import models


class Product(models.Model):
    name = models.CharField(max_length=100)


class Engagement(models.Model):
    name = models.CharField(max_length=100)


class Note(models.Model):
    text = models.TextField()


class Address(models.Model):
    host = models.CharField(max_length=100)


class Tracked(models.Model):
    class Meta:
        abstract = True


class Subnet(Tracked):
    name = models.CharField(max_length=100)

    def assign_host(self, host):
        # creates the row in the model's own module, through the model's own manager
        return Address.objects.create(host=host)

    def split(self):
        # the manager of a model with an abstract base of the file: this model's rows
        return Subnet.objects.create(name=f"{self.name}/2")
