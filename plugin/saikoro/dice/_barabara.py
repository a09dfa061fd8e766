"""Separate dice: ``3B6``, ``2B6+4B10>3`` (each die compared, successes counted).

Without a target BCDice lists the dice; the odds are then those of their total
(label ``合計``). With a target the odds are of the number of successes (label
``成功数``) and ``success`` is the chance of at least one.

>>> from ._source import DiceSource
>>> from ._roller import Roller
>>> roll_barabara("2b6>=3", Roller(DiceSource(dice=[(6, 3), (6, 4)]))).text
'(2B6>=3) ＞ 3,4 ＞ 成功数2'
>>> odds_barabara("2B6>=4").distribution
{0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

from ._arith import Node, parse_add, parse_term
from ._lexer import Cursor, tokenize
from ._limits import MAX_DICE_PER_COMMAND, MAX_DICE_PER_ROLL, MAX_SIDES, check
from ._normalize import compare, display_operator
from ._poly import Poly, as_distribution
from ._result import Odds, Roll

if TYPE_CHECKING:
    from ._roller import Roller

__all__ = ["count_poly", "odds_barabara", "parse_notations", "parse_target", "roll_barabara"]


def parse_target(cur: Cursor) -> tuple[str | None, Node | None] | None:
    """``target: (none) | CMP add``; ``None`` when malformed."""
    tok = cur.accept("CMP")
    if tok is None:
        return (None, None)
    if tok.op is None:
        return None
    target = parse_add(cur)
    return None if target is None else (tok.op, target)


def parse_notations(cur: Cursor, letter: str) -> list[tuple[Node, Node]] | None:
    """``term LETTER term`` joined by ``+`` (``2B6+4B10``)."""
    notations: list[tuple[Node, Node]] = []
    while True:
        times = parse_term(cur)
        if times is None or not cur.accept_sym(letter):
            return None
        sides = parse_term(cur)
        if sides is None:
            return None
        notations.append((times, sides))
        if cur.peek() is None or cur.peek().kind != "+":  # type: ignore[union-attr]
            return notations
        save = cur.pos
        cur.accept("+")
        if not cur.starts_term():
            cur.pos = save
            return notations


def count_poly(times: int, sides: int, hits: int) -> Poly:
    """Number of successes among ``times`` dice with ``hits`` of ``sides`` faces succeeding."""
    if times <= 0 or times > MAX_DICE_PER_ROLL:  # BCDice rolls nothing past the cap
        return Poly.constant(0)
    misses = sides - hits
    weights = [comb(times, j) * hits**j * misses ** (times - j) for j in range(times + 1)]
    return Poly(0, weights, sides**times)


def _parse(text: str) -> tuple[bool, list[tuple[int, int]], str | None, int | None] | None:
    cur = Cursor(tokenize(text))
    secret = cur.accept_sym("S")
    notations = parse_notations(cur, "B")
    if notations is None:
        return None
    target = parse_target(cur)
    if target is None or not cur.at_end():
        return None
    dice = [(t.evaluate(), s.evaluate()) for t, s in notations]
    op, node = target
    return secret, dice, op, None if node is None else node.evaluate()


def _expr(dice: list[tuple[int, int]], op: str | None, target: int | None) -> str:
    notation = "+".join(f"{t}B{s}" for t, s in dice)
    return f"{notation}{display_operator(op)}{'' if target is None else target}"


def roll_barabara(text: str, roller: Roller) -> Roll | None:
    """Roll separate dice, or ``None`` if ``text`` is not such a command."""
    parsed = _parse(text)
    if parsed is None:
        return None
    secret, dice, op, target = parsed
    values: list[int] = []
    for times, sides in dice:
        values.extend(roller.many(times, sides))
    expr = _expr(dice, op, target)
    parts = [f"({expr})", ",".join(map(str, values))]
    value = sum(values)
    if op is not None and target is not None:
        value = sum(1 for v in values if compare(v, op, target))
        parts.append(f"成功数{value}")
    return Roll(expr, " ＞ ".join(parts), secret=secret, value=value)


def odds_barabara(text: str) -> Odds | None:
    """Odds of separate dice: of the success count with a target, else of the total."""
    parsed = _parse(text)
    if parsed is None:
        return None
    _, dice, op, target = parsed
    result = Poly.constant(0)
    for times, sides in dice:
        if times > 0:
            check(times, MAX_DICE_PER_COMMAND, "dice_per_command", "1コマンドで振るダイスの数")
        blank = sides <= 0 or sides > MAX_SIDES  # such dice show 0 (see Roller)
        if op is None or target is None:
            if 0 < times <= MAX_DICE_PER_ROLL and not blank:
                result = result * Poly.dice_sum(times, sides)
            continue
        faces = [0] if blank else range(1, sides + 1)
        hits = sum(1 for v in faces if compare(v, op, target))
        result = result * count_poly(times, 1 if blank else sides, hits)
    dist = result.to_dist()
    expr = _expr(dice, op, target)
    if op is None or target is None:
        return Odds(expr, as_distribution(dist), label="合計")
    return Odds(expr, as_distribution(dist), success=1 - dist.probability(0), label="成功数")
