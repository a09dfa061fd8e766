"""Flowcharts drawn from the engine's procedures (:class:`saikoro.systems.Flow`).

Labels are escaped for Mermaid (quotes, brackets, ``#``, ``<``...) with Mermaid's
``#code;`` entities, and the whole text is HTML-escaped when put in the page.

>>> from saikoro.systems import Edge, Flow, Step, StepKind
>>> f = Flow("demo.x", "例", (
...     Step("s", "開始", StepKind.START, next=(Edge("c"),)),
...     Step("c", '判定 "1D10" [A]', StepKind.CHECK, check="GB3>=8",
...          next=(Edge("e", "成功 #1"),)),
...     Step("e", "終了", StepKind.END),
... ))
>>> print(flow_to_mermaid(f))
flowchart TD
  s_s(["開始"])
  s_c[/"判定 #quot;1D10#quot; #91;A#93;<br/>GB3>=8"/]
  s_e(["終了"])
  s_s --> s_c
  s_c -->|"成功 #35;1"| s_e
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass

from saikoro.systems import SYSTEM_IDS, Flow, Step, StepKind

from ._safe import esc
from ._typography import phrases, punctuate

__all__ = [
    "append_linked_flows",
    "direction",
    "flow_anchor",
    "flow_html",
    "flow_to_mermaid",
    "mermaid_label",
    "wrap_label",
]

_ESCAPES = {
    '"': "#quot;",
    "#": "#35;",
    "[": "#91;",
    "]": "#93;",
    "{": "#123;",
    "}": "#125;",
    "(": "#40;",
    ")": "#41;",
    "|": "#124;",
    "<": "#lt;",
    ">": "#gt;",
    "`": "#96;",
    ";": "#59;",
}
_SPECIAL = re.compile("[" + re.escape("".join(_ESCAPES)) + "]")

_SHAPES = {
    StepKind.START: ('(["', '"])'),
    StepKind.END: ('(["', '"])'),
    StepKind.ACTION: ('["', '"]'),
    StepKind.CHECK: ('[/"', '"/]'),
    StepKind.DECISION: ('{"', '"}'),
    StepKind.TIMING: ('>"', '"]'),
    StepKind.SUBFLOW: ('[["', '"]]'),
}


def mermaid_label(text: str) -> str:
    """``text`` safe inside a quoted Mermaid label (one line).

    >>> mermaid_label('a "b" <c> #d [e]')
    'a #quot;b#quot; #lt;c#gt; #35;d #91;e#93;'
    """
    flat = " ".join(str(text).split())
    return _SPECIAL.sub(lambda m: _ESCAPES[m.group(0)], flat)


def _node_id(step_id: str) -> str:
    """A Mermaid node id: always prefixed, since ids like ``end`` or ``style`` are keywords."""
    return "s_" + re.sub(r"[^A-Za-z0-9_]", "_", step_id)


WRAP = 26
"""Line length of node labels, in columns (a Japanese character is two columns)."""
EDGE_WRAP = 18
"""Line length of edge labels, in columns."""
DECISION_MIN_WRAP = 12
"""The shortest line of a decision's label (see :func:`decision_wrap`)."""


def _columns(char: str) -> int:
    return 2 if unicodedata.east_asian_width(char) in "WFA" else 1


def _width(text: str) -> int:
    return sum(_columns(c) for c in text)


def _script(char: str) -> str:
    """The script of ``char``: katakana, kanji, hiragana or other (a compound's parts)."""
    if "\u30a0" <= char <= "\u30ff":
        return "katakana"
    if "\u4e00" <= char <= "\u9fff":
        return "kanji"
    if "\u3040" <= char <= "\u309f":
        return "hiragana"
    return "other"


def _split_long(piece: str, width: int) -> list[str]:
    """A phrase longer than a line, cut into lines where a word of kanji or katakana
    starts (クリティカル | 値以上？; a particle stays with its word), never inside a
    word of one script unless that alone is longer than :data:`WRAP`."""
    parts: list[str] = []
    for i, char in enumerate(piece):
        starts = i > 0 and _script(char) in {"kanji", "katakana"}
        if parts and starts and _script(char) != _script(piece[i - 1]):
            parts.append(char)
        elif parts:
            parts[-1] += char
        else:
            parts.append(char)
    out: list[str] = []
    line = ""
    for part in parts:
        if line and _width(line + part) > width:
            out.append(line)
            line = ""
        rest = part
        while _width(rest) > WRAP:  # a word too long for any line: between characters
            cut = len(rest)
            while cut > 1 and (_width(rest[:cut]) > width or rest[cut : cut + 1] in _NO_START):
                cut -= 1
            out.append(rest[:cut])
            rest = rest[cut:]
        line += rest
    return [*out, line] if line else out


