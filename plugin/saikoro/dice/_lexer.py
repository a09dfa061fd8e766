"""The token stream every BCDice-style command grammar reads.

Like BCDice's common lexer it looks only at the first word (a comment follows the
first whitespace), reads digit runs as numbers, runs of ``<>!=`` as one comparison
operator, a few punctuation marks, and any other character upper-cased as a symbol.

>>> [t.kind for t in tokenize("2d6>=7 コメント")]
['NUM', 'SYM', 'NUM', 'CMP', 'NUM']
>>> tokenize("2d6")[1].text
'D'
"""

from __future__ import annotations

from ._errors import LimitError
from ._limits import MAX_LITERAL_DIGITS
from ._normalize import comparison_operator, first_word

__all__ = ["Cursor", "Token", "tokenize"]

_PUNCT = frozenset("+-*/()[]?@")
_DIGITS = frozenset("0123456789")
_CMP = frozenset("<>!=")


class Token:
    """One token.

    Attributes:
        kind: ``NUM``, ``CMP``, ``SYM`` or the punctuation character itself.
        text: the upper-cased symbol, the punctuation, or the operator run.
        number: the value of a ``NUM`` token.
        op: the normalised operator of a ``CMP`` token (``None`` if meaningless).
    """

    __slots__ = ("kind", "number", "op", "text")

    def __init__(self, kind: str, text: str = "", number: int = 0, op: str | None = None) -> None:
        self.kind = kind
        self.text = text
        self.number = number
        self.op = op

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.text!r})"


_last: tuple[str, list[Token]] = ("", [])


def tokenize(source: str) -> list[Token]:
    """Split the first word of ``source`` into tokens.

    Every command family reads the same input in turn, so the last answer is kept
    and a second call with the same text returns it (tokens are never modified).
    """
    global _last  # noqa: PLW0603 - a one-entry cache
    if _last[0] == source and source:
        return _last[1]
    tokens = _tokenize(first_word(source))
    _last = (source, tokens)
    return tokens


def _tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _DIGITS:
            j = i + 1
            while j < n and text[j] in _DIGITS:
                j += 1
            if j - i > MAX_LITERAL_DIGITS:
                raise LimitError(
                    f"数値が長すぎます（{MAX_LITERAL_DIGITS}桁まで）", bound="literal_digits"
                )
            tokens.append(Token("NUM", text[i:j], number=int(text[i:j])))
            i = j
        elif ch in _CMP:
            j = i + 1
            while j < n and text[j] in _CMP:
                j += 1
            run = text[i:j]
            tokens.append(Token("CMP", run, op=comparison_operator(run)))
            i = j
        elif ch in _PUNCT:
            tokens.append(Token(ch, ch))
            i += 1
        else:
            tokens.append(Token("SYM", ch.upper()))
            i += 1
    return tokens


class Cursor:
    """A position in a token list, for the recursive-descent parsers."""

    __slots__ = ("pos", "tokens")

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> Token | None:
        """The next token, or ``None`` at the end."""
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def at_end(self) -> bool:
        """Whether every token was consumed."""
        return self.pos >= len(self.tokens)

    def accept(self, kind: str) -> Token | None:
        """Consume and return the next token if it is of ``kind``."""
        tok = self.peek()
        if tok is not None and tok.kind == kind:
            self.pos += 1
            return tok
        return None

    def accept_sym(self, letter: str) -> bool:
        """Consume the next token if it is the symbol ``letter``."""
        tok = self.peek()
        if tok is not None and tok.kind == "SYM" and tok.text == letter:
            self.pos += 1
            return True
        return False

    def peek_sym(self, letter: str) -> bool:
        """Whether the next token is the symbol ``letter``."""
        tok = self.peek()
        return tok is not None and tok.kind == "SYM" and tok.text == letter

    def starts_term(self) -> bool:
        """Whether the next token can start a term (a number or ``(``)."""
        tok = self.peek()
        return tok is not None and tok.kind in ("NUM", "(")
