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

import re

from saikoro.systems import Flow, Step, StepKind

from .safe import esc

__all__ = ["flow_html", "flow_to_mermaid", "mermaid_label"]

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


def _label(step: Step) -> str:
    text = mermaid_label(step.label)
    if step.actor:
        text = f"{mermaid_label(step.actor)}: {text}"
    if step.check:
        # The command is shown literally; '<' and '>' in it are kept readable
        # because Mermaid renders #lt; / #gt; too, but '>=' is common: keep '>' plain.
        text += "<br/>" + mermaid_label(step.check).replace("#gt;", ">")
    if step.flow:
        text += "<br/>→ " + mermaid_label(step.flow)
    return text


def flow_to_mermaid(flow: Flow) -> str:
    """Mermaid ``flowchart`` source of ``flow``."""
    lines = ["flowchart TD"]
    for step in flow.steps:
        left, right = _SHAPES.get(step.kind, ('["', '"]'))
        lines.append(f"  {_node_id(step.id)}{left}{_label(step)}{right}")
    for step in flow.steps:
        for edge in step.next:
            arrow = f'-->|"{mermaid_label(edge.label)}"|' if edge.label else "-->"
            lines.append(f"  {_node_id(step.id)} {arrow} {_node_id(edge.to)}")
    return "\n".join(lines)


def flow_html(flow: Flow) -> str:
    """The flowchart as Material renders Mermaid: ``<pre class="mermaid">``, HTML-escaped."""
    title = f'<p class="saikoro-flow-title">{esc(flow.title)}</p>' if flow.title else ""
    summary = f"<p>{esc(flow.summary)}</p>" if flow.summary else ""
    return (
        f'<figure class="saikoro-flow" data-flow="{esc(flow.id)}">{title}{summary}'
        f'<pre class="mermaid"><code>{esc(flow_to_mermaid(flow))}</code></pre></figure>'
    )
