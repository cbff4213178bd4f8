"""A plain socket's ``connect``: without ``settimeout`` first it waits what the process-wide
``socket.setdefaulttimeout`` set, which is nothing unless something set it: the connect waits
for the kernel to give up (minutes), and every ``recv`` after it waits forever.

Judged only where the file shows the whole story: the socket is made in the function that
connects it (``sock = socket.socket(...)``, ``with socket.socket() as sock``,
``self.sock = socket.socket()``, ``socket.socket().connect(...)``, or a TLS socket wrapping
such a socket, whose timeout it takes), or by a function of the file that only makes and
returns it (``self.sock = self.create_socket()``), and between the two nothing sets its timeout
(``settimeout``, ``setblocking``) or hands it to other code that might. Datagram and Unix-domain sockets are left alone: a UDP ``connect`` sends nothing, and a
Unix socket is a local process, not a network dependency. A module that calls
``socket.setdefaulttimeout`` anywhere sets the default its sockets take.
"""

from __future__ import annotations

from typing import List, Optional

import libcst as cst

from resilint.lint.nodes import dotted_name, string_of
from resilint.lint.semantic import Binding, CallSite, FunctionInfo, SemanticModel

CONNECTS = frozenset({"socket.socket.connect", "socket.socket.connect_ex"})
# A TLS socket's methods resolve through what made it (``ssl.SSLContext.wrap_socket.connect``).
_WRAPPED = (".wrap_socket.connect", ".wrap_socket.connect_ex")
_SOCKET = "socket.socket"
# Methods that give the socket a timeout (or make it non-blocking) before it connects.
_TIMING = frozenset({"settimeout", "setblocking"})
_LOCAL_KINDS = ("SOCK_DGRAM", "AF_UNIX")


def connect_name(name: Optional[str]) -> Optional[str]:
    """The socket method ``name`` is, for messages (``ssl.SSLSocket.connect`` for a TLS
    socket), if it connects a socket; None otherwise."""
    if name in CONNECTS:
        return name
    if name is not None and name.endswith(_WRAPPED):
        return "ssl.SSLSocket." + name.rsplit(".", 1)[1]
    return None


def connects_untimed(model: SemanticModel, site: CallSite) -> bool:
    """Whether ``site`` (a ``connect`` of a plain socket) connects a socket this function made
    and gave no timeout, in a module that sets no process-wide default."""
    func = site.node.func
    if not isinstance(func, cst.Attribute) or _sets_process_default(model):
        return False
    receiver = func.value
    if to_own_listener(model, site):
        return False  # the address of a socket of this process (an emulated ``socketpair``)
    if isinstance(receiver, cst.Call):  # ``socket.socket().connect(...)``: nothing could set one
        return _made_here(model, receiver, site)
    return _untimed_until(model, receiver, site, site.order)


def to_own_listener(model: SemanticModel, site: CallSite) -> bool:
    """``csock.connect(lsock.getsockname())``, also through ``addr, port =
    lsock.getsockname()[:2]``: the address a socket of this process is bound to, which
    answers at once (or refuses): nothing to wait for on a network."""
    if not site.node.args or site.node.args[0].keyword is not None:
        return False
    address = site.node.args[0].value
    host = address.elements[0].value if isinstance(address, cst.Tuple) and address.elements else address
    if _bound_address(model, host, site):
        return True
    # ``("127.0.0.1", lsock.getsockname()[1])``: this machine, at the port the listener took
    port = address.elements[1].value if isinstance(address, cst.Tuple) and len(address.elements) == 2 else None
    return port is not None and string_of(host) in _LOOPBACK_HOSTS and _bound_address(model, port, site)


_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def _bound_address(model: SemanticModel, part: cst.BaseExpression, site: CallSite) -> bool:
    """Whether ``part`` is read off a socket's ``getsockname()``, also through a name."""
    source: Optional[cst.BaseExpression] = part
    if isinstance(part, cst.Name):
        binding = model.lookup(part.value, site.scope, site.order)
        source = binding.expr if binding is not None and binding.expr is not None else (
            binding.unpacked[0] if binding is not None and binding.unpacked is not None else None
        )
    while isinstance(source, cst.Subscript):
        source = source.value
    return (
        isinstance(source, cst.Call) and isinstance(source.func, cst.Attribute)
        and source.func.attr.value == "getsockname"
    )


