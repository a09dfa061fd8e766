"""The ``dice``, ``flow`` and ``scenario`` fences of hand-written pages.

A Markdown preprocessor (registered by the plugin, so authors need no
``markdown_extensions`` setup) replaces each fence by stashed HTML before
superfences/fenced_code see it:

* ``dice``: optional first line ``system: <id>`` (default: the page's front matter
  ``system:``), then one command per line -> odds table, chart and a roll button each;
* ``flow``: one flow id per line (``getb.attack``) -> a Mermaid flowchart drawn from
  ``saikoro.get_system(id).flows()[flow_id]``;
* ``scenario``: ``<scenario id>#enemy:<enemy id>`` / ``#table:<name>`` /
  ``#target:<name>`` -> that part of a scenario page, embedded in prose.

Problems (unknown flow, bad command, unknown scenario) are logged as warnings naming
the page, so ``mkdocs build --strict`` fails on them, and shown in place.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

import saikoro

from .log import log
from .mermaid import flow_html
from .oddscache import OddsCache
from .oddsview import odds_block, odds_error
from .pages.chase import table_html
from .pages.scenario import ScenarioLike, enemy_html, rulings, target_html
from .vtt import VttSettings

__all__ = ["FenceContext", "SaikoroFences"]

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")
_SYSTEM_LINE = re.compile(r"^system\s*:\s*(\S+)\s*$")


@dataclass
class FenceContext:
    """What fences need from the build: odds, scenarios, and the page being rendered."""

    odds: OddsCache = field(default_factory=OddsCache)
    scenarios: Mapping[str, ScenarioLike] = field(default_factory=dict)
    page: str = ""
    """Source path of the page being rendered (for messages)."""
    page_system: str | None = None
    """The page's front-matter ``system:``."""
    zip_href: Callable[[str], str] = field(default=lambda _: "")
    """URL (relative to the current page) of a scenario's export folder, with ``/``."""
    vtt: VttSettings = field(default_factory=VttSettings)
    """The VTT export settings of the build."""

    def warn(self, message: str) -> None:
        """A warning naming the page (fails ``--strict`` builds)."""
        log.warning(f"{self.page or '(page)'}: {message}")


def _dice(ctx: FenceContext, body: list[str]) -> str:
    system = ctx.page_system
    lines = [line.strip() for line in body if line.strip()]
    if lines:
        match = _SYSTEM_LINE.match(lines[0])
        if match:
            system = match.group(1)
            lines = lines[1:]
    if system is not None:
        try:
            system = saikoro.get_system(system).id
        except Exception as e:
            ctx.warn(f"dice fence: {e}")
            return odds_error(f"system: {system}", str(e))
    blocks = []
    for command in lines:
        result = ctx.odds.odds(command, system)
        if result.odds is None:
            ctx.warn(f"dice fence: {command!r}: {result.error}")
        blocks.append(odds_block(result))
    return '<div class="saikoro-dice">' + "".join(blocks) + "</div>"


def _flow(ctx: FenceContext, body: list[str]) -> str:
    out = []
    for flow_id in (line.strip() for line in body if line.strip()):
        system_id = flow_id.split(".", 1)[0]
        try:
            flow = saikoro.get_system(system_id).flows().get(flow_id)
        except Exception as e:
            flow, error = None, str(e)
        else:
            error = f"unknown flow {flow_id!r}"
        if flow is None:
            ctx.warn(f"flow fence: {error}")
            out.append(odds_error(flow_id, error))
        else:
            out.append(flow_html(flow))
    return "".join(out)


def _scenario(ctx: FenceContext, body: list[str]) -> str:
    out = []
    for ref in (line.strip() for line in body if line.strip()):
        scenario_id, _, part = ref.partition("#")
        kind, _, name = part.partition(":")
        scenario = ctx.scenarios.get(scenario_id)
        html = None
        if scenario is None:
            error = f"unknown scenario {scenario_id!r}"
        else:
            error = f"{scenario_id}: no {kind or 'part'} {name!r}"
            html = _part(ctx, scenario, kind, name)
        if html is None:
            ctx.warn(f"scenario fence: {error}")
            html = odds_error(ref, error)
        out.append(html)
    return "".join(out)


def _part(ctx: FenceContext, scenario: ScenarioLike, kind: str, name: str) -> str | None:
    data = scenario.data
    if kind == "enemy":
        for enemy in data.get("enemies") or ():
            if str(enemy.get("id")) == name:
                return enemy_html(ctx.odds, scenario, enemy, ctx.zip_href(scenario.id), ctx.vtt)
    elif kind == "table":
        for table in data.get("chase_tables") or ():
            if str(table.get("name")) == name:
                return table_html(ctx.odds, table)
    elif kind == "target":
        for target in data.get("difficulty_targets") or ():
            if str(target.get("name")) == name:
                return target_html(ctx.odds, scenario.system, target, rulings(scenario))
    return None


_RENDERERS: dict[str, Callable[[FenceContext, list[str]], str]] = {
    "dice": _dice,
    "flow": _flow,
    "scenario": _scenario,
}


class _FencePreprocessor(Preprocessor):
    def __init__(self, md: markdown.Markdown, ctx: FenceContext) -> None:
        super().__init__(md)
        self.ctx = ctx

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            match = _OPEN.match(lines[i])
            if match is None:
                out.append(lines[i])
                i += 1
                continue
            indent, fence, info = match.group("indent", "fence", "info")
            close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
            j = i + 1
            while j < len(lines) and not close.match(lines[j]):
                j += 1
            renderer = _RENDERERS.get(info.strip())
            if renderer is None:
                # Another fence (code, or an example of our fences): leave it untouched.
                out.extend(lines[i : j + 1])
                i = j + 1
                continue
            body = [
                line[len(indent) :] if line.startswith(indent) else line
                for line in lines[i + 1 : j]
            ]
            html = renderer(self.ctx, body)
            placeholder = self.md.htmlStash.store(html)
            out.extend(["", indent + placeholder, ""])
            i = j + 1
        return out


class SaikoroFences(Extension):
    """The Markdown extension the plugin adds to every page's Markdown."""

    def __init__(self, ctx: FenceContext, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ctx = ctx

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Markdown's API)
        # After whitespace normalisation (30), before fenced code / superfences (25)
        # and raw-HTML blocks (20), so our fences are never seen as code.
        md.preprocessors.register(_FencePreprocessor(md, self.ctx), "saikoro_fences", 28)
