"""The dial-clock map (ダイアクロックマップ): 12 in-cells, 12 out-cells and the centre.

Cells are numbered like a clock face, 1 to 12 clockwise with 12 at the top. Adjacency
(our precise reading of the map): the centre touches all twelve in-cells; an in-cell
touches its two neighbouring in-cells, the centre and the out-cell with the same
number; an out-cell touches its two neighbouring out-cells and its in-cell. Out-cells do
not touch the in-cells of other numbers.

Ranges count cells along the shortest path (range ``0-1`` is the own cell and the
adjacent ones), and the centre may be counted through. Player characters never enter
the centre, so their movement uses paths that avoid it (:meth:`DialClock.move_distance`).

>>> b = DialClock()
>>> b.distance("in3", "in9"), b.distance("out3", "out9"), b.distance("out12", "in6")
(2, 4, 3)
>>> b.move_distance("in3", "in9", pc=True)
6
>>> b.in_range("out1", "in1", "0-1")
True
"""

from __future__ import annotations

import re
from collections import deque
from functools import cache

from saikoro.systems._base import RulesError

__all__ = ["CENTRE", "BoardError", "DialClock", "parse_range"]

CENTRE = "centre"
"""The name of the centre cell (``center`` is accepted too)."""


class BoardError(RulesError):
    """An unknown cell name or a malformed range."""


_CELL = re.compile(r"(in|out)(\d{1,2})")
_RANGE = re.compile(r"(\d+)(?:\s*[-~〜～]\s*(\d+))?")


def parse_range(text: str) -> tuple[int, int]:
    """Parse a range such as ``0-1``, ``2～3`` or ``1``.

    >>> parse_range("0-1"), parse_range("2～3"), parse_range("1")
    ((0, 1), (2, 3), (1, 1))
    """
    m = _RANGE.fullmatch(text.strip())
    if not m:
        raise BoardError(f"射程を読めません: {text!r}")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) is not None else lo
    if hi < lo:
        raise BoardError(f"射程の上限が下限より小さい: {text!r}")
    return lo, hi


class DialClock:
    """The GETB battle map; implements the :class:`~saikoro.systems._base.Board` protocol."""

    __slots__ = ()

    def cells(self) -> tuple[str, ...]:
        """``centre``, then ``in1..in12``, then ``out1..out12``.

        >>> len(DialClock().cells())
        25
        """
        return (
            CENTRE,
            *(f"in{i}" for i in range(1, 13)),
            *(f"out{i}" for i in range(1, 13)),
        )

    @staticmethod
    def normalise(cell: str) -> str:
        """The canonical name of ``cell`` (case-insensitive, ``center`` accepted).

        >>> DialClock.normalise("IN03"), DialClock.normalise("Center")
        ('in3', 'centre')
        """
        key = cell.strip().lower().replace(" ", "").replace("-", "").replace("_", "")
        if key in ("centre", "center", "中央"):
            return CENTRE
        m = _CELL.fullmatch(key)
        if m and 1 <= int(m.group(2)) <= 12:
            return f"{m.group(1)}{int(m.group(2))}"
        raise BoardError(f"ダイアクロックマップにないセルです: {cell!r}")

    def contains(self, cell: str) -> bool:
        """Whether ``cell`` names a cell.

        >>> DialClock().contains("out12"), DialClock().contains("out13")
        (True, False)
        """
        try:
            self.normalise(cell)
        except BoardError:
            return False
        return True

    def neighbours(self, cell: str) -> tuple[str, ...]:
        """The adjacent cells.

        >>> DialClock().neighbours("in12")
        ('in11', 'in1', 'centre', 'out12')
        >>> DialClock().neighbours("out1")
        ('out12', 'out2', 'in1')
        """
        c = self.normalise(cell)
        if c == CENTRE:
            return tuple(f"in{i}" for i in range(1, 13))
        ring = "in" if c.startswith("in") else "out"
        n = int(c[len(ring) :])
        prev, nxt = (n - 2) % 12 + 1, n % 12 + 1
        if ring == "in":
            return (f"in{prev}", f"in{nxt}", CENTRE, f"out{n}")
        return (f"out{prev}", f"out{nxt}", f"in{n}")

    def adjacent(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are adjacent (a cell is not adjacent to itself)."""
        return self.normalise(b) in self.neighbours(a)

    def distance(self, a: str, b: str) -> int:
        """Cells between ``a`` and ``b`` along the shortest path (the centre allowed).

        >>> DialClock().distance("centre", "out5"), DialClock().distance("in1", "out2")
        (2, 2)
        """
        return _distance(self.normalise(a), self.normalise(b), False)

    def move_distance(self, a: str, b: str, *, pc: bool = True) -> int:
        """Cells a character moves from ``a`` to ``b``; PCs go around the centre.

        >>> DialClock().move_distance("in12", "in6", pc=False)
        2
        """
        a, b = self.normalise(a), self.normalise(b)
        if pc and CENTRE in (a, b):
            raise BoardError("PCは中央のセルに進入できません")
        return _distance(a, b, pc)

    def in_range(self, a: str, b: str, reach: str | tuple[int, int]) -> bool:
        """Whether ``b`` is within range ``reach`` (e.g. ``"0-1"``) of ``a``.

        >>> DialClock().in_range("in1", "in3", "0-1"), DialClock().in_range("in1", "in3", "2")
        (False, True)
        """
        lo, hi = parse_range(reach) if isinstance(reach, str) else reach
        return lo <= self.distance(a, b) <= hi

    def cells_in_range(self, a: str, reach: str | tuple[int, int]) -> tuple[str, ...]:
        """Every cell within range ``reach`` of ``a``.

        >>> DialClock().cells_in_range("out6", "0-1")
        ('in6', 'out5', 'out6', 'out7')
        """
        return tuple(c for c in self.cells() if self.in_range(a, c, reach))

    def __repr__(self) -> str:
        return "DialClock()"


@cache
def _distance(a: str, b: str, avoid_centre: bool) -> int:
    if a == b:
        return 0
    board = DialClock()
    seen = {a}
    queue: deque[tuple[str, int]] = deque([(a, 0)])
    while queue:
        cell, d = queue.popleft()
        for n in board.neighbours(cell):
            if n in seen or (avoid_centre and n == CENTRE):
                continue
            if n == b:
                return d + 1
            seen.add(n)
            queue.append((n, d + 1))
    raise BoardError(f"{a} から {b} へ移動できません")  # pragma: no cover - the map is connected
