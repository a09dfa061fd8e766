"""The generated page of one scenario: Markdown headings around HTML blocks.

Headings are Markdown (so the table of contents, permalinks and search sections work)
with their text escaped by :func:`~saikoro.site._safe.md_escape`; everything else is one
raw HTML block per section, built here with every YAML string escaped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from saikoro.balance import simulator_for
from saikoro.export import ccfolia_attribute, pc_memo, udonarium_zip
from saikoro.scenario import Scenario
from saikoro.scenario.model import (
    PC,
    DifficultyTarget,
    Enemy,
    MainMission,
    Missions,
    ScenarioModel,
    SideMission,
)
from saikoro.site._context import BuildContext
from saikoro.site._oddscache import OddsCache
from saikoro.site._profiles import AnyProfile, Personal, profile
from saikoro.site._profiles.base import given
from saikoro.site._roller import free_widget, widget
from saikoro.site._safe import esc, md_escape, render_markdown, safe_title
from saikoro.site._text import scenario_text, site_text, text_name
from saikoro.site._vtt import VttSettings
from saikoro.systems import SYSTEM_IDS, OptionValue
from saikoro.systems import get as get_system

from . import balance, labels, story
from .chase import table_html
from .grids import grid_html
from .player import player_files
from .room import room_files, room_html
from .story import SiteFile

__all__ = [
    "EnemyFile",
    "Rendered",
    "book_order",
    "enemy_html",
    "fill_slots",
    "party_html",
    "render_scenario",
    "rulings",
    "system_name",
    "system_order",
    "target_html",
]


EnemyFile = SiteFile
"""A file generated next to a scenario page (a ユドナリウム zip, a player page...)."""


@dataclass
class Rendered:
    """A rendered scenario page: its Markdown and the files it links to."""

    markdown: str
    title: str = ""
    """The page title (:func:`safe_title`). The Markdown has no front matter: Material's
    nav template looks up each entry's ``meta`` (icon, subtitle, status) on every page
    when it is not empty, so a front matter on every scenario page costs a book of
    1,000 scenarios 1,000 x 1,000 lookups (measured: 35 s instead of 23 s of page
    templates); the plugin gives MkDocs the title in ``on_nav`` instead."""
    files: list[EnemyFile] = field(default_factory=list)
    slots: list[str] = field(default_factory=list)
    """HTML put back in place of the Markdown's placeholders (see :func:`fill_slots`)."""
    problems: list[tuple[str, str]] = field(default_factory=list)
    """(key path of the scenario part, "command: why") for every command whose odds could
    not be computed: the build fails on them (a page never shows "?" for a value)."""


def rulings(scenario: Scenario) -> dict[str, OptionValue]:
    """The ruling options the scenario chose (``rulings:``), applied to all its odds."""
    return dict(scenario.model.rulings)


def system_name(system_id: str) -> str:
    """The display name of a system (its id if it has none)."""
    return get_system(system_id).name or system_id


def system_order(system_id: str) -> int:
    """Where a system stands in every list of the site (the registry's order,
    :data:`saikoro.systems.SYSTEM_IDS`): the scenario index, the book, the nav's groups,
    the rulings and commands pages follow it, and the site's own rules nav is kept in it
    (a test checks ``mkdocs.yml``)."""
    ids = SYSTEM_IDS
    return ids.index(system_id) if system_id in ids else len(ids)


def book_order(scenario: Scenario) -> tuple[int, str]:
    """The order of scenarios in the book, the index and the nav: by system, then id."""
    return system_order(scenario.system), scenario.id


SLOT = "<!-- saikoro-slot {} -->"
"""A placeholder left in the Markdown; :func:`fill_slots` puts the HTML back."""


class _Slots:
    """HTML kept out of Markdown: Python-Markdown parses raw HTML blocks with
    ``html.parser``, which is slow on big tables and charts. The Markdown gets an HTML
    comment instead, replaced after rendering (``on_page_content``)."""

    def __init__(self) -> None:
        self.html: list[str] = []

    def block(self, html: str) -> str:
        self.html.append(html)
        return "\n\n" + SLOT.format(len(self.html) - 1) + "\n\n"


_SLOT = re.compile(r"<!-- saikoro-slot (\d+) -->")


