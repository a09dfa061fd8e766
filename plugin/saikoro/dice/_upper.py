"""Exploding dice: ``3U10[10]``, ``4U6+11>=21@6``, ``2U6+2U4[4]+6``.

Every die is rolled again and added while it shows the threshold or more. Without a
target BCDice prints the largest and the total of the dice sums (modifier added to
each); with one, how many dice sums (plus modifier) meet it. A threshold of 1 or
less (or none) is BCDice's "infinite roll" error. Odds: the total (``合計``) without a
target, else the success count (``成功数``), per die a truncated chain.

>>> from ._source import DiceSource
>>> from ._roller import Roller
>>> roll_upper("1U6[3]", Roller(DiceSource(dice=[(6, 3), (6, 2)]))).text
'(1U6[3]) ＞ 5[3,2] ＞ 5/5(最大/合計)'
>>> odds_upper("1U6[7]").mean
Fraction(7, 2)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from ._arith import Bin as ArithBin
from ._arith import Neg, Node, parse_add, parse_mul, parse_term
from ._barabara import parse_target
from ._chains import chain_power, chain_works, check_chain_work, depth_for, faces_poly
from ._errors import ParseError
from ._lexer import Cursor, tokenize
from ._limits import MAX_DICE_PER_COMMAND, MAX_DICE_PER_ROLL, MAX_LISTED_VALUES, MAX_SIDES, check
from ._normalize import compare, display_operator
from ._poly import Poly, as_distribution
from ._result import Odds, Roll
from ._series import binomial_power

if TYPE_CHECKING:
    from ._roller import Roller

__all__ = ["odds_upper", "roll_upper"]

_INFINITE = "無限ロールの条件がまちがっています"


def _modifier_text(n: int) -> str:
    return "" if n == 0 else (f"+{n}" if n > 0 else str(n))


class _Parsed(NamedTuple):
    secret: bool
    dice: list[tuple[int, int]]
    modifier: int
    op: str | None
    target: int | None
    threshold: int

    def expr(self) -> str:
        notation = "+".join(f"{t}U{s}" for t, s in self.dice)
        target = "" if self.target is None else str(self.target)
        return (
            f"{notation}[{self.threshold}]{_modifier_text(self.modifier)}"
            f"{display_operator(self.op)}{target}"
        )


def _parse(text: str) -> _Parsed | None:
    cur = Cursor(tokenize(text))
    secret = cur.accept_sym("S")
    notations: list[tuple[Node, Node]] = []
    times = parse_term(cur)
    if times is None or not cur.accept_sym("U"):
        return None
    sides = parse_term(cur)
    if sides is None:
        return None
    notations.append((times, sides))
    modifier: Node | None = None
    while cur.accept("+"):
        if cur.starts_term():
            term = parse_term(cur)
            if term is None:
                return None
            if cur.accept_sym("U"):
                more = parse_term(cur)
                if more is None:
                    return None
                notations.append((term, more))
                continue
            modifier = parse_mul(cur, first=term)
        else:
            modifier = parse_mul(cur)
        if modifier is None:
            return None
        break
    threshold: Node | None = None
    bracket = False
    if modifier is None and cur.accept("["):
        threshold = parse_add(cur)
        if threshold is None or not cur.accept("]"):
            return None
        bracket = True
    if modifier is None:
        if cur.accept("+"):
            modifier = parse_mul(cur)
            if modifier is None:
                return None
        elif cur.accept("-"):
            body = parse_mul(cur)
            if body is None:
                return None
            modifier = Neg(body)
    while modifier is not None:
        op = "+" if cur.accept("+") else ("-" if cur.accept("-") else "")
        if not op:
            break
        rhs = parse_mul(cur)
        if rhs is None:
            return None
        modifier = ArithBin(modifier, op, rhs)
    target = parse_target(cur)
    if target is None:
        return None
    if not bracket and cur.accept("@"):
        threshold = parse_add(cur)
        if threshold is None:
            return None
    if not cur.at_end():
        return None
    cmp_op, target_node = target
    return _Parsed(
        secret,
        [(t.evaluate(), s.evaluate()) for t, s in notations],
        0 if modifier is None else modifier.evaluate(),
        cmp_op,
        None if target_node is None else target_node.evaluate(),
        0 if threshold is None else threshold.evaluate(),
    )


def _check_counts(p: _Parsed) -> None:
    """A negative count: BCDice fails (Ruby's "negative array size"); say so clearly."""
    for times, sides in p.dice:
        if times < 0:
            raise ParseError(f"({p.expr()}) ＞ ダイスの個数が負です: {times}U{sides}")


def roll_upper(text: str, roller: Roller) -> Roll | None:
    """Roll an exploding-dice command, or ``None`` if ``text`` is not one."""
    p = _parse(text)
    if p is None:
        return None
    expr = p.expr()
    if p.threshold <= 1:
        return Roll(expr, f"({expr}) ＞ {_INFINITE}", secret=p.secret)
    _check_counts(p)
    chains: list[list[int]] = []
    listed = 0
    for times, sides in p.dice:
        if times > 0:  # no per-roll cap here in BCDice; only the command's budget
            if 0 < sides <= MAX_SIDES:
                check(times, MAX_DICE_PER_COMMAND, "dice_per_command", "1コマンドで振るダイスの数")
                roller.reserve(times)
            else:  # such dice show 0 and draw nothing (see Roller), but are printed
                listed += times
                check(listed, MAX_LISTED_VALUES, "listed_values", "表示する出目の数")
        for _ in range(max(0, times)):
            chain = [roller.once(sides)]
            while chain[-1] >= p.threshold:
                chain.append(roller.once(sides))
            chains.append(chain)
    sums = [sum(c) for c in chains]
    shown = ",".join(
        str(s) if len(c) == 1 else f"{s}[{','.join(map(str, c))}]"
        for s, c in zip(sums, chains, strict=True)
    )
    mod = p.modifier
    if p.op is not None and p.target is not None:
        value = sum(1 for s in sums if compare(s + mod, p.op, p.target))
        result = f"成功数{value}"
    else:
        value = sum(sums) + mod
        best = str(max(s + mod for s in sums)) if sums else ""
        result = f"{best}/{value}(最大/合計)"
    text_out = f"({expr}) ＞ {shown}{_modifier_text(mod)} ＞ {result}"
    return Roll(expr, text_out, secret=p.secret, value=value)


def odds_upper(text: str) -> Odds | None:
    """Odds of an exploding-dice command (truncated, reported)."""
    p = _parse(text)
    if p is None:
        return None
    if p.threshold <= 1:
        raise ParseError(f"({p.expr()}) ＞ {_INFINITE}")
    _check_counts(p)
    groups: list[tuple[int, Poly, Poly]] = []
    chances: list[tuple[int, Fraction]] = []
    blank = 0  # dice that always show 0 (no sides, or too many)
    for times, sides in p.dice:
        if times <= 0:
            continue
        if sides <= 0 or sides > MAX_SIDES:
            blank += times
            continue
        check(times, MAX_DICE_PER_ROLL, "dice_per_roll", "ダイスの個数")
        faces = list(range(1, sides + 1))
        up = [v for v in faces if v >= p.threshold]
        groups.append((times, faces_poly(up), faces_poly([v for v in faces if v < p.threshold])))
        chances.append((times, Fraction(len(up), len(faces))))
    depth = depth_for(chances)
    op, target = p.op, p.target
    counting = op is not None and target is not None
    check_chain_work(chain_works(groups, depth, per_die=counting), f"・{p.expr()}")
    result: Poly | None = None
    for times, up_poly, stop_poly in groups:
        if op is not None and target is not None:
            chain = chain_power(up_poly, stop_poly, depth)
            hit = 0
            for v, w in chain.to_weights().items():
                if compare(v + p.modifier, op, target):
                    hit += w
            miss = chain.total() - hit
            chain = Poly(0, binomial_power(miss, hit, times), chain.denominator**times)
        else:
            chain = chain_power(up_poly, stop_poly, depth, times)
        result = chain if result is None else result * chain
    if result is None:
        result = Poly.constant(0)
    if counting and blank and op is not None and target is not None:
        result = result.shift(blank if compare(p.modifier, op, target) else 0)
    if not counting:
        result = result.shift(p.modifier)
    dist = result.to_dist()
    if counting:
        success = dist.probability_where(lambda k: int(k) >= 1)
        return Odds(
            p.expr(),
            as_distribution(dist),
            success=success,
            truncated=dist.truncated,
            label="成功数",
        )
    return Odds(p.expr(), as_distribution(dist), truncated=dist.truncated)
