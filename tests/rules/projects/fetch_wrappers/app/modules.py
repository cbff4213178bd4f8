from app.lib import SpiderFoot


def search(sf: SpiderFoot, url, params):
    # the data it passes takes the POST branch: the message names the POST
    return sf.fetch_url(url, timeout=15, post_data=params)  # expect: RES103 "`requests.Session.post` has a hard-coded timeout `15`"


def lookup(sf: SpiderFoot, url):
    return sf.fetch_url(url, timeout=15)  # expect: RES103 "`requests.Session.get` has a hard-coded timeout `15`"
