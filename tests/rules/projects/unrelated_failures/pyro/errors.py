# select: RES204
class RPCError(Exception):
    pass


class BadRequest(RPCError):
    pass


class AuthBytesInvalid(BadRequest):
    pass


class FloodWait(RPCError):
    pass