def fill_slots(content: str, slots: Sequence[str]) -> str:
    """Replace the placeholders of a rendered scenario page by their HTML.

    One pass over the page (the whole-book page has thousands of placeholders; replacing
    them one by one rescanned it for each). HTML put in is not scanned again.

    >>> fill_slots("<p>a</p><!-- saikoro-slot 0 --><!-- saikoro-slot 1 -->", ["<b>x</b>", "y"])
    '<p>a</p><b>x</b>y'
    """

    def put(match: re.Match[str]) -> str:
        i = int(match.group(1))
        return slots[i] if i < len(slots) else match.group(0)

    return _SLOT.sub(put, content)


def _mission_card(kind: str, mission: MainMission | SideMission, lang: str) -> str:
    rows = []
    for key, value in given(mission):  # the keys written, defaults filled in
        if key == "check":  # the simulation's form of ``success``, which says it in words
            continue
        label, shown = labels.mission_field(key, value, lang)
        rows.append(f"<div><dt>{esc(label)}</dt> <dd>{esc(shown)}</dd></div>")
    return (
        f'<div class="saikoro-card saikoro-mission"><p class="saikoro-card-title">{esc(kind)}</p>'
        f"<dl>{' '.join(rows)}</dl></div>"
    )


def _missions(missions: Missions, lang: str) -> str:
    cards = [_mission_card("メインミッション", missions.main, lang)]
    for i, mission in enumerate(missions.side, start=1):
        cards.append(_mission_card(f"サイドミッション {i}", mission, lang))
    return f'<div class="saikoro-cards">{"".join(cards)}</div>'


def target_html(
    cache: OddsCache,
    system: str,
    target: DifficultyTarget,
    options: Mapping[str, OptionValue] | None = None,
    *,
    roller: bool = True,
    scope: str = "",
    party: Sequence[PC] = (),
    model: ScenarioModel | None = None,
    anchor: str = "",
    extra: str = "",
) -> str:
    """A difficulty target: description, roll button, odds across ability values, its note.

    ``options`` (the scenario's ruling options) apply to the odds and the roll button;
    ``roller``: whether the page has roll buttons (and every odds cell rolls its command).
    With a ``scope`` (the scenario's id) the card has a stepper for the reader's own value
    of the ability the target reads, shared by every card of the scope, and its button
    follows it or the PC of ``party`` the reader picked (:func:`party_html`). ``model``:
    the scenario's model, for what the card says beyond the target (a chase's sides and
    goal); ``anchor``: the card's HTML id; ``extra``: HTML put at its end.
    """
    prof = profile(system)
    scoped = f' data-scope="{esc(scope)}"' if scope else ""
    ident = f' id="{esc(anchor)}"' if anchor else ""
    parts = [f'<div class="saikoro-target"{ident}{scoped}><p>{esc(prof.target_label(target))}</p>']
    facts = prof.target_facts(target, model)
    if facts:
        rows = "".join(f"<div><dt>{esc(k)}</dt><dd>{esc(v)}</dd></div>" for k, v in facts)
        parts.append(f'<dl class="saikoro-facts">{rows}</dl>')
    command = prof.target_command(target)
    personal = prof.target_personal(target) if roller and scope and command else None
    if command and personal is not None:
        data = _personal_json(prof, target, personal, party)
        button = widget(command, system=system, options=options, enabled=roller, personal=data)
        # the stepper and the button are not text to search
        roll = _stepper(personal) + button
        parts.append(f'<div class="saikoro-target-roll" data-search-exclude>{roll}</div>')
    elif command:
        parts.append(widget(command, system=system, options=options, enabled=roller))
    grid = prof.target_grid(target)
    if grid is not None:
        parts.append(grid_html(cache, grid, system, options, roll=roller))
    if target.note:
        parts.append(
            f'<div class="saikoro-effect saikoro-note-text">{render_markdown(target.note)}</div>'
        )
    parts.append(extra)
    parts.append("</div>")
    return "".join(parts)


