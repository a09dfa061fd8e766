"""The battle area: five rows from one's own base to the enemy's, with cover and blockades.

Characters in the same row can fight hand to hand; moving to the next row is a move
action, two rows a full move (giving up the main action). Leaving the battle is declared
in an exit row (normally 自陣本営); a blockaded row needs an agility contest won against
the best blocker. Half cover halves the success value of ranged attacks from other rows;
full cover makes the character no target for them.

>>> a = BattleArea()
>>> a.cells()
('自陣本営', '自陣', '前線', '敵陣', '敵陣本営')
>>> a.distance("自陣", "敵陣本営")
3
>>> a.distance("home", "front")
1
>>> a.reachable("前線")
('自陣', '前線', '敵陣')
>>> a.ranged_success_value(9, "自陣", "敵陣", Cover.HALF)
4
>>> a.ranged_success_value(9, "自陣", "敵陣", Cover.FULL) is None
True
"""

from __future__ import annotations

import enum
import unicodedata

from .errors import CutActionError

__all__ = ["ROWS", "ROW_ALIASES", "BattleArea", "Cover"]

ROWS: tuple[str, ...] = ("自陣本営", "自陣", "前線", "敵陣", "敵陣本営")
"""The five rows, from one's own side to the enemy's (ruling ``battle_area_names``)."""

ROW_ALIASES: dict[str, str] = {
    "home_base": "自陣本営",
    "home": "自陣",
    "front": "前線",
    "enemy": "敵陣",
    "enemy_base": "敵陣本営",
    "本営": "自陣本営",
}
"""ASCII and short names accepted for the rows."""


class Cover(enum.Enum):
    """A character's posture toward attacks from outside their row."""

    NONE = "none"
    """No cover."""
    HALF = "half"
    """半遮蔽: no melee attacks; ranged attacks from other rows have their success value halved."""
    FULL = "full"
    """完全遮蔽: no attacks at all; not a target for ranged attacks from other rows."""


class BattleArea:
    """The five-row battle area (implements the :class:`saikoro.systems.Board` protocol)."""

    __slots__ = ()

    def cells(self) -> tuple[str, ...]:
        """The rows, own side first."""
        return ROWS

    def row(self, cell: str) -> str:
        """The canonical row name of ``cell`` (accepts aliases); ``CutActionError`` if unknown.

        >>> BattleArea().row("ENEMY_BASE")
        '敵陣本営'
        """
        key = unicodedata.normalize("NFKC", cell).strip()
        if key in ROWS:
            return key
        alias = ROW_ALIASES.get(key.casefold())
        if alias is None:
            raise CutActionError(f"unknown row {cell!r}; rows: {', '.join(ROWS)}")
        return alias

    def contains(self, cell: str) -> bool:
        """Whether ``cell`` names a row (aliases accepted)."""
        try:
            self.row(cell)
        except CutActionError:
            return False
        return True

    def index(self, cell: str) -> int:
        """0 for 自陣本営 .. 4 for 敵陣本営."""
        return ROWS.index(self.row(cell))

    def distance(self, a: str, b: str) -> int:
        """Rows between ``a`` and ``b`` (0 in the same row)."""
        return abs(self.index(a) - self.index(b))

    def adjacent(self, cell: str) -> tuple[str, ...]:
        """The neighbouring rows.

        >>> BattleArea().adjacent("自陣本営")
        ('自陣',)
        """
        i = self.index(cell)
        return tuple(ROWS[j] for j in (i - 1, i + 1) if 0 <= j < len(ROWS))

    def reachable(self, cell: str, *, full_move: bool = False) -> tuple[str, ...]:
        """Rows reachable in one move action (1 row) or a full move (2 rows), staying included."""
        i = self.index(cell)
        step = 2 if full_move else 1
        return tuple(r for j, r in enumerate(ROWS) if abs(i - j) <= step)

    def can_melee(self, a: str, b: str) -> bool:
        """Hand-to-hand fighting needs the same row."""
        return self.distance(a, b) == 0

    def start_rows(self) -> tuple[str, ...]:
        """Rows where PCs may be placed at the start: their own side up to the front line.

        (The GM may place them elsewhere when the situation calls for it.)

        >>> BattleArea().start_rows()
        ('自陣本営', '自陣', '前線')
        """
        return ROWS[:3]

    def can_attack(self, cover: Cover, *, ranged: bool) -> bool:
        """Whether a character in ``cover`` may attack (half cover: ranged only; full: none).

        >>> a = BattleArea()
        >>> a.can_attack(Cover.HALF, ranged=True), a.can_attack(Cover.HALF, ranged=False)
        (True, False)
        """
        if cover is Cover.FULL:
            return False
        return ranged or cover is Cover.NONE

    def can_exit(self, cell: str, exits: tuple[str, ...] = ("自陣本営",)) -> bool:
        """Whether a character in ``cell`` may declare leaving the battle (exit rows given)."""
        return self.row(cell) in {self.row(e) for e in exits}

    def ranged_success_value(
        self, success_value: int, attacker: str, target: str, cover: Cover = Cover.NONE
    ) -> int | None:
        """The success value of a ranged attack after the target's cover; ``None``: no target.

        Cover only counts against attacks from another row; halving rounds down.

        >>> BattleArea().ranged_success_value(9, "前線", "前線", Cover.FULL)
        9
        """
        if self.distance(attacker, target) == 0 or cover is Cover.NONE:
            return success_value
        if cover is Cover.FULL:
            return None
        return success_value // 2