def _untimed_until(
    model: SemanticModel, receiver: cst.BaseExpression, site: CallSite, order: int, wrapping: Optional[cst.Call] = None,
) -> bool:
    """Whether ``receiver`` holds a socket made in the function, untouched before ``order``
    (but for the ``wrapping`` call); a TLS socket wrapping one (``context.wrap_socket(raw)``)
    keeps the raw socket's timeout."""
    spelled = dotted_name(receiver)
    binding = _binding_of(model, receiver, site)
    made = (binding.expr or binding.entered) if binding is not None else None
    if spelled is None or binding is None or not isinstance(made, cst.Call):
        return False
    between = [
        c for c in model.calls_in(site.scope)
        if binding.order <= c.order < order and c.node is not made and c.node is not wrapping
    ]
    if any(_touches(call.node, spelled) for call in between):
        return False
    if _made_here(model, made, site) or _made_by_helper(model, made, site):
        return True
    wraps = (model.qualified_name(made.func, site.scope, site.order) or "").endswith(".wrap_socket")
    if not wraps or not made.args or made.args[0].keyword is not None or wrapping is not None:
        return False
    return _untimed_until(model, made.args[0].value, site, binding.order, made)


def _made_here(model: SemanticModel, made: cst.Call, site: CallSite) -> bool:
    """Whether ``made`` makes a network stream socket (``socket.socket(...)``)."""
    return model.qualified_name(made.func, site.scope, site.order) == _SOCKET and _stream(made)


def _stream(made: cst.Call) -> bool:
    """Whether the socket ``socket.socket(...)`` makes is a network stream socket (a kind
    joined with flags, ``SOCK_DGRAM | SOCK_NONBLOCK``, read part by part)."""
    spelled = [dotted_name(part) or "" for arg in made.args for part in _or_parts(arg.value)]
    return not any(text.endswith(kind) for text in spelled for kind in _LOCAL_KINDS)


def _or_parts(expr: cst.BaseExpression) -> List[cst.BaseExpression]:
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.BitOr):
        return _or_parts(expr.left) + _or_parts(expr.right)
    return [expr]


def _made_by_helper(model: SemanticModel, made: cst.Call, site: CallSite) -> bool:
    """Whether ``made`` calls a function of the file (``self.create_socket()``) that returns only
    network stream sockets it makes itself (``sock = socket.socket(...); return sock``) and gives
    no timeout."""
    helper = model.resolve(made.func, site.scope, site.order)
    if not isinstance(helper, FunctionInfo) or not helper.returns:
        return False
    inner = model.calls_in(helper.scope)
    for returned in helper.returns:
        if isinstance(returned, cst.Name):
            binding = model.lookup(returned.value, helper.scope, 1 << 62)
            if binding is None or binding.scope is not helper.scope or any(_touches(c.node, returned.value) for c in inner):
                return False
            returned = binding.expr
        if not isinstance(returned, cst.Call) or model.qualified_name(returned.func, helper.scope, 1 << 62) != _SOCKET:
            return False
        if not _stream(returned):
            return False
    return True


def _binding_of(model: SemanticModel, receiver: cst.BaseExpression, site: CallSite) -> Optional[Binding]:
    """The binding in the connecting function that made ``receiver``: a local, or an attribute
    of the instance the method sets itself."""
    if isinstance(receiver, cst.Name):
        found = model.lookup(receiver.value, site.scope, site.order)
        return found if found is not None and found.scope is site.scope else None
    function = site.scope.enclosing_function
    if (
        isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name) and function is not None
        and function.owner is not None
    ):
        here: List[Binding] = [
            b for b in function.owner.instance_attributes.get(receiver.attr.value, ())
            if b.scope is site.scope and b.order < site.order
        ]
        return max(here, key=lambda b: b.order) if here else None
    return None


def _touches(call: cst.Call, spelled: str) -> bool:
    """Whether ``call`` sets the socket's timeout or hands the socket on."""
    func = call.func
    if isinstance(func, cst.Attribute) and dotted_name(func.value) == spelled:
        return func.attr.value in _TIMING
    return any(dotted_name(arg.value) == spelled for arg in call.args)


def _sets_process_default(model: SemanticModel) -> bool:
    def compute() -> bool:
        return any(name == "socket.setdefaulttimeout" for _, name in model.iter_calls())

    return model.derived(_sets_process_default, compute)
