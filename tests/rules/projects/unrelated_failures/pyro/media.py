from .errors import AuthBytesInvalid, RPCError
from .session import Session


def import_authorization(client, dc_id):
    # goes round only on a refusal the session never gives up with: no nested retry
    session = Session()
    for _ in range(3):
        exported = client.export_authorization(dc_id)
        try:
            return session.invoke(("ImportAuthorization", exported))
        except AuthBytesInvalid:
            continue
    raise AuthBytesInvalid()


def export_media(dc_id):
    # a base of what the session gives up with: each of these passes retries the session's retries
    session = Session()
    for _ in range(3):
        try:
            return session.invoke(("ExportMedia", dc_id))  # expect: RES204 "= up to 15 calls"
        except RPCError:
            continue
    raise RuntimeError(dc_id)
