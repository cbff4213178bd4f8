from typing import Protocol

from sqlalchemy import create_engine, text
from sqlalchemy.orm import sessionmaker

from app.publishing import HttpArchiver, NullPublisher, PublisherLike, WebhookPublisher

Session = sessionmaker(bind=create_engine("postgresql://db/app"))


class ListenerBase:
    # annotated with a Protocol of another module: what the subclasses pass decides
    def __init__(self, publisher: PublisherLike) -> None:
        self.publisher = publisher

    def notify(self, urls):
        with Session() as session:
            rows = session.execute(text("select * from meals")).all()
            self.publisher.publish(rows, urls)  # expect: RES301


class WebhookListener(ListenerBase):
    def __init__(self) -> None:
        super().__init__(WebhookPublisher())


class Archiver(Protocol):
    def archive(self, rows): ...


class ArchiveListener:
    # a Protocol of this file says nothing of the object: its callers do
    def __init__(self, archiver: Archiver, publisher: PublisherLike) -> None:
        self.archiver = archiver
        self.publisher = publisher

    def store(self):
        with Session() as session:
            rows = session.execute(text("select * from meals")).all()
            self.archiver.archive(rows)  # expect: RES301
            self.publisher.publish(rows, [])


def build():
    return ArchiveListener(HttpArchiver(), NullPublisher())
