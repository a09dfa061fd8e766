"""Safe, bounded YAML loading into position-carrying nodes.

The text is parsed and composed into a node graph by libyaml (``yaml.CSafeLoader``'s
composer, when available; aliases stay shared, nothing is expanded) and then walked
into :class:`Node` trees here. Nothing is constructed from tags: only the core scalar
tags are allowed, so a ``!!python/object`` tag is a problem and runs nothing. Limits
guard against hostile files:

* :data:`MAX_BYTES` — bigger files are refused before parsing;
* :data:`MAX_DEPTH` — nesting deeper than this is refused;
* :data:`MAX_NODES` — the node count *with aliases expanded* (an alias bomb is
  refused as soon as its expansion passes the budget; nothing is expanded in memory);
* :data:`MAX_SCALAR` — a single scalar longer than this is refused.

Duplicate keys, several documents, an empty file or a root that is not a mapping are
problems too (PyYAML itself would keep the last duplicate silently).

YAML 1.1 (libyaml) breaks lines at NEL (U+0085), LS (U+2028) and PS (U+2029) too, where
editors show none: such a character in a comment makes the rest of the comment settings
that the editor shows as comment. Outside a scalar it is refused at its place
(:func:`_separators`); inside a quoted one it is text, and positions are counted as an
editor counts lines (at ``\n`` only).

>>> root = load_yaml(b"title: x\\nhp: 40\\n", "s.yaml")
>>> root.kind, root.get("hp").value, root.get("hp").line, root.get("hp").column
('map', 40, 2, 5)
>>> try:
...     load_yaml(b"a: 1\\na: 2\\n", "s.yaml")
... except LoadError as e:
...     print(e.problems[0].format())
s.yaml:2:1: error: scenario.a: duplicate key 'a' (first defined on line 1)
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml
from yaml.nodes import ScalarNode, SequenceNode

from saikoro.dice import SaikoroError

from . import _syntax as syntax
from ._problems import Msg, Problem, show_value
from ._scalars import MAP as _MAP
from ._scalars import MAX_SCALAR
from ._scalars import MERGE as _MERGE
from ._scalars import SEQ as _SEQ
from ._scalars import STR as _STR
from ._scalars import CoreLoader as _Loader
from ._scalars import scalar_value as _scalar

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "MAX_SCALAR",
    "LoadError",
    "Node",
    "load_yaml",
]

MAX_BYTES = 1024 * 1024
"""Files larger than this (1 MiB) are refused; a scenario is a few kilobytes."""
MAX_DEPTH = 40
"""Maximum nesting of mappings and lists."""
MAX_NODES = 50_000
"""Maximum number of nodes, counting every alias as a full copy of its target."""
PRESCAN_CHARS = 64 * 1024
"""Texts longer than this get a cheap node count before they are composed."""
_PLAIN_KEY = re.compile(r"[^.\[\] \t\"'\\\x00-\x1f\x7f-\x9f]+")
_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f]")

Kind = Literal["map", "seq", "scalar"]


@dataclass(eq=False, slots=True)
class Node:
    """A YAML node with its 1-based position.

    Attributes:
        kind: ``map``, ``seq`` or ``scalar``.
        value: for ``scalar`` the Python value (str, int, float, bool or None); for
            ``seq`` a list of nodes; for ``map`` a dict key -> (key node, value node).
        line: 1-based line of the node's start.
        column: 1-based column of the node's start.
        size: nodes in this subtree, aliases expanded.
        plain: a plain (unquoted) scalar.
        start / end: where the node is written, as character offsets into the decoded
            text (a BOM dropped): a scalar's own characters; a collection from its first
            character to where the next token starts (a block collection's end takes in
            the blank lines and comments after it). An alias gives its anchor's node, so
            its offsets are the anchor's.
        flow: a collection written in flow style (``[...]``, ``{...}``).
    """

    kind: Kind
    value: Any
    line: int
    column: int
    size: int = 1
    plain: bool = field(default=False)
    start: int = 0
    end: int = 0
    flow: bool = False

    def get(self, key: object) -> Node | None:
        """The value node of ``key`` in a mapping node (``None`` if absent or not a map)."""
        if self.kind != "map":
            return None
        pair = self.value.get(key)
        return None if pair is None else pair[1]

    def to_python(self) -> Any:
        """Plain Python data (dicts, lists, scalars)."""
        if self.kind == "scalar":
            return self.value
        if self.kind == "seq":
            return [n.to_python() for n in self.value]
        return {k: v.to_python() for k, (_, v) in self.value.items()}


class LoadError(SaikoroError, ValueError):
    """The file could not be loaded; ``problems`` says why and where."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.format() for p in problems))
        self.problems = problems


