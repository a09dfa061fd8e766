"""One edit of a scenario's numbers, as tuning suggests it and ``--apply`` writes it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from saikoro.dice import InternalError

__all__ = ["Change", "fresh_id"]


@dataclass(frozen=True)
class Change:
    """One edit: a number set to a new value, or an enemy added or removed."""

    path: str
    label: str
    old: int | None
    new: int | None
    line: int
    column: int
    keys: tuple[str | int, ...] = ()
    kind: str = "set"
    """``set`` a number, ``add_enemy`` (a copy of the enemy at ``keys``), ``remove_enemy``."""

    def yaml_text(self) -> str:
        """The change as a person would write it in the file."""
        if self.kind == "add_enemy":
            return "enemies: 同じエネミーをもう1体"
        if self.kind == "remove_enemy":
            return "enemies: このエネミーを除く"
        key = self.path.rsplit(".", 1)[-1]
        return f"{key}: {self.old} → {self.new}" if self.old is not None else f"{key}: {self.new}"

    def to_json(self) -> dict[str, Any]:
        """The change as JSON."""
        return {
            "path": self.path,
            "label": self.label,
            "kind": self.kind,
            "old": self.old,
            "new": self.new,
            "line": self.line,
            "column": self.column,
        }


def fresh_id(base: str, taken: set[str]) -> str:
    """The id of a copy of the enemy ``base``: ``base-2``, ``base-3``... not in ``taken``.

    >>> fresh_id("oni", {"oni"}), fresh_id("oni-2", {"oni", "oni-2"})
    ('oni-2', 'oni-3')
    """
    stem = re.sub(r"-\d+$", "", base)
    for n in range(2, 100):
        candidate = f"{stem}-{n}"
        if candidate not in taken:
            return candidate
    raise InternalError(f"no free id for a copy of {base!r}")
