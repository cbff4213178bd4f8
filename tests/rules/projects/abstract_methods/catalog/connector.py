from abc import ABC, abstractmethod

import requests
from django.db import transaction

from catalog.models import Author, Work


def fetch(url):
    return requests.get(url, timeout=5).json()


class Connector(ABC):
    """Each remote catalogue implements what it reads; the base writes the rows."""

    def import_work(self, data):
        with transaction.atomic():
            work = Work.objects.create(title=data["title"])
            # the base only declares it: every subclass's override may run here
            for name in self.authors_of(data):  # expect: RES301 "`OpenLibrary.authors_of`"
                work.authors.add(Author.objects.get_or_create(name=name)[0])
        return work

    def import_edition(self, data):
        with transaction.atomic():
            work = Work.objects.create(title=data["title"])
            # the base's own method decides what runs: the override that fetches is not it
            work.tags.set(self.tags_of(data))
        return work

    @abstractmethod
    def authors_of(self, data):
        """The names of the work's authors."""

    def tags_of(self, data):
        return [tag.lower() for tag in data.get("tags", [])]