_NO_START = frozenset("、。，．：；！？）」』】ー～…")


def wrap_label(text: str, width: int = WRAP, hard: int | None = None) -> list[str]:
    """``text`` cut into lines of at most ``width`` columns, for a chart node.

    Lines break only where Japanese allows (:func:`~saikoro.site._typography.break_points`:
    between phrases, after punctuation, never inside a word or a run of ASCII such as a
    command ``GB3>=8``); a phrase longer than the line stays whole up to ``hard``
    columns (default the longer of ``width`` and :data:`WRAP`) and only a longer one is
    cut (:func:`_split_long`). A last piece of four columns or less stays on the line
    before it.

    >>> wrap_label("全員のAP・STを最大値ぶん回復（上限あり、APペナルティぶん減らす）", 20)
    ['全員のAP・STを', '最大値ぶん回復', '（上限あり、', 'APペナルティぶん', '減らす）']
    >>> wrap_label("出目はクリティカル値以上？", 12)
    ['出目は', 'クリティカル', '値以上？']
    >>> wrap_label("ダメージ判定の達成値", 12)
    ['ダメージ', '判定の達成値']
    >>> wrap_label("GB3>=8 で判定", 6)
    ['GB3>=8', 'で判定']
    """
    flat = " ".join(str(text).split())
    limit = max(width, WRAP) if hard is None else hard
    lines: list[str] = []
    line = ""
    pieces = phrases(flat)
    for k, piece in enumerate(pieces):
        last = k == len(pieces) - 1
        fits = not line or _width(line + piece.rstrip()) <= width or piece.isspace()
        short_tail = last and _width(piece) <= 4 and _width(line + piece) <= width + 4
        if fits or short_tail:
            line += piece
        else:
            lines.append(line.rstrip())
            line = piece.lstrip()
        if _width(line.rstrip()) > limit and not _ASCII_RUN.fullmatch(line.strip()):
            *full, line = _split_long(line, width)
            lines.extend(x.rstrip() for x in full)
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


_ASCII_RUN = re.compile(r"[!-~]+")


def decision_wrap(text: str, width: int = WRAP) -> int:
    """The line length of a decision's label: a diamond is as tall as it is wide, so a
    long question on one line makes a huge node; lines near the square root of the
    label's length make the smallest diamond (never below :data:`DECISION_MIN_WRAP`).

    >>> decision_wrap("出目はクリティカル値以上？"), decision_wrap("はい？")
    (12, 12)
    """
    cols = _width(" ".join(str(text).split()))
    return max(DECISION_MIN_WRAP, min(width, round(math.sqrt(3 * cols) * 1.2)))


def _wrapped(text: str, width: int = WRAP, hard: int | None = None) -> str:
    return "<br/>".join(mermaid_label(line) for line in wrap_label(text, width, hard))


def _flow_title(flow_id: str) -> str:
    """The title of another flow (a SUBFLOW step's target), or ``""`` if it is unknown."""
    system_id = flow_id.split(".", 1)[0]
    try:
        from saikoro.systems import get as get_system

        flow = get_system(system_id).flows().get(flow_id)
    except KeyError:
        return ""
    return flow.title if flow is not None else ""


_RULING = re.compile(r"裁定\s*([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)?)")


@functools.cache
def _ruling_titles() -> dict[str, str]:
    """Ruling title by key (``cutaction.chase_event_order``), short key and option name."""
    from saikoro.systems import get as get_system

    titles: dict[str, str] = {}
    for system_id in SYSTEM_IDS:
        for rule in type(get_system(system_id)).rulings:
            for name in (rule.key, rule.key.split(".", 1)[-1], rule.option_name):
                if name:
                    titles.setdefault(name, rule.title)
    return titles


