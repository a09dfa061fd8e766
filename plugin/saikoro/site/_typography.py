"""Japanese line breaks: a newline between two Japanese characters is not a space.

Markdown (and HTML) turn a soft line break into a space, which is right between English
words and wrong in Japanese: 「示します。\\n起点の」 must read 「示します。起点の」.
CSS's rule for this (segment break transformation) is not implemented by browsers, and
no maintained Python-Markdown extension does it (``mdit-py-cjk-friendly`` is for
markdown-it-py), so this module does, in three places:

* :class:`JapaneseLineBreaks`, a Python-Markdown extension (added to every page by the
  plugin, and used for scenario Markdown by :func:`saikoro.site._safe.render_markdown`);
* :func:`join_lines` for plain text from YAML (``|`` blocks), used by ``esc`` and
  ``md_escape``.

>>> join_lines("示します。\\n  起点の\\nHP が\\n0 になる")
'示します。起点の\\nHP が\\n0 になる'
>>> import markdown
>>> markdown.markdown("日本語の\\n文章。\\n\\nEnglish\\ntext", extensions=[JapaneseLineBreaks()])
'<p>日本語の文章。</p>\\n<p>English\\ntext</p>'
"""

from __future__ import annotations

import functools
import itertools
import re

import budoux
import markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor

__all__ = [
    "JAPANESE",
    "JapaneseLineBreaks",
    "break_points",
    "join_lines",
    "phrase_html",
    "phrases",
    "punctuate",
    "punctuate_html",
    "typeset_html",
]

JAPANESE = (
    "\u3000-\u303f"  # CJK symbols and punctuation (、。「」)
    "\u3040-\u30ff"  # hiragana, katakana
    "\u31f0-\u31ff"  # katakana extensions
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # kanji
    "\uff01-\uff60\uff61-\uff9f"  # full-width forms, half-width katakana
)
"""Characters between which a line break is not a space (a regex class body)."""

_BREAK = re.compile(rf"(?<=[{JAPANESE}])[ \t]*\r?\n[ \t]*(?=[{JAPANESE}])")
# In HTML a tag may sit at either side of the break: 「**太字**\n次」.
_TAG = r"(?:<[A-Za-z/][^<>]*>)*"
_HTML_BREAK = re.compile(rf"(?<=[{JAPANESE}])({_TAG})[ \t]*\r?\n[ \t]*({_TAG})(?=[{JAPANESE}])")
_INLINE = r"(?:strong|em|b|i|code|a|span|mark|kbd|abbr)"
_SPACE_OPEN = re.compile(rf"(?<=[{JAPANESE}])[ \t]+(<{_INLINE}\b[^<>]*>)(?=[{JAPANESE}])")
_SPACE_CLOSE = re.compile(rf"([{JAPANESE}])(</{_INLINE}>)[ \t]+(?=[{JAPANESE}])")
_KEEP = re.compile(r"(<(pre|code|script|style|textarea)\b[\s\S]*?</\2>)", re.I)


def join_lines(text: str) -> str:
    """``text`` with the line breaks between Japanese characters removed."""
    return _BREAK.sub("", text)


def join_html(html: str) -> str:
    r"""``html`` with the line breaks between Japanese characters removed, outside
    ``<pre>``, ``<code>``, ``<script>``, ``<style>`` and ``<textarea>``.

    Spaces set around an inline element in Japanese text (``使う **能力** と``) go too:
    Japanese is not spaced around emphasis. Spaces next to Latin text stay.

    >>> join_html("使う <strong>能力</strong> と <code>GB3</code> を\n振る")
    '使う<strong>能力</strong>と <code>GB3</code> を振る'
    """
    html = _SPACE_CLOSE.sub(r"\1\2", _SPACE_OPEN.sub(r"\1", html))
    parts = _KEEP.split(html)
    out = []
    skip = 0
    for part in parts:
        if skip:  # the tag-name group of the previous match
            skip -= 1
            continue
        if _KEEP.fullmatch(part):
            out.append(part)
            skip = 1
        else:
            out.append(_HTML_BREAK.sub(r"\1\2", part))
    return "".join(out)


class _Join(Postprocessor):
    def run(self, text: str) -> str:
        return join_html(text)