def _personal_json(
    prof: AnyProfile, target: DifficultyTarget, personal: Personal, party: Sequence[PC]
) -> str:
    """What the page needs to follow the reader (``data-personal``, see ``roller.js``)."""
    data = {
        "key": personal.key,
        "label": personal.label,
        "example": personal.example,
        "min": personal.low,
        "max": personal.high,
        "template": personal.template(),
        "party": [
            list(found) if (found := prof.target_party(target, pc)) else None for pc in party
        ],
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _stepper(personal: Personal) -> str:
    label = esc(personal.label)
    return (
        f'<span class="saikoro-stepper" data-key="{esc(personal.key)}" data-whose="example">'
        f'<span class="saikoro-step-label">{label}</span>'
        f'<button type="button" class="saikoro-step" data-step="-1" '
        f'aria-label="{label}を1下げる">−</button>'
        f'<output class="saikoro-step-value" aria-live="polite">{personal.example}</output>'
        f'<button type="button" class="saikoro-step" data-step="1" '
        f'aria-label="{label}を1上げる">＋</button>'
        '<span class="saikoro-whose">例</span></span>'
    )


def party_html(scenario: Scenario, *, roller: bool = True) -> str:
    """The reader's choice of a PC of the scenario's party, above its difficulty targets.

    Empty unless the page rolls and some target follows the reader's value. Picking a PC
    makes every target's button roll as that PC does (the steppers show its values); a
    stepper moved by hand wins for that ability. The choice is kept on the device.
    """
    model = scenario.model
    prof = profile(scenario.system)
    if not roller or not any(
        prof.target_command(t) and prof.target_personal(t) for t in model.difficulty_targets
    ):
        return ""
    party = model.party or ()
    choice = ""
    if party:
        names = "".join(
            f'<option value="{i}">{esc(pc.name)}</option>' for i, pc in enumerate(party)
        )
        choice = (
            '<label class="saikoro-field"><span>自分のPC</span><select>'
            f'<option value="">選ばない（例の値）</option>{names}</select></label>'
        )
    pick = "PCを選ぶか、" if party else ""
    note = (
        f"{pick}判定ごとの −／＋ で自分の能力値にすると、同じ能力値を使う判定のボタンが"
        "すべてその値で振ります（表のその行に印。この端末に保存されます）。"
    )
    return (
        f'<div class="saikoro-party" data-scope="{esc(scenario.id)}" data-search-exclude>{choice}'
        f'<p class="saikoro-note">{esc(note)}</p></div>'
    )


def _reading(text: str | None) -> str:
    """What the balance simulation reads an effect as (``""``: nothing to say)."""
    if not text:
        return ""
    return f'<p class="saikoro-reading saikoro-note">シミュレーションでの読み：{esc(text)}</p>'


def enemy_html(
    cache: OddsCache,
    scenario: Scenario,
    enemy: Enemy,
    zip_dir: str,
    vtt: VttSettings | None = None,
    *,
    roller: bool = True,
) -> str:
    """An enemy stat block with attack odds and VTT exports.

    Args:
        cache: the odds cache.
        scenario: the scenario the enemy belongs to.
        enemy: the enemy (of the scenario's model).
        zip_dir: URL (relative to the page) of the folder holding ``<enemy id>.zip``.
        vtt: the site's VTT export settings (link back, ココフォリア flags).
        roller: whether the page has roll buttons.
    """
    system = scenario.system
    options = rulings(scenario)
    prof = profile(system)
    enemy_id = enemy.id
    zip_href = f"{zip_dir}{enemy_id}.zip"
    anchor = f"enemy-{enemy_id}"
    # spaces between the pairs: search previews read 「筋力 3 敏捷 5」, not 「筋力3敏捷5」
    pairs = prof.stats(enemy)
    stats = " ".join(f"<div><dt>{esc(k)}</dt> <dd>{esc(v)}</dd></div>" for k, v in pairs)
    parts = [
        f'<div class="saikoro-enemy" id="{esc(anchor)}" data-enemy="{esc(enemy_id)}">'
        f'<dl class="saikoro-stats">{stats}</dl>'
    ]
    attacks = prof.attacks(enemy)
    readings = prof.readings(enemy)
    for attack in attacks:
        parts.append(
            f'<div class="saikoro-attack"><p class="saikoro-attack-name">'
            f"{esc(attack.name)}</p><p>{esc(prof.attack_label(enemy, attack))}</p>"
        )
        command = prof.attack_command(enemy, attack)
        if command:
            parts.append(widget(command, system=system, options=options, enabled=roller))
        parts.extend(
            grid_html(cache, g, system, options, roll=roller)
            for g in prof.attack_grids(enemy, attack)
        )
        if attack.effect:
            parts.append(f'<div class="saikoro-effect">{render_markdown(attack.effect)}</div>')
            parts.append(_reading(readings.get(attack.name)))
        parts.append("</div>")
    parts.extend(grid_html(cache, g, system, options, roll=roller) for g in prof.enemy_grids(enemy))
    parts.extend(
        f'<div class="saikoro-effect"><p class="saikoro-attack-name">'
        f"{esc(name)}</p>{render_markdown(effect)}{_reading(readings.get(name))}</div>"
        for name, effect in prof.skills(enemy)
    )
    if enemy.notes:
        parts.append(f'<div class="saikoro-effect">{render_markdown(enemy.notes)}</div>')
    vtt = vtt or VttSettings()
    character = vtt.character(scenario.id, system, enemy, options)
    parts.append(
        '<p class="saikoro-export" data-search-exclude>'
        f'<button type="button" class="md-button saikoro-ccfolia" '
        f'data-ccfolia="{ccfolia_attribute(character, vtt.ccfolia)}">'
        "ココフォリアにコピー</button> "
        f'<a class="md-button" href="{esc(zip_href)}" download>ユドナリウム用 (zip)</a>'
        '<span class="saikoro-copied" aria-live="polite"></span></p>'
    )
    parts.append("</div>")
    return "".join(parts)


def render_scenario(
    scenario: Scenario,
    cache: OddsCache,
    *,
    roller: bool = True,
    zip_href: str = "",
    vtt: VttSettings | None = None,
    ctx: BuildContext | None = None,
) -> Rendered:
    """The Markdown of a scenario page and the files it links to.

    Args:
        scenario: the validated scenario.
        cache: odds cache shared by every page.
        roller: put roll widgets on the page.
        zip_href: URL prefix, relative to the page, of the folder that will hold the
            returned files (``<enemy id>.zip``).
        vtt: the site's VTT export settings.
        ctx: the build's context (its page language, the バランス section's settings);
            none: Japanese words, no バランス section.
    """
    view = cache.watch()
    rendered = _render(
        scenario, view, roller=roller, zip_href=zip_href, vtt=vtt, ctx=ctx or BuildContext()
    )
    failures = view.failures or []
    rendered.problems = list(dict.fromkeys((w, f"{r.command}: {r.error}") for w, r in failures))
    return rendered


def _render(
    scenario: Scenario,
    cache: OddsCache,
    *,
    roller: bool,
    zip_href: str,
    vtt: VttSettings | None,
    ctx: BuildContext,
) -> Rendered:
    model = scenario.model
    system = scenario.system
    slots = _Slots()
    _block = slots.block
    vtt = vtt or VttSettings()
    base = zip_href

    def heading(text: str) -> str:
        return f"### {md_escape(text)}\n"

    out: list[str] = [f"# {md_escape(scenario.title)}\n"]
    meta = story.meta_line(scenario)
    chosen = rulings(scenario)
    if chosen:
        meta.append(
            "裁定: "
            + "、".join(labels.ruling(system, k, v, ctx.lang) for k, v in sorted(chosen.items()))
        )
    text_link = (
        f'<p class="saikoro-text-link"><a href="{esc(base + text_name(scenario))}">'
        "テキスト版（Markdown。テキストセッション用にコピーできます）</a></p>"
    )
    out.append(_block(f'<p class="saikoro-meta">{esc(" ／ ".join(meta))}</p>{text_link}'))
    if model.summary:
        out.append(
            _block(f'<div class="saikoro-summary-text">{render_markdown(model.summary)}</div>')
        )
    files: list[SiteFile] = []
    if model.overview:
        out.append("## 概要\n")
        out.append(_block(f'<div class="saikoro-overview">{render_markdown(model.overview)}</div>'))
    if model.trailer:
        out.append("## トレーラー\n")
        out.append(_block(f'<div class="saikoro-trailer">{render_markdown(model.trailer)}</div>'))
    page = story.PageParts(scenario, _block, heading, base)
    out.append(story.handouts_html(page))
    target_anchors: dict[str, str] = {}
    for i, target in enumerate(model.difficulty_targets):
        target_anchors.setdefault(target.name, story.anchor(scenario.id, "check", i))
    table_anchors = {
        t.name: story.anchor(scenario.id, "table", i) for i, t in enumerate(model.chase_tables)
    }
    out.append(story.scenes_html(page, target_anchors, table_anchors))
    out.append(story.npcs_html(page, vtt, files))
    loose = story.unused_images(model)
    if loose:
        out.append("## 地図・資料\n")
        out.append(_block("".join(story.image_html(scenario, i.id, base) for i in loose)))
    if model.missions is not None:
        out.append("## ミッション\n")
        out.append(_block(_missions(model.missions, ctx.lang)))
    if model.difficulty_targets:
        out.append("## 難易度\n")
        party = party_html(scenario, roller=roller)
        if party:
            out.append(_block(party))
        for i, target in enumerate(model.difficulty_targets):
            cache.where = f"scenario.difficulty_targets[{i}]"
            out.append(heading(target.name))
            card = target_html(
                cache,
                system,
                target,
                chosen,
                roller=roller,
                scope=scenario.id,
                party=model.party or (),
                model=model,
                anchor=story.anchor(scenario.id, "check", i),
                extra=_chase_outcome(ctx, scenario, target),
            )
            out.append(_block(card))
    if model.enemies:
        out.append("## エネミー\n")
        for i, enemy in enumerate(model.enemies):
            cache.where = f"scenario.enemies[{i}]"
            zip_name = f"{enemy.id}.zip"
            out.append(heading(enemy.name))
            out.append(_block(enemy_html(cache, scenario, enemy, zip_href, vtt, roller=roller)))
            character = vtt.character(scenario.id, system, enemy, chosen)
            files.append(SiteFile(zip_name, udonarium_zip(character)))
    if model.party:
        out.append("## 想定するPC\n")
        for pc in model.party:
            out.append(heading(pc.name))
            memo = esc(pc_memo(system, pc))
            out.append(
                _block(
                    f'<div class="saikoro-card saikoro-pc"><p class="saikoro-memo">{memo}</p></div>'
                )
            )
    if model.chase_tables:
        out.append("## チェイス表\n")
        for i, table in enumerate(model.chase_tables):
            cache.where = f"scenario.chase_tables[{i}]"
            out.append(heading(table.name))
            card = table_html(
                cache, table, roll=roller, system=system, anchor=table_anchors[table.name]
            )
            out.append(_block(card))
    cache.where = "scenario"
    out.append("## VTT用ルーム\n")
    out.append(_block(room_html(scenario, zip_href)))
    files.extend(SiteFile(n, b) for n, b in room_files(scenario, vtt or VttSettings()).files)
    out.append(balance.section(ctx.balance, scenario, _block))
    if roller:
        free = free_widget(system=system, options=chosen, enabled=roller)
        if free:
            out.append("## ダイスロール\n")
            out.append(_block(free))
    out.append("## クレジット・権利表記\n")
    out.append(_block(story.credits_html(scenario)))
    files.extend(player_files(scenario))
    files.append(SiteFile(text_name(scenario), site_text(scenario_text(scenario))))
    return Rendered("".join(out), safe_title(scenario.title), files, slots.html)


def _chase_outcome(ctx: BuildContext, scenario: Scenario, target: DifficultyTarget) -> str:
    """What the バランス section's simulation says of a chase (``""``: not a chase, or no
    figures): how often the chase was reached and how it ended."""
    if getattr(target, "kind", None) != "chase":
        return ""
    result = balance.figures(ctx.balance, scenario)
    if result is None:
        return ""
    labels = simulator_for(scenario.system).mean_labels
    means = [  # in the simulator's order: reached the chase, escaped, cuts
        (label, result.means[k])
        for k, label in labels.items()
        if k in result.means and "チェイス" in label
    ]
    ends = [e for e in result.ends if e.key.startswith("chase") and e.count]
    if not ends and not means:
        return ""
    items = "".join(
        f"<li>{esc(label)}："
        + (f"{value * 100:.1f}%" if "割合" in label else f"{value:.2f}")
        + "</li>"
        for label, value in means
    )
    items += "".join(
        f"<li>{esc(e.label.removeprefix('チェイス: '))}：{e.rate * 100:.1f}%</li>" for e in ends
    )
    return (
        '<div class="saikoro-chase-outcome"><p class="saikoro-card-title">'
        f"シミュレーションでのチェイスの結末（{result.battles} 回、乱数の種 {result.seed}。"
        "割合は全体に対して）</p>"
        f"<ul>{items}</ul></div>"
    )
