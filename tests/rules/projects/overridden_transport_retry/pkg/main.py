# select: RES201
from pkg.client import Session
from pkg.transport.aiohttp_transport import AIOHTTPTransport


async def main():
    session = Session(AIOHTTPTransport("https://api.example.com/graphql"))
    return await session.execute("mutation { sendMessage(message: \"hi\") }")