class JapaneseLineBreaks(Extension):
    """Python-Markdown extension: no space at a soft line break between Japanese characters.

    Runs before raw HTML and code blocks are put back (they are placeholders then), so
    code is never touched.
    """

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Markdown's API)
        md.postprocessors.register(_Join(md), "saikoro_japanese_breaks", 35)


# -- phrases: where a line may break in Japanese text ----------------------------------------

_NO_LINE_START = frozenset("、。，．：；！？）」』】〕ー～…・")
"""Characters a line never starts with (Japanese line-breaking rules, 行頭禁則)."""
_NO_LINE_END = frozenset("（「『【〔")
"""Characters a line never ends with (行末禁則)."""
_AFTER_PUNCTUATION = frozenset("、。，．：；！？）」』】〕　 ")
_ASCII_WORD = re.compile(r"[!-~]")


_KANJI = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々]")
_KATAKANA = re.compile("[\u30a0-\u30ff\u31f0-\u31ff]")


def _same_word_script(before: str, after: str) -> bool:
    """Whether two characters are of one run of kanji or of katakana (a word that a
    phrase model may still cut: 射|程内)."""
    return bool(
        (_KANJI.match(before) and _KANJI.match(after))
        or (_KATAKANA.match(before) and _KATAKANA.match(after))
    )


@functools.cache
def _parser() -> budoux.Parser:
    return budoux.load_default_japanese_parser()


def break_points(text: str) -> list[int]:
    """The indices ``i`` of ``text`` where a line may break before ``text[i]``.

    A line breaks between phrases (BudouX's Japanese model), after punctuation, at
    spaces and where katakana and kanji meet inside a compound; never inside a run of
    ASCII (a command such as ``GB3>=8``), of kanji or of katakana (a word), never before
    a closing bracket or punctuation mark and never after an opening bracket.

    >>> t = "出目はクリティカル値以上？"
    >>> [t[a:b] for a, b in zip([0, *break_points(t)], [*break_points(t), len(t)])]
    ['出目は', 'クリティカル', '値以上？']
    """
    if not text:
        return []
    points: set[int] = set()
    at = 0
    for phrase in _parser().parse(text):
        at += len(phrase)
        points.add(at)
    points.update(i + 1 for i, c in enumerate(text) if c in _AFTER_PUNCTUATION)
    # where a compound's katakana and kanji meet (メインミッション|達成): a word boundary
    # inside a long phrase, so a narrow cell need not be wider than the whole phrase
    points.update(
        i
        for i in range(1, len(text))
        if (_KATAKANA.match(text[i - 1]) and _KANJI.match(text[i]))
        or (_KANJI.match(text[i - 1]) and _KATAKANA.match(text[i]))
    )
    out = []
    for i in sorted(points):
        if not 0 < i < len(text):
            continue
        before, after = text[i - 1], text[i]
        if after in _NO_LINE_START or before in _NO_LINE_END:
            continue
        if _ASCII_WORD.match(before) and _ASCII_WORD.match(after):
            continue
        if _same_word_script(before, after):  # 射|程内, クリティカ|ル: one word
            continue
        out.append(i)
    return out


def phrases(text: str) -> list[str]:
    """``text`` cut at its :func:`break_points` (the pieces a line break never splits).

    >>> phrases("全員のAP・STを回復（上限あり）")
    ['全員の', 'AP・STを', '回復', '（上限あり）']
    """
    cuts = [0, *break_points(text), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(cuts) if b > a]


# -- punctuation: full-width brackets, colons and marks in Japanese text -----------------------

_JA = re.compile(rf"[{JAPANESE}]")
_TOKEN = re.compile(r"(<!--[\s\S]*?-->|<[^>]*>)")
_RAW = frozenset({"code", "pre", "script", "style", "kbd", "samp", "textarea", "svg", "math"})
_TAG_NAME = re.compile(r"<\s*(/?)\s*([A-Za-z][A-Za-z0-9-]*)")
_FULL = {"(": "（", ")": "）", ":": "：", "?": "？", "!": "！"}


def _is_ja(char: str) -> bool:
    return bool(_JA.match(char))


