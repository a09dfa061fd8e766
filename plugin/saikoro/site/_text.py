"""The plain-text edition: a scenario (or the whole book) as Markdown text.

For text sessions (テキセ) and for anyone who copies the scenario into a chat: every
text the author wrote, in the order the page shows it, with the tables as Markdown
tables. ``saikoro text`` prints it; the site puts ``<id>.txt`` beside each scenario
page (and each player's handout as ``handout-<id>.txt``), linked from the page.

Author texts are Markdown already and are kept as written; names in table cells have
their ``|`` escaped and their line breaks joined.

>>> from saikoro.scenario import validate_text
>>> sc = validate_text("system: kegare\\ntitle: 試し\\ntrailer: 闇が来る。\\n", "t.yaml").scenario
>>> print(scenario_text(sc).splitlines()[0])
# 試し
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from saikoro.dice import DiceError
from saikoro.dice import odds as dice_odds
from saikoro.export import enemy_memo, pc_memo
from saikoro.scenario import Scenario
from saikoro.scenario.model import Handout, Image, Model, ScenarioModel
from saikoro.site._profiles import profile
from saikoro.site._profiles.base import given

from ._pages import labels, story
from ._pages.chase import entry_extras, entry_probability

__all__ = [
    "BOM",
    "book_text",
    "handout_text",
    "scenario_text",
    "site_text",
    "text_name",
]

BOM = "\ufeff"
"""Put before the site's text files: a browser that serves ``.txt`` without a charset
(and Windows' older Notepad) then reads them as UTF-8, not as Shift_JIS."""


def text_name(scenario: Scenario) -> str:
    """The text edition's file name in the scenario's folder (``<id>.txt``)."""
    return f"{scenario.id}.txt"


def site_text(text: str) -> bytes:
    """A text edition as the site serves it: UTF-8 with a byte order mark."""
    return (BOM + text).encode("utf-8")


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _block(text: str | None) -> list[str]:
    return [text.strip(), ""] if text else []


def _image(model: ScenarioModel, image_id: str | None) -> list[str]:
    if image_id is None:
        return []
    image: Image = model.image(image_id)
    caption = f"（{image.caption}）" if image.caption else ""
    return [f"［画像：{image.alt}{caption}］", ""]


def _head(scenario: Scenario) -> list[str]:
    return [f"# {scenario.title}", "", " ／ ".join(story.meta_line(scenario)), ""]


def _rights(scenario: Scenario) -> list[str]:
    model = scenario.model
    lines = ["## クレジット・権利表記", ""]
    if model.author:
        lines += [f"作者：{model.author}", ""]
    if model.credits:
        lines += [*(f"- {c}" for c in model.credits), ""]
    lines += _block(model.notice)
    notice = story.rights_notice(scenario.system)
    if notice:
        lines += [notice, ""]
    return lines


def _handout(model: ScenarioModel, handout: Handout, *, secret: bool) -> list[str]:
    lines = [f"### {story.handout_title(handout)}", ""]
    lines += _image(model, handout.image)
    lines += _block(handout.text)
    if secret and handout.secret:
        lines += [f"**秘匿（{handout.pc}のプレイヤーとGMだけが読む）**", ""]
        lines += _block(handout.secret)
    return lines


def _scenes(model: ScenarioModel) -> list[str]:
    if not model.scenes:
        return []
    titles = {s.id: story.scene_title(s) for s in model.scenes}
    enemies = {e.id: e.name for e in model.enemies}
    npcs = {n.id: n.name for n in model.npcs}
    lines = ["## シーン", ""]
    for scene in model.scenes:
        lines += [f"### {titles[scene.id]}", ""]
        lines += _image(model, scene.image)
        lines += _block(scene.text)
        uses = (
            ("判定", list(scene.checks)),
            ("チェイス", list(scene.chases or ())),
            ("エネミー", [enemies.get(e, e) for e in scene.enemies]),
            ("表", list(scene.tables)),
            ("NPC", [npcs.get(n, n) for n in scene.npcs]),
        )
        items = [f"- {label}：{'、'.join(names)}" for label, names in uses if names]
        branches = model.next_scenes(scene)
        if branches:
            items += [
                f"- 次のシーン：{titles.get(b.scene, b.scene)}"
                + (f"（{b.condition}）" if b.condition else "")
                for b in branches
            ]
        else:
            items.append("- 次のシーン：なし（シナリオの終わり）")
        lines += [*items, ""]
    return lines


def _npcs(model: ScenarioModel) -> list[str]:
    if not model.npcs:
        return []
    lines = ["## NPC", ""]
    for npc in model.npcs:
        lines += [f"### {npc.name}", ""]
        lines += _image(model, npc.image)
        lines += _block(npc.text)
        if npc.secret:
            lines += ["**GMだけが知ること**", ""]
            lines += _block(npc.secret)
    return lines


def _missions(model: ScenarioModel) -> list[str]:
    if model.missions is None:
        return []
    lines = ["## ミッション", ""]
    cards: list[tuple[str, Model]] = [("メインミッション", model.missions.main)]
    cards += [(f"サイドミッション {i}", m) for i, m in enumerate(model.missions.side, start=1)]
    for name, mission in cards:
        rows = ["：".join(labels.mission_field(k, v)) for k, v in given(mission) if k != "check"]
        lines.append(f"- {name}：" + " ／ ".join(rows))
    return [*lines, ""]


def _targets(scenario: Scenario) -> list[str]:
    model = scenario.model
    if not model.difficulty_targets:
        return []
    prof = profile(scenario.system)
    lines = ["## 難易度", ""]
    for target in model.difficulty_targets:
        lines += [f"### {target.name}", "", prof.target_label(target), ""]
        facts = prof.target_facts(target, model)
        if facts:
            lines += [*(f"- {k}：{v}" for k, v in facts), ""]
        lines += _block(target.note)
    return lines


def _enemies(scenario: Scenario) -> list[str]:
    model = scenario.model
    if not model.enemies:
        return []
    lines = ["## エネミー", ""]
    for enemy in model.enemies:
        lines += [f"### {enemy.name}", "", enemy_memo(scenario.system, enemy), ""]
    return lines


def _party(scenario: Scenario) -> list[str]:
    model = scenario.model
    if not model.party:
        return []
    lines = ["## 想定するPC", ""]
    for pc in model.party:
        lines += [f"### {pc.name}", "", pc_memo(scenario.system, pc), ""]
    return lines


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _tables(scenario: Scenario) -> list[str]:
    model = scenario.model
    if not model.chase_tables:
        return []
    lines = ["## チェイス表", ""]
    for table in model.chase_tables:
        lines += [f"### {table.name}（{table.die}）", ""]
        lines += _block(table.description)
        try:
            found = dice_odds(table.die)
        except DiceError:
            found = None
        distribution = found.distribution if found is not None else {}
        lines += ["| 出目 | 名前 | 効果 | 確率 |", "|---|---|---|---|"]
        for key, entry in table.entries.items():
            effect = [entry.effect or ""]
            effect += [f"{label}：{text}" for label, text in entry_extras(scenario.system, entry)]
            shown = _percent(entry_probability(distribution, key)) if distribution else ""
            cells = (key, entry.title, " ".join(e for e in effect if e), shown)
            lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
        lines.append("")
    return lines


def scenario_text(scenario: Scenario) -> str:
    """The whole scenario as Markdown text, in the order of its page (balance figures and
    odds tables are the page's; the chase tables' odds are here)."""
    model = scenario.model
    lines = _head(scenario)
    lines += _block(model.summary)
    if model.overview:
        lines += ["## 概要", "", *_block(model.overview)]
    if model.trailer:
        lines += ["## トレーラー", "", *_block(model.trailer)]
    if model.handouts:
        lines += ["## ハンドアウト", ""]
        for handout in model.handouts:
            lines += _handout(model, handout, secret=True)
    lines += _scenes(model)
    lines += _npcs(model)
    loose = story.unused_images(model)
    if loose:
        lines += ["## 地図・資料", ""]
        for image in loose:
            lines += _image(model, image.id)
    lines += _missions(model)
    lines += _targets(scenario)
    lines += _enemies(scenario)
    lines += _party(scenario)
    lines += _tables(scenario)
    lines += _rights(scenario)
    return "\n".join(lines).rstrip("\n") + "\n"


def handout_text(scenario: Scenario, handout: Handout) -> str:
    """What the player of ``handout`` reads, as text: the trailer, every handout's public
    part, and the secrets of the handouts of the same PC. Nothing else of the scenario."""
    model = scenario.model
    lines = _head(scenario)
    lines += [f"{handout.pc}のプレイヤー用", ""]
    if model.trailer:
        lines += ["## トレーラー", "", *_block(model.trailer)]
    lines += ["## ハンドアウト", ""]
    for other in model.handouts:
        lines += _handout(model, other, secret=other.pc == handout.pc)
    lines += _rights(scenario)
    return "\n".join(lines).rstrip("\n") + "\n"


def book_text(title: str, scenarios: Sequence[Scenario]) -> str:
    """The book: its title, a list of its scenarios, then each scenario's text (headings one
    level down), and the rights notices of its systems."""
    lines = [f"# {title}", "", "## 目次", ""]
    lines += [f"{i}. {s.title}" for i, s in enumerate(scenarios, start=1)]
    lines.append("")
    for scenario in scenarios:
        body = scenario_text(scenario)
        lines.append(
            "\n".join("#" + line if line.startswith("#") else line for line in body.splitlines())
        )
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
