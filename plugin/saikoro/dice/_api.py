"""Entry points of the dice engine: :func:`roll` and :func:`odds`.

A command is tried, in BCDice's order, by the selected system (the ``extension``)
and then by the generic commands: sums, separate dice ``B``, tallies ``TY``/``TZ``,
``C(...)``, ``choice``, ``D66``, repeats ``x5``/``rep5``/``repeat5``, rerolls ``R``
and exploding dice ``U``. Text after the first whitespace is a comment (except for
``choice A B C`` and repeats, which read on); full-width input is read as half-width.

The extension sees the first word upper-cased; a leading ``S`` (secret) is first
stripped, and if the system does not know the rest, the word is offered as is (so a
system command that itself starts with ``S`` still works).

``BCDiceVersion`` (any case) prints the BCDice version whose behaviour saikoro
follows. An input longer than ``MAX_COMMAND_LENGTH``, or nested deeper than
``MAX_NESTING``, is refused before it is read; up to that bound deep input is
answered as BCDice answers it (the recursion limit is raised for the call, see
:func:`_deep`).

``odds`` of a repeat is the odds of one repetition. Commands that BCDice answers with
an error text (a bad reroll condition, ``choice`` of more than 100 items, ...) roll to
that text, but ``odds`` raises :class:`~saikoro.dice._errors.ParseError` with it.

>>> roll("2D6>=7", dice=[(6, 3), (6, 4)]).text
'(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功'
>>> roll("ｘ２　１Ｄ６", dice=[(6, 1), (6, 6)]).text
'#1\\n(1D6) ＞ 1\\n\\n#2\\n(1D6) ＞ 6'
>>> roll("こんにちは") is None
True
>>> odds("4U6[7]").mean
Fraction(14, 1)
"""

from __future__ import annotations

import sys
from _thread import allocate_lock
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from importlib import import_module
from itertools import count
from typing import TYPE_CHECKING

from ._errors import LimitError, ParseError
from ._extension import Extension
from ._limits import (
    MAX_EVALUATIONS,
    MAX_NESTING,
    MAX_REPEAT,
    check,
    check_digits,
    check_length,
    check_nesting,
)
from ._normalize import WHITESPACE, comparison_marks, first_word, halfwidth, strip_ws
from ._result import Odds, Roll
from ._roller import Roller
from ._source import DiceSource

if TYPE_CHECKING:
    import random

__all__ = ["odds", "roll"]

_KEYWORDS = ("repeat", "rep", "x")
BCDICE_VERSION = "3.16.1"
"""The BCDice release whose generic commands saikoro follows (``BCDiceVersion``)."""

# Python frames per level of nesting the parsers and printers may need at most
# (a parenthesis costs five nested calls in the sum grammar).
_FRAMES_PER_LEVEL = 6
_FRAME_MARGIN = 2000
_SHALLOW = 100  # levels any recursion limit takes: no change needed
_raised: dict[int, int] = {}  # a running deep call -> the limit it needs
_base = [0]  # the limit before the first running deep call raised it
_lock = allocate_lock()
_keys = count()


@contextmanager
def _deep(text: str) -> Iterator[None]:
    """Allow the recursion a command this deep can need, for the duration of a call.

    The parsers read runs of signs and chains of terms in loops, but parentheses nest
    calls, and printing a long chain recurses. :func:`~._limits.check_nesting` bounds
    the depth first, so the limit is raised only as far as that bound needs (Python
    3.11+ runs such Python-to-Python calls without growing the C stack, in Pyodide
    too), and put back when the last deep call running in any thread ends. Should the
    interpreter still run out, the command is refused as a :class:`LimitError`.
    """
    levels = check_nesting(halfwidth(text))
    if levels <= _SHALLOW:
        yield
        return
    key = next(_keys)
    with _lock:
        if not _raised:
            _base[0] = sys.getrecursionlimit()
        _raised[key] = _FRAMES_PER_LEVEL * levels + _FRAME_MARGIN
        sys.setrecursionlimit(max([_base[0], *_raised.values()]))
    try:
        yield
    except RecursionError:
        raise LimitError(
            f"コマンドの入れ子が深すぎます（{MAX_NESTING}段まで）", bound="nesting"
        ) from None
    finally:
        with _lock:
            del _raised[key]
            sys.setrecursionlimit(max([_base[0], *_raised.values()]))


