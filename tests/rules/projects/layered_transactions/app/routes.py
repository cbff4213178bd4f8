import httpx

from app.models import Recipe
from app.repository import HttpRepo, RecipeRepository
from app.services import RecipeService

IMAGE_TIMEOUT = httpx.Timeout(10, connect=2)


def route(function):
    return function


class RecipeController:
    def __init__(self, session):
        self.session = session
        self.service = RecipeService(session)

    @property
    def mixins(self):
        return HttpRepo[Recipe](RecipeRepository(self.session))

    @route
    def scrape_image(self, slug, url):
        recipe = self.mixins.get_one(slug)
        response = httpx.get(url, timeout=IMAGE_TIMEOUT)  # expect: RES301 "`self.mixins.get_one()` left open"
        recipe.image = response.content
        self.service.update_one(recipe)

    def scrape_image_released(self, slug, url):
        recipe = self.mixins.get_one_and_release(slug)  # commits before it returns
        response = httpx.get(url, timeout=IMAGE_TIMEOUT)
        recipe.image = response.content
        self.service.update_one(recipe)

    def scrape_image_never_ended(self, slug, url):
        recipe = self.mixins.get_one(slug)
        response = httpx.get(url, timeout=IMAGE_TIMEOUT)  # nothing here ends it: not followed
        recipe.image = response.content
        self.service.describe(recipe)

    def update_then_fetch(self, slug, url):
        recipe = self.mixins.get_one(slug)
        self.service.update_one(recipe)  # ends the transaction before the request
        httpx.get(url, timeout=IMAGE_TIMEOUT)
