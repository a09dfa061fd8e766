"""Chat-palette lines that the VTT's own dice bot rolls.

ココフォリア and ユドナリウム roll chat commands with BCDice, which knows none of
saikoro's five systems. Each line therefore carries the *generic* BCDice command that
rolls the same dice with the same modifiers as the system command (``GDL+9`` becomes
``3U10[10]+9``), the attack or skill it is for, and a short note where the generic roll
cannot decide the system's outcome by itself (a critical, a comparison against the
defender). The system command is kept beside it: the site's roll buttons use it, and
the tests compare the exact odds of the two.

>>> line = PaletteLine("3U10[10]+9", "噛みつき", "合計がダメージ", system_command="GDL+9")
>>> line.text
'3U10[10]+9 噛みつき ※合計がダメージ'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PaletteLine", "signed"]


@dataclass(frozen=True)
class PaletteLine:
    """One chat-palette line.

    Attributes:
        command: the generic BCDice command (``1D10+4``, ``3U10[10]+9``, ``2D6<=7``).
        label: what it is for (the attack, skill or check name).
        note: what the roll alone does not decide (criticals, the defender's roll);
            empty when the generic result is the whole answer.
        system_command: the same roll as a saikoro system command (``GDL+9``), or
            ``""`` when the line has no system counterpart.
        compare: how the generic roll's numbers relate to the system command's:
            ``"same"`` (identical distributions of the total), ``"success"`` (the same
            chance of success; the system reports another number, e.g. achievement),
            or ``""`` (no exact comparison: the system decides more than the dice).
    """

    command: str
    label: str
    note: str = ""
    system_command: str = ""
    compare: str = "same"

    @property
    def text(self) -> str:
        """The line as written in the palette: command, a space, label and note.

        BCDice reads the command up to the first space; the rest is a comment.
        """
        words = [self.command, _one_line(self.label)]
        if self.note:
            words.append("※" + _one_line(self.note))
        return " ".join(w for w in words if w)


def signed(n: int) -> str:
    """``+3``, ``-2``, or ``""`` for 0 (BCDice accepts ``2D6`` but also ``2D6+0``).

    >>> signed(3), signed(-2), signed(0)
    ('+3', '-2', '')
    """
    return f"{n:+d}" if n else ""


_BRACES = str.maketrans({"{": "⦃", "｛": "⦃", "}": "⦄", "｝": "⦄"})
"""Braces in a label or note, as look-alikes: both VTTs read ``{name}`` in a palette line
as a reference (ユドナリウム: a palette variable or a sheet value, an unknown one
becoming empty; ココフォリア: a status or parameter) and would change the text."""


def _one_line(text: str) -> str:
    """Palette lines are single lines: collapse whitespace (a newline would split it), and
    write braces as look-alikes (see :data:`_BRACES`).

    >>> _one_line("全員-1 {HP}\\n｛MP｝")
    '全員-1 ⦃HP⦄ ⦃MP⦄'
    """
    return " ".join(text.translate(_BRACES).split())
