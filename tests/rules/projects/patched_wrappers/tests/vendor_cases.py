# select: RES1
from unittest.mock import patch

from shop.vendors import metadata


async def test_the_client_is_replaced():
    # the shared client's method is a test double: nothing goes over the network
    with patch("shop.vendors.async_session.get"):
        assert await metadata("9780590353427", timeout=5.0)


async def test_the_wrapper_is_replaced():
    with patch("shop.vendors.metadata"):
        assert await metadata("9780590353427", timeout=5.0)


async def test_another_object_is_replaced():
    # (a literal timeout in test code is the test's own: RES103 leaves tests alone)
    with patch("shop.vendors.cache"):
        assert await metadata("9780590353427", timeout=None)  # expect: RES102
