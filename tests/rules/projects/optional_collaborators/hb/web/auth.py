# select: RES201
from abc import ABC, abstractmethod


class AuthBase(ABC):
    @abstractmethod
    async def rest_authenticate(self, request):
        ...