def _edits(text: str) -> dict[int, str]:
    """Replacements by index in ``text`` (visible text) that make its Japanese punctuation
    full-width: ``(...)`` after Japanese, opening on it, or holding Japanese and followed
    by it, ``:`` ``?`` ``!`` after Japanese;
    spaces between Japanese and such a mark go (full-width marks carry their own space).
    """
    edits: dict[int, str] = {}

    def before(i: int) -> int:
        """Index of the last non-space character before ``i`` (-1 if none)."""
        j = i - 1
        while j >= 0 and text[j] in " \t\u00a0\n\r":
            j -= 1
        return j

    def first(i: int) -> str:
        """The first non-space character from ``i`` on (``""`` if none)."""
        stripped = text[i:].lstrip()
        return stripped[:1]

    def drop_spaces(start: int, stop: int) -> None:
        for k in range(start, stop):  # a line break is a space too (「す\n(」)
            if text[k] in " \t\u00a0\n\r":
                edits[k] = ""

    stack: list[int] = []
    for i, char in enumerate(text):
        if char == "(":
            stack.append(i)
        elif char == ")" and stack:
            start = stack.pop()
            j = before(start)
            # Japanese before the bracket or at its start (not a Japanese word inside an
            # English aside: "(corruption: the PC's 穢れ)" stays as it is)
            inner = text[start + 1 : i]
            closing_ja = _is_ja(first(i + 1)) and bool(_JA.search(inner))  # 値+1(1ターン)。
            if (j >= 0 and _is_ja(text[j])) or _is_ja(first(start + 1)) or closing_ja:
                edits[start] = "（"
                edits[i] = "）"
                if j >= 0 and (_is_ja(text[j]) or text[j] in "」）"):
                    drop_spaces(j + 1, start)
                after = i + 1
                while after < len(text) and text[after] in " \t\u00a0":
                    after += 1
                if after < len(text) and _is_ja(text[after]):
                    drop_spaces(i + 1, after)
        elif char in ":?!":
            j = before(i)
            prev = edits.get(j, text[j]) if j >= 0 else ""
            if not prev or not _is_ja(prev) or prev in "：？！":
                continue
            nxt = text[i + 1 : i + 2]
            if char == ":" and nxt in {"/", ":"}:  # a URL scheme or "::"
                continue
            edits[i] = _FULL[char]
            drop_spaces(j + 1, i)
            k = i + 1
            while k < len(text) and text[k] in " \t\u00a0":
                edits[k] = ""
                k += 1
        elif char == "：":  # a full-width colon needs no space after it
            k = i + 1
            while k < len(text) and text[k] in " \t\u00a0":
                edits[k] = ""
                k += 1
    return edits


def punctuate(text: str) -> str:
    """``text`` with full-width brackets, colons and marks where they touch Japanese.

    >>> punctuate("毒(LV1)を受ける。システム: GETB ／ 範囲 (1〜8) ？")
    '毒（LV1）を受ける。システム：GETB ／ 範囲（1〜8）？'
    >>> punctuate("しています\\n(裁定)。")
    'しています（裁定）。'
    >>> punctuate("攻撃値+1(1ターン)。")
    '攻撃値+1（1ターン）。'
    >>> punctuate("16.7% (1/6)、see https://x.org (a) (the PC's 穢れ)")
    "16.7% (1/6)、see https://x.org (a) (the PC's 穢れ)"
    """
    edits = _edits(text)
    return "".join(edits.get(i, c) for i, c in enumerate(text))


def _visible(tokens: list[str]) -> list[tuple[int, int]]:
    """(token index, offset) of every visible character of ``tokens`` (text outside raw
    elements such as ``<code>`` and ``<pre>``), in order."""
    where: list[tuple[int, int]] = []
    raw = 0
    for t, token in enumerate(tokens):
        if token.startswith("<"):
            match = _TAG_NAME.match(token)
            if match and match.group(2).lower() in _RAW and not token.endswith("/>"):
                raw += -1 if match.group(1) else 1
                raw = max(raw, 0)
            continue
        if raw == 0:
            where.extend((t, k) for k in range(len(token)))
    return where


