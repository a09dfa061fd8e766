"""Small commands: ``D66`` (with ``A S D N``), ``C(...)`` calculation and ``xTYy``/``xTZy`` tallies.

``D66`` reads two d6 as tens and units: ``A``/``S`` sort ascending, ``D`` descending,
``N`` (or nothing, the generic default) keeps the order rolled. ``C`` evaluates
integer arithmetic (no power operator, as in BCDice). Tallies count each face;
``TZ`` also lists faces that did not come up. The odds of a tally are those of the
largest count of a single face (label ``最多出目の個数``).

>>> from ._source import DiceSource
>>> from ._roller import Roller
>>> roll_d66("d66a", Roller(DiceSource(dice=[(6, 5), (6, 2)]))).text
'(D66A) ＞ 25'
>>> roll_calc("C(10/2+(5*2)-(3+1))", Roller(DiceSource(dice=[]))).text
'c(10/2+(5*2)-(3+1)) ＞ 11'
>>> odds_tally("2TY2").distribution
{1: Fraction(1, 2), 2: Fraction(1, 2)}
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

from ._arith import ArithZeroDivisionError, Node, Paren, parse_add, parse_term
from ._dist import Dist
from ._errors import ParseError
from ._lexer import Cursor, tokenize
from ._limits import MAX_DICE_PER_COMMAND, MAX_DICE_PER_ROLL, ODDS_MAX_STATES, check
from ._normalize import first_word
from ._poly import as_distribution
from ._result import Odds, Roll

if TYPE_CHECKING:
    from ._roller import Roller

__all__ = ["odds_calc", "odds_d66", "odds_tally", "roll_calc", "roll_d66", "roll_tally"]

_SORTS = {"A": "asc", "S": "asc", "D": "desc", "N": "none", "": "none"}


def _parse_d66(text: str) -> tuple[bool, str] | None:
    word = first_word(text).upper()
    secret = word.startswith("S")
    if secret:
        word = word[1:]
    if not word.startswith("D66") or word[3:] not in _SORTS:
        return None
    return secret, word[3:]


def roll_d66(text: str, roller: Roller) -> Roll | None:
    """Roll ``D66``, or ``None`` if ``text`` is not one."""
    parsed = _parse_d66(text)
    if parsed is None:
        return None
    secret, suffix = parsed
    value = roller.d66(_SORTS[suffix])
    return Roll(f"D66{suffix}", f"(D66{suffix}) ＞ {value}", secret=secret, value=value)


def odds_d66(text: str) -> Odds | None:
    """Odds of ``D66``: outcomes 11..66."""
    parsed = _parse_d66(text)
    if parsed is None:
        return None
    sort = _SORTS[parsed[1]]
    outcomes = []
    for a in range(1, 7):
        for b in range(1, 7):
            x, y = (
                (min(a, b), max(a, b))
                if sort == "asc"
                else ((max(a, b), min(a, b)) if sort == "desc" else (a, b))
            )
            outcomes.append(x * 10 + y)
    return Odds(f"D66{parsed[1]}", as_distribution(Dist.uniform(outcomes)))


def _parse_calc(text: str) -> tuple[bool, Node] | None:
    cur = Cursor(tokenize(text))
    secret = cur.accept_sym("S")
    if not cur.accept_sym("C"):
        return None
    expr = parse_add(cur, keep_parens=True)
    if expr is None or not cur.at_end():
        return None
    return secret, expr


def _calc(text: str) -> tuple[bool, str, int | None] | None:
    parsed = _parse_calc(text)
    if parsed is None:
        return None
    secret, expr = parsed
    shown = expr.output() if isinstance(expr, Paren) else f"({expr.output()})"
    try:
        value: int | None = expr.evaluate()
    except ArithZeroDivisionError:
        value = None
    return secret, f"c{shown}", value


def roll_calc(text: str, roller: Roller) -> Roll | None:  # noqa: ARG001 - no dice
    """Evaluate ``C(...)``, or ``None`` if ``text`` is not one."""
    result = _calc(text)
    if result is None:
        return None
    secret, shown, value = result
    printed = "ゼロ除算が発生したため計算できませんでした" if value is None else str(value)
    return Roll(shown, f"{shown} ＞ {printed}", secret=secret, value=value)


def odds_calc(text: str) -> Odds | None:
    """``C(...)`` as a certain outcome."""
    result = _calc(text)
    if result is None:
        return None
    _, shown, value = result
    if value is None:
        raise ArithZeroDivisionError
    return Odds(shown, {value: Dist.constant(value).probability(value)})


def _parse_tally(text: str) -> tuple[bool, int, int, bool] | None:
    cur = Cursor(tokenize(text))
    secret = cur.accept_sym("S")
    times = parse_term(cur)
    if times is None or not cur.accept_sym("T"):
        return None
    zeros = cur.accept_sym("Z")
    if not zeros and not cur.accept_sym("Y"):
        return None
    sides = parse_term(cur)
    if sides is None or not cur.at_end():
        return None
    t, s = times.evaluate(), sides.evaluate()
    if t <= 0 or s <= 0:
        return None
    return secret, t, s, zeros


def roll_tally(text: str, roller: Roller) -> Roll | None:
    """Roll a tally, or ``None`` if ``text`` is not one."""
    parsed = _parse_tally(text)
    if parsed is None:
        return None
    secret, times, sides, zeros = parsed
    expr = f"{times}T{'Z' if zeros else 'Y'}{sides}"
    if sides > 20:
        return Roll(expr, f"({expr}) ＞ 面数は1以上、20以下としてください")
    values = roller.many(times, sides)
    counts = [f"[{v}]×{values.count(v)}" for v in range(1, sides + 1) if zeros or v in values]
    text_out = f"({expr}) ＞ {','.join(map(str, values))} ＞ {', '.join(counts)}"
    return Roll(expr, text_out, secret=secret)


def odds_tally(text: str) -> Odds | None:
    """Odds of the largest number of dice showing one face."""
    parsed = _parse_tally(text)
    if parsed is None:
        return None
    _, n, s, zeros = parsed
    expr = f"{n}T{'Z' if zeros else 'Y'}{s}"
    if s > 20:
        raise ParseError(f"({expr}) ＞ 面数は1以上、20以下としてください")
    check(n, MAX_DICE_PER_COMMAND, "dice_per_command", "1コマンドで振るダイスの数")
    if n > MAX_DICE_PER_ROLL:  # BCDice rolls nothing past the cap: no face appears
        return Odds(expr, as_distribution(Dist.constant(0)), label="最多出目の個数")
    half = n // 2
    # about s * n * half^2 / 2 big-integer steps below (0.3 s at the bound)
    check(s * (n + 1) * (half + 1) * (half + 1), ODDS_MAX_STATES, "states", "計算量（状態数）")
    total = s**n
    # at_most[m] = number of sequences in which no face appears more than m times
    at_most = {n: total}
    for m in range(max(1, half), n):
        # above n/2 at most one face can reach m+1 or more
        over = s * sum(comb(n, c) * (s - 1) ** (n - c) for c in range(m + 1, n + 1))
        at_most[m] = total - over
    for m in range(1, max(1, half)):
        ways = [1] + [0] * n
        for _ in range(s):
            nxt = [0] * (n + 1)
            for k, w in enumerate(ways):
                if w:
                    for c in range(min(m, n - k) + 1):
                        nxt[k + c] += w * comb(n - k, c)
            ways = nxt
        at_most[m] = ways[n]
    at_most[0] = 0
    weights = {m: at_most[m] - at_most[m - 1] for m in range(1, n + 1)}
    dist = Dist(weights, total)
    return Odds(expr, as_distribution(dist), label="最多出目の個数")
