"""The engine's source for MicroPython: the same modules, lowered at build time.

The browser rolls with MicroPython's WebAssembly port (about a tenth of Pyodide's bytes).
MicroPython reads most of Python but not all of it, and its built-in types differ in
places the engine's text depends on: its dicts forget the order of their keys, its
``isinstance(True, int)`` is false, ``repr("あ")`` escapes the kana, a class cannot have
two built-in exception bases, there is no ``dataclass``, ``Enum`` or ``Fraction``. The
engine is not written twice for it: :func:`lower` rewrites each module's syntax tree so
that MicroPython runs the same rules with CPython's behaviour, and the shims in
``assets/micropython/`` (``_mp*.py``, shipped with the engine) supply what the rewritten
code calls. The browser/CLI differential test (``tests/test_browser_engine.py``)
rolls thousands of commands of every system both ways and requires the same text.

What the rewrite does (each a fixed, mechanical rule):

- drops docstrings, annotations, ``from __future__``, ``if TYPE_CHECKING:`` blocks and
  ``raise ... from`` causes (MicroPython warns on them);
- maps standard-library imports to the shims (:data:`MODULES`); a module it does not
  know, or a part of saikoro the browser's engine does not hold (:data:`ENGINE`), fails
  the build, naming the file;
- makes every dict ordered (displays, comprehensions, ``dict(...)``, ``**`` merges),
  expands ``*`` in list, tuple and set displays, and turns positional-only parameters
  into ordinary ones;
- sends ``isinstance``, ``issubclass``, ``repr``, ``!r``, ``format``, ``zip``, ``sorted``
  and ``.sort`` (MicroPython's sort is not stable), ``/`` (integers beyond 2**53) and the
  ``str``/``int`` methods MicroPython lacks or reads differently (:data:`METHODS`) to
  CPython-exact helpers;
- records a class's annotated fields (``__mp_fields__``) for the dataclass and
  NamedTuple shims, and an enum's members (``__mp_members__``); iterating, calling,
  indexing or measuring an enum class goes through the enum shim;
- keeps one built-in exception base where a class names a saikoro error and a built-in
  one (``class DiceError(SaikoroError, ValueError)``): MicroPython cannot lay out both,
  so there ``except ValueError`` does not catch saikoro's errors (the worker catches
  ``SaikoroError``);
- turns type expressions evaluated at run time (``bool | int | str``, ``tuple[int, ...]``)
  into what MicroPython can evaluate (a tuple of types, the bare type).

>>> print(lower("x = {'b': 1, **y}\\nz = [*a, 1]\\n", "m.py"), end="")
import _mp
x = _mp.od_merge((('b', 1),), y)
z = list(a) + [1]
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from saikoro.dice import SaikoroError

__all__ = ["ENGINE", "METHODS", "MODULES", "LoweringError", "enum_names", "lower"]


class LoweringError(SaikoroError, ValueError):
    """Source the MicroPython lowering cannot carry (the message names the file)."""


MODULES: dict[str, str | None] = {
    "__future__": None,  # dropped
    "_thread": "_mp_thread",
    "bisect": "_mp_bisect",
    "collections": "_mp_collections",
    "collections.abc": "_mp_abc",
    "contextlib": "_mp_contextlib",
    "dataclasses": "_mp_dataclasses",
    "difflib": "_mp_difflib",
    "enum": "_mp_enum",
    "fractions": "_mp_fractions",
    "functools": "_mp_functools",
    "heapq": "heapq",
    "importlib": "_mp_importlib",
    "importlib.metadata": "_mp_importlib",
    "itertools": "_mp_itertools",
    "json": "json",
    "math": "_mp_math",
    "operator": "_mp_operator",
    "random": "_mp_random",
    "re": "_mp_re",
    "sys": "_mp_sys",
    "types": "_mp_types",
    "typing": "_mp_typing",
    "unicodedata": "_mp_unicodedata",
}
"""Standard-library modules the engine may import -> the module MicroPython imports."""

METHODS = frozenset(
    {
        "bit_length",
        "casefold",
        "center",
        "isalnum",
        "isalpha",
        "isupper",
        "islower",
        "isascii",
        "isdecimal",
        "isdigit",
        "isnumeric",
        "isprintable",
        "isspace",
        "ljust",
        "removeprefix",
        "removesuffix",
        "rjust",
        "strip",
        "lstrip",
        "rstrip",
        "split",
        "title",
        "translate",
        "zfill",
        "expandtabs",
        "swapcase",
        "capitalize",
        "splitlines",
        "as_integer_ratio",
        "is_integer",
        "upper",
        "lower",
        "sort",
    }
)
"""Method names whose calls go to ``_mp.m_<name>``: MicroPython's ``str``/``int`` lacks
them or differs (Unicode spaces and digits); other objects' methods are called as they
are."""

_BUILTINS = {"isinstance", "issubclass", "repr", "format", "zip", "dict", "vars", "float"}
_MISSING_NAMES = {"RecursionError", "ModuleNotFoundError"}
"""Built-in names MicroPython lacks, taken from ``_mp``."""
_TYPE_NAMES = {
    "bool",
    "int",
    "str",
    "float",
    "bytes",
    "list",
    "tuple",
    "dict",
    "set",
    "frozenset",
    "type",
    "object",
    "None",
}
_GENERIC_NAMES = {
    "tuple",
    "list",
    "dict",
    "set",
    "frozenset",
    "type",
    "Mapping",
    "Sequence",
    "Iterable",
    "Iterator",
    "Callable",
    "Generic",
    "Protocol",
    "ClassVar",
    "Final",
    "Optional",
    "Union",
    "Literal",
    "Generator",
    "MutableMapping",
    "Collection",
}
_EXCEPTIONS = {
    "ValueError",
    "TypeError",
    "KeyError",
    "IndexError",
    "LookupError",
    "RuntimeError",
    "AssertionError",
    "ArithmeticError",
    "ZeroDivisionError",
    "OverflowError",
}


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _name_of(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_type_leaf(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and node.value is None:
        return True
    if isinstance(node, ast.Name) and node.id in _TYPE_NAMES:
        return True
    return isinstance(node, ast.Subscript) and _name_of(node.value) in _GENERIC_NAMES


def _union_leaves(node: ast.expr) -> list[ast.expr] | None:
    """The members of ``A | B | C`` when it is a union of types (else None)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left = _union_leaves(node.left)
        right = _union_leaves(node.right)
        if left is None or right is None:
            return None
        return left + right
    return [node] if _is_type_leaf(node) else None


