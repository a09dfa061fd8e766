"""Small parsers for command parameters: integer arithmetic and damage dice.

>>> evaluate("(9+2)/2")
5
>>> evaluate("-7/2")
-4
>>> DamageExpr.parse("2D6+3").dist().probability(15)
Fraction(1, 36)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from saikoro.dice import DiceSource, Dist, LimitError, ParseError, Poly, parse_expression

__all__ = ["DamageExpr", "evaluate", "is_plain_int"]

MAX_DICE = 100
"""Most dice a damage expression may roll."""
MAX_SIDES = 1000
"""Most sides a damage die may have."""
MAX_ODDS_OUTCOMES = 1000
"""Most different amounts a damage roll may have when its exact odds are asked for.

Every amount is resolved against every result of the resist check, so the odds are
refused at once beyond it (``10D100`` has 991 amounts and takes about 0.15 s with 2D6
check dice; ``100D100`` would have 9901 and take half a minute). Rolling has no such
bound.
"""


def is_plain_int(text: str) -> bool:
    """Whether ``text`` is an integer literal (optionally negative).

    >>> is_plain_int("-3"), is_plain_int("3+1")
    (True, False)
    """
    return re.fullmatch(r"-?\d+", text) is not None


def evaluate(text: str) -> int:
    """Evaluate integer arithmetic (``+ - * /`` and parentheses; ``/`` rounds down).

    The engine's own expression reader does the work (:mod:`saikoro.dice._arith`).

    Raises:
        ParseError: malformed text or division by zero.
    """
    return parse_expression(text).evaluate()


_DAMAGE_TERM = re.compile(r"([+-]?)(?:(\d+)D(\d+)|(\d+))")


@dataclass(frozen=True)
class DamageExpr:
    """A damage amount: a sum of dice terms ``NdX`` and constants (``2D6+3``).

    Attributes:
        terms: ``(sign, count, sides)``; constants have ``sides == 0`` and the value in ``count``.
    """

    terms: tuple[tuple[int, int, int], ...]

    @classmethod
    def parse(cls, text: str) -> DamageExpr:
        """Parse ``text``; raise :class:`ParseError` if it is not a damage expression."""
        terms: list[tuple[int, int, int]] = []
        pos = 0
        dice = 0
        while pos < len(text):
            m = _DAMAGE_TERM.match(text, pos)
            if m is None or m.end() == pos or (terms and not m.group(1)):
                raise ParseError(f"ダメージを読めません: {text}")
            sign = -1 if m.group(1) == "-" else 1
            if m.group(2) is not None:
                count, sides = int(m.group(2)), int(m.group(3))
                if count < 1 or sides < 1:
                    raise ParseError(f"ダイスの数と面数は1以上です: {text}")
                dice += count
                if dice > MAX_DICE or sides > MAX_SIDES:
                    raise LimitError(
                        f"ダメージのダイスは{MAX_DICE}個・{MAX_SIDES}面までです",
                        bound="damage dice",
                    )
                terms.append((sign, count, sides))
            else:
                terms.append((sign, int(m.group(4)), 0))
            pos = m.end()
        if not terms:
            raise ParseError("ダメージがありません")
        return cls(tuple(terms))

    @property
    def has_dice(self) -> bool:
        """Whether any term is a die roll."""
        return any(sides for _, _, sides in self.terms)

    @property
    def minimum(self) -> int:
        """The smallest amount the expression can give.

        >>> DamageExpr.parse("2D6+3").minimum, DamageExpr.parse("1D6-4").minimum
        (5, -3)
        """
        return sum(
            sign * count if sides == 0 or sign > 0 else -count * sides
            for sign, count, sides in self.terms
        )

    @property
    def outcomes(self) -> int:
        """How many different amounts the expression can give.

        >>> DamageExpr.parse("2D6+3").outcomes, DamageExpr.parse("100D100").outcomes
        (11, 9901)
        """
        return 1 + sum(count * (sides - 1) for _, count, sides in self.terms if sides)

    def dist(self) -> Dist[int]:
        """The exact distribution of the amount.

        Raises:
            LimitError: more than :data:`MAX_ODDS_OUTCOMES` amounts.
        """
        if self.outcomes > MAX_ODDS_OUTCOMES:
            raise LimitError(
                f"ダメージの値の種類が上限({MAX_ODDS_OUTCOMES})を超えています: {self.outcomes}",
                bound="damage outcomes",
            )
        total = Poly.constant(0)
        for sign, count, sides in self.terms:
            if sides == 0:
                total = total.shift(sign * count)
            else:
                part = Poly.dice_sum(count, sides)
                total = total * (part if sign > 0 else part.negate())
        return total.to_dist()

    def roll(self, source: DiceSource) -> tuple[int, str]:
        """Roll the amount; returns ``(total, BCDice-style detail such as '6[4,2]+3')``."""
        total = 0
        parts: list[str] = []
        for i, (sign, count, sides) in enumerate(self.terms):
            op = "-" if sign < 0 else ("+" if i else "")
            if sides == 0:
                total += sign * count
                parts.append(f"{op}{count}")
                continue
            values = source.roll_many(count, sides)
            total += sign * sum(values)
            parts.append(f"{op}{sum(values)}[{','.join(map(str, values))}]")
        return total, "".join(parts)
