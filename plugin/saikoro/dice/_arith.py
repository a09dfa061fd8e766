"""Integer arithmetic inside commands: ``+ - * /`` with rounding suffixes, parentheses.

Counts, sides and targets of ``B``, ``R``, ``U``, ``TY`` and the whole of ``C(...)``
are such expressions. Division rounds down by default; a suffix picks the rounding:
``F`` down, ``C`` or ``U`` up, ``R`` half away from zero. Like BCDice, rounding up and
rounding to nearest divide in floating point (Ruby's ``a.to_f / b``), which only
shows beyond 2^53; plain and ``F`` division are exact. There is no power operator
(BCDice has none). A value over ``MAX_VALUE_BITS`` is refused with ``LimitError``.

>>> parse_expression("10/2+(5*2)-(3+1)").evaluate()
11
>>> parse_expression("1/2C").output()
'1/2C'
>>> div_round(-3, 2), div_ceil(-20, 5), div_floor(20, -4)
(-2, -4, -5)
>>> div_round(9007199254740993, 1)
9007199254740992
"""

from __future__ import annotations

import math

from ._errors import LimitError, ParseError
from ._lexer import Cursor, tokenize
from ._limits import check_value

__all__ = [
    "ArithZeroDivisionError",
    "Node",
    "div_ceil",
    "div_floor",
    "div_round",
    "divide",
    "parse_add",
    "parse_expression",
    "parse_term",
]

ZERO_DIVISION_TEXT = "ゼロ除算が発生したため計算できませんでした"


class ArithZeroDivisionError(ParseError):
    """A division by zero inside a command expression."""

    def __init__(self) -> None:
        super().__init__(ZERO_DIVISION_TEXT)


def div_floor(a: int, b: int) -> int:
    """Division rounded towards minus infinity (Ruby's ``Integer#/``)."""
    return a // b


def _to_float(n: int) -> float:
    """Ruby's ``Integer#to_f``: an integer too large for a float becomes infinite."""
    try:
        return float(n)
    except OverflowError:
        return math.inf if n > 0 else -math.inf


def _quotient(a: int, b: int) -> float:
    q = _to_float(a) / _to_float(b)
    if math.isinf(q) or math.isnan(q):  # Ruby raises FloatDomainError when rounding
        raise LimitError("割り算の結果が浮動小数点数の範囲を超えています", bound="float_range")
    return q


def div_ceil(a: int, b: int) -> int:
    """Division rounded towards plus infinity, in floating point (``(a.to_f / b).ceil``)."""
    return math.ceil(_quotient(a, b))


def div_round(a: int, b: int) -> int:
    """Division rounded half away from zero in floating point (``(a.to_f / b).round``)."""
    q = _quotient(a, b)
    whole = math.floor(abs(q))
    if abs(q) - whole >= 0.5:  # exact: both are floats of the same magnitude
        whole += 1
    return whole if q >= 0 else -whole


def divide(a: int, b: int, kind: str) -> int:
    """Divide with the rounding ``kind`` (``""``/``F`` down, ``C``/``U`` up, ``R`` round)."""
    if b == 0:
        raise ArithZeroDivisionError
    if kind in ("C", "U"):
        return div_ceil(a, b)
    if kind == "R":
        return div_round(a, b)
    return div_floor(a, b)


class Node:
    """An arithmetic expression node."""

    __slots__ = ()

    def evaluate(self) -> int:
        """The integer value."""
        raise NotImplementedError

    def output(self) -> str:
        """The expression as BCDice prints it."""
        raise NotImplementedError