def _call(func: str, args: list[ast.expr], keywords: list[ast.keyword] | None = None) -> ast.Call:
    head, _, attr = func.partition(".")
    target: ast.expr = ast.Name(head, ast.Load())
    if attr:
        target = ast.Attribute(target, attr, ast.Load())
    return ast.Call(target, args, keywords or [])


def _concat(elts: list[ast.expr], wrap: str) -> ast.expr:
    """``[*a, b, *c]`` as ``list(a) + [b] + list(c)``."""
    parts: list[ast.expr] = []
    run: list[ast.expr] = []
    for elt in elts:
        if isinstance(elt, ast.Starred):
            if run:
                parts.append(ast.List(run, ast.Load()))
                run = []
            parts.append(_call("list", [elt.value]))
        else:
            run.append(elt)
    if run:
        parts.append(ast.List(run, ast.Load()))
    out = parts[0]
    for part in parts[1:]:
        out = ast.BinOp(out, ast.Add(), part)
    if wrap == "list":
        return out if len(parts) > 1 or isinstance(out, ast.List) else _call("list", [out])
    return _call(wrap, [out])


def _pairs(keys: list[ast.expr | None], values: list[ast.expr]) -> list[ast.expr]:
    """A dict display's entries as ``((k, v), ...)`` tuples and ``**`` operands."""
    out: list[ast.expr] = []
    run: list[ast.expr] = []
    for key, value in zip(keys, values, strict=True):
        if key is None:
            if run:
                out.append(ast.Tuple(run, ast.Load()))
                run = []
            out.append(value)
        else:
            run.append(ast.Tuple([key, value], ast.Load()))
    if run or not out:
        out.append(ast.Tuple(run, ast.Load()))
    return out


ENGINE = ("saikoro", "saikoro.dice", "saikoro.systems")
"""The parts of saikoro the browser's engine holds: what an engine module may import of it."""


