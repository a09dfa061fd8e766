"""Writing a tuning suggestion back into the scenario file, every other byte kept.

ruamel.yaml's round-trip parser reads the file and says where each value and each list
item is written (line and column); the edit then changes exactly those characters — the
one number, or the lines of the one enemy added or removed — so comments, quotes, flow or
block style, indentation and key order stay as the author wrote them (dumping the whole
document again would reformat it). The result is parsed again and must differ from the
original only by the edit, and validate; otherwise the file is left untouched.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from saikoro.scenario import LoadResult, validate_text

from ._errors import BalanceError
from ._tune import Change

__all__ = ["apply_changes", "edited_text"]

_NUMBER = re.compile(r"-?\d+")


def _parse(text: str) -> Any:
    return YAML(typ="rt").load(text)


def _node(root: Any, keys: tuple[str | int, ...]) -> Any:
    for k in keys:
        root = root[k]
    return root


def _set_number(lines: list[str], root: Any, change: Change) -> None:
    """Replace the number at ``change.keys`` where the file writes it."""
    parent = _node(root, change.keys[:-1])
    key = change.keys[-1]
    if isinstance(parent, CommentedMap) and key not in parent:
        _add_key(lines, parent, str(key), change.new)
        return
    if isinstance(parent, CommentedMap):
        line, column = parent.lc.value(key)
    elif isinstance(parent, CommentedSeq) and isinstance(key, int):
        line, column = parent.lc.item(key)
    else:
        raise BalanceError(f"{change.path}: cannot find where the file writes it")
    found = _NUMBER.match(lines[line], column)
    if found is None or int(found.group()) != change.old:
        raise BalanceError(f"{change.path}: the file does not hold {change.old} there")
    lines[line] = lines[line][: found.start()] + str(change.new) + lines[line][found.end() :]


def _add_key(lines: list[str], parent: CommentedMap, key: str, value: object) -> None:
    """Add ``key: value`` to a block mapping, after its last line, at its keys' indent."""
    if parent.fa.flow_style() or not parent:
        raise BalanceError(f"cannot add {key}: to a mapping written in flow style; add it by hand")
    keys = list(parent)
    first_line, column = parent.lc.key(keys[0])
    last = keys[-1]
    end = _end_of(lines, parent.lc.key(last)[0], column)
    lines.insert(end, " " * column + f"{key}: {value}\n")
    del first_line


def _end_of(lines: list[str], start: int, column: int) -> int:
    """The line after the block that starts at ``start`` (its lines are indented past
    ``column``, blank lines and comments included)."""
    end = start + 1
    while end < len(lines):
        stripped = lines[end].strip()
        indent = len(lines[end]) - len(lines[end].lstrip(" "))
        if stripped and not stripped.startswith("#") and indent <= column:
            break
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # trailing blank lines belong to what follows
    return end


def _item_lines(lines: list[str], seq: CommentedSeq, index: int) -> tuple[int, int]:
    """The lines ``[start, end)`` of item ``index`` of a block sequence."""
    if seq.fa.flow_style():
        raise BalanceError("cannot copy an enemy of a list written in flow style; edit by hand")
    start, column = seq.lc.item(index)
    dash = lines[start].rfind("- ", 0, column + 1)
    if dash < 0:
        raise BalanceError("cannot find the enemy's first line")
    if index + 1 < len(seq):
        end = seq.lc.item(index + 1)[0]
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        return start, end
    return start, _end_of(lines, start, dash)


def _enemy_edit(lines: list[str], root: Any, change: Change) -> None:
    enemies = root["enemies"]
    if not isinstance(enemies, CommentedSeq):
        raise BalanceError("enemies is not a list")
    index = int(change.keys[1])
    start, end = _item_lines(lines, enemies, index)
    if change.kind == "remove_enemy":
        del lines[start:end]
        return
    enemy = enemies[index]
    taken = {str(e.get("id")) for e in enemies if isinstance(e, CommentedMap)}
    stem = re.sub(r"-\d+$", "", str(enemy.get("id", "enemy")))
    fresh = next(f"{stem}-{n}" for n in range(2, 100) if f"{stem}-{n}" not in taken)
    block = lines[start:end]
    line, column = enemy.lc.value("id")
    offset = line - start
    old = str(enemy["id"])
    at = block[offset].find(old, column)
    if at < 0:
        raise BalanceError("cannot find the enemy's id")
    block[offset] = block[offset][:at] + fresh + block[offset][at + len(old) :]
    lines[end:end] = block


def edited_text(text: str, changes: tuple[Change, ...]) -> str:
    """``text`` with ``changes`` made (each on the characters where the file writes it).

    Raises:
        BalanceError: a change cannot be made in place, or the result is not the edit.
    """
    root = _parse(text)
    if not isinstance(root, CommentedMap):
        raise BalanceError("not a scenario mapping")
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
        trailing = False
    else:
        trailing = True
    expected = copy.deepcopy(_plain(root))
    # the later edits first, so earlier lines keep their positions
    for change in sorted(changes, key=lambda c: (c.line, c.column), reverse=True):
        if change.kind == "set":
            _set_number(lines, root, change)
            _put(expected, change.keys, change.new)
        else:
            _enemy_edit(lines, root, change)
            _enemies(expected, change)
    new = "".join(lines)
    if not trailing:
        new = new[:-1]
    if _plain(_parse(new)) != expected:
        raise BalanceError("the edit changed more than the values it names")
    return new


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _put(data: Any, keys: tuple[str | int, ...], value: object) -> None:
    for k in keys[:-1]:
        data = data[k if isinstance(k, int) else str(k)]
    data[keys[-1] if isinstance(keys[-1], int) else str(keys[-1])] = value


def _enemies(data: Any, change: Change) -> None:
    enemies = data["enemies"]
    index = int(change.keys[1])
    if change.kind == "remove_enemy":
        del enemies[index]
    else:
        twin = copy.deepcopy(enemies[index])
        taken = {str(e.get("id")) for e in enemies}
        stem = re.sub(r"-\d+$", "", str(twin.get("id", "enemy")))
        twin["id"] = next(f"{stem}-{n}" for n in range(2, 100) if f"{stem}-{n}" not in taken)
        enemies.insert(index + 1, twin)


def apply_changes(path: Path, changes: tuple[Change, ...]) -> LoadResult:
    """Write ``changes`` into the scenario file at ``path``; its new validation result.

    Raises:
        BalanceError: the edit cannot be made in place or would make the file invalid
            (the file is left as it was).
    """
    text = path.read_text("utf-8")
    new = edited_text(text, changes)
    result = validate_text(new, path.name)
    if result.scenario is None:
        problems = "; ".join(p.format("en") for p in result.errors)
        raise BalanceError(f"{path}: the edit would make the file invalid: {problems}")
    path.write_text(new, "utf-8")
    return result