def reader_text(text: str) -> str:
    """``text`` with ruling ids named by their titles: 「裁定 min_damage」 ->
    「裁定「差で減ったダメージの下限」」 (ids are for code, titles for readers).

    >>> reader_text("0 未満にはしない：裁定 min_damage")
    '0 未満にはしない：裁定「差で減ったダメージの下限」'
    """
    titles = _ruling_titles()
    return _RULING.sub(
        lambda m: f"裁定「{titles[m.group(1)]}」" if m.group(1) in titles else m.group(0), text
    )


def _label(step: Step, width: int = WRAP) -> str:
    text = punctuate(reader_text(step.label))
    actor = step.actor
    if actor and not text.startswith(actor):
        # "GM: GMが…" reads badly: the actor is named only when the label does not start with it
        text = f"{actor}：{text}"
    hard = None
    if step.kind is StepKind.DECISION:  # a diamond: short lines, long words cut too
        width = hard = min(width, decision_wrap(text, width))
    out = _wrapped(text, width, hard)
    if step.check:
        # The command is shown literally; '<' and '>' in it are kept readable
        # because Mermaid renders #lt; / #gt; too, but '>=' is common: keep '>' plain.
        out += "<br/>" + mermaid_label(step.check).replace("#gt;", ">")
    if step.flow:
        title = _flow_title(step.flow)
        if title:
            out += "<br/>" + _wrapped(f"→「{title}」の図へ", width)
    return out


def _ranks(flow: Flow) -> dict[str, int]:
    """Longest-path rank of every step from the start, ignoring edges that close a loop."""
    by_id = {s.id: s for s in flow.steps}
    order: list[str] = []
    state: dict[str, int] = {}
    back: set[tuple[str, str]] = set()

    def visit(sid: str) -> None:
        state[sid] = 1
        for e in by_id[sid].next:
            if state.get(e.to) == 1:
                back.add((sid, e.to))
            elif e.to not in state:
                visit(e.to)
        state[sid] = 2
        order.append(sid)

    visit(flow.steps[0].id)
    rank = dict.fromkeys(by_id, 0)
    for sid in reversed(order):
        for e in by_id[sid].next:
            if (sid, e.to) not in back:
                rank[e.to] = max(rank[e.to], rank[sid] + 1)
    return rank


def _box_width(label: str) -> float:
    """Estimated width in px of a node as Mermaid draws it (16 px text)."""
    lines = label.split("<br/>")
    cols = max(sum(_columns(c) for c in re.sub("#[a-z0-9]+;", "x", ln)) for ln in lines)
    return cols * 8.5 + 40


TARGET = 1000.0
"""Natural width in px the layout aims at: drawn at 0.7 (11 px text) it fits a 700 px column."""
MIN_WRAP = 12


def _fit(count: int, gap: float) -> int:
    """Columns per line so that ``count`` nodes side by side fill :data:`TARGET`."""
    return max(MIN_WRAP, min(WRAP, int((TARGET / max(count, 1) - gap - 40) / 8.5)))


@dataclass(frozen=True)
class Layout:
    """How a flow is drawn: its direction and each step's label line length."""

    direction: str
    wraps: dict[str, int]
    width: float
    """Estimated natural width in px."""


def layout(flow: Flow) -> Layout:
    """Top-down unless it is wider than :data:`TARGET` and left-right is narrower.

    The estimate follows Mermaid's layered layout: a top-down chart is as wide as its
    widest rank, a left-right one as wide as the sum of its ranks' widest nodes. Labels
    of steps that stand side by side wrap shorter, so a rank of four fits the column.
    """
    rank = _ranks(flow)
    ranks: dict[int, list[Step]] = {}
    for step in flow.steps:
        ranks.setdefault(rank[step.id], []).append(step)
    td_wraps = {s.id: _fit(len(ranks[rank[s.id]]), 50) for s in flow.steps}
    td = max(
        sum(_box_width(_label(s, td_wraps[s.id])) + 50 for s in steps) for steps in ranks.values()
    )
    lr_wrap = _fit(len(ranks), 80)
    lr = sum(max(_box_width(_label(s, lr_wrap)) for s in steps) + 80 for steps in ranks.values())
    if td > TARGET * 1.1 and lr < td:
        return Layout("LR", dict.fromkeys(td_wraps, lr_wrap), lr)
    return Layout("TD", td_wraps, td)


