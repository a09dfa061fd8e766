"""The engine's bounds: every command is checked against them before any work is done.

A command over a bound raises :class:`~saikoro.dice._errors.LimitError` at once, with a
message naming the bound (``LimitError.bound`` holds its id), never a hang or a
``MemoryError``.

Rolling (``roll``):

- ``MAX_DICE_PER_ROLL`` = 200 dice in one notation (``200D6``), BCDice's own cap; like
  BCDice, a notation over it rolls nothing (``500D6`` prints ``(500D6) ＞ 0``) instead of
  raising (``xU`` and ``xD66`` have no such cap in BCDice);
- ``MAX_SIDES`` = 10000 sides, BCDice's own cap; like BCDice, a die with more sides shows
  0 without using a random number;
- ``MAX_DICE_PER_COMMAND`` = 10000 dice handed out by one command, rerolls and
  repeats included (BCDice stops at the same number): this one raises;
- ``MAX_REPEAT`` = 100 repetitions (``x100``); a larger count is BCDice's error text;
- ``MAX_EVALUATIONS`` = 1000 command evaluations by one input: BCDice lets ``x100 X100``
  nest (its nesting check is case-sensitive); the product of nested counts is checked
  before anything runs;
- ``MAX_COMMAND_LENGTH`` = 10000 characters in the whole input (comment included),
  refused before anything is read;
- ``MAX_NESTING`` = 3000: in any word of the input, the deepest parenthesis plus
  the number of ``+ - * /`` signs (a bound on the depth of the expression tree).
  BCDice answers such input (thousands of levels); saikoro answers it up to this
  bound, which Pyodide's stack takes (freeing a tree of about 5000 levels overflows
  it), and refuses deeper input before parsing it;
- ``MAX_LITERAL_DIGITS`` = 1000 digits in a number literal;
- ``MAX_VALUE_BITS`` = 13000 bits (about 3900 digits) in any value a command
  computes (products of long literals); BCDice prints such numbers, saikoro refuses;
- ``MAX_LISTED_VALUES`` = 100000 values printed by one command for dice that draw
  no random number (``10001U0[10]`` prints 10001 zeros, as BCDice does).

Exact odds (``odds``) are estimated before they are computed:

- ``ODDS_MAX_OUTCOMES`` = 200000 outcomes in any intermediate distribution;
- ``ODDS_MAX_BITS`` = 8 million bits of packed polynomial work (outcomes times the bit
  length of the exact weights) for sums, keep/drop and exploding dice;
- ``ODDS_MAX_PAIRS`` = 500000 outcome pairs when two random terms are multiplied
  or divided (about 0.3 s);
- ``ODDS_MAX_STATES`` = 2 million dynamic-programming steps for keep/drop and tallies;
- ``ODDS_MAX_CHOICES`` = 10000 ordered selections for ``choiceN``;
- ``ODDS_MAX_FRACTION_WORK`` = 5 * 10^10 for rerolled and exploding dice (``U``, ``R``):
  outcomes times the squared bit length of the weights, the cost of reducing every
  probability to lowest terms (about 0.1 s at the bound). Chains are estimated from
  the depth, the dice, the span of the outcomes and the weights' bits before any is
  built (see :mod:`saikoro.dice._chains`), e.g. ``1U10[2]`` and ``10U10[6]`` fit,
  ``2U10[2]`` (bits), ``200U11[6]>=5`` (fractions) are refused;
- ``TRUNCATION`` = 10^-12: unbounded processes (``U``, ``R``) are cut at the smallest
  depth whose dropped mass is at most this; ``MAX_DEPTH`` = 5000 rerolls per die.

Within these bounds an exact probability can have tens of thousands of digits
(``15R10[2]``: 4321, ``200R10[2]``: 62600; a reroll whose rerolled faces score nothing is
one power, 0.5 s); :mod:`saikoro.dice._digits` writes them out under Python's guard of
4300 digits per conversion, and the CLI's table shows them rounded with their digit counts.

>>> check(3, 200, "dice", "ダイスの個数")
>>> check(201, 200, "dice", "ダイスの個数")
Traceback (most recent call last):
...
saikoro.dice._errors.LimitError: ダイスの個数が上限(200)を超えています: 201
"""

from __future__ import annotations

import re
from fractions import Fraction

from ._errors import LimitError

