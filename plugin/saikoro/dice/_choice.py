"""``choice``: pick one (or ``choiceN``: N different) of the listed items.

Forms: ``choice[A,B,C]``, ``choice(A,B,C)``, ``choice A B C``; items are stripped and
empty ones dropped; a single item ``A-F`` or ``3-10`` expands to a range. The items
are printed exactly as typed: this command reads the raw text, accepting full-width
brackets, commas, spaces, digits and keyword, but never rewriting the items. The
odds are over the printed result strings (for ``choiceN``, the ordered picks joined
the way BCDice prints them).

>>> from ._source import DiceSource
>>> from ._roller import Roller
>>> roll_choice("choice[abc, def]", Roller(DiceSource(dice=[(2, 2)]))).text
'(choice[abc,def]) ＞ def'
>>> roll_choice("ｃｈｏｉｃｅ［りんご，みかん］", Roller(DiceSource(dice=[(2, 1)]))).text
'(choice[りんご,みかん]) ＞ りんご'
>>> odds_choice("choice2(a,b,c)").distribution["a, b"]
Fraction(1, 6)
"""

from __future__ import annotations

from itertools import permutations
from math import perm
from typing import TYPE_CHECKING, NamedTuple

from ._dist import Dist
from ._errors import ParseError
from ._limits import ODDS_MAX_CHOICES, check
from ._normalize import WHITESPACE, halfwidth
from ._poly import as_distribution
from ._result import Odds, Roll

if TYPE_CHECKING:
    from ._roller import Roller

__all__ = ["odds_choice", "roll_choice"]

_SPACE = WHITESPACE + "\u3000"
_TOO_MANY = "項目数は100以下としてください"


class _Parsed(NamedTuple):
    secret: bool
    kind: str  # "[", "(" or " "
    takes: int
    items: list[str]

    def expr(self) -> str:
        takes = "" if self.takes == 1 else str(self.takes)
        if self.kind == " ":
            return f"choice{takes} {' '.join(self.items)}"
        close = "]" if self.kind == "[" else ")"
        return f"choice{takes}{self.kind}{','.join(self.items)}{close}"

    def joiner(self) -> str:
        return " " if self.kind == " " else ", "


def _split(rest: str, delims: str) -> list[str]:
    parts, start = [], 0
    for i, ch in enumerate(rest):
        if ch in delims:
            parts.append(rest[start:i])
            start = i + 1
    parts.append(rest[start:])
    return parts


def _shorthand(item: str) -> list[str]:
    text = halfwidth(item)
    first, sep, last = text.partition("-")
    if not sep:
        return []
    if first.isdigit() and last.isdigit() and first.isascii() and last.isascii():
        a, b = int(first), int(last)
        if a > b:
            return []
        if b - a + 1 > 100:  # BCDice would refuse to roll anyway; don't build the list
            return [str(a)] * (b - a + 1) if b - a < 10_000 else [str(a)] * 10_001
        return [str(v) for v in range(a, b + 1)]
    if (
        len(first) == 1
        and len(last) == 1
        and first.isascii()
        and last.isascii()
        and ((first.islower() and last.islower()) or (first.isupper() and last.isupper()))
    ):
        if first > last or not first.isalpha() or not last.isalpha():
            return []
        return [chr(c) for c in range(ord(first), ord(last) + 1)]
    return []


def _parse(raw: str) -> _Parsed | None:
    text = raw.lstrip(_SPACE)
    plain = halfwidth(text)
    secret = plain[:1] in ("S", "s")
    pos = 1 if secret else 0
    if plain[pos : pos + 6].lower() != "choice":
        return None
    pos += 6
    start = pos
    while pos < len(plain) and plain[pos] in "0123456789":
        pos += 1
    takes = int(plain[start:pos]) if pos > start else 1
    if takes == 0 or pos >= len(plain):
        return None
    opener = plain[pos]
    if opener in "[(":
        kind, rest = opener, text[pos + 1 :]
        parts = _split(rest, ",，")
        closer = "]］" if opener == "[" else ")）"
        last = parts[-1]
        end = next((i for i, ch in enumerate(last) if ch in closer), -1)
        if end < 0:
            return None
        parts[-1] = last[:end]
    elif opener in _SPACE:
        kind = " "
        rest = text[pos:].strip(_SPACE)
        parts = [p for p in _split(rest, _SPACE) if p]
    else:
        return None
    items = [p.strip(_SPACE) for p in parts]
    items = [p for p in items if p]
    if len(items) == 1:
        items = _shorthand(items[0])
    if not items or len(items) < takes:
        return None
    return _Parsed(secret, kind, takes, items)


def roll_choice(raw: str, roller: Roller) -> Roll | None:
    """Pick from a ``choice`` list, or ``None`` if ``raw`` is not one."""
    p = _parse(raw)
    if p is None:
        return None
    if len(p.items) > 100:
        return Roll("choice", _TOO_MANY)
    items = list(p.items)
    chosen = [items.pop(roller.once(len(items)) - 1) for _ in range(p.takes)]
    picked = p.joiner().join(chosen)
    expr = p.expr()
    return Roll(expr, f"({expr}) ＞ {picked}", secret=p.secret, value=picked)


def odds_choice(raw: str) -> Odds | None:
    """Odds of each printed result of a ``choice``."""
    p = _parse(raw)
    if p is None:
        return None
    if len(p.items) > 100:
        raise ParseError(_TOO_MANY)
    check(perm(len(p.items), p.takes), ODDS_MAX_CHOICES, "choices", "選び方の数")
    joiner = p.joiner()
    dist = Dist.uniform(joiner.join(pick) for pick in permutations(p.items, p.takes))
    return Odds(p.expr(), as_distribution(dist), label="選択")
