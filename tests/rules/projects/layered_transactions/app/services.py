from app.repository import RecipeRepository


class RecipeService:
    def __init__(self, session):
        self.recipes = RecipeRepository(session)

    def update_one(self, recipe):
        # commits on the way (the repository's update), then does more
        updated = self.recipes.update(recipe)
        self.describe(updated)
        return updated

    def describe(self, recipe):
        return recipe.slug