def _split_repeat(text: str) -> tuple[bool, int, int] | None:
    """``(secret, times, offset of the repeated command)`` if ``text`` is a repeat."""
    pos = 0
    secret = text[:1] in ("s", "S")
    if secret:
        pos = 1
    lower = text[pos : pos + 6].lower()
    word = next((k for k in _KEYWORDS if lower.startswith(k)), None)
    if word is None:
        return None
    pos += len(word)
    start = pos
    while pos < len(text) and text[pos] in "0123456789":
        pos += 1
    if pos == start:
        return None
    times = int(text[start:pos]) if pos - start <= 6 else MAX_REPEAT + 1
    end = _skip_ws(text, pos)
    if end == pos or end >= len(text):
        return None
    return secret, times, end


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in WHITESPACE:
        pos += 1
    return pos


def _nested(trailer: str) -> bool:
    return any(trailer.startswith(k) and trailer[len(k) : len(k) + 1].isdigit() for k in _KEYWORDS)


def _planned(trailer: str, times: int) -> int:
    """How many evaluations a repeat of ``trailer`` implies, nested repeats included."""
    total = times
    while total <= MAX_EVALUATIONS:
        stripped = trailer.lstrip(WHITESPACE)
        inner = _split_repeat(stripped)
        if inner is None or _nested(stripped) or not 1 <= inner[1] <= MAX_REPEAT:
            break
        total *= inner[1]
        trailer = stripped[inner[2] :]
    return total


def _candidates(text: str) -> list[tuple[str, bool]]:
    word = first_word(text).upper()
    if word.startswith("S") and len(word) > 1:
        return [(word[1:], True), (word, False)]
    return [(word, False)]


# command families in BCDice's order (module, name); modules are imported on first use
_ORDER = (
    ("saikoro.dice._add_dice", "add"),
    ("saikoro.dice._barabara", "barabara"),
    ("saikoro.dice._simple", "tally"),
    ("saikoro.dice._simple", "calc"),
    ("saikoro.dice._choice", "choice"),
    ("saikoro.dice._simple", "d66"),
    ("repeat", ""),
    ("saikoro.dice._reroll", "reroll"),
    ("saikoro.dice._upper", "upper"),
)
_loaded: dict[str, Callable[..., object]] = {}


def _command(module: str, kind: str, name: str) -> Callable[..., object]:
    key = f"{kind}_{name}"
    fn = _loaded.get(key)
    if fn is None:
        fn = getattr(import_module(module), key)
        _loaded[key] = fn
    return fn


def _version(text: str) -> Roll | None:
    if first_word(text).lower() != "bcdiceversion":
        return None
    return Roll("BCDiceVersion", f"BCDice {BCDICE_VERSION}")


def _roll(raw: str, roller: Roller, extension: Extension | None) -> Roll | None:
    text = halfwidth(raw)
    if not strip_ws(text):
        return None
    if extension is not None:
        for word, secret in _candidates(text):
            check_digits(word)  # systems parse their own numbers: none of thousands of digits
            result = extension.roll_command(word, roller.source)
            if result is not None:
                return result.replace(secret=result.secret or secret)
    for module, name in _ORDER:
        if not name:
            result = _roll_repeat(raw, text, roller, extension)
        else:
            fn = _command(module, "roll", name)
            result = fn(raw if name == "choice" else text, roller)  # type: ignore[assignment]
        if result is not None:
            return result
    return _version(text)


