import requests

from app.db import find_user, page_of, safe_query, save_to_db
from app.files import resized_image
from app.helpers import audit, flash_error, log
from app.models import User


def resize_user_images_task(user_id, image_url):
    user = safe_query(User, "id", user_id)
    user.avatar_url = resized_image(image_url)  # expect: RES301 "that `safe_query()` left open"
    save_to_db(user)


def listing(request, user):
    page = page_of(request)
    user.avatar_url = requests.get(f"https://example.com/{page}", timeout=5).text
    save_to_db(user)


def refresh_avatar_task(user_id, image_url):
    user = find_user(user_id)
    user.avatar_url = resized_image(image_url)  # expect: RES301 "that `find_user()` left open"
    save_to_db(user)


def oauth_avatar(state, expected, user_id, image_url):
    # the project calls of a branch that returns hold nothing after it, and leave room for
    # the helper that does
    if state != expected:
        log("state mismatch")
        flash_error("state mismatch")
        audit("state mismatch")
        return "redirect"
    user = find_user(user_id)
    user.avatar_url = resized_image(image_url)  # expect: RES301 "that `find_user()` left open"
    save_to_db(user)
    return "ok"
