"""The ``dice``, ``flow`` and ``scenario`` fences of hand-written pages.

They are pymdownx.superfences custom fences, added by the plugin (so authors configure
nothing, and a fence shown as code -- inside an indented code block or a longer fence --
stays code):

* ``dice``: optional first line ``system: <id>`` (default: the page's front matter
  ``system:``), then one command per line -> a row each: its roll button and chances,
  the distributions folded under the rows; a line with ``{名前=既定値:最小..最大}``
  placeholders (``GB{能力値=3:1..10}>={目標値=8:1..20}``) is a row of the reader's own
  values: steppers set them, the button and the chances follow;
* ``flow``: one flow id per line (``getb.attack``) -> a Mermaid flowchart drawn from
  ``saikoro.systems.get(id).flows()[flow_id]``;
* ``scenario``: ``<scenario id>#enemy:<enemy id>`` / ``#table:<name>`` /
  ``#target:<name>`` -> that part of a scenario page, embedded in prose.

Problems (a command the engine refuses, an unknown flow or scenario) are logged as
warnings naming the page and the line, so ``mkdocs build --strict`` fails on them, and
shown in place; the build goes on. A fence that fails in saikoro itself (a bug) is an
error naming the page and line, and the build stops: superfences would otherwise show
the fence as plain code without a word.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import TypedDict

from pymdownx.superfences import SuperFencesException

from saikoro.scenario import Scenario
from saikoro.systems import UnknownSystemError
from saikoro.systems import get as get_system

from ._log import log
from ._mermaid import flow_html
from ._oddscache import OddsCache
from ._oddsview import (
    OwnParam,
    OwnValueError,
    odds_error,
    odds_list,
    own_command,
    own_row,
    own_template,
)
from ._pages.chase import table_html
from ._pages.scenario import enemy_html, rulings, target_html
from ._vtt import VttSettings

__all__ = [
    "FENCES",
    "CustomFence",
    "FenceContext",
    "add_custom_fences",
    "custom_fences",
    "fence_lines",
]


CustomFence = TypedDict("CustomFence", {"name": str, "class": str, "format": Callable[..., str]})
"""One entry of pymdownx.superfences' ``custom_fences`` (``class`` is a Python keyword)."""

_SYSTEM_LINE = re.compile(r"^system\s*:\s*(\S+)\s*$")


@dataclass
class FenceContext:
    """What fences need from the build: odds, scenarios, and the page being rendered."""

    odds: OddsCache = field(default_factory=OddsCache)
    scenarios: Mapping[str, Scenario] = field(default_factory=dict)
    page: str = ""
    """Source path of the page being rendered (for messages)."""
    page_system: str | None = None
    """The page's front-matter ``system:``."""
    zip_href: Callable[[str], str] = field(default=lambda _: "")
    """URL (relative to the current page) of a scenario's export folder, with ``/``."""
    vtt: VttSettings = field(default_factory=VttSettings)
    """The VTT export settings of the build."""
    roller: bool = True
    """Whether pages get roll widgets (the plugin's ``roller.enabled``)."""
    lines: list[tuple[str, str, int]] = field(default_factory=list)
    """The page's fences not rendered yet: (kind, body, line of the body's first line)."""
    line: int = 0
    """Line (in the page's source file) of the fence being rendered; 0 if unknown."""

    def warn(self, message: str, offset: int | None = None) -> None:
        """A warning naming the page and the line (fails ``--strict`` builds).

        ``offset``: the line within the fence body (0-based) the problem is on.
        """
        where = self.page or "(page)"
        if self.line:
            where += f":{self.line + (offset or 0)}"
        log.warning(f"{where}: {message}")

    def error(self, message: str) -> None:
        """An error naming the page and the fence's line (a bug of saikoro's, not the page's)."""
        where = self.page or "(page)"
        if self.line:
            where += f":{self.line}"
        log.error(f"{where}: {message}")

    def start(self, kind: str, body: str) -> None:
        """Find the source line of the fence about to render (the first unrendered match)."""
        key = _normal(body)
        for i, (k, b, line) in enumerate(self.lines):
            if k == kind and b == key:
                del self.lines[i]
                self.line = line
                return
        self.line = 0