def _roll_repeat(raw: str, text: str, roller: Roller, extension: Extension | None) -> Roll | None:
    parsed = _split_repeat(text)  # BCDice reads the keyword at the very start only
    if parsed is None:
        return None
    secret, times, offset = parsed
    trailer, raw_trailer = text[offset:], raw[offset:]
    if _nested(trailer):
        return Roll("repeat", "Repeatコマンドの重複はできません", secret=secret)
    if not 1 <= times <= MAX_REPEAT:
        return Roll("repeat", f"繰り返し回数は1以上、{MAX_REPEAT}以下としてください", secret=secret)
    check(_planned(trailer, times), MAX_EVALUATIONS, "evaluations", "コマンドの評価回数")
    results = [_roll(raw_trailer, roller, extension) for _ in range(times)]
    if all(r is None for r in results):
        return Roll(
            "repeat", f"繰り返し対象のコマンドが実行できませんでした ({raw_trailer})", secret=secret
        )
    body = "\n\n".join(f"#{i}\n{'' if r is None else r.text}" for i, r in enumerate(results, 1))
    secret = secret or any(r is not None and r.secret for r in results)
    return Roll(first_word(trailer), body, secret=secret)


def roll(
    command: str,
    *,
    extension: Extension | None = None,
    dice: Iterable[tuple[int, int]] | None = None,
    rng: random.Random | None = None,
) -> Roll | None:
    """Roll ``command``; ``None`` when the text is not a command.

    Args:
        command: the text as typed (comment allowed after whitespace).
        extension: a rule system offered the command first.
        dice: ``(sides, value)`` pairs handed out in order instead of random dice.
        rng: the random generator to draw from (ignored when ``dice`` is given).

    Raises:
        LimitError: the command exceeds a bound of :mod:`saikoro.dice._limits`.
        GivenDiceError: ``dice`` is not a list of ``(sides, value)`` pairs of integers.
        DiceMismatchError, DiceExhaustedError: ``dice`` does not fit the command.
        ParseError: ``command`` is not a string.
    """
    _check_command(command)
    command = comparison_marks(command)
    source = DiceSource(dice=dice, rng=rng)
    roller = Roller(source)
    with _deep(command):
        result = _roll(command, roller, extension)
    if result is None:
        return None
    return result.replace(dice=source.used)


def odds(command: str, *, extension: Extension | None = None) -> Odds | None:
    """Exact odds of ``command``; ``None`` when the text is not a command.

    Raises:
        LimitError: computing the odds would exceed a bound (estimated up front).
        ParseError: the command is one that BCDice answers with an error text (or
            ``command`` is not a string).
    """
    _check_command(command)
    command = comparison_marks(command)
    with _deep(command):
        return _odds(command, extension)


def _check_command(command: object) -> None:
    """Refuse what is not a command's text, or is longer than ``MAX_COMMAND_LENGTH``."""
    if not isinstance(command, str):
        raise ParseError(f"コマンドは文字列で指定してください: {type(command).__name__}")
    check_length(command)


def _odds(command: str, extension: Extension | None) -> Odds | None:
    raw = command
    for _ in range(2):
        text = halfwidth(raw)
        if not strip_ws(text):
            return None
        if extension is not None:
            for word, _secret in _candidates(text):
                check_digits(word)  # systems parse their own numbers: none of thousands of digits
                result = extension.odds_command(word)
                if result is not None:
                    return result
        for module, name in _ORDER[:6]:
            found = _command(module, "odds", name)(raw if name == "choice" else text)
            if found is not None:
                return found  # type: ignore[return-value]
        parsed = _split_repeat(text)
        if parsed is None:
            for module, name in _ORDER[7:]:
                found = _command(module, "odds", name)(text)
                if found is not None:
                    return found  # type: ignore[return-value]
            return None
        _, times, offset = parsed
        if _nested(text[offset:]):
            raise ParseError("Repeatコマンドの重複はできません")
        if not 1 <= times <= MAX_REPEAT:
            raise ParseError(f"繰り返し回数は1以上、{MAX_REPEAT}以下としてください")
        raw = raw[offset:]
    return None
