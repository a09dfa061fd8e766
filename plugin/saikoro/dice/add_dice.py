"""Sum rolls: ``2D6+1``, ``(2+3)D(5+5)``, ``5D10KH3``, ``3D6MAX``, ``1D6/2U``, ``2D6>=7``.

The grammar follows BCDice's add-dice parser: ``+ - * /`` with rounding suffixes
(``/2U`` or ``/2C`` up, ``/2R`` round, ``/2F`` or plain down; a zero divisor gives 1),
dice counts and sides as parenthesised expressions, implicit six sides (``3D``),
keep/drop filters ``KH KL DH DL`` (count defaults to 1), ``MAX``/``MIN``, ``xD66``
dice, and an optional comparison with a number, an expression or ``?``.

>>> from .source import DiceSource
>>> from .roller import Roller
>>> roll_add("2D6>=7", Roller(DiceSource(dice=[(6, 3), (6, 4)]))).text
'(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功'
>>> odds_add("2D6>=7").success
Fraction(7, 12)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .arith import div_ceil, div_floor, div_round
from .lexer import Cursor, tokenize
from .limits import MAX_DICE_PER_ROLL, MAX_SIDES, ODDS_MAX_PAIRS, check
from .normalize import compare, display_operator
from .poly import Poly, as_distribution
from .result import Odds, Roll

if TYPE_CHECKING:
    from .roller import Roller

__all__ = ["odds_add", "roll_add"]

_D66_FACES = [(a * 10 + b, 1) for a in range(1, 7) for b in range(1, 7)]


def _divide(a: int, b: int, kind: str) -> int:
    if b == 0:
        return 1
    if kind == "U":
        return div_ceil(a, b)
    if kind == "R":
        return div_round(a, b)
    return div_floor(a, b)


class _Node:
    __slots__ = ()
    dice = False

    def value(self) -> int:  # dice-free evaluation (counts, sides, targets)
        raise NotImplementedError

    def roll(self, roller: Roller) -> int:  # noqa: ARG002 - constants roll nothing
        return self.value()

    def expr(self) -> str:
        raise NotImplementedError

    def output(self) -> str:
        return self.expr()

    def odds(self) -> Poly:
        return Poly.constant(self.value())


class _Num(_Node):
    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def value(self) -> int:
        return self.n

    def expr(self) -> str:
        return str(self.n)


class _Paren(_Node):
    __slots__ = ("body", "dice")

    def __init__(self, body: _Node) -> None:
        self.body = body
        self.dice = body.dice

    def value(self) -> int:
        return self.body.value()

    def roll(self, roller: Roller) -> int:
        return self.body.roll(roller)

    def expr(self) -> str:
        return f"({self.body.expr()})"

    def output(self) -> str:
        return f"({self.body.output()})"

    def odds(self) -> Poly:
        return self.body.odds()


class _Neg(_Node):
    __slots__ = ("body", "dice")

    def __init__(self, body: _Node) -> None:
        self.body = body
        self.dice = body.dice

    def value(self) -> int:
        return -self.body.value()

    def roll(self, roller: Roller) -> int:
        return -self.body.roll(roller)

    def expr(self) -> str:
        return "-" + self.body.expr()

    def output(self) -> str:
        return "-" + self.body.output()

    def odds(self) -> Poly:
        return self.body.odds().negate()


class _Bin(_Node):
    __slots__ = ("dice", "kind", "lhs", "op", "rhs")

    def __init__(self, lhs: _Node, op: str, rhs: _Node, kind: str = "") -> None:
        self.lhs, self.op, self.rhs, self.kind = lhs, op, rhs, kind
        self.dice = lhs.dice or rhs.dice

    def _apply(self, a: int, b: int) -> int:
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        if self.op == "*":
            return a * b
        return _divide(a, b, self.kind)

    def value(self) -> int:
        return self._apply(self.lhs.value(), self.rhs.value())

    def roll(self, roller: Roller) -> int:
        a = self.lhs.roll(roller)
        return self._apply(a, self.rhs.roll(roller))

    def expr(self) -> str:
        return f"{self.lhs.expr()}{self.op}{self.rhs.expr()}{self.kind}"

    def output(self) -> str:
        return f"{self.lhs.output()}{self.op}{self.rhs.output()}{self.kind}"

    def odds(self) -> Poly:
        a, b = self.lhs.odds(), self.rhs.odds()
        if self.op == "+":
            return a * b
        if self.op == "-":
            return a * b.negate()
        if len(b.weights) == 1:
            c, wb = b.offset, b.weights[0]
            mapped: dict[int, int] = {}
            for k, w in a.to_weights().items():
                key = self._apply(k, c)
                mapped[key] = mapped.get(key, 0) + w * wb
            return Poly.from_weights(mapped, a.denominator * b.denominator)
        check(len(a.weights) * len(b.weights), ODDS_MAX_PAIRS, "pairs", "組み合わせの数")
        out: dict[int, int] = {}
        bw = b.to_weights()
        for x, wa in a.to_weights().items():
            for y, wb in bw.items():
                k = self._apply(x, y)
                out[k] = out.get(k, 0) + wa * wb
        return Poly.from_weights(out, a.denominator * b.denominator)


class _Dice(_Node):
    """``times D sides`` with an optional keep/drop filter; ``sides=None`` means six."""

    __slots__ = ("filter", "keep", "sides", "text", "times")
    dice = True

    def __init__(
        self, times: _Node, sides: _Node | None, filt: str = "", keep: _Node | None = None
    ) -> None:
        self.times, self.sides, self.filter, self.keep = times, sides, filt, keep
        self.text = ""

    def _params(self) -> tuple[int, int, int]:
        sides = 6 if self.sides is None else self.sides.value()
        keep = self.keep.value() if self.keep is not None else 0
        return self.times.value(), sides, keep

    def expr(self) -> str:
        times, sides, keep = self._params()
        return f"{times}D{sides}{self.filter}{keep if self.filter else ''}"

    def output(self) -> str:
        return self.text

    def _kept(self, values: list[int], keep: int) -> list[int]:
        ordered = sorted(values)
        n = max(0, keep)
        if self.filter == "KH":
            return ordered[::-1][:n]
        if self.filter == "KL":
            return ordered[:n]
        if self.filter == "DH":
            return ordered[::-1][n:]
        return ordered[n:]

    def roll(self, roller: Roller) -> int:
        times, sides, keep = self._params()
        if sides == 66:
            check(times, MAX_DICE_PER_ROLL, "dice_per_roll", "ダイスの個数")
            values = [roller.d66("none") for _ in range(max(0, times))]
        else:
            values = roller.many(times, sides)
        if self.filter:
            values = sorted(values)
            total = sum(self._kept(values, keep))
        else:
            total = sum(values)
        self.text = f"{total}[{','.join(map(str, values))}]"
        return total

    def odds(self) -> Poly:
        times, sides, keep = self._params()
        if times <= 0 or sides <= 0:
            return Poly.constant(0)
        check(times, MAX_DICE_PER_ROLL, "dice_per_roll", "ダイスの個数")
        check(sides, MAX_SIDES, "sides", "ダイスの面数")
        faces = _D66_FACES if sides == 66 else [(v, 1) for v in range(1, sides + 1)]
        if not self.filter:
            if sides == 66:
                return Poly.from_weights(dict(faces), 36).power(times)
            return Poly.dice_sum(times, sides)
        from .keep import keep_sum

        keep = max(0, keep)
        if self.filter in ("KH", "KL"):
            return keep_sum(faces, times, keep, highest=self.filter == "KH")
        return keep_sum(faces, times, max(0, times - keep), highest=self.filter == "DL")


# -- parser -------------------------------------------------------------------------------


def _term(cur: Cursor) -> _Node | None:
    if cur.accept("("):
        inner = _add(cur)
        if inner is None or not cur.accept(")"):
            return None
        return _Paren(inner)
    tok = cur.accept("NUM")
    return None if tok is None else _Num(tok.number)


def _starts_filter(cur: Cursor) -> bool:
    return cur.peek_sym("K") or cur.peek_sym("D") or cur.peek_sym("M")


def _filter(cur: Cursor) -> tuple[str, _Node] | None:
    if cur.accept_sym("M"):
        if cur.accept_sym("A"):
            return ("KH", _Num(1)) if cur.accept_sym("X") else None
        if cur.accept_sym("I"):
            return ("KL", _Num(1)) if cur.accept_sym("N") else None
        return None
    first = "K" if cur.accept_sym("K") else ("D" if cur.accept_sym("D") else "")
    if not first:
        return None
    second = "H" if cur.accept_sym("H") else ("L" if cur.accept_sym("L") else "")
    if not second:
        return None
    count = _term(cur) if cur.starts_term() else _Num(1)
    return None if count is None else (first + second, count)


def _dice(cur: Cursor) -> _Node | None:
    if cur.accept_sym("D"):
        only = _term(cur)
        if only is None or only.dice or (isinstance(only, _Num) and only.n == 66):
            return None
        if _starts_filter(cur):
            got = _filter(cur)
            if got is None or got[1].dice:
                return None
            return _Dice(_Num(1), only, got[0], got[1])
        return _Dice(_Num(1), only)
    times = _term(cur)
    if times is None or not cur.accept_sym("D"):
        return times
    sides: _Node | None = None
    if cur.starts_term():
        sides = _term(cur)
        if sides is None:
            return None
    if _starts_filter(cur):
        got = _filter(cur)
        if got is None or times.dice or (sides is not None and sides.dice) or got[1].dice:
            return None
        return _Dice(times, sides, got[0], got[1])
    if times.dice or (sides is not None and sides.dice):
        return None
    return _Dice(times, sides)


def _unary(cur: Cursor) -> _Node | None:
    if cur.accept("+"):
        return _unary(cur)
    if cur.accept("-"):
        body = _unary(cur)
        if body is None:
            return None
        return body.body if isinstance(body, _Neg) else _Neg(body)
    return _dice(cur)


def _mul(cur: Cursor) -> _Node | None:
    lhs = _unary(cur)
    while lhs is not None:
        if cur.accept("*"):
            rhs = _unary(cur)
            lhs = None if rhs is None else _Bin(lhs, "*", rhs)
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
            lhs = _Bin(lhs, "/", rhs, kind)
        else:
            return lhs
    return None


def _add(cur: Cursor) -> _Node | None:
    lhs = _mul(cur)
    while lhs is not None:
        op = "+" if cur.accept("+") else ("-" if cur.accept("-") else "")
        if not op:
            return lhs
        rhs = _mul(cur)
        if rhs is None:
            return None
        if isinstance(rhs, _Neg):
            op, rhs = ("-" if op == "+" else "+"), rhs.body
        lhs = _Bin(lhs, op, rhs)
    return None


class _Command:
    __slots__ = ("lhs", "op", "rhs", "secret")

    def __init__(self, secret: bool, lhs: _Node, op: str | None, rhs: _Node | None) -> None:
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
    rhs: _Node | None = None
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
    before = roller.used
    total = cmd.lhs.roll(roller)
    expr = cmd.expr()
    parts = [f"({expr})"]
    if not (roller.used - before <= 1 and isinstance(cmd.lhs, _Dice) and not cmd.lhs.filter):
        parts.append(cmd.lhs.output())
    parts.append(str(total))
    success = failure = False
    target = cmd.target()
    if cmd.op is not None and target is not None:
        success = compare(total, cmd.op, target)
        failure = not success
        parts.append("成功" if success else "失敗")
    return Roll(expr, " ＞ ".join(parts), secret=cmd.secret, success=success,
                failure=failure, value=total)


def odds_add(text: str) -> Odds | None:
    """Exact odds of a sum command (distribution of the total)."""
    cmd = _parse(text)
    if cmd is None:
        return None
    dist = cmd.lhs.odds().to_dist()
    target = cmd.target()
    success = None
    if cmd.op is not None and target is not None:
        op = cmd.op
        success = dist.probability_where(lambda v: compare(int(v), op, target))
    return Odds(cmd.expr(), as_distribution(dist), success=success, truncated=dist.truncated)