def punctuate_html(html: str) -> str:
    """:func:`punctuate` applied to the text of ``html`` (not its tags, attributes, code
    or preformatted blocks); a bracket pair may span inline elements.

    >>> punctuate_html("<p>(<a href='x(1)'>裁定</a>、<code>a: (b)</code>)</p>")
    "<p>（<a href='x(1)'>裁定</a>、<code>a: (b)</code>）</p>"
    """
    tokens = _TOKEN.split(html)
    where = _visible(tokens)
    text = "".join(tokens[t][k] for t, k in where)
    edits = _edits(text)
    if not edits:
        return html
    changed: dict[int, list[str]] = {}
    for i, replacement in sorted(edits.items()):
        t, k = where[i]
        chars = changed.setdefault(t, list(tokens[t]))
        chars[k] = replacement
    for t, chars in changed.items():
        tokens[t] = "".join(chars)
    return "".join(tokens)


# -- phrases in narrow boxes: <wbr> between phrases ----------------------------------------------

_PHRASED = frozenset(
    {
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "li",
        "th",
        "td",
        "dt",
        "dd",
        "caption",
        "summary",
        "figcaption",
        "button",
        "label",
        "legend",
    }
)
"""Elements whose text breaks only between phrases (``saikoro.css`` gives them
``word-break: keep-all``): headings, paragraphs, list items, table cells, terms and
labels. A browser left to itself cuts Japanese between any two characters (クリティカ/ル,
メインミッシ/ョン, と/して); ``word-break: auto-phrase`` does better only in Chromium and
only where its own model finds a phrase, so the phrases are found here, once, for every
browser."""


@functools.lru_cache(maxsize=65536)
def _cuts(text: str) -> tuple[int, ...]:
    """Where ``text`` (the visible text of a run of phrased elements) gets a ``<wbr>``:
    its :func:`break_points` next to Japanese (cached: a book repeats its labels
    thousands of times)."""
    return tuple(i for i in break_points(text) if _is_ja(text[i - 1]) or _is_ja(text[i]))


def phrase_html(html: str) -> str:
    """``html`` with ``<wbr>`` between the phrases of Japanese text inside headings,
    paragraphs, list items, table cells, terms and labels (:data:`_PHRASED`), so that with
    ``word-break: keep-all`` a line breaks only between phrases, in every browser.

    >>> phrase_html("<th>クリティカル値以上</th><div>出目はクリティカル値以上</div>")
    '<th>クリティカル<wbr>値以上</th><div>出目はクリティカル値以上</div>'
    >>> phrase_html("<p>出目はクリティカル値以上</p>")
    '<p>出目は<wbr>クリティカル<wbr>値以上</p>'

    A phrase may cross inline elements; a break between them goes before the second:

    >>> phrase_html("<p>敵の<a href='#'>攻撃判定</a>を見る</p>")
    "<p>敵の<a href='#'><wbr>攻撃判定</a>を<wbr>見る</p>"
    """
    tokens = _TOKEN.split(html)
    runs: list[list[tuple[int, int]]] = [[]]
    depth = 0
    raw = 0
    for t, token in enumerate(tokens):
        if token.startswith("<"):
            match = _TAG_NAME.match(token)
            if not match or token.endswith("/>"):
                continue
            name = match.group(2).lower()
            step = -1 if match.group(1) else 1
            if name in _PHRASED:
                depth = max(depth + step, 0)
                runs.append([])  # a block starts or ends: a run of text ends
            elif name in _RAW:
                raw = max(raw + step, 0)
                runs.append([])
            continue
        if depth and not raw:
            # a phrase may cross inline elements (「<a>裁定</a>）」): the run is the block's
            # text, whatever tags it holds
            runs[-1].extend((t, k) for k in range(len(token)))
    inserts: dict[int, list[int]] = {}
    for run in runs:
        if len(run) <= 3:
            continue
        text = "".join(tokens[t][k] for t, k in run)
        if not _JA.search(text):
            continue
        for i in _cuts(text):
            t, k = run[i]
            inserts.setdefault(t, []).append(k)
    for t, offsets in inserts.items():
        token = tokens[t]
        cuts = [0, *sorted(offsets), len(token)]
        tokens[t] = "<wbr>".join(token[a:b] for a, b in itertools.pairwise(cuts))
    return "".join(tokens)


def typeset_html(html: str) -> str:
    """A page's HTML set as Japanese: :func:`punctuate_html`, then :func:`phrase_html`."""
    return phrase_html(punctuate_html(html))
