"""The scenario book's own parts on a page: overview, trailer, handouts, scenes, NPCs,
images, credits and rights notices (:mod:`saikoro.scenario._story` defines them).

Every text from the scenario is escaped (:func:`esc`) or rendered as safe Markdown
(:func:`render_markdown`); the scenes' flowchart goes through the flowcharts' Mermaid
escaping (:func:`saikoro.site._mermaid.flow_html`).

What a player may read (:mod:`saikoro.site._pages.player`): the trailer, every handout's public
part and their own handout's secret, with the scenario's title, system, players, play
time, author, credits and rights notices. Everything else is for the GM: the overview,
the summary, the scenes, the NPCs, the enemies, the checks, the tables and the balance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from saikoro.export import ccfolia_attribute, npc_character, udonarium_zip
from saikoro.scenario import PHASE_LABELS, Scenario, image_file, image_info
from saikoro.scenario.model import Handout, Image, Npc, ScenarioModel, Scene
from saikoro.site._mermaid import flow_html
from saikoro.site._safe import esc, render_markdown
from saikoro.site._vtt import VttSettings
from saikoro.systems import Edge, Flow, Step, StepKind, system_class
from saikoro.systems import get as get_system

__all__ = [
    "IMAGE_FOLDER",
    "NPC_FOLDER",
    "PageParts",
    "SiteFile",
    "anchor",
    "credits_html",
    "handout_file",
    "handouts_html",
    "image_html",
    "image_name",
    "images_key",
    "meta_line",
    "npcs_html",
    "rights_notice",
    "scene_flow",
    "scenes_html",
    "unused_images",
]

IMAGE_FOLDER = "images"
"""Where a scenario's images are copied, in its folder beside the page (``<id>/images/``)."""
NPC_FOLDER = "npcs"
"""Where the ユドナリウム zips of a scenario's NPCs go (``<id>/npcs/<npc id>.zip``)."""

_FORMAT_SUFFIX = {"png": ".png", "jpeg": ".jpg", "gif": ".gif", "webp": ".webp"}


@dataclass(frozen=True)
class PageParts:
    """What the sections are written into: the scenario, the page's ``block`` (HTML kept
    out of the Markdown) and ``heading`` (a Markdown heading), and ``base`` (the URL of
    the scenario's folder, relative to the page)."""

    scenario: Scenario
    block: Callable[[str], str]
    heading: Callable[[str], str]
    base: str


@dataclass(frozen=True)
class SiteFile:
    """A file generated next to a scenario page: its path below the scenario's folder."""

    name: str
    content: bytes


def anchor(scenario_id: str, kind: str, key: str | int) -> str:
    """The HTML id of a part of a scenario (unique in the whole-book page too).

    >>> anchor("kegare-yashiro", "scene", "gate")
    'kegare-yashiro--scene-gate'
    """
    return f"{scenario_id}--{kind}-{key}"


def handout_file(handout_id: str, suffix: str = ".html") -> str:
    """The file name of a handout's player page (``.html``) or text (``.txt``)."""
    return f"handout-{handout_id}{suffix}"


def image_name(scenario: Scenario, image: Image) -> str:
    """The image's file name in the site (``images/<id>.png``): its format's suffix."""
    info = _info(scenario, image)
    suffix = _FORMAT_SUFFIX[info[0]] if info is not None else Path(image.file).suffix.lower()
    return f"{IMAGE_FOLDER}/{image.id}{suffix}"


def _info(scenario: Scenario, image: Image) -> tuple[str, int, int] | None:
    path = image_file(scenario.path, image.file)
    try:
        with path.open("rb") as f:
            data = f.read(1 << 20)
    except OSError:
        return None
    return image_info(data)


def images_key(scenario: Scenario) -> tuple[tuple[str, int, int], ...]:
    """What the page depends on of its image files (path, mtime, size): part of the page
    cache's key, so a replaced image re-renders the page (its width and height)."""
    out = []
    for image in scenario.model.images:
        path = image_file(scenario.path, image.file)
        try:
            stat = path.stat()
        except OSError:
            out.append((str(path), 0, 0))
            continue
        out.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(out)


def image_html(scenario: Scenario, image_id: str | None, base: str) -> str:
    """An image as a figure: sized by its own width and height (scaled to ``width``),
    shrunk to fit the screen by the stylesheet, its alt text and caption."""
    if image_id is None:
        return ""
    image = scenario.model.image(image_id)
    info = _info(scenario, image)
    size = ""
    if info is not None:
        _, width, height = info
        shown = image.width or width
        size = f' width="{shown}" height="{max(1, round(height * shown / width))}"'
    # print shows the image, not its alt text: the alt text goes under it, in print only
    alt = f'<span class="saikoro-print-only saikoro-image-alt">図：{esc(image.alt)}</span>'
    caption = f"<figcaption>{esc(image.caption) if image.caption else ''}{alt}</figcaption>"
    return (
        f'<figure class="saikoro-image"><img src="{esc(base + image_name(scenario, image))}" '
        f'alt="{esc(image.alt)}"{size} loading="lazy" decoding="async">{caption}</figure>'
    )