class Num(Node):
    """A literal."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def evaluate(self) -> int:
        return self.value

    def output(self) -> str:
        return str(self.value)


class Neg(Node):
    """Unary minus."""

    __slots__ = ("body",)

    def __init__(self, body: Node) -> None:
        self.body = body

    def evaluate(self) -> int:
        return -self.body.evaluate()

    def output(self) -> str:
        return "-" + self.body.output()


class Bin(Node):
    """``+``, ``-`` or ``*``."""

    __slots__ = ("lhs", "op", "rhs")

    def __init__(self, lhs: Node, op: str, rhs: Node) -> None:
        self.lhs, self.op, self.rhs = lhs, op, rhs

    def evaluate(self) -> int:
        a, b = self.lhs.evaluate(), self.rhs.evaluate()
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        return check_value(a * b)

    def output(self) -> str:
        return f"{self.lhs.output()}{self.op}{self.rhs.output()}"


class Div(Node):
    """Division; ``kind`` is the printed rounding suffix (``""``, ``F``, ``C``, ``R``)."""

    __slots__ = ("kind", "lhs", "rhs")

    def __init__(self, lhs: Node, rhs: Node, kind: str) -> None:
        self.lhs, self.rhs, self.kind = lhs, rhs, kind

    def evaluate(self) -> int:
        return divide(self.lhs.evaluate(), self.rhs.evaluate(), self.kind)

    def output(self) -> str:
        return f"{self.lhs.output()}/{self.rhs.output()}{self.kind}"


class Paren(Node):
    """Parentheses kept for printing (only ``C(...)`` keeps them)."""

    __slots__ = ("body",)

    def __init__(self, body: Node) -> None:
        self.body = body

    def evaluate(self) -> int:
        return self.body.evaluate()

    def output(self) -> str:
        return f"({self.body.output()})"


def parse_round(cur: Cursor, ceil_mark: str = "C") -> str:
    """An optional rounding suffix after a divisor; ``U`` and ``C`` print as ``ceil_mark``."""
    if cur.accept_sym("U") or cur.accept_sym("C"):
        return ceil_mark
    if cur.accept_sym("R"):
        return "R"
    if cur.accept_sym("F"):
        return "F"
    return ""


def parse_term(cur: Cursor, keep_parens: bool = False) -> Node | None:
    """``term: ( add ) | NUMBER``."""
    if cur.accept("("):
        inner = parse_add(cur, keep_parens)
        if inner is None or not cur.accept(")"):
            return None
        return Paren(inner) if keep_parens else inner
    tok = cur.accept("NUM")
    return None if tok is None else Num(tok.number)


def _parse_unary(cur: Cursor, keep_parens: bool) -> Node | None:
    signs = 0  # a run of signs is read in a loop: thousands of them nest no call
    while True:
        if cur.accept("-"):
            signs += 1
        elif not cur.accept("+"):
            break
    body = parse_term(cur, keep_parens)
    for _ in range(signs):
        if body is None:
            return None
        body = Neg(body)
    return body


def parse_mul(cur: Cursor, keep_parens: bool = False, first: Node | None = None) -> Node | None:
    """``mul: mul * unary | mul / unary round | unary`` (``first`` = an already read unary)."""
    lhs = first if first is not None else _parse_unary(cur, keep_parens)
    while lhs is not None:
        if cur.accept("*"):
            rhs = _parse_unary(cur, keep_parens)
            lhs = None if rhs is None else Bin(lhs, "*", rhs)
        elif cur.accept("/"):
            rhs = _parse_unary(cur, keep_parens)
            lhs = None if rhs is None else Div(lhs, rhs, parse_round(cur))
        else:
            return lhs
    return None


def parse_add(cur: Cursor, keep_parens: bool = False) -> Node | None:
    """``add: add + mul | add - mul | mul``."""
    lhs = parse_mul(cur, keep_parens)
    while lhs is not None:
        if cur.accept("+"):
            rhs = parse_mul(cur, keep_parens)
            lhs = None if rhs is None else Bin(lhs, "+", rhs)
        elif cur.accept("-"):
            rhs = parse_mul(cur, keep_parens)
            lhs = None if rhs is None else Bin(lhs, "-", rhs)
        else:
            return lhs
    return None


def parse_expression(source: str) -> Node:
    """Parse a whole arithmetic expression (raises :class:`ParseError` if it is not one)."""
    cur = Cursor(tokenize(source))
    node = parse_add(cur)
    if node is None or not cur.at_end():
        raise ParseError(f"式として解釈できません: {source}")
    return node