def _problem(file: str, line: int, column: int, path: str, msg: Msg) -> Problem:
    return Problem(file, line, column, "error", path, msg)


_SYNTAX: dict[str, tuple[str, str | None]] = {
    "mapping values are not allowed in this context": ("yaml.colon", "hint.yaml.quote_colon"),
    "found character that cannot start any token": ("yaml.token", "hint.yaml.quote_token"),
    "did not find expected ',' or ']'": ("yaml.flow_seq", None),
    "did not find expected ',' or '}'": ("yaml.flow_map", None),
    "found unexpected end of stream": ("yaml.eof", "hint.yaml.close_quote"),
    "found undefined alias": ("yaml.alias", None),
    "did not find expected key": ("yaml.key", "hint.yaml.indent"),
    "could not find expected ':'": ("yaml.expected_colon", None),
    "found a tab character that violates indentation": ("yaml.tab", "hint.yaml.tab"),
    "did not find expected '-' indicator": ("yaml.dash", "hint.yaml.indent"),
    "block sequence entries are not allowed in this context": ("yaml.block_seq", None),
    "found unknown escape character": ("yaml.escape", "hint.yaml.escape"),
    "second occurrence": ("yaml.anchor", None),
}


def _likely_mistake(problem: str, text: str, line: int, col: int) -> syntax.Finding | None:
    """The author's mistake behind libyaml's ``problem`` at (line, col), if recognised."""
    wide = syntax.wide_space(text, line)
    if wide is not None:
        return wide
    if problem.startswith("mapping values are not allowed"):
        return (
            syntax.pulled_out(text, line)
            or syntax.over_indented(text, line)
            or syntax.value_colon(text, line, col)
        )
    if problem.startswith(("did not find expected key", "did not find expected '-'")):
        return syntax.misaligned(text, line)
    if problem.startswith("did not find expected ',' or '}'"):
        return syntax.flow_colon(text, line, col)
    if problem.startswith("could not find expected ':'"):
        return syntax.key_colon(text, line)
    return None


def _syntax_problem(e: yaml.MarkedYAMLError, text: str, file: str, line: int, col: int) -> Problem:
    """A syntax error: the mistake it most likely is (:mod:`._syntax`), else libyaml's
    wording translated when it is a known one."""
    problem = str(e.problem or "")
    lines = text.split("\n", line)
    if line <= len(lines) and lines[line - 1][col - 1 : col] == "\t":
        problem = "found a tab character that violates indentation"
    found = _likely_mistake(problem, text, line, col)
    if found is not None:
        msg = Msg("load.syntax", (found.msg,))
        return Problem(file, found.line, found.column, "error", "scenario", msg, found.hint)
    known = _SYNTAX.get(problem)
    if known is None:
        known = next((v for k, v in _SYNTAX.items() if problem.startswith(k)), None)
    if known is not None:
        code, hint = known
        msg = Msg("load.syntax", (Msg(code),))
        return Problem(file, line, col, "error", "scenario", msg, Msg(hint) if hint else None)
    detail = " ".join(str(s) for s in (e.problem, e.context and f"({e.context})") if s)
    return _problem(file, line, col, "scenario", Msg("load.syntax", (detail,)))


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


_SEPARATOR = re.compile("[\x85\u2028\u2029]")
"""The line breaks of YAML 1.1 that editors do not show as line breaks."""
_SEPARATOR_NAMES = {"\x85": "nel", "\u2028": "line_separator", "\u2029": "paragraph"}


