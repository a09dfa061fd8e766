"""Input clean-up shared by every command: width, whitespace and comparison operators.

Players type commands with a Japanese IME, so ``２Ｄ６＞＝７`` must mean ``2D6>=7``.
:func:`halfwidth` maps the full-width ASCII block (U+FF01..U+FF5E), the ideographic
space and a few look-alike minus signs to ASCII. It deliberately does *not* apply the
full NFKC normalisation: that would rewrite text the player meant literally (circled
digits, half-width katakana, ligatures...), and ``choice`` items are printed back as
typed. The long-vowel mark ``ー``, which an IME produces for the minus key, becomes
``-`` only between characters of a command (an ASCII letter, digit or ``)`` before it
and a digit, ``(`` or ``D`` after it).

>>> halfwidth("２Ｄ６＞＝７　コメント")
'2D6>=7 コメント'
>>> halfwidth("２ｄ６ー１ ラーメン")
'2d6-1 ラーメン'
>>> first_word("  2D6+1 攻撃")
'2D6+1'
>>> comparison_operator("=>"), comparison_operator("<>"), comparison_operator("!")
('>=', '!=', None)

An IME also offers ``≧`` and ``≦`` (and ``≥`` ``≤``) for "at least" and "at most";
:func:`comparison_marks` writes them as BCDice's ``>=`` and ``<=`` (a ``choice`` list's
items stay as typed):

>>> comparison_marks("1D10+3≧7"), comparison_marks("x2 2D6≦5"), comparison_marks("choice[≧,≦]")
('1D10+3>=7', 'x2 2D6<=5', 'choice[≧,≦]')
"""

from __future__ import annotations

__all__ = [
    "WHITESPACE",
    "compare",
    "comparison_marks",
    "comparison_operator",
    "display_operator",
    "first_word",
    "halfwidth",
    "strip_ws",
]

WHITESPACE = " \t\n\v\f\r"
"""What BCDice (Ruby's ``\\s``) treats as whitespace."""

_MINUS_LOOKALIKES = {"\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2013": "-"}


def _plain(ch: str) -> str:
    code = ord(ch)
    if 0xFF01 <= code <= 0xFF5E:
        return chr(code - 0xFEE0)
    if ch == "\u3000":
        return " "
    return _MINUS_LOOKALIKES.get(ch, ch)


def halfwidth(text: str) -> str:
    """Map full-width ASCII, the ideographic space and minus look-alikes to ASCII."""
    if text.isascii():
        return text
    chars = [_plain(c) for c in text]
    for i, ch in enumerate(chars):
        if ch != "\u30fc" or i == 0 or i + 1 >= len(chars):
            continue
        before, after = chars[i - 1], chars[i + 1]
        if (before.isascii() and (before.isalnum() or before == ")")) and (
            after in "0123456789(" or after in "Dd"
        ):
            chars[i] = "-"
    return "".join(chars)


_MARKS = {"\u2267": ">=", "\u2266": "<=", "\u2265": ">=", "\u2264": "<="}
"""≧ ≦ ≥ ≤ and the operators they mean."""


def comparison_marks(text: str) -> str:
    """``text`` with ``≧ ≦ ≥ ≤`` written ``>= <=``, up to a ``choice`` command's items.

    The one place these marks are read: :func:`saikoro.roll` and :func:`saikoro.odds`
    call it first, so the CLI, the site and the browser's roller accept them alike, and
    the result echoes the command as BCDice would print it for ``>=``. Unlike
    :func:`halfwidth` it changes the text's length (one character becomes two), so it
    runs before everything that lines up positions in the text with the raw command.
    """
    if not any(mark in text for mark in _MARKS):
        return text
    found = halfwidth(text).lower().find("choice")  # halfwidth keeps positions
    end = found if found >= 0 else len(text)
    return "".join(_MARKS.get(c, c) for c in text[:end]) + text[end:]


def strip_ws(text: str) -> str:
    """Strip BCDice whitespace from both ends."""
    return text.strip(WHITESPACE)


def first_word(text: str) -> str:
    """The text up to the first whitespace, leading whitespace skipped (Ruby ``split(" ", 2)``)."""
    text = text.lstrip(WHITESPACE)
    for i, ch in enumerate(text):
        if ch in WHITESPACE:
            return text[:i]
    return text


def comparison_operator(op: str) -> str | None:
    """Normalise a run of ``<>!=`` characters the way BCDice does (first match wins).

    Returns one of ``<= >= != < > ==`` or ``None`` when the run means nothing.
    """
    if "<=" in op or "=<" in op:
        return "<="
    if ">=" in op or "=>" in op:
        return ">="
    if "<>" in op or "!=" in op or "=!" in op:
        return "!="
    if "<" in op:
        return "<"
    if ">" in op:
        return ">"
    if "=" in op:
        return "=="
    return None


def display_operator(op: str | None) -> str:
    """How an operator is printed in results: ``==`` as ``=``, ``!=`` as ``<>``.

    >>> display_operator("=="), display_operator("!="), display_operator(None)
    ('=', '<>', '')
    """
    if op is None:
        return ""
    return {"==": "=", "!=": "<>"}.get(op, op)


def compare(value: int, op: str, target: int) -> bool:
    """Apply a normalised comparison operator.

    >>> compare(7, ">=", 7), compare(7, "!=", 7)
    (True, False)
    """
    if op == "<=":
        return value <= target
    if op == ">=":
        return value >= target
    if op == "!=":
        return value != target
    if op == "<":
        return value < target
    if op == ">":
        return value > target
    return value == target
