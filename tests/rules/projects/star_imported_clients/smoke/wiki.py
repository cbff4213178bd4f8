from smoke.helper import *


def check_wiki_page():
    # ``requests`` comes from the star import
    assert requests.get(SERVER + "/general").ok  # expect: RES101 "imported through `smoke.helper`"


def check_bounded_page():
    assert requests.get(SERVER + "/general", timeout=10).ok


def check_unknown_name():
    # bound nowhere the project shows: nothing to say
    return httpclient.get(SERVER)
