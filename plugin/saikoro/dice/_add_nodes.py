"""Expression nodes of sum rolls: numbers, ``+ - * /``, parentheses and dice.

Every node can be evaluated without dice (counts, sides, targets), rolled, printed
the two ways BCDice prints a command (``expr``: dice as ``2D6``; ``output``: dice as
``7[3,4]``), and turned into an exact distribution (``odds``).

>>> Dice(Num(2), Num(6)).expr()
'2D6'
>>> Bin(Num(7), "/", Num(0), "U").value()
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._arith import div_ceil, div_floor, div_round
from ._errors import ParseError
from ._limits import (
    MAX_DICE_PER_COMMAND,
    MAX_DICE_PER_ROLL,
    MAX_SIDES,
    ODDS_MAX_OUTCOMES,
    ODDS_MAX_PAIRS,
    check,
    check_value,
)
from ._poly import Poly

if TYPE_CHECKING:
    from ._roller import Roller

__all__ = ["D66_FACES", "AddNode", "Bin", "Dice", "Neg", "Num", "Paren", "divide"]

D66_FACES = [(a * 10 + b, 1) for a in range(1, 7) for b in range(1, 7)]


def divide(a: int, b: int, kind: str) -> int:
    """Sum-roll division: a zero divisor gives 1; ``U`` up, ``R`` round, else down."""
    if b == 0:
        return 1
    if kind == "U":
        return div_ceil(a, b)
    if kind == "R":
        return div_round(a, b)
    return div_floor(a, b)


def _check_d66_count(times: int) -> None:
    """A negative number of D66: BCDice fails (Ruby's "negative array size"); say so."""
    if times < 0:
        raise ParseError(f"ダイスの個数が負です: {times}D66")


class AddNode:
    """A node of a sum-roll expression."""

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

    def span(self) -> int | None:
        """How many outcomes a sum of this node can have at most (``None``: not a sum)."""
        return 1

    def weight_bits(self) -> int:
        """The bits of the common denominator of a sum of this node (dice in ``+``/``-``)."""
        return 0


class Num(AddNode):
    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def value(self) -> int:
        return self.n

    def expr(self) -> str:
        return str(self.n)


class Paren(AddNode):
    __slots__ = ("body", "dice")

    def __init__(self, body: AddNode) -> None:
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

    def span(self) -> int | None:
        return self.body.span()

    def weight_bits(self) -> int:
        return self.body.weight_bits()


class Neg(AddNode):
    __slots__ = ("body", "dice")

    def __init__(self, body: AddNode) -> None:
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

    def span(self) -> int | None:
        return self.body.span()

    def weight_bits(self) -> int:
        return self.body.weight_bits()


class Bin(AddNode):
    __slots__ = ("dice", "kind", "lhs", "op", "rhs")

    def __init__(self, lhs: AddNode, op: str, rhs: AddNode, kind: str = "") -> None:
        self.lhs, self.op, self.rhs, self.kind = lhs, op, rhs, kind
        self.dice = lhs.dice or rhs.dice

    def _apply(self, a: int, b: int) -> int:
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        if self.op == "*":
            return check_value(a * b)
        return divide(a, b, self.kind)

    def value(self) -> int:
        return self._apply(self.lhs.value(), self.rhs.value())

    def roll(self, roller: Roller) -> int:
        a = self.lhs.roll(roller)
        return self._apply(a, self.rhs.roll(roller))

    def expr(self) -> str:
        return f"{self.lhs.expr()}{self.op}{self.rhs.expr()}{self.kind}"

    def output(self) -> str:
        return f"{self.lhs.output()}{self.op}{self.rhs.output()}{self.kind}"

    def span(self) -> int | None:
        if self.op not in "+-":
            return None
        a, b = self.lhs.span(), self.rhs.span()
        return None if a is None or b is None else a + b - 1

    def weight_bits(self) -> int:
        return self.lhs.weight_bits() + self.rhs.weight_bits() if self.op in "+-" else 0

    def odds(self) -> Poly:
        if self.op in "*/":  # refuse a product of two wide sums before computing either
            sa, sb = self.lhs.span(), self.rhs.span()
            if sa is not None and sb is not None and sa > 1 and sb > 1:
                check(sa * sb, ODDS_MAX_PAIRS, "pairs", "組み合わせの数")
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
        if self.op == "*":  # the products' range, from the ends, before any pair is formed
            ends = [x * y for x in a.ends() for y in b.ends()]
            check(max(ends) - min(ends) + 1, ODDS_MAX_OUTCOMES, "outcomes", "結果の種類")
        out: dict[int, int] = {}
        bw = b.to_weights()
        for x, wa in a.to_weights().items():
            for y, wb in bw.items():
                k = self._apply(x, y)
                out[k] = out.get(k, 0) + wa * wb
        return Poly.from_weights(out, a.denominator * b.denominator)


class Dice(AddNode):
    """``times D sides`` with an optional keep/drop filter; ``sides=None`` means six."""

    __slots__ = ("count", "filter", "keep", "sides", "text", "times")
    dice = True

    def __init__(
        self, times: AddNode, sides: AddNode | None, filt: str = "", keep: AddNode | None = None
    ) -> None:
        self.times, self.sides, self.filter, self.keep = times, sides, filt, keep
        self.text = ""
        self.count = 0  # values rolled by the last roll (a D66 value counts once)

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
        if sides == 66:  # BCDice rolls any number of D66 values (no per-roll cap)
            _check_d66_count(times)
            roller.reserve(2 * max(0, times))
            values = [roller.d66("none") for _ in range(max(0, times))]
        else:
            values = roller.many(times, sides)
        self.count = len(values)
        if self.filter:
            values = sorted(values)
            total = sum(self._kept(values, keep))
        else:
            total = sum(values)
        self.text = f"{total}[{','.join(map(str, values))}]"
        return total

    def span(self) -> int | None:
        times, sides, keep = self._params()
        if sides != 66 and (sides <= 0 or sides > MAX_SIDES or times > MAX_DICE_PER_ROLL):
            return 1
        counted = max(0, times)
        if self.filter:
            kept = max(0, keep)
            counted = min(counted, kept) if self.filter[0] == "K" else max(0, counted - kept)
        return counted * (55 if sides == 66 else sides - 1) + 1

    def weight_bits(self) -> int:
        times, sides, _ = self._params()
        if times <= 0 or (
            sides != 66 and (sides <= 0 or sides > MAX_SIDES or times > MAX_DICE_PER_ROLL)
        ):
            return 0
        return times * (36 if sides == 66 else sides).bit_length()

    def odds(self) -> Poly:
        times, sides, keep = self._params()
        if sides == 66:
            _check_d66_count(times)
        if times <= 0 or sides <= 0:
            return Poly.constant(0)
        check(
            times * (2 if sides == 66 else 1),
            MAX_DICE_PER_COMMAND,
            "dice_per_command",
            "1コマンドで振るダイスの数",
        )
        if sides != 66 and (times > MAX_DICE_PER_ROLL or sides > MAX_SIDES):
            return Poly.constant(0)  # rolls nothing, or only zeros (see Roller)
        check(times, MAX_DICE_PER_ROLL, "dice_per_roll", "ダイスの個数")
        faces = D66_FACES if sides == 66 else [(v, 1) for v in range(1, sides + 1)]
        if not self.filter:
            if sides == 66:
                return Poly.from_weights(dict(faces), 36).power(times)
            return Poly.dice_sum(times, sides)
        from ._keep import keep_sum

        keep = max(0, keep)
        if self.filter in ("KH", "KL"):
            return keep_sum(faces, times, keep, highest=self.filter == "KH")
        return keep_sum(faces, times, max(0, times - keep), highest=self.filter == "DL")
