"""The conditions on a function's parameters under which one of its calls runs, for the project
pass to drop the calls that a caller's arguments rule out: ``establish_basket(user)`` never runs
the ``if no_delay:`` branch of ``def establish_basket(user, *, no_delay=False)``, and
``mark_status(fq, "IN_PROGRESS")`` never posts the webhook that ``send_webhooks(fq)`` sends
only ``if fq.status in FINAL``.

A guard is ``(subject, test, values)``: ``subject`` a parameter (``no_delay``) or a parameter's
attribute (``fq.status``), ``test`` one of "true", "false", "in" and "not in", and ``values`` the
constants an "in" test compares with, as summary values (``("str", "FAILED")``, ``("int", 2)``,
``("ref", "app.models.Status.FAILED")``, ``("none",)``); or a choice between parts
(``a or (b and c)``, test "any"), whose values are the alternatives, each the guards of one
part. A test the file cannot read as one of these is no guard: the call is taken to run.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.lint.nodes import DEFINITIONS, dotted_name, number_of, string_of
from resilint.lint.semantic import CallSite, FunctionInfo, SemanticModel
from resilint.lint.summary import ALL, ANY, Guard, Place, Ref
from resilint.lint.traversal import children, iter_nodes

_NEGATED = {"true": "false", "false": "true", "in": "not in", "not in": "in"}
_MAX_VALUES = 16


Condition = Tuple[cst.BaseExpression, bool]  # a test, and whether it holds where the call runs
Locate = Callable[[cst.CSTNode], Place]
_EXITS = object()  # ``derived`` key: id(statement) → its blocks' ``if``s that test a parameter and leave
_PARAMETERS = object()  # ``derived`` key: id(function) → the names of its parameters
_TESTED = object()  # ``derived`` key: id(test) → whether it names a parameter
_DECIDING = object()  # ``derived`` key: id(function) → the statements that may guard its calls
_READ = object()  # ``derived`` key: (id(test), whether it holds) → the guards it sets
_ASSIGNMENTS = object()  # ``derived`` key: id(function) → its ``param.attr = value`` statements
_ASSIGNED = object()  # ``derived`` key: id(function) → the dotted attributes it assigns anywhere
_STATEMENTS = object()  # ``derived`` key: id(statement) → id(call) → (its block, the index of the line holding it)


def call_guards(model: SemanticModel, site: CallSite, locate: Locate) -> Tuple[Guard, ...]:
    """What must hold of the function's parameters for ``site`` to run: the tests of the ``if``
    statements around it (negated in its ``else``), and of the ``if``s before it, in the blocks
    around it, that leave the block (``if not retry: return``). The statements around a call are
    on its stack; where in one of them the call is, positions tell (``locate``), so no statement
    is searched for it."""
    function = site.scope.enclosing_function
    if function is None or not isinstance(function.node, cst.FunctionDef):
        return ()
    parameters = _parameters(model, function)
    deciding = _deciding(model, function, parameters) if parameters else None
    if not deciding:
        return ()
    stack = site.stack
    start = next((i for i in range(len(stack) - 1, -1, -1) if stack[i] is function.node), None)
    if start is None or not any(id(node) in deciding for node in stack[start:]):
        return ()
    at: Optional[Tuple[int, int]] = None
    conditions: List[Condition] = []
    for depth in range(start, len(stack)):
        container = stack[depth]
        inner = stack[depth + 1] if depth + 1 < len(stack) else None
        if inner.__class__ in DEFINITIONS:
            return ()  # the call runs when that definition is called
        if isinstance(container, cst.If) and _tests_parameter(model, container.test, parameters):
            if at is None and inner is None:
                at = _start(locate(site.node))
            branch = _branch(container, inner, at, locate)
            if branch is not None:
                conditions.append((container.test, branch))
        for statements, exits in _exits(model, container):
            if inner is not None:
                index = next((i for i, statement in enumerate(statements) if statement is inner), None)
                if index is None:
                    continue
                conditions.extend((test, False) for position, test in exits if position < index)
                break
            if at is None:
                at = _start(locate(site.node))
            conditions.extend((test, False) for position, test in exits
                              if _end(locate(statements[position])) <= at and _within(statements, at, locate))
    if not conditions:
        return ()
    read: Dict[Tuple[int, bool], List[Guard]] = model.derived(_READ, dict)
    guards: List[Guard] = []
    for test, holds in conditions:
        key = (id(test), holds)
        if key not in read:
            read[key] = _tests(model, test, site, function, holds)
        guards.extend(read[key])
    return tuple(guards)


def callee_guards(model: SemanticModel, site: CallSite) -> Dict[str, Tuple[Guard, ...]]:
    """Which callee a conditional expression picks on the function's parameters (``request =
    requests.post if method == "POST" else requests.get``; ``request(url)``): by the name of
    each callee only one branch holds, the guards that hold where it is called."""
    function = site.scope.enclosing_function
    if function is None or not isinstance(function.node, cst.FunctionDef):
        return {}
    func, scope, order = site.node.func, site.scope, site.order
    if isinstance(func, cst.Name):
        binding = model.lookup(func.value, scope, order)
        if binding is None or binding.scope is not scope or not isinstance(binding.expr, cst.IfExp):
            return {}
        func, order = binding.expr, binding.order
    if not isinstance(func, cst.IfExp) or not _tests_parameter(model, func.test, _parameters(model, function)):
        return {}
    body = {model.name_of(value) for value in model.resolve_all(func.body, scope, order)} - {None}
    orelse = {model.name_of(value) for value in model.resolve_all(func.orelse, scope, order)} - {None}
    found: Dict[str, Tuple[Guard, ...]] = {}
    for names, holds in ((body - orelse, True), (orelse - body, False)):
        guards = tuple(_tests(model, func.test, site, function, holds))
        if guards:
            found.update(dict.fromkeys(names, guards))  # type: ignore[arg-type]
    return found


def _branch(node: cst.If, inner: Optional[cst.CSTNode], at: Optional[Tuple[int, int]], locate: Locate) -> Optional[bool]:
    """Whether the call (inside ``inner``, or at ``at`` when written in ``node`` itself) is in
    the ``if``'s body (True), its ``else``/``elif`` (False) or its test (None)."""
    if inner is not None:
        if any(statement is inner for statement in node.body.body):
            return True
        return None if node.orelse is None else False
    assert at is not None
    test = locate(node.test)
    if _start(test) <= at < _end(test):
        return None
    if node.orelse is not None and at >= _start(locate(node.orelse)):
        return False
    return True


