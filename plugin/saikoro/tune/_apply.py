"""Writing a tuning suggestion back into the scenario file, every other byte kept.

The file is read by the project's own loader (:mod:`saikoro.scenario`'s, YAML 1.2 core, the
one validation reads), which says where each value is written (character offsets); an
edit replaces exactly those characters -- the one number, or the lines of the one enemy
added or removed -- so comments, quotes, flow or block style, indentation, key order,
line endings and a byte-order mark stay as the author wrote them. A value the mapping
takes from a merge key (``<<: *twin``) is written as the mapping's own key (the anchor,
which other entries share, is left alone); a value written as an alias (``hp: *base``)
has the alias replaced.

Tuning measures each version of the scenario as this module writes it, so what
``--apply`` writes is exactly what was measured. The result is read again and must differ
from the original by the edit alone (and validate, for ``--apply``); otherwise nothing is
written. The file is replaced in one step (:func:`saikoro.scenario.replace_file`): a full
disk, a file-size limit or a read-only file leaves it byte for byte as it was.
"""

from __future__ import annotations

import copy
import errno
import itertools
import re
from pathlib import Path
from typing import Any

from saikoro.balance import BalanceError
from saikoro.scenario import (
    MAX_BYTES,
    LoadError,
    LoadResult,
    Node,
    default_lang,
    newline_of,
    replace_file,
    validate_text,
)
from saikoro.scenario import decode_yaml as _decode
from saikoro.scenario import load_yaml as _load_yaml

from ._change import Change, fresh_id

__all__ = ["Source", "apply_changes", "edited_text"]

_LITERAL = re.compile(r"(?:[&!]\S*\s+)*(\S+)\Z")
"""A scalar's span: its anchor and tag (if any), then the literal."""
_ALIAS = re.compile(r"[ \t]*:[ \t]*(\*[^\s,\[\]{}]+)")
"""After a key: the colon, then an alias."""
_BREAKS = "\r\n"

Edit = tuple[int, int, str]
"""Replace the characters ``[start, end)`` with the text."""


def _line_start(text: str, index: int) -> int:
    return max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1


def _line_end(text: str, index: int) -> int:
    """The offset just after the line break ending the line that holds ``index``."""
    n = len(text)
    i = index
    while i < n and text[i] not in _BREAKS:
        i += 1
    if i < n and text[i] == "\r" and text[i + 1 : i + 2] == "\n":
        return i + 2
    return min(n, i + 1)


def _content_end(node: Node) -> int:
    """Where ``node``'s last written character ends (a block collection's trailing blank
    lines and comments left out)."""
    if node.kind == "scalar" or node.flow:
        return node.end
    children: list[Node]
    if node.kind == "seq":
        children = [c for c in node.value if node.start <= c.start < node.end]
    else:
        children = []
        for key, value in node.value.values():
            if node.start <= key.start < node.end:
                children.append(key)
                if value.start > key.start:  # not an alias of an earlier anchor
                    children.append(value)
    return max((_content_end(c) for c in children), default=node.end)