class _Places:
    """Editor positions (1-based line and column, lines broken at ``\n`` only) of libyaml's
    marks, which count NEL, LS and PS as line breaks too: the mark's own line and column
    when the text has none of them, else counted from its character index."""

    def __init__(self, text: str) -> None:
        self.text = text if _SEPARATOR.search(text) else None

    def of(self, mark: Any) -> tuple[int, int]:
        if self.text is None or mark.index is None:
            return mark.line + 1, mark.column + 1
        return _line_col(self.text, min(mark.index, len(self.text)))


def _separators(text: str, file: str) -> list[Problem]:
    """A problem at every NEL, LS or PS outside a scalar (in a comment, between tokens).

    libyaml breaks the line there and reads what follows as YAML; an editor shows one line,
    so the rest of a comment looks like comment but is read. Inside a scalar the character
    is the scalar's text (checked with the field). Only the part of the file libyaml could
    scan is looked at (a syntax error after it is reported as usual).
    """
    if _SEPARATOR.search(text) is None:
        return []
    spans: list[tuple[int, int]] = []
    end = len(text)
    loader = _Loader(text)
    try:
        while (token := loader.get_token()) is not None:
            if isinstance(token, yaml.ScalarToken):
                spans.append((token.start_mark.index, token.end_mark.index))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        end = mark.index if mark is not None and mark.index is not None else 0
    finally:
        loader.dispose()
    starts = [start for start, _ in spans]
    problems = []
    for match in _SEPARATOR.finditer(text, 0, end):
        at = match.start()
        i = bisect.bisect_right(starts, at) - 1
        if i >= 0 and at < spans[i][1]:
            continue  # the text of a scalar
        line, col = _line_col(text, at)
        char = match.group()
        msg = Msg("load.separator", (f"U+{ord(char):04X}", Msg(f"char.{_SEPARATOR_NAMES[char]}")))
        problems.append(Problem(file, line, col, "error", "scenario", msg, Msg("hint.separator")))
    return problems