def _normal(body: str) -> str:
    """A fence body compared across indentation: its non-blank lines, stripped."""
    return "\n".join(line.strip() for line in body.splitlines() if line.strip())


def _numbered(body: list[str]) -> list[tuple[int, str]]:
    """(offset in the body, stripped text) of the non-blank lines."""
    return [(i, line.strip()) for i, line in enumerate(body) if line.strip()]


def _dice(ctx: FenceContext, body: list[str]) -> str:
    system = ctx.page_system
    lines = _numbered(body)
    if lines:
        match = _SYSTEM_LINE.match(lines[0][1])
        if match:
            system = match.group(1)
            offset = lines[0][0]
            lines = lines[1:]
            try:
                system = get_system(system).id
            except UnknownSystemError as e:
                ctx.warn(f"dice fence: {e}", offset)
                return odds_error(f"system: {system}", str(e))
    results = []
    own = []
    for offset, command in lines:
        try:
            found = own_template(command)
        except OwnValueError as e:
            ctx.warn(f"dice fence: {e}", offset)
            own.append(odds_error(command, str(e)))
            continue
        if found is not None:
            own.append(_own(ctx, system, command, offset, found))
            continue
        result = ctx.odds.odds(command, system)
        if result.odds is None:
            ctx.warn(f"dice fence: {command!r}: {result.error}", offset)
        results.append(result)
    # odds are numbers, not words to search for: out of the search index (a <section>:
    # Material's indexer matches an excluded element's end by its tag name, so an
    # excluded <div> would end at the first inner </div>)
    return (
        '<section class="saikoro-dice" data-search-exclude>'
        + "".join(own)
        + (odds_list(results, roll=ctx.roller) if results else "")
        + "</section>"
    )


def _own(
    ctx: FenceContext,
    system: str | None,
    line: str,
    offset: int,
    found: tuple[str, list[OwnParam]],
) -> str:
    """A row rolling the reader's own values: every combination's odds, computed now."""
    template, params = found
    results = {}
    for values in itertools.product(*(range(p.low, p.high + 1) for p in params)):
        result = ctx.odds.odds(own_command(template, values), system)
        if result.odds is None:
            ctx.warn(f"dice fence: {line!r}: {result.command!r}: {result.error}", offset)
            return odds_error(result.command, result.error or "")
        results[values] = result
    return own_row(results, template, params, system, roll=ctx.roller)


def _flow(ctx: FenceContext, body: list[str]) -> str:
    out = []
    for offset, flow_id in _numbered(body):
        system_id = flow_id.split(".", 1)[0]
        try:
            flows = get_system(system_id).flows()
        except UnknownSystemError as e:
            flow, error = None, str(e)
        else:
            flow = flows.get(flow_id)
            error = _unknown_flow(flow_id, system_id, sorted(flows))
        if flow is None:
            ctx.warn(f"flow fence: {error}", offset)
            out.append(odds_error(flow_id, error))
        else:
            out.append(flow_html(flow))
    return "".join(out)


def _unknown_flow(flow_id: str, system_id: str, known: list[str]) -> str:
    """The message for a flow id the system does not have: the ids it has (the nearest
    first).

    >>> print(_unknown_flow("k.atack", "k", ["k.attack", "k.check"]))
    フロー 'k.atack' はありません（もしかして 'k.attack'？ k のフロー: k.attack, k.check）
    """
    close = difflib.get_close_matches(flow_id, known, n=1, cutoff=0.6)
    guess = f"もしかして {close[0]!r}？ " if close else ""
    listed = ", ".join(known) if known else "なし"
    return f"フロー {flow_id!r} はありません（{guess}{system_id} のフロー: {listed}）"


def _scenario(ctx: FenceContext, body: list[str]) -> str:
    out = []
    for offset, ref in _numbered(body):
        scenario_id, _, part = ref.partition("#")
        kind, _, name = part.partition(":")
        scenario = ctx.scenarios.get(scenario_id)
        html = None
        if scenario is None:
            error = f"unknown scenario {scenario_id!r}"
        else:
            error = f"{scenario_id}: no {kind or 'part'} {name!r}"
            view = ctx.odds.watch()
            html = _part(ctx, view, scenario, kind, name)
            failures = view.failures or []
            for message in dict.fromkeys(f"{r.command}: {r.error}" for _, r in failures):
                ctx.warn(f"scenario fence: {ref}: the engine refuses {message}", offset)
        if html is None:
            ctx.warn(f"scenario fence: {error}", offset)
            html = odds_error(ref, error)
        out.append(html)
    return "".join(out)