class Source:
    """One scenario file's text as the loader reads it, and versions of it with edits.

    Raises:
        BalanceError: the text does not load (see :class:`~saikoro.scenario.LoadError`).
    """

    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        try:
            self.root = _load_yaml(text, file)
        except LoadError as e:
            raise BalanceError("; ".join(p.format(default_lang()) for p in e.problems)) from None
        self.data: dict[str, Any] = self.root.to_python()
        self.newline = newline_of(text[:4096].encode("utf-8"))

    # -- where things are ---------------------------------------------------------------

    def node(self, keys: tuple[str | int, ...]) -> Node | None:
        """The node at ``keys`` (``None``: not written)."""
        node: Node | None = self.root
        for k in keys:
            if node is None:
                return None
            if node.kind == "map":
                node = node.get(k)
            elif node.kind == "seq" and isinstance(k, int) and 0 <= k < len(node.value):
                node = node.value[k]
            else:
                return None
        return node

    def position(self, keys: tuple[str | int, ...]) -> tuple[int, int]:
        """(line, column) of the value at ``keys``, or of the nearest written part above it."""
        for n in range(len(keys), -1, -1):
            node = self.node(keys[:n])
            if node is not None:
                return node.line, node.column
        return 1, 1

    def _where(self, change: Change, node: Node | None = None) -> str:
        line, column = (node.line, node.column) if node else self.position(change.keys)
        return f"{self.file}:{line}:{column}"

    # -- edits ----------------------------------------------------------------------------

    def edited(self, changes: tuple[Change, ...] | list[Change]) -> str:
        """The text with ``changes`` made, each on the characters where the file writes it.

        Raises:
            BalanceError: a change cannot be made in place, or the result, read again, is
                not the original with the changes alone.
        """
        expected = copy.deepcopy(self.data)
        edits: list[Edit] = []
        for change in changes:
            if change.kind == "set":
                edits.append(self._set_number(change))
                _put(expected, change.keys, change.new)
            elif change.kind in ("add_enemy", "remove_enemy"):
                edits.append(self._enemy_edit(change))
                _enemies(expected, change)
            else:
                raise BalanceError(f"{change.path}: 未知の変更 {change.kind!r}")
        edits.sort(key=lambda e: (e[0], e[1]))
        for (_, end, _t), (start, _e, _u) in itertools.pairwise(edits):
            if start < end:
                raise BalanceError("変更どうしが同じ文字に重なるので、一度には書き込めません")
        new = self.text
        for start, end, replacement in reversed(edits):
            new = new[:start] + replacement + new[end:]
        try:
            again = _load_yaml(new, self.file).to_python()
        except LoadError as e:
            where = "; ".join(p.format(default_lang()) for p in e.problems)
            raise BalanceError(f"書き換えた結果が YAML として読めません（{where}）") from None
        if again != expected:
            raise BalanceError(
                f"{self.file}: 書き換えが、指定した値のほかも変えてしまいます"
                "（アンカーや別名で共有された値など）。手で書き換えてください"
            )
        return new

    def _set_number(self, change: Change) -> Edit:
        parent = self.node(change.keys[:-1])
        key = change.keys[-1]
        if parent is None:
            raise BalanceError(f"{self._where(change)}: {change.path} の場所が見つかりません")
        if parent.kind == "map":
            pair = parent.value.get(key)
            if pair is None or not parent.start <= pair[0].start < parent.end:
                return self._add_key(parent, str(key), change)  # not written, or merged in
            key_node, value = pair
            if value.start < key_node.start:  # an alias of an earlier anchor: replace it
                found = _ALIAS.match(self.text, key_node.end)
                if found is None:
                    raise BalanceError(
                        f"{self._where(change, key_node)}: {change.path} の値の書き方が"
                        "読み取れません。手で書き換えてください"
                    )
                return found.start(1), found.end(1), str(change.new)
        elif parent.kind == "seq" and isinstance(key, int) and 0 <= key < len(parent.value):
            value = parent.value[key]
        else:
            raise BalanceError(f"{self._where(change)}: {change.path} の場所が見つかりません")
        span = self.text[value.start : value.end]
        literal = _LITERAL.search(span)
        if (
            value.kind != "scalar"
            or not value.plain
            or literal is None
            or value.value != change.old
            or isinstance(value.value, bool)
        ):
            raise BalanceError(
                f"{self._where(change, value)}: {change.path} に {change.old} が書かれていません"
            )
        return value.start + literal.start(1), value.end, str(change.new)

    def _add_key(self, parent: Node, key: str, change: Change) -> Edit:
        """``key: value`` added to the mapping ``parent`` (a block mapping: a line after its
        last line, at its keys' indent; a flow mapping: before its ``}``)."""
        if parent.flow:
            close = self.text.rfind("}", parent.start, parent.end)
            if close < 0:
                raise BalanceError(f"{self._where(change, parent)}: {key}: を足す場所がありません")
            return close, close, f", {key}: {change.new}"
        own = [k for k, _ in parent.value.values() if parent.start <= k.start < parent.end]
        column = min((k.column for k in own), default=parent.column) - 1
        indent = self.text[_line_start(self.text, parent.start) :][:column]
        if indent.strip(" -"):
            raise BalanceError(f"{self._where(change, parent)}: {key}: を足す場所がありません")
        at = _line_end(self.text, max(parent.start, _content_end(parent) - 1))
        line = " " * column + f"{key}: {change.new}"
        if at == len(self.text) and not self.text.endswith(tuple(_BREAKS)):
            return at, at, self.newline + line
        return at, at, line + self.newline

    def _enemy_edit(self, change: Change) -> Edit:
        enemies = self.root.get("enemies")
        index = change.keys[1] if len(change.keys) == 2 else None
        if enemies is None or enemies.kind != "seq" or not isinstance(index, int):
            raise BalanceError(f"{self.file}: enemies がリストとして書かれていません")
        if enemies.flow:
            raise BalanceError(
                f"{self._where(change, enemies)}: [...] で書かれた enemies には"
                "エネミーを足し引きできません。手で書き換えてください"
            )
        item = enemies.value[index]
        dash = item.start - 1
        while dash >= 0 and self.text[dash] in " \t\r\n":
            dash -= 1
        first = _line_start(self.text, max(dash, 0))
        if dash < 0 or self.text[dash] != "-" or self.text[first:dash].strip(" -"):
            raise BalanceError(f"{self._where(change, item)}: このエネミーの行が読み取れません")
        end = _line_end(self.text, max(item.start, _content_end(item) - 1))
        if change.kind == "remove_enemy":
            return first, end, ""
        block = self.text[first:end]
        ident = item.get("id")
        if ident is None or not first <= ident.start < end:
            raise BalanceError(
                f"{self._where(change, item)}: このエネミーの id が見つからないので"
                "写しを作れません。手で書き足してください"
            )
        taken = {str(e.get("id")) for e in self.data.get("enemies") or [] if isinstance(e, dict)}
        fresh = fresh_id(str(ident.value), taken)
        written = self.text[ident.start : ident.end]
        quote = written[0] if written[:1] in ("'", '"') else ""
        at = ident.start - first
        block = block[:at] + quote + fresh + quote + block[ident.end - first :]
        if not block.endswith(tuple(_BREAKS)):
            return end, end, self.newline + block
        return end, end, block


