"""DB scopes: the code during which a database connection is held, often with a transaction
and row locks, for RES301 (connection-held-across-call).

A scope is one of:

* a block: a ``with`` item that opens a transaction or checks a connection out
  (``transaction.atomic()``, ``session.begin()``, ``engine.begin()``, ``pool.acquire()``,
  ``conn.transaction()``, psycopg2's ``with conn:``), or one that holds a connection once work
  runs through the name it binds (``with Session(engine) as s:`` from the first ``s.execute``);
* a decorated function (``@transaction.atomic``): every call of its body;
* an implicit transaction: from the first query through a SQLAlchemy/Flask-SQLAlchemy session
  or a DB-API cursor to the next ``commit()``/``rollback()``/``close()``/``remove()``, in the
  order the statements are written;
* a candidate: a ``with`` item calling something the file cannot tell about
  (``with traced_atomic_transaction():`` imported from another module). The project pass
  decides: it is a scope when that function is a ``@contextmanager`` that yields inside a
  scope. Decorators the file cannot tell about are in the function summary already.

Calls inside a ``lambda`` or a nested ``def`` are not covered: they run when (if) that function
is called, not when the block runs.

One module per library (``django``, ``sqlalchemy``, ``dbapi``, ``asyncpg``), plus ``deferral``
(``on_commit``, task queues, executors) and ``model`` (the values they return).
``db_scopes(model)`` is memoised per model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from resilint.libraries.db_scopes import asyncpg, dbapi, django, sqlalchemy
from resilint.libraries.db_scopes.deferral import defers, defers_in_transaction, defers_when_it_can, scheduled_coroutines
from resilint.libraries.db_scopes.model import POOLED_CONNECTION, TRANSACTION, Opening, Receiver, method_of, receiver_of, spelled
from resilint.lint.nodes import DEFINITIONS, TRIES, code_of, dotted_name, last_name, parameter_names
from resilint.lint.modules import STANDARD_LIBRARY, library_names
from resilint.lint.semantic import CallSite, ClassInfo, FunctionInfo, Instance, QName, Scope, SemanticModel
from resilint.lint.traversal import iter_nodes

__all__ = [
    "DB_SCOPE_TRIGGERS", "SCOPE_CLASSES", "DbScopes", "HeldScope", "db_scopes", "defers", "enclosing_lambda", "runs_later", "scheduled_coroutines",
]

_LIBRARIES = (django, sqlalchemy, dbapi, asyncpg)
# The library classes whose instances are a scope a ``with`` enters: a project class derived
# from one is a scope too, which the project pass tells (its base class lies in another file).
SCOPE_CLASSES = django.SCOPE_CLASSES
# Every name that opens a DB scope: a file mentioning none of them opens none (the prefilter).
# A project wrapper (``traced_atomic_transaction``) mentions ``atomic`` where it is defined; its
# callers are judged through their summaries.
DB_SCOPE_TRIGGERS: Tuple[str, ...] = tuple(sorted({t for lib in _LIBRARIES for t in lib.TRIGGERS}))
_SKIPPED = ("builtins.",)
_INNERMOST = 1 << 30  # implicit transactions sit inside every block around them
_MAX_CANDIDATES = 3  # calls before a commit that may have left its transaction open


def _other_package(target: object) -> bool:
    """Whether a call's callee is a function of a module imported by its absolute name from
    outside the standard library and the libraries the rules know: it may be another package
    of the same project (``ckanext`` calling ``ckan.model``), which the project pass tells."""
    if not isinstance(target, QName):
        return False
    top = target.name.split(".", 1)[0]
    return "." in target.name and top not in STANDARD_LIBRARY and top not in library_names()


@dataclass(eq=False)
class HeldScope:
    opening: Opening
    node: cst.CSTNode  # where it is: the ``with`` item, the decorator, the query that began it
    function: Optional[FunctionInfo]
    covered: List[CallSite]
    depth: int  # outer scopes have smaller depths
    via: Optional[str] = None  # a candidate: the project function it calls
    whole_function: bool = False
    locks: bool = False  # ``select_for_update()`` / ``with_for_update()`` runs in it
    yields: bool = False  # a generator yields inside it (a ``@contextmanager`` provider)
    wraps: bool = False  # it covers a call of the function being decorated
    # the first query sent through an object opened it (``node``): "driver" when the object is
    # known to be a DB-API driver's, "named" when only its name says so
    implicit: str = ""
    # of an implicit transaction: the queries after the first, each of which begins a new one
    # if a project function called before it ended the transaction (the project pass tells)
    queries: List[CallSite] = field(default_factory=list)


@dataclass
class DbScopes:
    scopes: List[HeldScope] = field(default_factory=list)
    deferring: List[FunctionInfo] = field(default_factory=list)  # defer in a transaction
    # Functions whose last act ends the implicit transaction they query in, by id: "." when
    # they do it themselves, else the call (of another function) that may.
    commits: Dict[int, Union[str, cst.Call]] = field(default_factory=dict)
    # Of those that do it themselves, the statement's call that commits (what the function
    # calls after it runs outside that transaction).
    commit_calls: Dict[int, cst.Call] = field(default_factory=dict)
    # Functions that return with their last implicit transaction still open, by id: its start.
    left_open: Dict[int, cst.Call] = field(default_factory=dict)
    # Functions whose last query goes through a parameter's ``.query`` (``model.query.get(id)``),
    # by id: that parameter (open when callers hand it a model class: the project pass tells).
    left_open_by: Dict[int, str] = field(default_factory=dict)
    # Per function: the project calls after its last commit that may leave a transaction open
    # for it to return with (the project pass tells).
    open_through: Dict[int, List[cst.Call]] = field(default_factory=dict)
    # Functions that end their implicit transaction on the way (outside a branch or a loop).
    commits_within: Set[int] = field(default_factory=set)


def db_scopes(model: SemanticModel) -> DbScopes:
    """Every DB scope of the file (computed once per model)."""
    return model.derived(db_scopes, lambda: _Finder(model).run())


class _Finder:
    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.found = DbScopes()
        # Per enclosing function (None: module level), the calls it makes itself, in order.
        self.sites: Dict[Optional[int], List[CallSite]] = {}
        self.site_of: Dict[int, CallSite] = {}
        self.withs: Dict[int, Tuple[cst.With, int, Optional[FunctionInfo], CallSite]] = {}
        # Calls in the body of a recognised block: its end commits or gives the connection back,
        # so a query there begins no transaction that outlives the block.
        self.in_blocks: Set[int] = set()
        self.with_items: Set[int] = set()  # calls that a ``with`` enters
        # id(block) → the first call after it in its function (``_left_behind``)
        self._first_outside: Dict[int, Tuple[Optional[CallSite]]] = {}
        imported = [b.imported for bindings in model.module_scope.bindings.values() for b in bindings if b.imported]
        # A cursor the file cannot trace (a parameter) comes from the one DB-API driver it imports.
        self.sole_driver = dbapi.sole_driver(imported)
        for site in model.calls:
            self.site_of[id(site.node)] = site
            for index, node in enumerate(site.stack):
                if node.__class__ is cst.With and id(node) not in self.withs:
                    self.withs[id(node)] = (node, index, _function_at(model, site.stack[:index]), site)
            if runs_later(site):
                continue
            function = site.scope.enclosing_function
            self.sites.setdefault(id(function) if function is not None else None, []).append(site)

    def run(self) -> DbScopes:
        for with_node, depth, function, first in self.withs.values():
            self._with(with_node, depth, function, first)
        for info in self.model.functions:
            self._decorators(info)
        for key, sites in self.sites.items():
            self._implicit(sites, self.in_blocks)
        text = self.model.text
        asks_transaction = text is None or "in_atomic_block" in text
        self.found.deferring = [
            info for info in self.model.functions
            if isinstance(info.node, cst.FunctionDef)
            and ((asks_transaction and defers_in_transaction(info.node)) or defers_when_it_can(info.node, self._hands_over))
        ]
        for info in self.model.functions:
            last = self._last_commit(info)
            if last is not None:
                self.found.commits[id(info)] = last
        for scope in self.found.scopes:
            scope.locks = any(_locks(site.node) for site in scope.covered)
            scope.wraps = any(self._calls_wrapped(site) for site in scope.covered)
        return self.found

    # --- blocks ------------------------------------------------------------------------------

    def _with(self, node: cst.With, depth: int, function: Optional[FunctionInfo], first: CallSite) -> None:
        scope = function.scope if function is not None else self.model.module_scope
        in_items = {id(n) for item in node.items for n in iter_nodes(item.item) if isinstance(n, cst.Call)}
        self.with_items.update(id(item.item) for item in node.items)
        body = [
            site for site in self.sites.get(id(function) if function is not None else None, ())
            if id(site.node) not in in_items and any(n is node for n in site.stack)
        ]
        yields = any(isinstance(n, (cst.Yield,)) for n in iter_nodes(node.body, stop_at=DEFINITIONS))
        for item in node.items:
            # ``with reuse(conn) if conn else connect() as c:``: what either side opens is held
            entered = (item.item.body, item.item.orelse) if isinstance(item.item, cst.IfExp) else (item.item,)
            for expr in entered:
                opening, via = self._opening(expr, scope, first.order)
                if opening is None:
                    continue
                covered = body
                if via is None:
                    self.in_blocks.update(id(site.node) for site in body)
                if opening.until_first_use:
                    bound = item.asname.name if item.asname is not None else None
                    if not isinstance(bound, cst.Name):
                        continue
                    covered = [s for _, span in _spans(body, _through(bound.value, sqlalchemy.QUERIES),
                                                       _through(bound.value, sqlalchemy.ENDS)) for s in span]
                self.found.scopes.append(HeldScope(opening, expr, function, covered, depth, via=via, yields=yields))

    def _opening(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Tuple[Optional[Opening], Optional[str]]:
        model = self.model
        if not isinstance(expr, cst.Call):
            kind = model.type_name(model.resolve(expr, scope, order))
            return dbapi.entered(kind, code_of(expr)), None
        receiver = self._receiver(expr, scope, order)
        for library in _LIBRARIES:
            opening = library.opening(expr, receiver)
            if opening is not None:
                return opening, None
        # ``with replica_conn() as conn:`` where the file shows that the call returns a connection
        entered = dbapi.entered(model.type_name(model.resolve(expr, scope, order)), code_of(expr))
        if entered is not None:
            return entered, None
        name = receiver.name
        if name is not None and not name.startswith(_SKIPPED):
            return Opening(spelled(expr), TRANSACTION), name  # judged in the project pass
        return None, None

    def _receiver(self, call: cst.Call, scope: Scope, order: int) -> Receiver:
        model = self.model
        site = self.site_of.get(id(call))
        if site is not None:
            scope, order = site.scope, site.order
        func = call.func
        owner = func.value if isinstance(func, cst.Attribute) else func
        kind = model.type_name(model.resolve(owner, scope, order))
        if kind is None:
            # an object the file names only through a subscript: ``connections["replica"].cursor()``
            # is Django's, whatever the alias
            kind = next((model.type_name(v) for v in model.resolve_all(owner, scope, order) if isinstance(v, Instance)), None)
        name = model.qualified_name(func, scope, order)
        if name is None and self.sole_driver is not None and (kind is None or ".(" in kind):
            kind = self.sole_driver  # nothing known, or only what a parameter's ``cursor()`` returns
        made_by = None
        if any(n is not None and n.startswith(dbapi.AUTOCOMMIT) for n in (name, kind)):
            made_by = self._connect_call(owner, scope, order)
        return receiver_of(call, name, kind, made_by, self._maker_name(owner, scope, order))

    def _maker_name(self, owner: cst.BaseExpression, scope: Scope, order: int) -> str:
        """The last name of the call a local receiver holds the result of (``db = SessionLocal()``,
        ``with SessionLocal() as db:``)."""
        if not isinstance(owner, cst.Name):
            return ""
        binding = self.model.lookup(owner.value, scope, order)
        made = (binding.expr or binding.entered) if binding is not None else None
        return (last_name(made.func) or "") if isinstance(made, cst.Call) else ""

    def _connect_call(self, owner: cst.BaseExpression, scope: Scope, order: int) -> Optional[cst.Call]:
        """The call that made the connection behind ``owner`` (a cursor or the connection):
        ``cur = conn.cursor()`` after ``conn = connect(...)``."""
        for _ in range(3):
            made = self.model.followed(owner, scope, order)
            if not isinstance(made, cst.Call):
                return None
            if not (isinstance(made.func, cst.Attribute) and made.func.attr.value == "cursor"):
                return made
            owner = made.func.value
        return None

    # --- decorated functions -------------------------------------------------------------------

    def _hands_over(self, call: cst.Call) -> bool:
        site = self.site_of.get(id(call))
        return site is not None and defers(self.model.qualified_name(call.func, site.scope, site.order))

    def _decorators(self, info: FunctionInfo) -> None:
        outer = info.scope.parent or info.scope
        for decorator in info.decorators:
            expr = decorator.decorator
            target = expr.func if isinstance(expr, cst.Call) else expr
            name = self.model.qualified_name(target, outer, 1 << 62)
            opening = django.decorator(name, dotted_name(target) or "atomic")
            if opening is not None:
                covered = list(self.sites.get(id(info), ()))
                self.found.scopes.append(HeldScope(opening, decorator, info, covered, -1, whole_function=True))

    # --- implicit transactions -----------------------------------------------------------------

    def _implicit(self, sites: List[CallSite], blocks: Set[int]) -> None:
        families = (
            (sqlalchemy.IMPLICIT_METHODS, sqlalchemy.starts_implicit, sqlalchemy.ends_implicit, TRANSACTION),
            (dbapi.WORK_METHODS, dbapi.starts_work, dbapi.ends_work, TRANSACTION),
            (asyncpg.CHECKOUT_METHODS, asyncpg.checks_out, asyncpg.checks_in, POOLED_CONNECTION),
        )
        for methods, starts, ends, holds in families:
            # Receivers are resolved only for the calls whose method could matter.
            def begins(site: CallSite, starts: Callable[..., bool] = starts, methods: frozenset = methods) -> bool:
                return (method_of(site.node) in methods and id(site.node) not in blocks
                        and id(site.node) not in self.with_items
                        and starts(site.node, self._receiver(site.node, site.scope, site.order)))

            def ends_here(site: CallSite, ends: Callable[..., bool] = ends, methods: frozenset = methods) -> bool:
                return method_of(site.node) in methods and ends(site.node, self._receiver(site.node, site.scope, site.order))

            def closes(site: CallSite, ends_here: Callable[[CallSite], bool] = ends_here) -> bool:
                if ends_here(site):
                    return True
                # ``self.sql_close()``, a helper of the file that only commits (or closes): one
                # that does more may do it inside the transaction, before its commit
                helper = self.model.resolve(site.node.func, site.scope, site.order)
                if not isinstance(helper, FunctionInfo):
                    return False
                inner = self.model.calls_in(helper.scope)
                return any(ends_here(s) for s in inner) and all(ends_here(s) or method_of(s.node) == "close" for s in inner)

            spans = _spans(sites, begins, closes)
            if starts is sqlalchemy.starts_implicit and sites:
                self._left_open(sites, spans, ends_here)
                self._left_open_by(sites, ends_here)
                self._after_calls(sites, spans, ends_here)
            for start, covered in spans:
                if starts is sqlalchemy.starts_implicit:
                    covered = _within_app_context(start, covered)
                elif starts is dbapi.starts_work:
                    block = self._entering_block(start)
                    if block is not None:
                        covered = [site for site in covered if any(node is block for node in site.stack)]
                function = start.scope.enclosing_function
                text = dotted_name(start.node.func) or "query"
                began = "the transaction that" if holds == TRANSACTION else "the connection that"
                opening = Opening(f"{began} `{text}()` {'began' if holds == TRANSACTION else 'checked out'}", holds)
                receiver = self._receiver(start.node, start.scope, start.order)
                implicit = "named" if starts is dbapi.starts_work and not dbapi.is_driver(receiver) else "driver"
                queries = [site for site in covered if begins(site)]
                self.found.scopes.append(HeldScope(opening, start.node, function, covered, _INNERMOST, implicit=implicit, queries=queries))

    def _left_open(self, sites: List[CallSite], spans: List[Tuple[CallSite, List[CallSite]]], ends_here: Callable[[CallSite], bool]) -> None:
        """A function whose last implicit transaction is still open when it returns, on a session
        that outlives it (a model's ``.query``, ``db.session``, ``self.session``, a parameter;
        not one it made itself): its callers go on inside that transaction."""
        function = sites[0].scope.enclosing_function
        if function is None or not spans:
            return
        start, _ = spans[-1]
        if any(ends_here(site) for site in sites if site.order > start.order):
            return
        if _branched(start):
            return
        root = start.node.func
        while isinstance(root, (cst.Attribute, cst.Call)):
            root = root.value if isinstance(root, cst.Attribute) else root.func
        binding = self.model.lookup(root.value, start.scope, start.order) if isinstance(root, cst.Name) else None
        if binding is None or (binding.scope is start.scope and binding.expr is not None):
            return  # a session made here (or a name we cannot trace)
        self.found.left_open[id(function)] = start.node

    def _left_open_by(self, sites: List[CallSite], ends_here: Callable[[CallSite], bool]) -> None:
        """A function whose last query is a model's ``.query`` on one of its parameters
        (``model.query.filter(...).one()``, nothing ending it after): it leaves that model's
        transaction open if its callers hand it a model class."""
        function = sites[0].scope.enclosing_function
        if function is None or id(function) in self.found.left_open:
            return
        owners = [(site, sqlalchemy.model_query_owner(site.node)) for site in sites]
        if not any(owner for _, owner in owners):
            return
        for site, owner in sorted(owners, key=lambda pair: pair[0].order, reverse=True):
            if ends_here(site):
                return
            if owner is None:
                continue
            binding = self.model.lookup(owner, site.scope, site.order)
            if binding is not None and binding.parameter is not None and binding.scope is site.scope and not _branched(site):
                self.found.left_open_by[id(function)] = owner
            return

    def _after_calls(self, sites: List[CallSite], spans: List[Tuple[CallSite, List[CallSite]]], ends_here: Callable[[CallSite], bool]) -> None:
        """Candidate transactions a function commits without opening them itself: from a call
        of a project function (which may leave one open: the project pass tells) to the next
        commit of the function, for the first few such calls before each commit. The first one
        after its last commit (or in a function that commits nowhere itself) reaches to its end,
        ``implicit="until"``: a later call of a function that commits ends them, if the project
        pass finds one (``self.service.update_one(recipe)`` committing the repository's session)."""
        function = sites[0].scope.enclosing_function
        if function is None:
            return
        ordered = sorted(sites, key=lambda s: s.order)
        inside = {id(site.node) for start, covered in spans for site in (start, *covered)}
        top = self.model.module_name.split(".", 1)[0]
        pending: List[CallSite] = []
        decorators = {id(decorator.decorator) for decorator in function.decorators}

        def held_from(candidate: CallSite, end: Optional[CallSite], implicit: str) -> None:
            left = _left_branches(candidate)
            covered = [
                s for s in sites
                if candidate.order < s.order and (end is None or s.order < end.order) and _runs_after(left, s)
            ]
            # open to the end: a call to hold and a later one to end it
            if len(covered) >= (1 if end is not None else 2):
                text = dotted_name(candidate.node.func) or "call"
                opening = Opening(f"the transaction that `{text}()` left open", TRANSACTION)
                self.found.scopes.append(HeldScope(opening, candidate.node, function, covered, _INNERMOST, implicit=implicit))

        # Calls of the file's own package come first; those of other packages (which may be the
        # project's, or a library's: ``click.echo``) are kept apart, so that they crowd out none.
        foreign: List[CallSite] = []
        behind: List[CallSite] = []  # in a branch that returns or raises: they hold nothing after it
        for index, site in enumerate(ordered):
            if ends_here(site):
                if not _in_block(site, allowed=(cst.Try,)):
                    self.found.commits_within.add(id(function))
                for candidate in pending + foreign + behind:
                    held_from(candidate, site, "after")
                pending, foreign, behind = [], [], []
                continue
            if id(site.node) in inside or _query_chain(site.node) or id(site.node) in decorators:
                continue
            target = self.model.resolve(site.node.func, site.scope, site.order)
            name = self.model.qualified_name(site.node.func, site.scope, site.order) or ""
            if method_of(site.node) in sqlalchemy.IMPLICIT_METHODS and "(" in name:
                continue  # ``session.execute(...)`` on a parameter: a query, judged as one
            # a project method named like a session's (a repository's ``get_one``) is the project's
            own = isinstance(target, (FunctionInfo, ClassInfo)) or (top and name.split(".", 1)[0] == top)
            if not own and not _other_package(target):
                continue
            if len(pending) + len(foreign) + len(behind) >= 3 * _MAX_CANDIDATES:
                continue
            if self._left_behind(site, ordered, index + 1):
                # ``if bad_state: log(...); return redirect(...)``: spends none of the window
                if len(behind) < _MAX_CANDIDATES:
                    behind.append(site)
            elif own:
                if len(pending) < _MAX_CANDIDATES:
                    pending.append(site)
            elif len(foreign) < _MAX_CANDIDATES:
                foreign.append(site)
        # (the first of its own package: a scope to the end over every call after it costs; each
        # of another package, where the file cannot tell which one holds the session)
        for candidate in pending[:1] + foreign:
            held_from(candidate, None, "until")
        pending = sorted(pending + foreign, key=lambda site: site.order)
        plain = [candidate.node for candidate in pending if not _in_block(candidate)]
        if plain and id(function) not in self.found.left_open:
            self.found.open_through[id(function)] = plain

    def _left_behind(self, site: CallSite, ordered: List[CallSite], later: int) -> bool:
        """Whether ``site`` is in a block that returns or raises after it: the first call of
        ``ordered`` from index ``later`` on outside that block does not run after it."""
        block = next((node for node in reversed(site.stack) if isinstance(node, (cst.If, cst.For, cst.While, cst.With))), None)
        if block is None:
            return False
        known = self._first_outside.get(id(block))
        if known is None:
            # the calls in the block come first, so the first outside it is the same for each
            outside = next((other for other in islice(ordered, later, None) if not any(node is block for node in other.stack)), None)
            self._first_outside[id(block)] = (outside,)
        else:
            outside = known[0]
        return outside is not None and not _reaches(site, outside)

    def _last_commit(self, info: FunctionInfo) -> Optional[Union[str, cst.Call]]:
        """"." when the last statement of ``info`` (before a ``return`` that calls nothing; in a
        ``try`` whose handlers roll back) ends a SQLAlchemy session's transaction or a DB-API
        connection's; the call of that statement when it calls something else, which the
        project pass may find does; None otherwise."""
        node = info.node
        if not isinstance(node, cst.FunctionDef) or not isinstance(node.body, cst.IndentedBlock):
            return None
        found = self._last_statement_commit(info, node)
        # calling a generator runs none of its body (``committing_iterator(users)`` commits
        # between the items its caller's loop body handles, not before the loop)
        if found is not None and any(n.__class__ is cst.Yield for n in iter_nodes(node.body, stop_at=DEFINITIONS)):
            return None
        return found

    def _last_statement_commit(self, info: FunctionInfo, node: cst.FunctionDef) -> Optional[Union[str, cst.Call]]:
        body = list(node.body.body)
        while body and _returns_plainly(body[-1]):
            body.pop()
        if body and isinstance(body[-1], cst.Try):
            body = list(body[-1].body.body)
        # the commit, then nothing that queries again (``if success: log.info(success)``)
        for index in range(len(body) - 1, -1, -1):
            call = _statement_call(body[index])
            site = self.site_of.get(id(call)) if call is not None else None
            if call is not None and site is not None and self._ends(call, site):
                after = body[index + 1:]
                if any(_queries(n) for statement in after for n in iter_nodes(statement)):
                    return None
                if _shared_session(call, node):
                    self.found.commit_calls[id(info)] = call
                return "."
        call = _statement_call(body[-1]) if body else None
        site = self.site_of.get(id(call)) if call is not None else None
        if site is None or call is None or (self.model.qualified_name(call.func, site.scope, site.order) or "").startswith("builtins."):
            return None
        return call

    def _ends(self, call: cst.Call, site: CallSite) -> bool:
        method = method_of(call)
        if method not in sqlalchemy.ENDS | dbapi.WORK_METHODS:
            return False
        receiver = self._receiver(call, site.scope, site.order)
        return sqlalchemy.ends_implicit(call, receiver) or (method in dbapi.WORK_METHODS and dbapi.ends_work(call, receiver))

    def _entering_block(self, start: CallSite) -> Optional[cst.With]:
        """The ``with`` around ``start`` whose item gave the cursor it sends SQL through, or
        the connection that cursor came from (``with db.read_ctx() as cursor:``, ``with
        psycopg2.connect() as conn:``): the context manager ends that work with the block
        (commits, or gives the connection back). Not a DB-API ``cursor()`` item, whose end
        closes the cursor and leaves its transaction open."""
        func = start.node.func
        expr = func.value if isinstance(func, cst.Attribute) else None
        for _ in range(3):
            if isinstance(expr, cst.Call) and method_of(expr) == "cursor" and isinstance(expr.func, cst.Attribute):
                expr = expr.func.value  # ``conn.cursor().execute(...)``: the connection's block
                continue
            if not isinstance(expr, cst.Name):
                return None
            name = expr.value
            block, made = next((
                (node, item.item) for node in reversed(start.stack) if isinstance(node, cst.With) for item in node.items
                if item.asname is not None and isinstance(item.asname.name, cst.Name) and item.asname.name.value == name
            ), (None, None))
            if block is None:
                binding = self.model.lookup(name, start.scope, start.order)
                made = binding.expr if binding is not None else None
            if isinstance(made, cst.Call) and method_of(made) == "cursor" and isinstance(made.func, cst.Attribute):
                expr = made.func.value
                continue
            return block
        return None

    def _calls_wrapped(self, site: CallSite) -> bool:
        """``fn(*args)`` where ``fn`` is a parameter of an enclosing function: the decorated one."""
        func = site.node.func
        if not isinstance(func, cst.Name):
            return False
        binding = self.model.lookup(func.value, site.scope, site.order)
        owner = binding.scope.function if binding is not None else None
        if binding is None or owner is None or owner is site.scope.enclosing_function:
            return False
        if binding.expr is not None or binding.entered is not None or binding.imported or binding.defined:
            return False
        return isinstance(owner.node, cst.FunctionDef) and func.value in parameter_names(owner.node.params)


def _in_block(site: CallSite, allowed: Tuple[type, ...] = ()) -> bool:
    """Whether ``site`` is in a block or a branch of its function (a ``with``, an ``if``, a
    loop, a ``try``), but for the ``allowed`` kinds."""
    return any(
        isinstance(node, (cst.With, cst.If, cst.For, cst.While, cst.Try)) and not isinstance(node, allowed)
        for node in site.stack if not isinstance(node, (cst.FunctionDef, cst.Module, cst.ClassDef))
    )


def _branched(site: CallSite) -> bool:
    """Whether ``site`` runs on some paths of its function only, so that whether what it began
    is still open at the end cannot be said (a ``try`` body's query began it whether it then
    raised or not; a handler's runs only on a failure)."""
    return _in_block(site, allowed=(cst.Try,)) or any(isinstance(node, cst.ExceptHandler) for node in site.stack)


def _query_chain(call: cst.Call) -> bool:
    """``User.query.filter_by(...)``, ``session.query(X).first()``: a step of a query, not a
    project function (a repository's ``repo.get_one(slug)`` is one, whatever its name)."""
    if method_of(call) not in sqlalchemy.IMPLICIT_METHODS:
        return False
    receiver = call.func.value  # type: ignore[attr-defined]
    while isinstance(receiver, (cst.Attribute, cst.Call)):
        step = receiver.attr.value if isinstance(receiver, cst.Attribute) else method_of(receiver)
        if step in sqlalchemy.IMPLICIT_METHODS:
            return True
        receiver = receiver.value if isinstance(receiver, cst.Attribute) else receiver.func
    return False


def _returns_plainly(statement: cst.CSTNode) -> bool:
    """``return`` of nothing, or of a value computed without a call."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    return isinstance(small, cst.Return) and (small.value is None or not any(isinstance(n, cst.Call) for n in iter_nodes(small.value)))


def _queries(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) and method_of(node) in sqlalchemy.IMPLICIT_METHODS | dbapi.WORK_METHODS


def _shared_session(commit: cst.Call, function: cst.FunctionDef) -> bool:
    """Whether the session a commit ends is one its callers share: a module's (``db.session``)
    or the one a caller hands over (``def apply(db): ...; db.commit()``), not one kept by the
    function's object or another parameter's (``self.app_db_session``,
    ``exporter.session``), which may be another session than the one its caller holds."""
    receiver = commit.func.value if isinstance(commit.func, cst.Attribute) else None
    if isinstance(receiver, cst.Name):
        return True
    while isinstance(receiver, (cst.Attribute, cst.Call)):
        receiver = receiver.value if isinstance(receiver, cst.Attribute) else receiver.func
    return isinstance(receiver, cst.Name) and receiver.value not in parameter_names(function.params)


def _statement_call(statement: Optional[cst.CSTNode]) -> Optional[cst.Call]:
    """The call a simple statement makes as a whole (``s.commit()``, ``x = helper()``)."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    value = small.value if isinstance(small, (cst.Expr, cst.Assign, cst.Return)) else None
    if isinstance(value, cst.Await):
        value = value.expression
    return value if isinstance(value, cst.Call) else None


def _function_at(model: SemanticModel, stack: Tuple[cst.CSTNode, ...]) -> Optional[FunctionInfo]:
    for node in reversed(stack):
        if isinstance(node, cst.FunctionDef):
            scope = model.scope_of.get(node)
            return scope.function if scope is not None else None
    return None


def runs_later(site: CallSite) -> bool:
    """The call is in a lambda of its function: it runs when the lambda does, if ever."""
    return enclosing_lambda(site) is not None


def enclosing_lambda(site: CallSite) -> Optional[cst.Lambda]:
    """The innermost lambda of its function that the call is written in, if any."""
    for node in reversed(site.stack):
        if node.__class__ is cst.Lambda:
            return node  # type: ignore[return-value]
        if node.__class__ is cst.FunctionDef:
            return None
    return None


_APP_CONTEXTS = frozenset({"app_context", "test_request_context", "request_context"})


def _within_app_context(start: CallSite, covered: List[CallSite]) -> List[CallSite]:
    """Flask-SQLAlchemy's session is scoped to the application context: leaving ``with
    app.app_context():`` removes it (``teardown_appcontext``), ending the transaction a query
    in the block began."""
    block = next((node for node in reversed(start.stack) if isinstance(node, cst.With) and any(
        isinstance(item.item, cst.Call) and method_of(item.item) in _APP_CONTEXTS for item in node.items
    )), None)
    if block is None:
        return covered
    return [site for site in covered if any(node is block for node in site.stack)]


def _through(name: str, methods: frozenset) -> Callable[[CallSite], bool]:
    def matches(site: CallSite) -> bool:
        func = site.node.func
        return (isinstance(func, cst.Attribute) and func.attr.value in methods
                and isinstance(func.value, cst.Name) and func.value.value == name)
    return matches


def _spans(
    sites: List[CallSite], starts: Callable[[CallSite], bool], ends: Callable[[CallSite], bool]
) -> List[Tuple[CallSite, List[CallSite]]]:
    """From each call that ``starts`` to the next that ``ends`` (in the order the code is
    written): the starting call and the calls made in between."""
    found: List[Tuple[CallSite, List[CallSite]]] = []
    current: Optional[Tuple[CallSite, List[CallSite]]] = None
    ended_in: List[cst.CSTNode] = []  # branches that end it: the rest of them runs without it
    left: Optional[List[cst.CSTNode]] = None  # ``_left_branches`` of the current start
    for site in sorted(sites, key=lambda s: s.order):
        if current is not None and not _runs_after(left, site):
            current = None  # the branch that began it returned: what follows runs without it
        if current is not None:
            if ends(site):
                branch = _branch(current[0], site)
                if branch is None or _ends_on_every_branch(branch[0], sites, ends):
                    current = None
                else:
                    ended_in.append(branch[1])  # ``if stale: session.commit()``: open on the other path
            elif not any(_inside(site, suite) for suite in ended_in):
                current[1].append(site)
        elif starts(site):
            current = (site, [])
            left = _left_branches(site)
            ended_in = []
            found.append(current)
    return found


def _branch(start: CallSite, site: CallSite) -> Optional[Tuple[cst.If, cst.CSTNode]]:
    """The outermost ``if`` around ``site`` that is not around ``start``, with the suite of it
    that holds ``site`` (its body, or the ``else``/``elif`` that follows)."""
    around = {id(node) for node in start.stack}
    statement = next((node for node in site.stack if isinstance(node, cst.If) and id(node) not in around), None)
    if statement is None:
        return None
    suite: cst.CSTNode = statement.body if _inside(site, statement.body) else statement.orelse  # type: ignore[assignment]
    return statement, suite


def _inside(site: CallSite, suite: cst.CSTNode) -> bool:
    return any(node is site.node for node in iter_nodes(suite))


def _ends_on_every_branch(statement: cst.If, sites: List[CallSite], ends: Callable[[CallSite], bool]) -> bool:
    """Whether every branch of the ``if`` (its body, each ``elif``, an ``else`` it must have)
    makes a call that ends the transaction."""
    inner = [site for site in sites if any(node is statement for node in site.stack) and ends(site)]
    current: Optional[cst.CSTNode] = statement
    while isinstance(current, cst.If):
        if not any(_inside(site, current.body) for site in inner):
            return False
        current = current.orelse
    return isinstance(current, cst.Else) and any(_inside(site, current.body) for site in inner)




def _reaches(start: CallSite, site: CallSite) -> bool:
    """Whether ``site``, written after ``start``, may run after it: not when ``start`` is in a
    branch (of an ``if``, a loop, a ``with``) that ``site`` is not in and that returns or raises
    after it. Inside a ``try``, an exception after ``start`` may be handled where ``site`` runs."""
    return _runs_after(_left_branches(start, site.stack), site)


def _runs_after(left: Optional[List[cst.CSTNode]], site: CallSite) -> bool:
    """``_reaches`` from a start whose ``_left_branches`` are ``left``: ``site`` runs after it
    unless it is outside one of them."""
    return left is None or all(any(node is branch for node in site.stack) for branch in left)


def _left_branches(start: CallSite, shared: Sequence[cst.CSTNode] = ()) -> Optional[List[cst.CSTNode]]:
    """The branches around ``start`` that return or raise after it (what follows them runs
    without it), but for those among ``shared``; None inside a ``try``, whose handler may run
    anything after it."""
    if any(node.__class__ in TRIES for node in start.stack):
        return None
    # The statements that hold ``start``: the compound ones around it, and in the innermost
    # block, the simple statement it is written in.
    around = {id(node) for node in start.stack}
    innermost = start.stack[-1] if start.stack else None

    def holds(statement: cst.CSTNode, suite_of: cst.CSTNode) -> bool:
        return id(statement) in around or (
            suite_of is innermost and isinstance(statement, cst.SimpleStatementLine) and _holds(statement, start.node)
        )

    skipped = {id(node) for node in shared}
    found = []
    for node in start.stack:
        if id(node) in skipped:
            continue
        for statements in _suites(node):
            index = next((i for i, statement in enumerate(statements) if holds(statement, node)), None)
            if index is not None and any(_leaves(statement) for statement in statements[index:]):
                found.append(node)
                break
    return found


def _suites(node: cst.CSTNode) -> List[Sequence[cst.CSTNode]]:
    """The statement lists of a compound statement's own branches (an ``elif`` is its own ``If``)."""
    blocks: List[cst.BaseSuite] = []
    if isinstance(node, (cst.If, cst.For, cst.While)):
        blocks.append(node.body)
        orelse = node.orelse
        if isinstance(orelse, cst.Else):
            blocks.append(orelse.body)
    elif isinstance(node, cst.With):
        blocks.append(node.body)
    return [block.body for block in blocks]


def _holds(statement: cst.CSTNode, node: cst.CSTNode) -> bool:
    return any(inner is node for inner in iter_nodes(statement))


def _leaves(statement: cst.CSTNode) -> bool:
    """A ``return`` or ``raise`` at the top level of a statement list (no condition around it)."""
    if isinstance(statement, (cst.Return, cst.Raise)):
        return True
    return isinstance(statement, cst.SimpleStatementLine) and any(isinstance(s, (cst.Return, cst.Raise)) for s in statement.body)


def _locks(call: cst.Call) -> bool:
    return django.locks(call) or sqlalchemy.locks(call)