def meta_line(scenario: Scenario) -> list[str]:
    """The scenario's facts for its head: system, players, play time, author."""
    model = scenario.model
    system = get_system(scenario.system).name or scenario.system
    out = [f"システム: {system}"]
    if model.players is not None:
        out.append(f"プレイヤー: {model.players}人")
    if model.playtime:
        out.append(f"プレイ時間: {model.playtime}")
    if model.author:
        out.append(f"作者: {model.author}")
    return out


def _md(text: str | None, css: str) -> str:
    return f'<div class="{css}">{render_markdown(text)}</div>' if text else ""


def handout_title(handout: Handout) -> str:
    """``PC1：見出し`` (or the PC alone)."""
    return f"{handout.pc}：{handout.title}" if handout.title else handout.pc


def handout_html(
    scenario: Scenario, handout: Handout, base: str, *, secret: bool, links: bool = False
) -> str:
    """One handout: image, public part, and (``secret``) its secret part, marked."""
    parts = [
        f'<div class="saikoro-card saikoro-handout" '
        f'id="{esc(anchor(scenario.id, "handout", handout.id))}">',
        image_html(scenario, handout.image, base),
        _md(handout.text, "saikoro-handout-text"),
    ]
    if secret and handout.secret:
        parts.append(
            '<div class="saikoro-secret"><p class="saikoro-secret-label">'
            f"秘匿（{esc(handout.pc)}のプレイヤーとGMだけが読む）</p>"
            f"{render_markdown(handout.secret)}</div>"
        )
    if links:
        page = esc(base + handout_file(handout.id))
        text = esc(base + handout_file(handout.id, ".txt"))
        parts.append(
            '<p class="saikoro-player-links">'
            f'<a href="{page}">{esc(handout.pc)}のプレイヤー用ページ（印刷用）</a> ・ '
            f'<a href="{text}">テキスト版</a></p>'
        )
    parts.append("</div>")
    return "".join(parts)


def handouts_html(page: PageParts) -> str:
    """The ハンドアウト section (GM view: every secret, and links to the player pages)."""
    scenario, block, heading, base = page.scenario, page.block, page.heading, page.base
    model = scenario.model
    if not model.handouts:
        return ""
    out = ["## ハンドアウト\n"]
    # paper has no links: the printed book points to its handouts to hand out instead
    sheets = esc(anchor(scenario.id, "handouts", "sheets"))
    out.append(
        block(
            '<p class="saikoro-note">秘匿はそのPCのプレイヤーとGMだけが読む部分です。'
            '<span class="saikoro-screen-only">'
            "プレイヤーには、各ハンドアウトの「プレイヤー用ページ」を渡してください"
            "（トレーラーと全員の公開部分、そのPCの秘匿だけが載っています）。</span>"
            '<span class="saikoro-book-print">各ハンドアウトは、切り取ってプレイヤーに渡せる形で'
            f'このシナリオの最後に載っています<a class="saikoro-page-ref" href="#{sheets}">'
            f'（p. <span class="saikoro-page" data-page-of="{sheets}"></span>）</a>。</span></p>'
        )
    )
    for handout in model.handouts:
        out.append(heading(handout_title(handout)))
        out.append(block(handout_html(scenario, handout, base, secret=True, links=True)))
    return "".join(out)


def scene_title(scene: Scene) -> str:
    """``導入：シーン名``."""
    return f"{PHASE_LABELS.get(scene.phase, scene.phase)}：{scene.title}"


def scene_flow(scenario: Scenario) -> Flow:
    """The scenario's scenes as a flow: the first scene is the start, scenes with nowhere
    to go are ends (a rounded box), branches carry their conditions."""
    model = scenario.model
    index = {s.id: i for i, s in enumerate(model.scenes)}
    steps = []
    for i, scene in enumerate(model.scenes):
        branches = model.next_scenes(scene)
        kind = StepKind.ACTION
        if i == 0:
            kind = StepKind.START
        elif not branches:
            kind = StepKind.END
        edges = tuple(
            Edge(f"scene{index[b.scene]}", b.condition or "") for b in branches if b.scene in index
        )
        steps.append(Step(f"scene{i}", scene_title(scene), kind, next=edges))
    return Flow(f"scenario.{scenario.id}", "シーンの流れ", tuple(steps))


def _links(items: Sequence[tuple[str, str]]) -> str:
    return "、".join(
        f'<a href="#{esc(target)}">{esc(label)}</a>' if target else esc(label)
        for label, target in items
    )