def _within(statements: Sequence[cst.CSTNode], at: Tuple[int, int], locate: Locate) -> bool:
    return bool(statements) and _start(locate(statements[0])) <= at < _end(locate(statements[-1]))


def _start(place: Place) -> Tuple[int, int]:
    return (place.line, place.column)


def _end(place: Place) -> Tuple[int, int]:
    return (place.end_line, place.end_column)


def _parameters(model: SemanticModel, function: FunctionInfo) -> Set[str]:
    every: Dict[int, Set[str]] = model.derived(_PARAMETERS, dict)
    key = id(function)
    if key not in every:
        every[key] = {name for name, bindings in function.scope.bindings.items()
                      if bindings and (bindings[0].parameter is not None or bindings[0].self_of is not None)}
    return every[key]


def _deciding(model: SemanticModel, function: FunctionInfo, parameters: Set[str]) -> Set[int]:
    """The statements of the function (itself included, not the definitions in it) that may
    set a guard on the calls inside them: an ``if`` testing a parameter, and a statement with a
    block in which such an ``if`` leaves the block (those blocks are kept for ``_exits``)."""
    every: Dict[int, Set[int]] = model.derived(_DECIDING, dict)
    key = id(function)
    if key in every:
        return every[key]
    exits_of: Dict[int, List[Tuple[Sequence[cst.CSTNode], List[Tuple[int, cst.BaseExpression]]]]] = model.derived(_EXITS, dict)
    found: Set[int] = set()
    pending: List[cst.CSTNode] = [function.node]
    while pending:
        container = pending.pop()
        if isinstance(container, cst.If):
            if _tests_parameter(model, container.test, parameters):
                found.add(id(container))
            if isinstance(container.orelse, cst.If):
                pending.append(container.orelse)  # an ``elif``: an ``if`` of its own
        elif isinstance(container, (cst.Try, cst.TryStar)):
            pending.extend(container.handlers)  # on the stack of the calls they hold
        blocks = []
        for statements in _suites(container):
            exits = []
            for index, statement in enumerate(statements):
                if not isinstance(statement, cst.BaseCompoundStatement) or isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                    continue
                pending.append(statement)
                if (isinstance(statement, cst.If) and statement.orelse is None and leaves_block(statement.body)
                        and _tests_parameter(model, statement.test, parameters)):
                    exits.append((index, statement.test))
            if exits:
                blocks.append((statements, exits))
        if blocks:
            exits_of[id(container)] = blocks
            found.add(id(container))
    every[key] = found
    return found