def decode(data: bytes, file: str) -> str:
    """Decode UTF-8 (a BOM is dropped); bad bytes are a :class:`LoadError` at their place.

    >>> try:
    ...     decode(b"a: 1\\nb: \\xff\\n", "s.yaml")
    ... except LoadError as e:
    ...     print(e.problems[0].format())
    s.yaml:2:4: error: scenario: the file is not valid UTF-8 (byte 0xff)
    """
    if len(data) > MAX_BYTES:
        raise LoadError(
            [_problem(file, 1, 1, "scenario", Msg("load.too_big", (len(data), MAX_BYTES)))]
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = data[: e.start].decode("utf-8", "replace")
        line, col = _line_col(good, len(good))
        byte = f"0x{data[e.start]:02x}"
        raise LoadError(
            [_problem(file, line, col, "scenario", Msg("load.utf8", (byte,)))]
        ) from None
    return text.removeprefix("\ufeff")


def _key_text(key: object) -> str:
    text = str(key) if not isinstance(key, bool) else ("true" if key else "false")
    if _PLAIN_KEY.fullmatch(text) is None:
        quoted = text.replace("\\", "\\\\").replace('"', '\\"')
        return '"' + _CONTROL_CHARS.sub(lambda m: f"\\x{ord(m.group()):02x}", quoted) + '"'
    return text


def join_path(path: str, key: object) -> str:
    """Extend a key path: ints index lists, other keys are dotted (quoted if needed).

    >>> join_path("scenario.enemies", 0), join_path("scenario", "hp"), join_path("x", "a b")
    ('scenario.enemies[0]', 'scenario.hp', 'x."a b"')
    """
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{path}[{key}]"
    return f"{path}.{_key_text(key)}"


def load_yaml(data: bytes | str, file: str, problems: list[Problem] | None = None) -> Node:
    """Parse ``data`` (bytes are decoded as UTF-8) into the root mapping :class:`Node`.

    Duplicate keys are appended to ``problems`` (the first value is kept) when a list is
    given, and raised as a :class:`LoadError` otherwise.

    Raises:
        LoadError: on any syntax, safety or shape problem (with file, line and column).
    """
    if isinstance(data, str):
        given = data
        try:
            data = given.encode("utf-8")
        except UnicodeEncodeError as e:
            line, col = _line_col(given, e.start)
            msg = Msg("load.utf8", (f"U+{ord(given[e.start]):04X}",))
            raise LoadError([_problem(file, line, col, "scenario", msg)]) from None
    text = decode(data, file)
    hidden = _separators(text, file)
    if hidden:  # the file reads otherwise than it shows: nothing else said would be right
        raise LoadError(hidden)
    places = _Places(text)
    try:
        found: list[Problem] = []
        root = _compose(text, file, found, places)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = places.of(mark) if mark else (1, 1)
        if "single document" in str(e.context):
            raise LoadError(
                [_problem(file, line, col, "scenario", Msg("load.documents"))]
            ) from None
        raise LoadError([_syntax_problem(e, text, file, line, col)]) from None
    except yaml.reader.ReaderError as e:
        raw = text.encode("utf-8")  # libyaml reports a byte offset
        index = len(raw[: e.position].decode("utf-8", "ignore"))
        line, col = _line_col(text, min(index, len(text)))
        char = e.character if isinstance(e.character, str) else chr(e.character)
        code = f"U+{ord(char):04X}"
        raise LoadError(
            [_problem(file, line, col, "scenario", Msg("load.char", (code,)))]
        ) from None
    except RecursionError:  # only the pure-Python fallback composer recurses
        raise LoadError(
            [_problem(file, 1, 1, "scenario", Msg("load.too_deep", (MAX_DEPTH,)))]
        ) from None
    except yaml.YAMLError as e:  # pragma: no cover - other libyaml errors carry no mark
        raise LoadError([_problem(file, 1, 1, "scenario", Msg("load.syntax", (str(e),)))]) from None
    if found:
        if problems is None:
            raise LoadError(found)
        problems.extend(found)
    return root


def _prescan(text: str, file: str, places: _Places) -> None:
    """Count nodes from the event stream, stopping at the budget (for big files only).

    libyaml's composer builds the whole graph before the walk can count it, so a big
    file of many tiny values is refused here first, cheaply.
    """
    loader = _Loader(text)
    counted = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent)
    total = 0
    try:
        while (event := loader.get_event()) is not None:
            if isinstance(event, counted):
                total += 1
                if total > MAX_NODES:
                    mark = event.start_mark
                    line, col = places.of(mark) if mark else (1, 1)
                    msg = Msg("load.too_many_nodes", (MAX_NODES,))
                    problem = _problem(file, line, col, "scenario", msg)
                    raise LoadError([problem])
    finally:
        loader.dispose()


def _compose(text: str, file: str, found: list[Problem], places: _Places) -> Node:
    if len(text) > PRESCAN_CHARS:
        _prescan(text, file, places)
    loader = _Loader(text)
    try:
        ynode = loader.get_single_node()
    finally:
        loader.dispose()
    if ynode is None:
        raise LoadError([_problem(file, 1, 1, "scenario", Msg("load.empty"))])
    walker = _Walker(file, found, places)
    root = walker.walk(ynode, 0)
    if root.kind == "scalar" and root.value is None:
        raise LoadError([_problem(file, 1, 1, "scenario", Msg("load.empty"))])
    if root.kind != "map":
        shown = Msg("v.seq") if root.kind == "seq" else show_value(root.value)
        raise walker.fail(root.line, root.column, Msg("load.not_mapping", (shown,)))
    return root


