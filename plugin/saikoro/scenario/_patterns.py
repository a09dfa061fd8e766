"""Regular expressions that say what validation says about a range, for the JSON Schema.

An editor (yaml-language-server) checks a string with the schema's ``pattern`` only, so a
range's rules -- each end within its bounds, the low end first -- are written as regular
expressions here: :func:`int_range` (an integer from ``low`` to ``high``) and
:func:`ordered` (``A-B`` with A <= B, compared digit by digit with backreferences). The
expressions are the common part of ECMAScript (the editor's, with its ``u`` flag) and
Python's ``re`` (the tests check them against validation with both): ASCII ``[0-9]``,
numbered backreferences, no lookbehind.

>>> import re
>>> r = re.compile(f"^{int_range(1, 20)}$")
>>> [bool(r.match(s)) for s in ("1", "20", "21", "0", "007")]
[True, True, False, False, True]
>>> o = re.compile(f"^{ordered('-')}$")
>>> [bool(o.match(s)) for s in ("3-5", "5-5", "5-3", "9-10", "10-9", "05-5", "129-130")]
[True, True, False, True, False, True, True]
"""

from __future__ import annotations

from saikoro.dice import InternalError

__all__ = ["int_range", "ordered"]

_D = "[0-9]"


def _repeat(n: int) -> str:
    return "" if n == 0 else _D if n == 1 else f"{_D}{{{n}}}"


def _same_length(a: str, b: str) -> str:
    """Digit strings of ``len(a)`` from ``a`` to ``b`` (``a <= b``, same length)."""
    if a == b:
        return a
    if a == "0" * len(a) and b == "9" * len(b):
        return _repeat(len(a))
    if len(a) == 1:
        return f"[{a}-{b}]"
    if a[0] == b[0]:
        return a[0] + _same_length(a[1:], b[1:])
    rest = len(a) - 1
    parts = [a[0] + _group(_same_length(a[1:], "9" * rest))]
    if int(a[0]) + 1 <= int(b[0]) - 1:
        parts.append(f"[{int(a[0]) + 1}-{int(b[0]) - 1}]{_repeat(rest)}")
    parts.append(b[0] + _group(_same_length("0" * rest, b[1:])))
    return "(?:" + "|".join(parts) + ")"


def _group(pattern: str) -> str:
    simple = len(pattern) <= 1 or pattern.startswith("(?:") or pattern == _D
    return pattern if simple or "|" not in pattern else f"(?:{pattern})"


def int_range(low: int, high: int) -> str:
    """An integer from ``low`` to ``high`` (0 <= low <= high) in decimal, leading zeros
    allowed (``007`` is 7, as validation reads it), as a non-capturing group."""
    if low < 0 or high < low:
        raise InternalError(f"int_range({low}, {high}): not a range of non-negative integers")
    parts = []
    for length in range(len(str(low)), len(str(high)) + 1):
        a = max(low, 10 ** (length - 1) if length > 1 else 0)
        b = min(high, 10**length - 1)
        if a <= b:
            parts.append(_same_length(str(a), str(b)))
    zero = "0+" if low == 0 else ""
    body = "|".join(parts) if low > 0 else "|".join([zero, *(p for p in parts if p != "0")])
    return f"0*(?:{body})"


def ordered(
    sep: str, *, digits: int = 6, a_tail: str = "", b_tail: str = "", decimals: bool = False
) -> str:
    """``A`` ``sep`` ``B`` with the number A at most B (non-negative, leading zeros
    allowed, at most ``digits`` digits without them); ``a_tail`` / ``b_tail`` follow each
    number (a decimal part, when ``decimals``: then equal integer parts compare their
    decimals too). A non-capturing group whose backreferences are numbered from 1."""
    frac = r"(?:\.[0-9]+)?" if decimals else ""
    a_end, b_end = frac + a_tail, frac + b_tail
    groups = 0
    alternatives = []
    # A has fewer digits than B
    for la in range(1, digits):
        a = _D if la == 1 else f"[1-9]{_repeat(la - 1)}"
        alternatives.append(f"0*{a}{a_end}{sep}0*[1-9][0-9]{{{la},}}{b_end}")
    # the same number of digits, the first digit that differs is lower in A
    for k in range(1, digits + 1):
        for i in range(k):
            tail = _repeat(k - i - 1)
            if i == 0:
                head, again = "", ""
                firsts = range(1 if k > 1 else 0, 9)
            else:
                groups += 1
                head, again = f"([1-9]{_repeat(i - 1)})", f"\\{groups}"
                firsts = range(9)
            pairs = "|".join(f"{d}{tail}{a_end}{sep}0*{again}[{d + 1}-9]" for d in firsts)
            alternatives.append(f"0*{head}(?:{pairs}){tail}{b_end}")
    # the same integer part
    groups += 1
    number = f"(0|[1-9][0-9]{{0,{digits - 1}}})"
    same = f"\\{groups}"
    if not decimals:
        alternatives.append(f"0*{number}{a_tail}{sep}0*{same}{b_tail}")
    else:
        # A's decimals are zeros, or (trailing zeros aside) the start of B's, or lower at
        # the first digit that differs
        start = f"\\{groups + 1}"  # the decimals A and B start with
        lower = "|".join(f"{d}[0-9]*{a_tail}{sep}0*{same}\\.{start}[{d + 1}-9]" for d in range(9))
        alternatives.append(
            f"0*{number}(?:(?:\\.0+)?{a_tail}{sep}0*{same}(?:\\.[0-9]+)?"
            f"|\\.([0-9]*?)(?:0*{a_tail}{sep}0*{same}\\.{start}[0-9]*"
            f"|(?:{lower})[0-9]*)){b_tail}"
        )
    return "(?:" + "|".join(alternatives) + ")"