__all__ = [
    "MAX_COMMAND_LENGTH",
    "MAX_DEPTH",
    "MAX_DICE_PER_COMMAND",
    "MAX_DICE_PER_ROLL",
    "MAX_EVALUATIONS",
    "MAX_LISTED_VALUES",
    "MAX_LITERAL_DIGITS",
    "MAX_REPEAT",
    "MAX_SIDES",
    "MAX_VALUE_BITS",
    "ODDS_MAX_BITS",
    "ODDS_MAX_CHOICES",
    "ODDS_MAX_FRACTION_WORK",
    "ODDS_MAX_OUTCOMES",
    "ODDS_MAX_PAIRS",
    "ODDS_MAX_STATES",
    "TRUNCATION",
    "check",
    "check_digits",
    "check_length",
    "check_nesting",
    "check_value",
]

MAX_DICE_PER_ROLL = 200
MAX_SIDES = 10000
MAX_DICE_PER_COMMAND = 10000
MAX_REPEAT = 100
MAX_EVALUATIONS = 1000
MAX_LITERAL_DIGITS = 1000
MAX_COMMAND_LENGTH = 10_000
MAX_NESTING = 3000
MAX_VALUE_BITS = 13_000
MAX_LISTED_VALUES = 100_000

ODDS_MAX_OUTCOMES = 200_000
ODDS_MAX_BITS = 8_000_000
ODDS_MAX_PAIRS = 500_000
ODDS_MAX_STATES = 2_000_000
ODDS_MAX_CHOICES = 10_000
ODDS_MAX_FRACTION_WORK = 5 * 10**10
TRUNCATION = Fraction(1, 10**12)
MAX_DEPTH = 5000


def check(value: int, bound: int, name: str, what: str) -> None:
    """Raise :class:`LimitError` when ``value`` exceeds ``bound``."""
    if value > bound:
        raise LimitError(f"{what}が上限({bound})を超えています: {value}", bound=name)


def check_value(value: int) -> int:
    """``value`` itself, or :class:`LimitError` when it has more than ``MAX_VALUE_BITS`` bits.

    >>> check_value(10**1000) == 10**1000
    True
    >>> check_value(10**4000)
    Traceback (most recent call last):
    ...
    saikoro.dice._errors.LimitError: 計算結果が大きすぎます（13000ビットまで）
    """
    if value.bit_length() > MAX_VALUE_BITS:
        raise LimitError(
            f"計算結果が大きすぎます（{MAX_VALUE_BITS}ビットまで）", bound="value_bits"
        )
    return value


_DIGIT_RUN = re.compile(rf"[0-9]{{{MAX_LITERAL_DIGITS + 1},}}")


def check_digits(word: str) -> None:
    """Refuse a word holding a number literal of more than ``MAX_LITERAL_DIGITS`` digits.

    The generic commands' lexer refuses such a literal as it reads it; a rule system's
    command is checked here before the system parses it, so no system converts (or
    computes with) a number of thousands of digits.

    >>> check_digits("KGA7VS5D8")
    >>> check_digits("KGA7VS5D" + "9" * 1001)
    Traceback (most recent call last):
    ...
    saikoro.dice._errors.LimitError: 数値が長すぎます（1000桁まで）
    """
    if _DIGIT_RUN.search(word) is not None:
        raise LimitError(f"数値が長すぎます（{MAX_LITERAL_DIGITS}桁まで）", bound="literal_digits")


def check_length(text: str) -> None:
    """Refuse an input longer than ``MAX_COMMAND_LENGTH`` characters, before reading it.

    >>> check_length("2D6")
    >>> check_length("a" * 10001)
    Traceback (most recent call last):
    ...
    saikoro.dice._errors.LimitError: コマンドの長さが上限(10000)を超えています: 10001
    """
    check(len(text), MAX_COMMAND_LENGTH, "command_length", "コマンドの長さ")


def nesting(text: str) -> int:
    """The largest, over the words of ``text``, of the deepest parenthesis plus the signs.

    >>> nesting("((1D6)+1)*2 x(((("), nesting("x2 1D6+1")
    (4, 1)
    """
    worst = 0
    for word in text.split():
        depth = deepest = signs = 0
        for ch in word:
            if ch == "(":
                depth += 1
                deepest = max(deepest, depth)
            elif ch == ")":
                depth -= 1
            elif ch in "+-*/":
                signs += 1
        worst = max(worst, deepest + signs)
    return worst


def check_nesting(text: str) -> int:
    """``nesting(text)``, or :class:`LimitError` when it exceeds ``MAX_NESTING``.

    >>> check_nesting("(" * 3001 + "1D6" + ")" * 3001)
    Traceback (most recent call last):
    ...
    saikoro.dice._errors.LimitError: 式の入れ子と演算子の数が上限(3000)を超えています: 3001
    """
    found = nesting(text)
    check(found, MAX_NESTING, "nesting", "式の入れ子と演算子の数")
    return found
