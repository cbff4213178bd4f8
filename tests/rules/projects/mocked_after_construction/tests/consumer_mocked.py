# select: RES102
import responses

import pkg


def test_built_before_the_mock():
    consumer = pkg.Consumer(api_host="api-other.example.com")

    with responses.RequestsMock() as rsps:
        rsps.add(responses.POST, "https://api-other.example.com/track", json={"status": 1})
        consumer.send("x")


def test_one_request_outside_the_mock():
    consumer = pkg.Consumer(api_host="api-other.example.com")  # expect: RES102
    consumer.send("warm-up")
    with responses.RequestsMock() as rsps:
        rsps.add(responses.POST, "https://api-other.example.com/track", json={"status": 1})
        consumer.send("x")


def test_handed_to_a_helper(send_all):
    consumer = pkg.Consumer(api_host="api-other.example.com")  # expect: RES102
    with responses.RequestsMock():
        send_all(consumer)
