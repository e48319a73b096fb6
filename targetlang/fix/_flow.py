"""Where a value goes: every use of a literal, followed through the names that hold it.

A legacy target string may become a dict only where nothing reads it as a string. :class:`Flow`
follows a literal from where it is written to each place it is used: through assignments,
parameter defaults, ``for`` loops over a literal list and ``pytest.mark.parametrize`` lists, to
every access of those names that LibCST's ``ScopeProvider`` finds in their scope (nested
functions included). Each place is a :class:`Use`: a target position of an API in
:mod:`._apis`, or something else (a string operation, a comparison, a call the table does not
know, a module-level name other modules may import, a return, a test that expects an error).
The fix is safe only when there is at least one use and every use is a target position.

A flow asks the module's parents and scopes of :class:`._scopes.Scopes`, which it extends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import libcst as cst
from libcst.metadata import GlobalScope

from ._apis import REJECTION_CONTEXTS, ApiTable, TargetApi
from ._scopes import Scopes
from ._survey import dotted

__all__ = ["TEXT_USES", "Flow", "Use", "UseKind", "unsafe_use"]

UseKind = Literal["target", "rejection", "string", "call", "export", "return", "other"]
"""``target``: a target position of a known API; ``rejection``: inside a test that expects an
error; ``string``: read as text (formatting, ``in``, a comparison, a method, an index);
``call``: passed to a call the table does not know; ``export``: a module-level name other
modules may import; ``return``: returned from a function; ``other``: any other use."""

# How many names deep a value is followed (x = "..."; y = x; z = y ...): deeper is "other".
_MAX_DEPTH = 8


@dataclass(frozen=True)
class Use:
    """One place a value is used: its ``kind``, the ``node`` there, and what happens to it
    (``what``: ``"the target of tvm.build()"``, ``"formatted into an f-string"``)."""

    kind: UseKind
    node: cst.CSTNode
    what: str


class Flow(Scopes):
    """The uses of values in one module. ``qualified`` names what a call's function is (the
    survey's reading of the module's imports: a name and whether an import resolved it)."""

    def __init__(
        self,
        module: cst.Module,
        table: ApiTable,
        qualified: Callable[[cst.BaseExpression], tuple[str, bool] | None],
        structure: tuple[dict[int, cst.CSTNode], dict[int, int]] | None = None,
    ) -> None:
        super().__init__(module, structure)
        self.table = table
        self.qualified = qualified

    # -- calls

    def api(self, call: cst.Call) -> TargetApi | None:
        """The row of the table ``call`` calls, if any."""
        name = self.qualified(call.func)
        return None if name is None else self.table.find(*name)

    def callee(self, call: cst.Call) -> str:
        name = self.qualified(call.func)
        return name[0] if name is not None else self.module.code_for_node(call.func)

    @staticmethod
    def argument_at(call: cst.Call, arg: cst.Arg) -> tuple[int | None, str | None]:
        """The position (from 0) of a positional ``arg`` of ``call``, or its keyword; a position
        after a ``*args`` is unknown (``None``)."""
        if arg.keyword is not None:
            return None, arg.keyword.value
        position = 0
        for other in call.args:
            if other is arg:
                return position, None
            if other.star:
                return None, None
            if other.keyword is None:
                position += 1
        return None, None

    def target_position(self, call: cst.Call, arg: cst.Arg) -> TargetApi | None:
        """The API that reads ``arg`` of ``call`` as a target, if one does."""
        api = self.api(call)
        if api is None or arg.star == "**":
            return None
        position, keyword = self.argument_at(call, arg)
        if arg.star == "*":
            return api if any(p < 0 for p in api.positions) else None
        return api if api.takes(position, keyword) else None

    def _rejects(self, call: cst.Call) -> bool:
        name = self.qualified(call.func)
        called = name[0] if name is not None else (dotted(call.func) or "")
        return called in REJECTION_CONTEXTS or called.rsplit(".", 1)[-1] in REJECTION_CONTEXTS - {"pytest.raises"}

    def expects_rejection(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is inside a ``with pytest.raises(...)`` (or ``assertRaises``) block,
        or an argument of such a call's call form (``pytest.raises(E, Target, "...")``)."""
        child = node
        parent = self.parent(node)
        while parent is not None:
            if isinstance(parent, cst.With) and child is parent.body:
                if any(isinstance(item.item, cst.Call) and self._rejects(item.item) for item in parent.items):
                    return True
            elif isinstance(parent, cst.Call) and isinstance(child, cst.Arg) and self._rejects(parent):
                return True
            elif isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                return False
            child, parent = parent, self.parent(parent)
        return False

    # -- following a value

    def uses(self, value: cst.BaseExpression) -> list[Use]:
        """Every use of the value of ``value`` (an expression in the module)."""
        found: list[Use] = []
        self._follow(value, found, 0, set(), items=False)
        return found

    def _follow(self, node: cst.CSTNode, found: list[Use], depth: int, seen: set[int], items: bool) -> None:
        """The uses of the value ``node`` evaluates to; with ``items``, of each item of it (the
        value is a list or tuple of targets)."""
        if self.expects_rejection(node):
            found.append(Use("rejection", node, "in a test that expects an error"))
            return
        parent = self.parent(node)
        if depth > _MAX_DEPTH or parent is None:
            found.append(Use("other", node, "passed through too many names to follow"))
            return
        if isinstance(parent, cst.Arg):
            self._argument(node, parent, found, depth, seen, items)
        elif isinstance(parent, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and node is parent.value:
            self._assigned(node, parent, found, depth, seen, items)
        elif isinstance(parent, cst.NamedExpr) and node is parent.value:
            self._bound(parent.target, found, depth, seen, items)
            self._follow(parent, found, depth + 1, seen, items)
        elif isinstance(parent, cst.Param) and node is parent.default:
            self._bound(parent.name, found, depth, seen, items)
        elif isinstance(parent, (cst.Element, cst.StarredElement)) and not items:
            container = self.parent(parent)
            assert container is not None
            self._follow(container, found, depth + 1, seen, items=True)
        elif isinstance(parent, cst.For) and node is parent.iter and items:
            self._bound(parent.target, found, depth, seen, items=False, exported=False)
        elif isinstance(parent, cst.Return):
            self._returned(node, found, depth, seen)
        elif isinstance(parent, cst.Yield):
            found.append(Use("return", node, "yielded from the function"))
        elif isinstance(parent, cst.FormattedStringExpression):
            found.append(Use("string", node, "formatted into an f-string"))
        elif isinstance(parent, cst.BinaryOperation):
            found.append(Use("string", node, f"an operand of {self.module.code_for_node(parent.operator).strip()}"))
        elif isinstance(parent, cst.ComparisonTarget) or isinstance(parent, cst.Comparison):
            found.append(Use("string", node, self._compared(parent)))
        elif isinstance(parent, cst.Attribute) and node is parent.value:
            found.append(Use("string", node, f"read as an object (.{parent.attr.value})"))
        elif isinstance(parent, cst.Subscript) and node is parent.value:
            found.append(Use("string", node, "indexed"))
        elif isinstance(parent, cst.DictElement):
            found.append(Use("other", node, "a value in a dict" if node is parent.value else "a key of a dict"))
        elif isinstance(parent, cst.Expr):
            return  # a statement of its own: computed and dropped
        elif isinstance(parent, cst.IfExp) and node is not parent.test:
            self._follow(parent, found, depth + 1, seen, items)  # a branch: the value of the whole
        elif isinstance(parent, cst.BooleanOperation):
            self._follow(parent, found, depth + 1, seen, items)  # x or "llvm ...": may be its value
        elif isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.BooleanOperation, cst.UnaryOperation)):
            found.append(Use("string", node, "tested for truth"))
        else:
            what = "an element of a list" if items else f"used in {type(parent).__name__}"
            found.append(Use("other", node, what))

    def _returned(self, node: cst.CSTNode, found: list[Use], depth: int, seen: set[int]) -> None:
        """A value a function returns: the uses of each call of the function in the module
        (the function's name is followed as a name is; a method's calls are not)."""
        function = self.parent(node)
        while function is not None and not isinstance(function, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            function = self.parent(function)
        if not isinstance(function, cst.FunctionDef) or self._method(function):
            found.append(Use("return", node, "returned from the function"))
            return
        name = function.name
        scope = self.scope(name)
        if scope is None:
            found.append(Use("return", node, f"returned from {name.value}()"))
            return
        if isinstance(scope, GlobalScope) and not name.value.startswith("_"):
            found.append(Use("export", name, f"returned from {name.value}(), which other modules may import"))
        calls = 0
        for access in self.accesses(scope, name):
            call = self.parent(access)
            if isinstance(call, cst.Call) and call.func is access and id(call) not in seen:
                seen.add(id(call))
                calls += 1
                self._follow(call, found, depth + 1, seen, items=False)
            elif not isinstance(call, cst.Call) or call.func is not access:
                found.append(Use("other", access, f"{name.value} passed as a value"))
        if calls == 0:
            found.append(Use("return", node, f"returned from {name.value}(), called nowhere in the module"))

    def _method(self, function: cst.FunctionDef) -> bool:
        outer = self.parent(function)
        while outer is not None and not isinstance(outer, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            outer = self.parent(outer)
        return isinstance(outer, cst.ClassDef)

    def _compared(self, parent: cst.CSTNode) -> str:
        operator = parent.operator if isinstance(parent, cst.ComparisonTarget) else None
        if isinstance(operator, (cst.In, cst.NotIn)):
            return "tested with `in`"
        if isinstance(parent, cst.Comparison) and any(
            isinstance(t.operator, (cst.In, cst.NotIn)) for t in parent.comparisons
        ):
            return "searched with `in`"
        return "compared"

    def _argument(
        self, node: cst.CSTNode, arg: cst.Arg, found: list[Use], depth: int, seen: set[int], items: bool
    ) -> None:
        call = self.parent(arg)
        assert isinstance(call, cst.Call)
        if node is not arg.value:
            found.append(Use("other", node, "used in an argument"))
            return
        if self._rejects(call):
            found.append(Use("rejection", node, f"an argument of {self.callee(call)}(), which expects an error"))
            return
        api = self.target_position(call, arg)
        if api is not None and api.fixture is not None and self._fixture(call, api.fixture, found, depth, seen):
            return
        if api is not None and (not items or arg.star == "*" or any(p < 0 for p in api.positions)):
            found.append(Use("target", node, f"the target of {api.name}()"))
            return
        if api is not None:
            found.append(Use("other", node, f"a list passed to {api.name}()"))
            return
        if self._parametrize(call, arg, found, depth, seen):
            return
        found.append(
            Use("call", node, f"passed to {self.callee(call)}(), which the table of target APIs does not know")
        )

    def _decorated(self, call: cst.Call) -> cst.FunctionDef | None:
        decorator = self.parent(call)
        function = self.parent(decorator) if isinstance(decorator, cst.Decorator) else None
        return function if isinstance(function, cst.FunctionDef) else None

    def _fixture(self, call: cst.Call, name: str, found: list[Use], depth: int, seen: set[int]) -> bool:
        """A decorator that hands the value to the parameter ``name`` of the function it
        decorates: that parameter's uses, if the function has it."""
        function = self._decorated(call)
        if function is None:
            return False
        for param in (*function.params.params, *function.params.kwonly_params, *function.params.posonly_params):
            if param.name.value == name:
                self._bound(param.name, found, depth, seen, items=False)
                return True
        return False

    def _parametrize(self, call: cst.Call, arg: cst.Arg, found: list[Use], depth: int, seen: set[int]) -> bool:
        """``@pytest.mark.parametrize("target", [...])``: the list's items are the values of the
        decorated function's parameter of that name."""
        name = self.qualified(call.func)
        if name is None or not name[0].endswith("mark.parametrize"):
            return False
        positional = [a for a in call.args if a.keyword is None]
        names = positional[0].value if positional else None
        if len(positional) < 2 or arg is not positional[1] or not isinstance(names, cst.SimpleString):
            return False
        text = names.evaluated_value
        if not isinstance(text, str) or "," in text:
            return False
        return self._fixture(call, text.strip(), found, depth, seen)

    def _assigned(
        self,
        node: cst.CSTNode,
        statement: cst.Assign | cst.AnnAssign | cst.AugAssign,
        found: list[Use],
        depth: int,
        seen: set[int],
        items: bool,
    ) -> None:
        if isinstance(statement, cst.AugAssign):
            found.append(Use("string", node, "appended to"))
            return
        targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
        for target in targets:
            self._bound(target, found, depth, seen, items)

    def _bound(
        self,
        target: cst.CSTNode,
        found: list[Use],
        depth: int,
        seen: set[int],
        items: bool,
        exported: bool = True,
    ) -> None:
        """The uses of a name bound to the value (with ``items``, a list of targets); at module
        level, unless not ``exported`` (a loop variable), other modules may import it too."""
        if isinstance(target, cst.Attribute):
            found.append(Use("other", target, f"stored in {self.module.code_for_node(target)}"))
            return
        if not isinstance(target, cst.Name):
            found.append(Use("other", target, "unpacked"))
            return
        scope = self.scope(target)
        if scope is None:
            found.append(Use("other", target, f"bound to {target.value}"))
            return
        if exported and isinstance(scope, GlobalScope) and not target.value.startswith("_"):
            found.append(Use("export", target, f"the module-level name {target.value}, which other modules may import"))
        elif type(scope).__name__ == "ClassScope":
            found.append(Use("other", target, f"the class attribute {target.value}"))
            return
        for access in self.accesses(scope, target):
            if id(access) in seen:
                continue
            seen.add(id(access))
            self._follow(access, found, depth + 1, seen, items)
        assignments = self.in_order(scope.assignments[target.value])
        for assignment in assignments:  # t += "...": a binding that reads t
            bound = getattr(assignment, "node", None)
            statement = self.parent(bound) if isinstance(bound, cst.CSTNode) else None
            if isinstance(statement, cst.AugAssign) and statement.target is bound and id(bound) not in seen:
                seen.add(id(bound))
                operator = self.module.code_for_node(statement.operator).strip()
                found.append(Use("string", bound, f"changed in place with {operator}"))


def unsafe_use(uses: list[Use], value: cst.CSTNode) -> Use | None:
    """The use that keeps a fix of ``value`` from being safe: a test that expects an error
    first, else the first use that is no target position; with no use at all, ``value`` itself
    (nothing says it is a target). ``None`` when the fix is safe."""
    for use in uses:
        if use.kind == "rejection":
            return use
    if not uses:
        return Use("other", value, "never used where a target goes")
    # a use that reads it as text first: it decides the form of the fix (JSON text)
    text = next((use for use in uses if use.kind in TEXT_USES), None)
    return text or next((use for use in uses if use.kind != "target"), None)


TEXT_USES = frozenset({"string", "call"})
"""The uses that read a value as text: where one is, a fix writes a string of JSON, not a dict."""