class _Lowering(ast.NodeTransformer):
    def __init__(self, filename: str, enums: set[str], packages: frozenset[str]) -> None:
        self.filename = filename
        self.enums = set(enums)
        self.enum_scope: list[bool] = []
        self.packages = packages

    def fail(self, node: ast.AST, message: str) -> LoweringError:
        line = getattr(node, "lineno", 0)
        return LoweringError(f"{self.filename}:{line}: {message} (MicroPython lowering)")

    # ---- statements ------------------------------------------------------------------
    def body(self, nodes: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for node in nodes:
            if _is_docstring(node):
                continue
            lowered = self.visit(node)
            if lowered is None:
                continue
            if isinstance(lowered, list):
                out.extend(lowered)
            else:
                out.append(lowered)
        return out or [ast.Pass()]

    def visit_Module(self, node: ast.Module) -> ast.Module:
        node.body = self.body(node.body)
        node.body.insert(0, ast.Import([ast.alias("_mp")]))
        return node

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt] | None:
        test = node.test
        if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
            return self.body(node.orelse) if node.orelse else None
        if (
            isinstance(test, ast.UnaryOp)
            and isinstance(test.op, ast.Not)
            and isinstance(test.operand, ast.Name)
            and test.operand.id == "TYPE_CHECKING"
        ):
            return self.body(node.body)
        node.test = self.visit(node.test)
        node.body = self.body(node.body)
        node.orelse = self.body(node.orelse) if node.orelse else []
        return node

    def _generic_bodies(self, node: ast.stmt) -> ast.stmt:
        for field in ("body", "orelse", "finalbody"):
            value = getattr(node, field, None)
            if isinstance(value, list) and value:
                setattr(node, field, self.body(value))
        return node

    def visit_For(self, node: ast.For) -> ast.For:
        node.target = self.visit(node.target)
        node.iter = self.iterable(self.visit(node.iter))
        return self._generic_bodies(node)  # type: ignore[return-value]

    def visit_While(self, node: ast.While) -> ast.While:
        node.test = self.visit(node.test)
        return self._generic_bodies(node)  # type: ignore[return-value]

    def visit_With(self, node: ast.With) -> ast.With:
        node.items = [self.visit(i) for i in node.items]
        return self._generic_bodies(node)  # type: ignore[return-value]

    def visit_Try(self, node: ast.Try) -> ast.Try:
        node.handlers = [self.visit(h) for h in node.handlers]
        return self._generic_bodies(node)  # type: ignore[return-value]

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.ExceptHandler:
        if node.type is not None:
            node.type = self.visit(node.type)
        node.body = self.body(node.body)
        return node

    def visit_Import(self, node: ast.Import) -> ast.Import | None:
        names = []
        for alias in node.names:
            target = self.module(node, alias.name)
            if target is None:
                continue
            if target != alias.name:
                bound = alias.asname or alias.name
                if "." in bound:
                    raise self.fail(node, f"import {alias.name} needs an 'as' name")
                names.append(ast.alias(target, bound))
            else:
                names.append(alias)
        return ast.Import(names) if names else None

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.ImportFrom | None:
        if node.level:
            return node
        target = self.module(node, node.module or "")
        if target is None:
            return None
        return ast.ImportFrom(target, node.names, 0)

    def module(self, node: ast.AST, name: str) -> str | None:
        top = name.split(".", maxsplit=1)[0]
        if top == "saikoro":
            if name not in ENGINE and not name.startswith(tuple(f"{e}." for e in ENGINE[1:])):
                raise self.fail(
                    node,
                    f"the engine imports {name!r}, which the browser's engine does not hold "
                    f"(only {', '.join(ENGINE)}): a module that needs it belongs in one of the "
                    "system's parts (scenario, model, page, vtt, simulator)",
                )
            return name
        if top in self.packages:
            return name
        if name not in MODULES:
            raise self.fail(node, f"the engine imports {name!r}, which has no MicroPython shim")
        return MODULES[name]

    def visit_Raise(self, node: ast.Raise) -> ast.Raise:
        node.cause = None
        if node.exc is not None:
            node.exc = self.visit(node.exc)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.stmt | None:
        if node.value is None:
            return None
        return ast.Assign([self.visit(node.target)], self.type_value(self.visit(node.value)))

    def visit_Assign(self, node: ast.Assign) -> ast.Assign:
        node.targets = [self.visit(t) for t in node.targets]
        node.value = self.type_value(self.visit(node.value))
        return node

    def type_value(self, value: ast.expr) -> ast.expr:
        leaves = _union_leaves(value)
        if leaves is not None and len(leaves) > 1:
            return ast.Tuple([self.visit(leaf) for leaf in leaves], ast.Load())
        return value

    def _arguments(self, args: ast.arguments) -> ast.arguments:
        args.args = args.posonlyargs + args.args
        args.posonlyargs = []
        for arg in (*args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if arg is not None:
                arg.annotation = None
        args.defaults = [self.visit(d) for d in args.defaults]
        args.kw_defaults = [None if d is None else self.visit(d) for d in args.kw_defaults]
        return args

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.args = self._arguments(node.args)
        node.returns = None
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        self.enum_scope.append(False)
        node.body = self.body(node.body)
        self.enum_scope.pop()
        return node

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        raise self.fail(node, "async functions are not part of the engine")

    def visit_Lambda(self, node: ast.Lambda) -> ast.Lambda:
        node.args = self._arguments(node.args)
        node.body = self.visit(node.body)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        is_enum = any(_name_of(b) in {"Enum", "IntEnum", "StrEnum"} for b in node.bases)
        if is_enum:
            self.enums.add(node.name)
        fields = []
        members = []
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                if "ClassVar" not in ast.unparse(stmt.annotation):
                    fields.append(stmt.target.id)
            elif (
                is_enum
                and isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and not stmt.targets[0].id.startswith("_")
            ):
                members.append(stmt.targets[0].id)
        node.bases = self.bases([self.visit(b) for b in node.bases])
        node.keywords = [self.visit(k) for k in node.keywords]
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        self.enum_scope.append(is_enum)
        body = self.body(node.body)
        self.enum_scope.pop()
        extra: list[ast.stmt] = []
        if fields:
            extra.append(self._names_tuple("__mp_fields__", fields))
        if is_enum:
            extra.append(self._names_tuple("__mp_members__", members))
        node.body = extra + [s for s in body if not isinstance(s, ast.Pass)] or [ast.Pass()]
        if is_enum:
            node.decorator_list.append(ast.Attribute(ast.Name("_mp", ast.Load()), "enum_class"))
        return node

    @staticmethod
    def _names_tuple(name: str, names: list[str]) -> ast.Assign:
        return ast.Assign(
            [ast.Name(name, ast.Store())],
            ast.Tuple([ast.Constant(n) for n in names], ast.Load()),
        )

    @staticmethod
    def bases(bases: list[ast.expr]) -> list[ast.expr]:
        out = []
        for base in bases:
            if isinstance(base, ast.Subscript):
                if _name_of(base.value) != "Generic":
                    out.append(base.value)
                continue
            out.append(base)
        own = [b for b in out if _name_of(b) not in _EXCEPTIONS and _name_of(b) != "Exception"]
        builtin = [b for b in out if _name_of(b) in _EXCEPTIONS]
        if builtin and own:
            out = own  # MicroPython: one built-in exception layout per class
        return out

    # ---- expressions -----------------------------------------------------------------
    def is_enum(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name) and node.id == "cls" and self.enum_scope[-2:-1] == [True]:
            return True
        return _name_of(node) in self.enums

    def iterable(self, node: ast.expr) -> ast.expr:
        if self.is_enum(node):
            return _call("_mp.enum_members", [node])
        return node

    def visit_comprehension(self, node: ast.comprehension) -> ast.comprehension:
        node.target = self.visit(node.target)
        node.iter = self.iterable(self.visit(node.iter))
        node.ifs = [self.visit(i) for i in node.ifs]
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.Compare:
        self.generic_visit(node)
        node.comparators = [
            self.iterable(c) if isinstance(op, (ast.In, ast.NotIn)) else c
            for op, c in zip(node.ops, node.comparators, strict=True)
        ]
        return node

    def visit_Dict(self, node: ast.Dict) -> ast.Call:
        self.generic_visit(node)
        parts = _pairs(list(node.keys), list(node.values))
        if len(parts) == 1 and isinstance(parts[0], ast.Tuple):
            return _call("_mp.od", parts)
        return _call("_mp.od_merge", parts)

    def visit_DictComp(self, node: ast.DictComp) -> ast.Call:
        self.generic_visit(node)
        pair = ast.Tuple([node.key, node.value], ast.Load())
        return _call("_mp.od", [ast.GeneratorExp(pair, node.generators)])

    def visit_List(self, node: ast.List) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and any(isinstance(e, ast.Starred) for e in node.elts):
            return _concat(node.elts, "list")
        return node

    def visit_Tuple(self, node: ast.Tuple) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and any(isinstance(e, ast.Starred) for e in node.elts):
            return _concat(node.elts, "tuple")
        return node

    def visit_Set(self, node: ast.Set) -> ast.expr:
        self.generic_visit(node)
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return _concat(node.elts, "set")
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        self.generic_visit(node)
        if (
            isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id in _GENERIC_NAMES
        ):
            return node.value
        if isinstance(node.ctx, ast.Load) and self.is_enum(node.value):
            return _call("_mp.enum_named", [node.value, node.slice])
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Div):  # correctly rounded for integers beyond 2**53
            return _call("_mp.truediv", [node.left, node.right])
        return node

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in _MISSING_NAMES and isinstance(node.ctx, ast.Load):
            return ast.Attribute(ast.Name("_mp", ast.Load()), node.id, ast.Load())
        return node

    def visit_FormattedValue(self, node: ast.FormattedValue) -> ast.FormattedValue:
        self.generic_visit(node)
        if node.conversion == ord("r"):
            node.value = _call("_mp.repr", [node.value])
            node.conversion = -1
        elif node.conversion == ord("a"):
            raise self.fail(node, "!a conversions are not supported")
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id in _BUILTINS:
            if func.id == "dict":
                return self.dict_call(node)
            if func.id in {"isinstance", "issubclass"} and len(node.args) == 2:
                leaves = _union_leaves(node.args[1])
                if leaves is not None and len(leaves) > 1:
                    node.args[1] = ast.Tuple(leaves, ast.Load())
            node.func = ast.Attribute(ast.Name("_mp", ast.Load()), func.id, ast.Load())
            return node
        if isinstance(func, ast.Name) and func.id in {"list", "tuple", "len", "sorted", "set"}:
            node.args = [self.iterable(a) for a in node.args]
            if func.id == "sorted":  # MicroPython's sort is not stable
                node.func = ast.Attribute(ast.Name("_mp", ast.Load()), "sorted", ast.Load())
            return node
        if isinstance(func, ast.Attribute) and func.attr in METHODS:
            return _call(f"_mp.m_{func.attr}", [func.value, *node.args], node.keywords)
        if self.is_enum(func):
            return _call("_mp.enum_lookup", [func, *node.args])
        return node

    def dict_call(self, node: ast.Call) -> ast.Call:
        parts: list[ast.expr] = list(node.args)
        kw_pairs: list[ast.expr] = [
            ast.Tuple([ast.Constant(k.arg), k.value], ast.Load()) for k in node.keywords if k.arg
        ]
        starred = [k.value for k in node.keywords if k.arg is None]
        if kw_pairs:
            parts.append(ast.Tuple(kw_pairs, ast.Load()))
        parts += starred
        if len(parts) == 1 and not kw_pairs and not starred:
            return _call("_mp.od", parts)
        return _call("_mp.od_merge", parts)


def enum_names(sources: Iterable[str]) -> set[str]:
    """The names of the ``Enum`` classes defined in ``sources`` (module texts)."""
    found = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef) and any(
                _name_of(b) in {"Enum", "IntEnum", "StrEnum"} for b in node.bases
            ):
                found.add(node.name)
    return found


def lower(
    source: str, filename: str, enums: Iterable[str] = (), packages: Iterable[str] = ()
) -> str:
    """``source`` (one engine module) rewritten for MicroPython (see the module doc).

    Args:
        source: the module's text.
        filename: its path, for messages.
        enums: the names of the engine's enum classes (:func:`enum_names`), so iterating
            or calling one imported from another module is rewritten too.
        packages: the top-level packages of the installed systems' engines in the archive
            (``saikoro_toy``), which an engine module may import as it imports saikoro's.

    Raises:
        LoweringError: a construct or import the lowering cannot carry, or an import of a
            part of saikoro the browser's engine does not hold (:data:`ENGINE`).
    """
    tree = ast.parse(source, filename)
    tree = _Lowering(filename, set(enums), frozenset(packages)).visit(tree)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree) + "\n"