def _part(
    ctx: FenceContext, odds: OddsCache, scenario: Scenario, kind: str, name: str
) -> str | None:
    model = scenario.model
    if kind == "enemy":
        for enemy in model.enemies:
            if enemy.id == name:
                zip_dir = ctx.zip_href(scenario.id)
                return enemy_html(odds, scenario, enemy, zip_dir, ctx.vtt, roller=ctx.roller)
    elif kind == "table":
        for table in model.chase_tables:
            if table.name == name:
                return table_html(odds, table, roll=ctx.roller, system=scenario.system)
    elif kind == "target":
        for target in model.difficulty_targets:
            if target.name == name:
                options = rulings(scenario)
                return target_html(
                    odds,
                    scenario.system,
                    target,
                    options,
                    roller=ctx.roller,
                    scope=scenario.id,
                    party=model.party or (),
                    model=model,
                )
    return None


_RENDERERS: dict[str, Callable[[FenceContext, list[str]], str]] = {
    "dice": _dice,
    "flow": _flow,
    "scenario": _scenario,
}


FENCES = tuple(_RENDERERS)
"""The fence names the plugin registers."""

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*\{?\.?(?P<info>[\w-]+)")


def fence_lines(source: str) -> list[tuple[str, str, int]]:
    """(kind, normalised body, 1-based line of the body) of every fence of ours in ``source``.

    Used only to name lines in warnings: superfences decides what is a fence.

    >>> fence_lines("# t\\n\\n```dice\\n2D6\\n```\\n")
    [('dice', '2D6', 4)]
    """
    lines = source.split("\n")
    out: list[tuple[str, str, int]] = []
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i])
        if match is None:
            i += 1
            continue
        fence = match.group("fence")
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        if match.group("info") in _RENDERERS:
            out.append((match.group("info"), _normal("\n".join(lines[i + 1 : j])), i + 2))
        i = j + 1
    return out


def custom_fences(ctx: FenceContext) -> list[CustomFence]:
    """The pymdownx.superfences ``custom_fences`` entries of our fences."""

    def formatter(name: str) -> Callable[..., str]:
        render = _RENDERERS[name]

        # superfences calls format(source, language, class_name, options, md, **kwargs)
        def fmt(source: str, *_: object, **__: object) -> str:
            ctx.start(name, source)
            try:
                return render(ctx, source.split("\n"))
            except SuperFencesException:
                raise
            except Exception as e:
                # superfences shows a fence whose formatter raises as plain code, and says
                # nothing: a bug here must fail the build instead, naming the page and line
                ctx.error(f"{name} fence: internal error: {type(e).__name__}: {e}")
                raise SuperFencesException(f"saikoro: the {name} fence failed") from e

        return fmt

    return [{"name": n, "class": f"saikoro-{n}", "format": formatter(n)} for n in FENCES]


def add_custom_fences(
    extensions: list[str], mdx_configs: MutableMapping[str, dict[str, object]], ctx: FenceContext
) -> list[str]:
    """Enable pymdownx.superfences (if the site does not) and add our custom fences.

    A custom fence of the same name configured by the site is kept; the names of ours
    that were skipped for that reason are returned.
    """
    if "pymdownx.superfences" not in extensions:
        extensions.append("pymdownx.superfences")
    settings = mdx_configs.setdefault("pymdownx.superfences", {})
    given = settings.get("custom_fences") or []
    fences: list[object] = list(given) if isinstance(given, list | tuple) else []
    taken = {str(f.get("name")) for f in fences if isinstance(f, dict)}
    skipped = [f["name"] for f in custom_fences(ctx) if f["name"] in taken]
    fences.extend(f for f in custom_fences(ctx) if f["name"] not in taken)
    settings["custom_fences"] = fences
    return skipped