def _tests_parameter(model: SemanticModel, test: cst.BaseExpression, parameters: Set[str]) -> bool:
    every: Dict[int, bool] = model.derived(_TESTED, dict)
    key = id(test)
    if key not in every:
        every[key] = any(isinstance(node, cst.Name) and node.value in parameters for node in iter_nodes(test))
    return every[key]


def _exits(model: SemanticModel, container: cst.CSTNode) -> List[Tuple[Sequence[cst.CSTNode], List[Tuple[int, cst.BaseExpression]]]]:
    """The blocks of ``container`` in which an ``if`` testing a parameter leaves the block
    (``return``, ``raise``, ``continue``, ``break``): the block, and those ``if``s by index with
    their tests (found by ``_deciding``)."""
    return model.derived(_EXITS, dict).get(id(container), [])


def attributes_passed(model: SemanticModel, site: CallSite) -> List[Tuple[str, cst.BaseExpression]]:
    """``fq.status = status`` written before the call in the function's own statements (no
    branch, no loop), for a parameter the call passes on (``send_webhooks(fq)``): the slot of
    the callee's parameter and the attribute (``"0.status"``, or ``"fq.status"`` by keyword),
    and the expression the attribute was last given; and ``self.order = order`` written before
    a method call on the same object in the same block (``self.save()``), in slot
    ``"self.order"``."""
    function = site.scope.enclosing_function
    if function is None:
        return []
    on_self = _receiver_attributes(model, site, function)
    assignments = _attribute_assignments(model, function) if site.node.args else []
    if not assignments:
        return on_self
    slots: Dict[str, str] = {}
    position = 0
    for arg in site.node.args:
        if arg.star:
            break
        if isinstance(arg.value, cst.Name):
            slots[arg.value.value] = str(position) if arg.keyword is None else arg.keyword.value
        if arg.keyword is None:
            position += 1
    passed = [(index, name, expr) for index, name, expr in assignments if name.split(".", 1)[0] in slots]
    top = _top_statement(function, site) if passed else None
    assigned: Dict[str, cst.BaseExpression] = {}
    for index, name, expr in passed:
        if top is None or index >= top:
            break
        parameter, attribute = name.split(".", 1)
        assigned[f"{slots[parameter]}.{attribute}"] = expr
    return list(assigned.items()) + on_self