class _Walker:
    """Turns composed PyYAML nodes into :class:`Node` trees, within the limits."""

    def __init__(self, file: str, found: list[Problem], places: _Places) -> None:
        self.file = file
        self.places = places
        self.found = found
        self.keys: list[object] = []
        self.active: set[int] = set()
        self.total = 0
        self.done: dict[int, Node] = {}

    def path(self) -> str:
        out = "scenario"
        for key in self.keys:
            out = join_path(out, key)
        return out

    def fail(self, line: int, col: int, msg: Msg) -> LoadError:
        return LoadError([_problem(self.file, line, col, self.path(), msg)])

    def walk(self, ynode: Any, depth: int) -> Node:
        mark = ynode.start_mark
        line, col = self.places.of(mark)
        ident = id(ynode)
        shared = self.done.get(ident)
        if shared is not None:  # an alias: counted again, built once
            self.total += shared.size
            if self.total > MAX_NODES:
                raise self.fail(line, col, Msg("load.too_many_nodes", (MAX_NODES,)))
            return shared
        self.total += 1
        if self.total > MAX_NODES:
            raise self.fail(line, col, Msg("load.too_many_nodes", (MAX_NODES,)))
        if isinstance(ynode, ScalarNode):
            value = ynode.value
            if ynode.tag != _STR or len(value) > MAX_SCALAR:
                value = _scalar(ynode)
            if isinstance(value, Msg):
                raise self.fail(line, col, value)
            node = Node(
                "scalar",
                value,
                line,
                col,
                1,
                not ynode.style,
                mark.index,
                ynode.end_mark.index,
            )
            self.done[ident] = node
            return node
        if ident in self.active:
            raise self.fail(line, col, Msg("load.recursive"))
        if depth >= MAX_DEPTH:
            raise self.fail(line, col, Msg("load.too_deep", (MAX_DEPTH,)))
        self.active.add(ident)
        keys = self.keys
        if isinstance(ynode, SequenceNode):
            if ynode.tag != _SEQ:
                raise self.fail(line, col, Msg("load.tag", (ynode.tag,)))
            items = []
            for i, child in enumerate(ynode.value):
                keys.append(i)
                items.append(self.walk(child, depth + 1))
                keys.pop()
            size = 1 + sum(n.size for n in items)
            end = ynode.end_mark.index
            node = Node("seq", items, line, col, size, False, mark.index, end, ynode.flow_style)
        else:
            if ynode.tag != _MAP:
                raise self.fail(line, col, Msg("load.tag", (ynode.tag,)))
            node = self.mapping(ynode, line, col, depth)
        self.active.discard(ident)
        self.done[ident] = node
        return node

    def mapping(self, ynode: Any, line: int, col: int, depth: int) -> Node:
        result: dict[object, tuple[Node, Node]] = {}
        merged: dict[object, tuple[Node, Node]] = {}
        size = 1
        keys = self.keys
        for ykey, yvalue in ynode.value:
            if ykey.tag == _MERGE:
                keys.append("<<")
                value = self.walk(yvalue, depth + 1)
                size += value.size
                sources = value.value if value.kind == "seq" else [value]
                for source in sources:
                    if source.kind != "map":
                        raise self.fail(value.line, value.column, Msg("load.merge"))
                    for k, pair in source.value.items():
                        merged.setdefault(k, pair)
                keys.pop()
                continue
            if not isinstance(ykey, ScalarNode):
                at = self.places.of(ykey.start_mark)
                raise self.fail(*at, Msg("load.key", (Msg("v.complex"),)))
            key = self.walk(ykey, depth + 1)
            k = key.value
            if isinstance(k, float) or k is None:
                raise self.fail(key.line, key.column, Msg("load.key", (show_value(k),)))
            keys.append(str(k) if isinstance(k, int) else k)
            value = self.walk(yvalue, depth + 1)
            keys.pop()
            size += key.size + value.size
            if k in result:
                first = result[k][0]
                msg = Msg("load.duplicate", (show_value(k), first.line))
                path = join_path(self.path(), str(k) if isinstance(k, int) else k)
                self.found.append(_problem(self.file, key.line, key.column, path, msg))
                continue
            result[k] = (key, value)
        for k, pair in merged.items():
            result.setdefault(k, pair)
        end = ynode.end_mark.index
        return Node(
            "map", result, line, col, size, False, ynode.start_mark.index, end, ynode.flow_style
        )
