"""Exact probabilities as text, however long their numerators and denominators are.

Python refuses to turn an integer of more than 4300 digits into decimal text (``str``,
``f"{n}"``: ``sys.get_int_max_str_digits``), a guard against the quadratic cost of the
conversion. The engine's exact odds can be longer than that -- ``15R10[2]`` is cut after
262 rerolls per die, so its weights are over ``10**3930`` -- and its bounds
(:mod:`saikoro.dice._limits`: ``ODDS_MAX_BITS``, ``ODDS_MAX_FRACTION_WORK``) keep them
to at most a few hundred thousand bits, which :func:`decimal_text` converts in pieces
below Python's limit in milliseconds. Nothing here changes the interpreter's limit.

>>> decimal_text(10**5000)[:4], len(decimal_text(10**5000))
('1000', 5001)
>>> fraction_text(Fraction(1, 6)), digit_count(10**5000), digit_count(0)
('1/6', 5001, 1)
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["decimal_text", "digit_count", "fraction_text"]

_SAFE_BITS = 13_000
"""Integers of at most this many bits (at most 3914 digits) convert with ``str`` under
Python's default limit of 4300 digits."""
_LOG10_2 = 0.30102999566398120


def digit_count(n: int) -> int:
    """How many decimal digits ``abs(n)`` has (no conversion to text).

    Examples:
        >>> [digit_count(v) for v in (9, 10, 99, 100, -1000)]
        [1, 2, 2, 3, 4]
    """
    n = abs(n)
    if n < 10:
        return 1
    guess = int(n.bit_length() * _LOG10_2)  # the count is guess or guess + 1
    return guess + 1 if n >= 10**guess else guess


def decimal_text(n: int) -> str:
    """``str(n)`` for an integer of any length (split in halves below Python's limit)."""
    if n < 0:
        return "-" + decimal_text(-n)
    return _digits(n, 0)


def _digits(n: int, width: int) -> str:
    """The digits of ``n >= 0``, left-padded with zeros to ``width``."""
    if n.bit_length() <= _SAFE_BITS:
        text = str(n)
        return text.zfill(width) if width else text
    low_digits = digit_count(n) // 2
    high, low = divmod(n, 10**low_digits)
    return _digits(high, max(0, width - low_digits)) + _digits(low, low_digits)


def fraction_text(p: Fraction) -> str:
    """``p`` as exact ``n/d`` text (``0/1``, ``1/6``), however long.

    >>> fraction_text(Fraction(0)), fraction_text(Fraction(-3, 4))
    ('0/1', '-3/4')
    """
    return f"{decimal_text(p.numerator)}/{decimal_text(p.denominator)}"