def _receiver_attributes(model: SemanticModel, site: CallSite, function: FunctionInfo) -> List[Tuple[str, cst.BaseExpression]]:
    """``self.<attribute> = value`` as the last word on it before ``self.method(...)`` in the
    block that holds the call (a statement of the block in between that may set it again, in
    a branch or a loop, forgets it)."""
    func = site.node.func
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
        return []
    receiver = func.value.value
    bindings = function.scope.bindings.get(receiver, [])
    if len(bindings) != 1 or bindings[0].self_of is None:
        return []
    prefix = receiver + "."
    container = site.stack[-1] if site.stack else None
    if container is None or (isinstance(container, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and container is not function.node):
        return []
    for statements, index in _statement_of(model, container, site.node):
        assigned: Dict[str, cst.BaseExpression] = {}
        for statement in statements[:index]:
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else (statement,):
                target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
                if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == receiver:
                    assigned[target.attr.value] = small.value  # type: ignore[union-attr]
                    continue
                if not assigned:
                    continue  # nothing to forget yet: no need to read what this statement sets
                for name in _targets_in(small):
                    if name.startswith(prefix):
                        assigned.pop(name[len(prefix):], None)
        return [(f"self.{attribute}", expr) for attribute, expr in assigned.items()]
    return []


def _statement_of(
    model: SemanticModel, container: cst.CSTNode, call: cst.Call,
) -> List[Tuple[Sequence[cst.CSTNode], int]]:
    """The block of ``container`` whose simple statement holds ``call``, and that statement's
    index: the calls of every simple statement of its blocks are indexed once per container."""
    every: Dict[int, Dict[int, Tuple[Sequence[cst.CSTNode], int]]] = model.derived(_STATEMENTS, dict)
    key = id(container)
    if key not in every:
        found: Dict[int, Tuple[Sequence[cst.CSTNode], int]] = {}
        for statements in _suites(container):
            for index, statement in enumerate(statements):
                if isinstance(statement, cst.SimpleStatementLine):
                    found.update((id(node), (statements, index)) for node in iter_nodes(statement, stop_at=(cst.Lambda,))
                                 if isinstance(node, cst.Call))
        every[key] = found
    where = every[key].get(id(call))
    return [where] if where is not None else []


def _targets_in(node: cst.CSTNode) -> Iterator[str]:
    """The dotted attributes assigned anywhere in ``node``."""
    for inner in iter_nodes(node):
        targets: Sequence[Any] = ()
        kind = inner.__class__  # by class: the node classes are slow ABCs
        if kind is cst.Assign:
            targets = [t.target for t in inner.targets]  # type: ignore[attr-defined]
        elif kind is cst.AugAssign or kind is cst.AnnAssign:
            targets = [inner.target]  # type: ignore[attr-defined]
        for target in targets:
            if isinstance(target, cst.Attribute):
                yield dotted_name(target) or ""


def _top_statement(function: FunctionInfo, site: CallSite) -> Optional[int]:
    """The index of the function's own statement that holds the call."""
    body = function.node.body if isinstance(function.node, cst.FunctionDef) else None
    if not isinstance(body, cst.IndentedBlock):
        return None
    outer = next((i for i, node in enumerate(site.stack) if node is function.node), None)
    compound = site.stack[outer + 1] if outer is not None and outer + 1 < len(site.stack) else None
    for index, statement in enumerate(body.body):
        if statement is compound:
            return index
        if compound is None and isinstance(statement, cst.SimpleStatementLine) and any(
            node is site.node for node in iter_nodes(statement, stop_at=(cst.Lambda,))
        ):
            return index
    return None


def _attribute_assignments(model: SemanticModel, function: FunctionInfo) -> List[Tuple[int, str, cst.BaseExpression]]:
    """``param.attr = value`` among the function's own statements, with the statement's index."""
    every: Dict[int, List[Tuple[int, str, cst.BaseExpression]]] = model.derived(_ASSIGNMENTS, dict)
    key = id(function)
    if key not in every:
        found: List[Tuple[int, str, cst.BaseExpression]] = []
        body = function.node.body if isinstance(function.node, cst.FunctionDef) else None
        for index, statement in enumerate(body.body if isinstance(body, cst.IndentedBlock) else ()):
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    target = small.targets[0].target
                    if (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
                            and _is_parameter(target.value, function)):
                        found.append((index, f"{target.value.value}.{target.attr.value}", small.value))
        every[key] = found
    return every[key]


def _suites(statement: cst.CSTNode) -> List[Sequence[cst.CSTNode]]:
    """The statement lists of a compound statement or a ``def`` (an ``if``'s body only: its
    ``elif`` is an ``if`` of its own; its ``else``, handlers and cases too)."""
    if isinstance(statement, (cst.FunctionDef, cst.With, cst.ExceptHandler, cst.ExceptStarHandler)):
        return [statement.body.body]
    if isinstance(statement, cst.If):
        return [statement.body.body] + ([statement.orelse.body.body] if isinstance(statement.orelse, cst.Else) else [])
    if isinstance(statement, (cst.For, cst.While)):
        return [statement.body.body] + ([statement.orelse.body.body] if statement.orelse is not None else [])
    found: List[Sequence[cst.CSTNode]] = []
    for child in children(statement):
        if isinstance(child, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            found.append(child.body)
        elif isinstance(child, (cst.Else, cst.Finally, cst.ExceptHandler, cst.ExceptStarHandler, cst.MatchCase)):
            found.extend(_suites(child))
    return found


def leaves_block(block: cst.BaseSuite) -> bool:
    """The block ends by leaving it: ``return``, ``raise``, ``continue`` or ``break``."""
    body = block.body
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    return isinstance(last, (cst.Return, cst.Raise, cst.Continue, cst.Break))


def _tests(
    model: SemanticModel, test: cst.BaseExpression, site: CallSite, function: FunctionInfo, holds: bool,
) -> List[Guard]:
    """The guards ``test`` (or its negation, when ``holds`` is false) sets: each part of an
    ``and`` that holds, each part of an ``or`` that fails."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _tests(model, test.expression, site, function, not holds)
    if isinstance(test, cst.BooleanOperation):
        both = isinstance(test.operator, cst.And) == holds
        if not both:
            return _either(model, test, site, function, holds)
        return (_tests(model, test.left, site, function, holds)
                + _tests(model, test.right, site, function, holds))
    guard = _guard(model, test, site, function)
    if guard is None:
        return []
    subject, kind, values = guard
    return [(subject, kind if holds else _NEGATED[kind], values)]


def _either(
    model: SemanticModel, test: cst.BooleanOperation, site: CallSite, function: FunctionInfo, holds: bool,
) -> List[Guard]:
    """One of the parts holds (an ``or`` that holds, an ``and`` that fails): one guard whose
    alternatives are what each part sets (``ANY``); none when a part sets none, since that part
    may be the one that holds."""
    parts: List[cst.BaseExpression] = []
    pending: List[cst.BaseExpression] = [test.right, test.left]
    while pending:  # ``a or (b or c)`` is one choice of three
        part = pending.pop()
        if isinstance(part, cst.BooleanOperation) and type(part.operator) is type(test.operator):
            pending.extend((part.right, part.left))
        else:
            parts.append(part)
    if len(parts) > _MAX_VALUES:
        return []
    alternatives: List[Ref] = []
    for part in parts:
        guards = _tests(model, part, site, function, holds)
        if not guards:
            return []
        alternatives.append((ALL, *guards))
    return [("", ANY, tuple(alternatives))]


def _guard(model: SemanticModel, test: cst.BaseExpression, site: CallSite, function: FunctionInfo) -> Optional[Guard]:
    subject = _subject(model, test, function)
    if subject is not None:
        return subject, "true", ()
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    subject = _subject(model, test.left, function)
    normalised = subject is None
    if normalised:
        # ``method.lower() == "post"``, or after ``method = method.lower()``: whichever case
        # the callers write the constant in
        subject = _case_folded(test.left, site, function)
    if subject is None:
        return None
    comparison = test.comparisons[0]
    operator, right = comparison.operator, comparison.comparator
    if isinstance(operator, (cst.In, cst.NotIn)):
        values = _constants(model, right, site, collection=True)
        kind = "in" if isinstance(operator, cst.In) else "not in"
    elif isinstance(operator, (cst.Equal, cst.Is, cst.NotEqual, cst.IsNot)):
        values = _constants(model, right, site, collection=False)
        kind = "in" if isinstance(operator, (cst.Equal, cst.Is)) else "not in"
    else:
        return None
    if values is not None and normalised:
        values = tuple(dict.fromkeys(
            ("str", case(str(value[1]))) for value in values if value[0] == "str" for case in (str.lower, str.upper, str.title)
        )) if all(value[0] == "str" for value in values) else None
    return (subject, kind, values) if values is not None else None


_CASE_FOLDS = frozenset({"lower", "upper", "casefold"})


def _case_folded(expr: cst.BaseExpression, site: CallSite, function: FunctionInfo) -> Optional[str]:
    """The parameter whose text ``expr`` is in one case: ``method.lower()``, or a local only
    ever assigned that (``method = method.lower()``, ``verb = method.upper()``)."""
    if isinstance(expr, cst.Name):
        bindings = site.scope.bindings.get(expr.value, []) if site.scope.function is function else []
        assigned = [binding for binding in bindings if binding.parameter is None]
        if len(assigned) != 1 or assigned[0].expr is None or len(bindings) - len(assigned) > 1:
            return None
        expr = assigned[0].expr
    if not (isinstance(expr, cst.Call) and not expr.args and isinstance(expr.func, cst.Attribute)
            and expr.func.attr.value in _CASE_FOLDS and isinstance(expr.func.value, cst.Name)):
        return None
    name = expr.func.value
    bindings = function.scope.bindings.get(name.value, [])
    return name.value if bindings and bindings[0].parameter is not None else None


def _subject(model: SemanticModel, expr: cst.BaseExpression, function: FunctionInfo) -> Optional[str]:
    """A parameter the function never rebinds, or an attribute of one that it never assigns."""
    if isinstance(expr, cst.Name):
        return expr.value if _is_parameter(expr, function) else None
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
        if not _is_parameter(expr.value, function):
            return None
        name = f"{expr.value.value}.{expr.attr.value}"
        if name in _assigned_attributes(model, function):
            return None
        return name
    return None


def _is_parameter(name: cst.Name, function: FunctionInfo) -> bool:
    """A parameter of ``function`` that it never rebinds (annotated or not); ``self`` too, whose
    attributes the object's construction may have set (``if not self.get_weather: return``)."""
    bindings = function.scope.bindings.get(name.value, [])
    return len(bindings) == 1 and (bindings[0].parameter is not None or bindings[0].self_of is not None)


def _assigned_attributes(model: SemanticModel, function: FunctionInfo) -> Set[str]:
    every: Dict[int, Set[str]] = model.derived(_ASSIGNED, dict)
    key = id(function)
    if key not in every:
        every[key] = set(_targets_in(function.node))
    return every[key]


def _constants(
    model: SemanticModel, expr: cst.BaseExpression, site: CallSite, collection: bool,
) -> Optional[Tuple[Ref, ...]]:
    """The constants ``expr`` is (a literal, a named constant), or, for ``collection``, holds
    (a list, tuple or set literal, or a name assigned one); None when any is unknown."""
    if collection:
        if isinstance(expr, (cst.Name, cst.Attribute)):
            expr = model.followed(expr, site.scope, site.order)
        if not isinstance(expr, (cst.List, cst.Tuple, cst.Set)) or len(expr.elements) > _MAX_VALUES:
            return None
        found = []
        for element in expr.elements:
            if not isinstance(element, cst.Element):
                return None
            value = constant(model, element.value, site)
            if value is None:
                return None
            found.append(value)
        return tuple(found)
    value = constant(model, expr, site)
    return (value,) if value is not None else None


def constant(model: SemanticModel, expr: cst.BaseExpression, site: CallSite) -> Optional[Ref]:
    """A literal, or a name the file resolves (a module or class constant), as a summary value."""
    if isinstance(expr, cst.Integer):
        number = number_of(expr)
        return ("int", number) if isinstance(number, int) else None
    if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)):
        text = string_of(expr)
        return ("str", text) if text is not None else None
    if isinstance(expr, cst.Name) and expr.value in ("True", "False", "None"):
        return ("none",) if expr.value == "None" else ("bool", expr.value == "True")
    if isinstance(expr, (cst.Name, cst.Attribute)):
        name = model.qualified_name(expr, site.scope, site.order)
        return ("ref", name) if name else None
    return None
