"""Reroll dice: ``2R6>=5``, ``2R6[5]``, ``2R4+2R6[>4]>=4``, ``2R6>=4@<=2``.

Each die meeting the reroll condition (``[op n]``, ``@op n``, or else the target) is
rolled again as a new group; successes are counted over every die rolled. Without a
usable condition BCDice prints a correction hint instead of rolling. The odds are of
the success count, per die a truncated chain (see :mod:`saikoro.dice._chains`).

>>> from ._source import DiceSource
>>> from ._roller import Roller
>>> dice = [(6, 3), (6, 1), (6, 2)]
>>> roll_reroll("2R6>=3", Roller(DiceSource(dice=dice))).text
'(2R6[3]>=3) ＞ 3,1 + 2 ＞ 成功数1'
>>> odds_reroll("1R6>=6").distribution[0]
Fraction(5, 6)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from ._arith import parse_add
from ._barabara import parse_notations, parse_target
from ._chains import chain_power, chain_works, check_chain_work, depth_for
from ._errors import ParseError
from ._lexer import Cursor, tokenize
from ._limits import MAX_DICE_PER_COMMAND, MAX_DICE_PER_ROLL, MAX_SIDES, check
from ._normalize import compare, display_operator, first_word
from ._poly import Poly, as_distribution
from ._result import Odds, Roll

if TYPE_CHECKING:
    from ._roller import Roller

__all__ = ["odds_reroll", "roll_reroll"]

_HINT = "条件が間違っています。2R6>=5 あるいは 2R6[5] のように振り足し目標値を指定してください。"
_ROUND_LIMIT = 10000


class _Parsed(NamedTuple):
    secret: bool
    dice: list[tuple[int, int]]
    op: str | None
    target: int | None
    reroll_op: str
    threshold: int | None
    source: str

    def valid(self) -> bool:
        t = self.threshold
        if t is None:
            return False
        for _, sides in self.dice:
            ok = {
                "<=": t < sides,
                "<": t <= sides,
                ">=": t > 1,
                ">": t >= 1,
                "!=": 1 <= t <= sides,
            }.get(self.reroll_op, True)
            if not ok:
                return False
        return True

    def rerolls(self, value: int) -> bool:
        return self.threshold is not None and compare(value, self.reroll_op, self.threshold)

    def hits(self, value: int) -> bool:
        return (
            self.op is not None and self.target is not None and compare(value, self.op, self.target)
        )

    def expr(self) -> str:
        notation = "+".join(f"{t}R{s}" for t, s in self.dice)
        shown = "" if self.reroll_op == self.op else display_operator(self.reroll_op)
        target = "" if self.target is None else str(self.target)
        threshold = "" if self.threshold is None else str(self.threshold)
        return f"{notation}[{shown}{threshold}]{display_operator(self.op)}{target}"


def _parse(text: str) -> _Parsed | None:
    cur = Cursor(tokenize(text))
    secret = cur.accept_sym("S")
    notations = parse_notations(cur, "R")
    if notations is None:
        return None
    reroll_op: str | None = None
    threshold_node = None
    if cur.accept("["):
        tok = cur.accept("CMP")
        if tok is not None:
            if tok.op is None:
                return None
            reroll_op = tok.op
        threshold_node = parse_add(cur)
        if threshold_node is None or not cur.accept("]"):
            return None
        target = parse_target(cur)
    else:
        target = parse_target(cur)
        if target is not None and cur.accept("@"):
            tok = cur.accept("CMP")
            if tok is not None:
                if tok.op is None:
                    return None
                reroll_op = tok.op
            threshold_node = parse_add(cur)
            if threshold_node is None:
                return None
    if target is None or not cur.at_end():
        return None
    op, target_node = target
    target_value = None if target_node is None else target_node.evaluate()
    threshold = target_value if threshold_node is None else threshold_node.evaluate()
    dice = [(t.evaluate(), s.evaluate()) for t, s in notations]
    return _Parsed(
        secret, dice, op, target_value, reroll_op or op or ">=", threshold, first_word(text)
    )


def roll_reroll(text: str, roller: Roller) -> Roll | None:
    """Roll a reroll command, or ``None`` if ``text`` is not one."""
    p = _parse(text)
    if p is None:
        return None
    if not p.valid():
        return Roll(p.source, f"{p.source} ＞ {_HINT}", secret=p.secret)
    queue = list(p.dice)
    groups: list[list[int]] = []
    rounds = 0
    while queue and rounds < _ROUND_LIMIT:
        times, sides = queue.pop(0)
        rounds += 1
        values = roller.many(times, sides)
        groups.append(values)
        again = sum(1 for v in values if p.rerolls(v))
        if again:
            queue.append((again, sides))
    count = sum(1 for g in groups for v in g if p.hits(v))
    expr = p.expr()
    body = " + ".join(",".join(map(str, g)) for g in groups)
    return Roll(expr, f"({expr}) ＞ {body} ＞ 成功数{count}", secret=p.secret, value=count)


def odds_reroll(text: str) -> Odds | None:
    """Odds of the success count of a reroll command (truncated, reported)."""
    p = _parse(text)
    if p is None:
        return None
    if not p.valid():
        raise ParseError(f"{p.source} ＞ {_HINT}")
    groups: list[tuple[int, int, list[int]]] = []
    for times, sides in p.dice:
        if times <= 0:
            continue
        check(times, MAX_DICE_PER_COMMAND, "dice_per_command", "1コマンドで振るダイスの数")
        if times > MAX_DICE_PER_ROLL:
            continue  # BCDice rolls nothing past the cap (see Roller)
        faces = [0] if sides <= 0 or sides > MAX_SIDES else list(range(1, sides + 1))
        groups.append((times, len(faces), faces))
    depth = depth_for(
        [(n, Fraction(sum(1 for v in faces if p.rerolls(v)), size)) for n, size, faces in groups]
    )
    chains: list[tuple[int, Poly, Poly]] = []
    for times, _, faces in groups:
        kinds = [0, 0, 0, 0]  # by (success?, rerolled?)
        for v in faces:
            kinds[(1 if p.hits(v) else 0) + (0 if p.rerolls(v) else 2)] += 1
        chains.append((times, Poly(0, kinds[:2], 1), Poly(0, kinds[2:], 1)))
    check_chain_work(chain_works(chains, depth), f"・{p.expr()}")
    result: Poly | None = None
    for times, up, stop in chains:
        chain = chain_power(up, stop, depth, times)
        result = chain if result is None else result * chain
    if result is None:
        result = Poly.constant(0)
    dist = result.to_dist()
    success = dist.probability_where(lambda k: int(k) >= 1)
    return Odds(
        p.expr(), as_distribution(dist), success=success, truncated=dist.truncated, label="成功数"
    )