def edited_text(text: str, changes: tuple[Change, ...], file: str = "scenario.yaml") -> str:
    """``text`` with ``changes`` made (see :meth:`Source.edited`).

    Raises:
        BalanceError: a change cannot be made in place, or the result is not the edit.
    """
    return Source(text, file).edited(changes)


def _put(data: Any, keys: tuple[str | int, ...], value: object) -> None:
    for k in keys[:-1]:
        data = data[k]
    data[keys[-1]] = value


def _enemies(data: Any, change: Change) -> None:
    enemies = data["enemies"]
    index = int(change.keys[1])
    if change.kind == "remove_enemy":
        del enemies[index]
    else:
        twin = copy.deepcopy(enemies[index])
        taken = {str(e.get("id")) for e in enemies}
        twin["id"] = fresh_id(str(twin.get("id", "enemy")), taken)
        enemies.insert(index + 1, twin)


_BOM = b"\xef\xbb\xbf"


def apply_changes(path: Path, changes: tuple[Change, ...]) -> LoadResult:
    """Write ``changes`` into the scenario file at ``path``; its new validation result.

    Raises:
        BalanceError: the edit cannot be made in place, would make the file invalid, or
            cannot be written (read-only, full disk, file-size limit); the file is then
            left byte for byte as it was.
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        raise BalanceError(f"{path}: ファイルを読めません（{e.strerror or e}）") from None
    if len(data) > MAX_BYTES:
        raise BalanceError(f"{path}: ファイルが大きすぎます（{len(data):,} バイト）")
    try:
        text = _decode(data, str(path))
    except LoadError as e:
        raise BalanceError("; ".join(p.format(default_lang()) for p in e.problems)) from None
    new = Source(text, str(path)).edited(changes)
    result = validate_text(new, path.name)
    if result.scenario is None:
        problems = "; ".join(p.format(default_lang()) for p in result.errors)
        raise BalanceError(f"{path}: この変更ではファイルが検証を通らなくなります: {problems}")
    encoded = new.encode("utf-8")
    if data.startswith(_BOM):
        encoded = _BOM + encoded
    try:
        replace_file(path, encoded)
    except PermissionError:
        raise BalanceError(
            f"{path}: 書き込めません（ファイルかフォルダが読み取り専用です）。"
            "書き込みを許可してからもう一度実行してください。ファイルは元のままです"
        ) from None
    except OSError as e:
        why = {
            errno.ENOSPC: "ディスクがいっぱいです",
            errno.EDQUOT: "ディスクの割り当て（クォータ）を超えます",
            errno.EFBIG: "ファイルサイズの上限を超えます",
            errno.EROFS: "読み取り専用のファイルシステムです",
        }.get(e.errno or 0, e.strerror or str(e))
        raise BalanceError(f"{path}: 書き込めません（{why}）。ファイルは元のままです") from None
    return result
