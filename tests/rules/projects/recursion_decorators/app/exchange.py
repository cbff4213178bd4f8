# select: RES201, RES203, RES204
import httpx
import requests

from app.common import TemporaryError, retrier, retrier_async

URL = "https://exchange.example/api"


class Exchange:
    @retrier
    def fetch_fee(self):
        response = requests.get(f"{URL}/fee", timeout=5)
        if response.status_code >= 500:
            raise TemporaryError(response.text)
        return response.json()

    @retrier(retries=0)
    def create_order(self, pair):
        fee = self.fetch_fee()  # one attempt around it: nothing multiplies
        return requests.post(f"{URL}/order", json={"pair": pair, "fee": fee}, timeout=5)

    @retrier(retries=2)
    def refresh(self):
        return self.fetch_fee()  # expect: RES204 "3 attempts (app/common.py:29) x a retry by recursion 5 attempts (app/common.py:29) = up to 15 calls"

    @retrier_async
    async def fetch_ticker(self):
        async with httpx.AsyncClient(timeout=5) as client:
            response = await client.get(f"{URL}/ticker")
        if response.status_code >= 500:
            raise TemporaryError(response.text)
        return response.json()

    @retrier
    def ticker_now(self):
        import asyncio

        return asyncio.run(self.fetch_ticker())  # expect: RES204 "5 attempts (app/common.py:29) x a retry by recursion 5 attempts (app/common.py:50) = up to 25 calls"