def direction(flow: Flow) -> str:
    """``TD`` or ``LR`` (see :func:`layout`)."""
    return layout(flow).direction


def flow_to_mermaid(flow: Flow) -> str:
    """Mermaid ``flowchart`` source of ``flow``."""
    plan = layout(flow)
    lines = [f"flowchart {plan.direction}"]
    for step in flow.steps:
        left, right = _SHAPES.get(step.kind, ('["', '"]'))
        lines.append(f"  {_node_id(step.id)}{left}{_label(step, plan.wraps[step.id])}{right}")
    for step in flow.steps:
        for edge in step.next:
            label = _wrapped(punctuate(reader_text(edge.label)), EDGE_WRAP)
            arrow = f'-->|"{label}"|' if edge.label else "-->"
            lines.append(f"  {_node_id(step.id)} {arrow} {_node_id(edge.to)}")
    return "\n".join(lines)


def flow_anchor(flow_id: str) -> str:
    """The HTML id of a flow's figure (``flow-getb-attack``)."""
    return "flow-" + re.sub(r"[^A-Za-z0-9_-]", "-", flow_id)


def flow_html(flow: Flow) -> str:
    """The flowchart as Material renders Mermaid (``<pre class="mermaid">``, HTML-escaped),
    in a figure that the page script makes scrollable and zoomable, with links to the
    charts of the steps that are procedures of their own.

    The figure is folded (a ``<details>`` whose line names the chart): the rules it draws
    are in the page's text, so the chart is there for who wants it, not a screen of the
    page for everyone (a link to the chart opens the fold, ``saikoro.js``; print and
    PDF open every fold, ``mermaid-shim.js``)."""
    name = reader_text(flow.title) if flow.title else flow.id
    summary = f"<p>{esc(reader_text(flow.summary))}</p>" if flow.summary else ""
    subs: list[tuple[str, str]] = []
    for step in flow.steps:
        sub_title = _flow_title(step.flow) if step.flow else ""
        if sub_title and step.flow not in {s for s, _ in subs}:
            subs.append((step.flow, sub_title))
    links = ""
    if subs:
        links = (
            '<p class="saikoro-flow-links" data-search-exclude>詳しい手順: '
            + "、".join(f'<a href="#{flow_anchor(fid)}">{esc(t)}</a>' for fid, t in subs)
            + "</p>"
        )
    return (
        f'<details class="saikoro-flow-fold"><summary>流れ図：{esc(name)}</summary>'
        f'<figure class="saikoro-flow" id="{flow_anchor(flow.id)}" data-flow="{esc(flow.id)}">'
        f"{summary}"
        # the chart's Mermaid source is not text to search (its title and summary are)
        f'<div class="saikoro-flow-chart" data-search-exclude><pre class="mermaid"><code>'
        f"{esc(flow_to_mermaid(flow))}</code></pre></div>"
        '<p class="saikoro-flow-hint" data-search-exclude>'
        '<span class="saikoro-pointer">'
        "図は横にスクロールできます。クリック（Enter）で拡大表示。</span>"
        '<span class="saikoro-touch">図は横にスワイプできます。タップで拡大表示。</span></p>'
        f"{links}</figure></details>"
    )


_LINK = re.compile(r'<a href="#flow-([A-Za-z0-9_-]+)">')


def append_linked_flows(html: str) -> str:
    """``html`` with the charts its flowcharts link to but the page does not draw, appended.

    A step that is a procedure of its own links to that procedure's chart; when the page
    does not show it, it is added at the end (and, in turn, the charts it links to).
    """
    known = {
        flow_anchor(fid): flow
        for system_id in SYSTEM_IDS
        for fid, flow in _system_flows(system_id).items()
    }
    extra: list[str] = []
    while True:
        text = html + "".join(extra)
        missing = [
            a
            for a in dict.fromkeys("flow-" + m for m in _LINK.findall(text))
            if f'id="{a}"' not in text and a in known
        ]
        if not missing:
            break
        extra.extend(flow_html(known[a]) for a in missing)
    if not extra:
        return html
    return html + '<h2 id="saikoro-linked-flows">関連する手順の図</h2>' + "".join(extra)


def _system_flows(system_id: str) -> dict[str, Flow]:
    from saikoro.systems import get as get_system

    return dict(get_system(system_id).flows())
