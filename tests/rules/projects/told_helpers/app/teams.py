import requests

from app.util import fetch_all, fetch_rest, retries_with_backoff


def repos(url):
    return fetch_all(url)


def members(url):
    return fetch_rest(url)


def sync(url):
    # retried only on a TypeError from a null in the answer: the loop's failures leave at once
    team_repos = retries_with_backoff(repos, TypeError, 5)(url)
    # retried on what the loop itself gives up with: up to 5 x 5 requests
    team_members = retries_with_backoff(members, requests.RequestException, 5)(url)
    return team_repos, team_members
