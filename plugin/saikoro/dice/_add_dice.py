"""Sum rolls: ``2D6+1``, ``(2+3)D(5+5)``, ``5D10KH3``, ``3D6MAX``, ``1D6/2U``, ``2D6>=7``.

The grammar follows BCDice's add-dice parser: ``+ - * /`` with rounding suffixes
(``/2U`` or ``/2C`` up, ``/2R`` round, ``/2F`` or plain down; a zero divisor gives 1),
dice counts and sides as parenthesised expressions, implicit six sides (``3D``),
keep/drop filters ``KH KL DH DL`` (count defaults to 1), ``MAX``/``MIN``, ``xD66``
dice, and an optional comparison with a number, an expression or ``?``.

>>> from ._source import DiceSource
>>> from ._roller import Roller
>>> roll_add("2D6>=7", Roller(DiceSource(dice=[(6, 3), (6, 4)]))).text
'(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功'
>>> odds_add("2D6>=7").success
Fraction(7, 12)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._add_nodes import AddNode, Bin, Dice, Neg, Num, Paren
from ._lexer import Cursor, tokenize
from ._limits import ODDS_MAX_BITS, ODDS_MAX_OUTCOMES, check
from ._normalize import compare, display_operator
from ._poly import as_distribution
from ._result import Odds, Roll

if TYPE_CHECKING:
    from ._roller import Roller

__all__ = ["odds_add", "roll_add"]

# -- parser -------------------------------------------------------------------------------


def _term(cur: Cursor) -> AddNode | None:
    if cur.accept("("):
        inner = _add(cur)
        if inner is None or not cur.accept(")"):
            return None
        return Paren(inner)
    tok = cur.accept("NUM")
    return None if tok is None else Num(tok.number)


def _starts_filter(cur: Cursor) -> bool:
    return cur.peek_sym("K") or cur.peek_sym("D") or cur.peek_sym("M")


def _filter(cur: Cursor) -> tuple[str, AddNode] | None:
    if cur.accept_sym("M"):
        if cur.accept_sym("A"):
            return ("KH", Num(1)) if cur.accept_sym("X") else None
        if cur.accept_sym("I"):
            return ("KL", Num(1)) if cur.accept_sym("N") else None
        return None
    first = "K" if cur.accept_sym("K") else ("D" if cur.accept_sym("D") else "")
    if not first:
        return None
    second = "H" if cur.accept_sym("H") else ("L" if cur.accept_sym("L") else "")
    if not second:
        return None
    count = _term(cur) if cur.starts_term() else Num(1)
    return None if count is None else (first + second, count)


def _dice(cur: Cursor) -> AddNode | None:
    if cur.accept_sym("D"):
        only = _term(cur)
        if only is None or only.dice or (isinstance(only, Num) and only.n == 66):
            return None
        if _starts_filter(cur):
            got = _filter(cur)
            if got is None or got[1].dice:
                return None
            return Dice(Num(1), only, got[0], got[1])
        return Dice(Num(1), only)
    times = _term(cur)
    if times is None or not cur.accept_sym("D"):
        return times
    sides: AddNode | None = None
    if cur.starts_term():
        sides = _term(cur)
        if sides is None:
            return None
    if _starts_filter(cur):
        got = _filter(cur)
        if got is None or times.dice or (sides is not None and sides.dice) or got[1].dice:
            return None
        return Dice(times, sides, got[0], got[1])
    if times.dice or (sides is not None and sides.dice):
        return None
    return Dice(times, sides)


def _unary(cur: Cursor) -> AddNode | None:
    negative = False  # signs in a loop; two minus signs cancel, as in BCDice
    while True:
        if cur.accept("-"):
            negative = not negative
        elif not cur.accept("+"):
            break
    body = _dice(cur)
    return Neg(body) if negative and body is not None else body


def _mul(cur: Cursor) -> AddNode | None:
    lhs = _unary(cur)
    while lhs is not None:
        if cur.accept("*"):
            rhs = _unary(cur)
            lhs = None if rhs is None else Bin(lhs, "*", rhs)
        elif cur.accept("/"):
            rhs = _unary(cur)
            if rhs is None:
                return None
            kind = ""
            if cur.accept_sym("F"):
                kind = "F"
            elif cur.accept_sym("U") or cur.accept_sym("C"):
                kind = "U"
            elif cur.accept_sym("R"):
                kind = "R"
            lhs = Bin(lhs, "/", rhs, kind)
        else:
            return lhs
    return None


def _add(cur: Cursor) -> AddNode | None:
    lhs = _mul(cur)
    while lhs is not None:
        op = "+" if cur.accept("+") else ("-" if cur.accept("-") else "")
        if not op:
            return lhs
        rhs = _mul(cur)
        if rhs is None:
            return None
        if isinstance(rhs, Neg):
            op, rhs = ("-" if op == "+" else "+"), rhs.body
        lhs = Bin(lhs, op, rhs)
    return None


class _Command:
    __slots__ = ("lhs", "op", "rhs", "secret")

    def __init__(self, secret: bool, lhs: AddNode, op: str | None, rhs: AddNode | None) -> None:
        self.secret, self.lhs, self.op, self.rhs = secret, lhs, op, rhs

    def target(self) -> int | None:
        return None if self.rhs is None else self.rhs.value()

    def expr(self) -> str:
        if self.op is None:
            return self.lhs.expr()
        target = self.target()
        return f"{self.lhs.expr()}{display_operator(self.op)}{'?' if target is None else target}"


def _parse(text: str) -> _Command | None:
    cur = Cursor(tokenize(text))
    secret = cur.accept_sym("S")
    lhs = _add(cur)
    if lhs is None:
        return None
    op: str | None = None
    rhs: AddNode | None = None
    tok = cur.accept("CMP")
    if tok is not None:
        if cur.accept("?") is None:
            rhs = _add(cur)
            if rhs is None or rhs.dice:
                return None
        if tok.op is None:
            return None
        op = tok.op
    if not lhs.dice or not cur.at_end():
        return None
    return _Command(secret, lhs, op, rhs)


def roll_add(text: str, roller: Roller) -> Roll | None:
    """Roll a sum command, or ``None`` if ``text`` is not one."""
    cmd = _parse(text)
    if cmd is None:
        return None
    total = cmd.lhs.roll(roller)
    expr = cmd.expr()
    parts = [f"({expr})"]
    # BCDice omits the middle part for one plain die; a D66 value is one result there.
    if not (isinstance(cmd.lhs, Dice) and not cmd.lhs.filter and cmd.lhs.count <= 1):
        parts.append(cmd.lhs.output())
    parts.append(str(total))
    success = failure = False
    target = cmd.target()
    if cmd.op is not None and target is not None:
        success = compare(total, cmd.op, target)
        failure = not success
        parts.append("成功" if success else "失敗")
    return Roll(
        expr, " ＞ ".join(parts), secret=cmd.secret, success=success, failure=failure, value=total
    )


def odds_add(text: str) -> Odds | None:
    """Exact odds of a sum command (distribution of the total)."""
    cmd = _parse(text)
    if cmd is None:
        return None
    span = cmd.lhs.span()  # a long sum is refused before any term is computed
    if span is not None:
        check(span, ODDS_MAX_OUTCOMES, "outcomes", "結果の種類")
        work = span * (cmd.lhs.weight_bits() + 8)  # as Poly.dice_sum estimates one term
        check(work, ODDS_MAX_BITS, "bits", "計算量（ビット数）")
    dist = cmd.lhs.odds().to_dist()
    target = cmd.target()
    success = None
    if cmd.op is not None and target is not None:
        op = cmd.op
        success = dist.probability_where(lambda v: compare(int(v), op, target))
    return Odds(cmd.expr(), as_distribution(dist), success=success, truncated=dist.truncated)
