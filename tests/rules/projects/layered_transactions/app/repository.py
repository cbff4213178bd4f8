# select: RES301
from typing import Generic, TypeVar

from sqlalchemy import select

from app.models import Recipe

T = TypeVar("T")


class RecipeRepository:
    def __init__(self, session):
        self.session = session

    def get_one(self, slug):
        # its last query, on the caller's session, with no commit after: left open
        return self.session.execute(select(Recipe).where(Recipe.slug == slug)).scalars().one()

    def update(self, recipe):
        self.session.merge(recipe)
        self.session.commit()
        self.session.refresh(recipe)
        return recipe


class HttpRepo(Generic[T]):
    """A web layer over a repository: what the repository left open, it returns with."""

    def __init__(self, repo: "RecipeRepository"):
        self.repo = repo

    def get_one(self, slug):
        item = self.repo.get_one(slug)
        if not item:
            raise LookupError(slug)
        return item

    def get_one_and_release(self, slug):
        item = self.repo.get_one(slug)
        self.repo.session.commit()
        return item
