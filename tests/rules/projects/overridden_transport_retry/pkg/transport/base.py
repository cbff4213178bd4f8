import abc


class AsyncTransport(abc.ABC):
    @abc.abstractmethod
    async def execute(self, document):
        raise NotImplementedError