def scenes_html(page: PageParts, targets: dict[str, str], tables: dict[str, str]) -> str:
    """The シーン section: the flowchart, then each scene with what it uses and where it
    leads. ``targets`` / ``tables``: name -> anchor of the difficulty targets and tables."""
    scenario, block, heading, base = page.scenario, page.block, page.heading, page.base
    model = scenario.model
    if not model.scenes:
        return ""
    out = ["## シーン\n", block(flow_html(scene_flow(scenario)))]
    titles = {s.id: scene_title(s) for s in model.scenes}
    npcs = {n.id: n.name for n in model.npcs}
    for scene in model.scenes:
        out.append(heading(scene_title(scene)))
        rows: list[tuple[str, str]] = []
        enemy_names = {e.id: e.name for e in model.enemies}
        uses = (
            ("判定", [(n, targets.get(n, "")) for n in scene.checks]),
            ("チェイス", [(n, targets.get(n, "")) for n in scene.chases or ()]),
            ("エネミー", [(enemy_names.get(e, e), f"enemy-{e}") for e in scene.enemies]),
            ("表", [(n, tables.get(n, "")) for n in scene.tables]),
            ("NPC", [(npcs.get(n, n), anchor(scenario.id, "npc", n)) for n in scene.npcs]),
        )
        rows.extend((label, _links(items)) for label, items in uses if items)
        branches = model.next_scenes(scene)
        if branches:
            rows.append(
                (
                    "次のシーン",
                    "<br>".join(
                        f'→ <a href="#{esc(anchor(scenario.id, "scene", b.scene))}">'
                        f"{esc(titles.get(b.scene, b.scene))}</a>"
                        + (f"（{esc(b.condition)}）" if b.condition else "")
                        for b in branches
                    ),
                )
            )
        else:
            rows.append(("次のシーン", "シナリオの終わり"))
        facts = "".join(f"<div><dt>{esc(k)}</dt><dd>{v}</dd></div>" for k, v in rows)
        out.append(
            block(
                f'<div class="saikoro-scene" id="{esc(anchor(scenario.id, "scene", scene.id))}"'
                f' data-phase="{esc(scene.phase)}">'
                f"{image_html(scenario, scene.image, base)}"
                f"{_md(scene.text, 'saikoro-scene-text')}"
                f'<dl class="saikoro-facts">{facts}</dl></div>'
            )
        )
    return "".join(out)


def npcs_html(page: PageParts, vtt: VttSettings, files: list[SiteFile]) -> str:
    """The NPC section: each NPC with image, text and GM-only secret, and its VTT exports
    (``files`` gets its ユドナリウム zip)."""
    scenario, block, heading = page.scenario, page.block, page.heading
    model = scenario.model
    if not model.npcs:
        return ""
    out = ["## NPC\n"]
    for npc in model.npcs:
        out.append(heading(npc.name))
        character = npc_character(npc, url=vtt.npc_url(scenario.id, npc.id))
        zip_name = f"{NPC_FOLDER}/{npc.id}.zip"
        files.append(SiteFile(zip_name, udonarium_zip(character)))
        card = _npc_card(page, npc, ccfolia_attribute(character, vtt.ccfolia), zip_name)
        out.append(block(card))
    return "".join(out)


def _npc_card(page: PageParts, npc: Npc, ccfolia: str, zip_name: str) -> str:
    scenario, base = page.scenario, page.base
    secret = (
        '<div class="saikoro-secret"><p class="saikoro-secret-label">GMだけが知ること</p>'
        f"{render_markdown(npc.secret)}</div>"
        if npc.secret
        else ""
    )
    return (
        f'<div class="saikoro-card saikoro-npc" id="{esc(anchor(scenario.id, "npc", npc.id))}">'
        f"{image_html(scenario, npc.image, base)}{_md(npc.text, 'saikoro-npc-text')}{secret}"
        '<p class="saikoro-export">'
        '<button type="button" class="md-button saikoro-ccfolia" '
        f'data-ccfolia="{ccfolia}">ココフォリアにコピー</button> '
        f'<a class="md-button" href="{esc(base + zip_name)}" download>ユドナリウム用 (zip)</a>'
        '<span class="saikoro-copied" aria-live="polite"></span></p></div>'
    )


def unused_images(model: ScenarioModel) -> list[Image]:
    """The images no handout, scene or NPC shows (maps and handouts for the table)."""
    used = {h.image for h in model.handouts} | {s.image for s in model.scenes}
    used |= {n.image for n in model.npcs}
    return [i for i in model.images if i.id not in used]


def rights_notice(system_id: str) -> str:
    """The system's rights notice (``""`` for a system that registers none)."""
    notice = system_class(system_id).rights
    return notice.text() if notice is not None else ""


def credits_html(scenario: Scenario) -> str:
    """The クレジット・権利表記 block: author, credits, the author's notice, the system's."""
    model = scenario.model
    parts = ['<div class="saikoro-rights">']
    if model.author:
        parts.append(f"<p>作者：{esc(model.author)}</p>")
    if model.credits:
        items = "".join(f"<li>{esc(c)}</li>" for c in model.credits)
        parts.append(f'<p class="saikoro-card-title">クレジット</p><ul>{items}</ul>')
    if model.notice:
        parts.append(render_markdown(model.notice))
    notice = rights_notice(scenario.system)
    if notice:
        parts.append(f'<p class="saikoro-system-rights">{esc(notice)}</p>')
    parts.append("</div>")
    return "".join(parts)
