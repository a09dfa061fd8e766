"""The editor agrees with ``saikoro validate``: the same verdict on the same files.

Every file below goes through yaml-language-server (the published schema named in its
``$schema`` line) and through ``saikoro validate``. The valid ones are the sample book
(``scenarios/``), the samples ``saikoro new`` writes, every scenario example in the
author guide and a few files that use what the schema once refused (integer table keys,
ranges written with 〜, ~ or -); the broken ones are common author mistakes. For each,
the editor must show a problem exactly when validate reports an error.

What JSON Schema cannot say (a table's gaps, duplicate ids, names a side mission
refers to...) only validate checks: those files are listed apart, and the editor must
accept them, so the list is exactly the documented difference.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lsp_client import language_server, open_document
from saikoro._new import book_files
from saikoro.scenario import json_schema, validate_text
from saikoro.systems import SYSTEM_IDS

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "plugin" / "saikoro" / "site" / "_guide"
MODELINE = "# yaml-language-server: $schema=./scenario.schema.json\n"

GETB = """\
system: getb
title: 試験
players: 3
enemies:
  - id: ogre
    name: オウガテイル
    abilities: {strength: 4, agility: 3, intellect: 1, endurance: 4}
    hp: 40
    ap: 6
    st: 3
    placement: out3
    attacks:
      - {name: 噛みつき, weapon: long-blade, element: physical, power: 5}
chase_tables:
  - name: 表
    die: 1D10
    entries:
      1: {title: 小道}
      2-3: {title: 悪路}
      4-10: {title: 静かな道}
"""

KEGARE = """\
system: kegare
title: 試験
enemies:
  - id: oni
    name: 鬼
    hp: 30
    attack: 4
    defence: 3
    initiative: 5
    blessed: false
    immune: [weakness]
"""


def _variant(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


STORY = """\
handouts:
  - {id: pc1, pc: PC1, title: 隊長, text: 公開する部分, secret: 本人だけ}
scenes:
  - {id: start, phase: 導入, title: 出撃, npcs: [op], checks: [崖]}
  - {id: fight, phase: climax, title: 掃討, enemies: [ogre],
     next: [end, {scene: end, condition: 勝つ}]}
  - {id: end, phase: ending, title: 帰投}
npcs:
  - {id: op, name: オペレーター, text: 通信役, secret: 姉を探している}
images:
  - {id: map, file: images/map.png, alt: 作戦区域の地図, caption: 作戦区域, width: 320}
credits: [イラスト 某]
notice: 転載可
"""
"""Every part of a scenario book (issue 29), added to the GETB example."""

GETB_STORY = (
    GETB.replace("players: 3\n", "players: 3\nplaytime: 3時間\nauthor: 某\n")
    + STORY
    + ("difficulty_targets:\n  - {name: 崖, check: agility, target: 8}\n")
)

VALID_EXTRA = {
    "getb-integer-keys": GETB,
    "getb-quoted-keys": _variant(GETB, "      1: {title: 小道}", '      "1": {title: 小道}'),
    "getb-wave-dash-keys": _variant(GETB, "2-3:", "2〜3:"),
    "getb-tilde-keys": _variant(GETB, "4-10:", "4~10:"),
    "getb-fullwidth-tilde-keys": _variant(GETB, "2-3:", "2～3:"),
    "getb-players-wave-dash": _variant(GETB, "players: 3", "players: 3〜4"),
    "getb-players-tilde": _variant(GETB, "players: 3", "players: 3~5"),
    "getb-players-range": _variant(GETB, "players: 3", "players: 3-5"),
    "getb-players-quoted": _variant(GETB, "players: 3", 'players: "3"'),
    "getb-attack-range": _variant(GETB, "power: 5}", "power: 5, range: 0〜1}"),
    "getb-story": GETB_STORY,
    "kegare": KEGARE,
    "kegare-yaml12-int": _variant(KEGARE, "hp: 30", "hp: 030"),
    "players-leading-zero": _variant(GETB, "players: 3", 'players: "03-4"'),
    "kegare-japanese-labels": _variant(
        KEGARE, "immune: [weakness]", "immune: [脱力, 毒]\n    position: 遠距離"
    ),
    "cutaction-japanese-labels": (ROOT / "scenarios" / "cutaction-sokou.yaml")
    .read_text("utf-8")
    .replace("area: front", "area: 前線")
    .replace("kind: melee", "kind: 格闘"),
    **{
        f"win-{name}": GETB + f"balance:\n  win: {win}\n"
        for name, win in (
            ("plain", "60%-80%"),
            ("wave-dash", "45〜55%"),
            ("spaces", '"60 % - 90 %"'),
            ("decimals", "60.25%-60.5%"),
            ("same-decimals", "60.50%-60.5%"),
            ("whole", "0%-100%"),
            ("leading-zero", "060%-100.0%"),
        )
    },
}

BROKEN = {
    "hp-text": _variant(GETB, "hp: 40", "hp: forty"),
    "hp-zero": _variant(GETB, "hp: 40", "hp: 0"),
    "hp-too-big": _variant(GETB, "hp: 40", "hp: 100000"),
    "hp-float": _variant(GETB, "hp: 40", "hp: 40.5"),
    "hp-null": _variant(GETB, "hp: 40", "hp:"),
    "unknown-key": _variant(GETB, "hp: 40", "hp: 40\n    hpp: 3"),
    "missing-required": _variant(GETB, "    hp: 40\n", ""),
    "enum-typo": _variant(GETB, "element: physical", "element: fisical"),
    "cell-typo": _variant(GETB, "placement: out3", "placement: center"),
    "list-for-map": _variant(
        GETB,
        "abilities: {strength: 4, agility: 3, intellect: 1, endurance: 4}",
        "abilities: [4, 3, 1, 4]",
    ),
    "map-for-list": _variant(GETB, "enemies:\n  - id: ogre", "enemies:\n  id: ogre"),
    "unknown-system": _variant(GETB, "system: getb", "system: gteb"),
    "no-title": _variant(GETB, "title: 試験\n", ""),
    "empty-title": _variant(GETB, "title: 試験", 'title: ""'),
    "title-number": _variant(GETB, "title: 試験", "title: 123"),
    "bad-id": _variant(GETB, "id: ogre", "id: Ogre Tail"),
    "table-key-text": _variant(GETB, "      1: {title: 小道}", "      one: {title: 小道}"),
    "table-key-too-big": _variant(
        GETB, "4-10: {title: 静かな道}", "4-10: {title: 静かな道}\n      5000: {title: 遠い}"
    ),
    "table-entry-no-title": _variant(GETB, "1: {title: 小道}", "1: {effect: 封鎖}"),
    "players-zero": _variant(GETB, "players: 3", "players: 0"),
    "players-words": _variant(GETB, "players: 3", "players: 三人"),
    "duplicate-key": _variant(GETB, "    ap: 6\n", "    ap: 6\n    ap: 7\n"),
    "syntax-flow-colon": _variant(GETB, "{title: 小道}", "{title: 小道, effect: 効果: 大}"),
    "syntax-indent": _variant(GETB, "    ap: 6\n", "     ap: 6\n"),
    "bool-yes": _variant(KEGARE, "blessed: false", "blessed: yes"),
    "bool-on": _variant(KEGARE, "blessed: false", "blessed: on"),
    "immune-typo": _variant(KEGARE, "immune: [weakness]", "immune: [weak]"),
    "immune-label-typo": _variant(KEGARE, "immune: [weakness]", "immune: [猛毒]"),
    "rulings-unknown": KEGARE + "rulings:\n  no_such_option: true\n",
    "range-backwards": _variant(GETB, "players: 3", "players: 5-3"),
    "range-too-big": _variant(GETB, "players: 3", "players: 3-25"),
    "range-open": _variant(GETB, "players: 3", "players: 3-"),
    "range-fullwidth": _variant(GETB, "players: 3", "players: ３〜４"),
    "hp-fullwidth": _variant(GETB, "hp: 40", "hp: ４０"),
    "table-key-backwards": _variant(GETB, "4-10: {title: 静かな道}", "10-4: {title: 静かな道}"),
    "table-key-fullwidth": _variant(GETB, "4-10: {title: 静かな道}", "４-10: {title: 静かな道}"),
    **{
        f"win-{name}": GETB + f"balance:\n  win: {win}\n"
        for name, win in (
            ("open", "60%〜"),
            ("backwards", "85%-60%"),
            ("over-100", "90%-110%"),
            ("no-percent", "60-90"),
            ("fullwidth", "６０％〜９０％"),
            ("decimals-backwards", "60.5%-60.25%"),
            ("words", "半分くらい"),
        )
    },
    "handout-unknown-key": _variant(GETB_STORY, "title: 隊長", "titel: 隊長"),
    "handout-no-text": _variant(GETB_STORY, "text: 公開する部分, ", ""),
    "scene-phase-typo": _variant(GETB_STORY, "phase: climax", "phase: climx"),
    "scene-bad-id": _variant(GETB_STORY, "id: fight", "id: Fight!"),
    "scene-next-number": _variant(GETB_STORY, "next: [end,", "next: [3,"),
    "image-no-alt": _variant(GETB_STORY, "alt: 作戦区域の地図, ", ""),
    "image-width-zero": _variant(GETB_STORY, "width: 320", "width: 0"),
    "credits-not-a-list": _variant(GETB_STORY, "credits: [イラスト 某]", "credits: {a: 1}"),
}

VALIDATE_ONLY = {
    "table-gap": _variant(GETB, "2-3: {title: 悪路}", "2: {title: 悪路}"),
    "table-overlap": _variant(GETB, "2-3: {title: 悪路}", "2-4: {title: 悪路}"),
    "duplicate-enemy-id": _variant(
        GETB,
        "chase_tables:",
        "  - id: ogre\n    name: 二匹目\n"
        "    abilities: {strength: 4, agility: 3, intellect: 1, endurance: 4}\n"
        "    hp: 40\n    ap: 6\n    st: 3\n    placement: out3\n"
        "    attacks:\n      - {name: 噛みつき, weapon: long-blade, element: physical, power: 5}\n"
        "chase_tables:",
    ),
    "side-unknown-enemy": GETB
    + "missions:\n  main: {success: 倒す}\n  side:\n"
    + "    - {success: 逃がさない, check: {defeated: [orge]}}\n",
    "control-character": _variant(GETB, "title: 試験", 'title: "試\\x1b験"'),
    "scene-unknown-enemy": _variant(GETB_STORY, "enemies: [ogre]", "enemies: [orge]"),
    "scene-unknown-next": _variant(GETB_STORY, "next: [end,", "next: [ned,"),
    "scene-unknown-npc": _variant(GETB_STORY, "npcs: [op]", "npcs: [po]"),
    "handout-unknown-image": _variant(
        GETB_STORY, "secret: 本人だけ}", "secret: 本人だけ, image: mpa}"
    ),
    "image-url": _variant(GETB_STORY, "file: images/map.png", "file: https://x.invalid/a.png"),
}
"""Mistakes only ``saikoro validate`` finds (JSON Schema cannot express them)."""


def _guide_examples() -> dict[str, str]:
    """Every ``yaml`` block of the author guide that is a whole scenario, and every block
    of top-level scenario keys (``party:``...) completed by the system it fits."""
    out: dict[str, str] = {}
    for page in sorted(GUIDE.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for i, block in enumerate(re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)):
            name = f"guide-{page.stem}-{i}"
            if re.search(r"^system: ", block, re.MULTILINE):
                if re.search(r"^title: ", block, re.MULTILINE):
                    out[name] = block
                continue
            if not re.match(
                r"(party|balance|missions|enemies|chase_tables|difficulty_targets):", block
            ):
                continue  # mkdocs.yml, workflows, the modeline alone
            for system in SYSTEM_IDS:
                whole = f"system: {system}\ntitle: 例\n{block}"
                if validate_text(whole, "example.yaml").ok:
                    out[name] = whole
                    break
    return out


def _book_samples() -> dict[str, str]:
    files = book_files(list(SYSTEM_IDS), title="t", site_url=None)
    return {
        f"new-{name.split('/')[-1].removesuffix('.yaml')}": text
        for name, text in files.items()
        if name.startswith("scenarios/")
    }


def _sample_book() -> dict[str, str]:
    return {
        f"book-{p.stem}": p.read_text(encoding="utf-8")
        for p in sorted((ROOT / "scenarios").glob("*.yaml"))
    }


VALID = {**_sample_book(), **_book_samples(), **_guide_examples(), **VALID_EXTRA}


def _with_modeline(text: str) -> str:
    lines = [line for line in text.splitlines(keepends=True) if "yaml-language-server" not in line]
    return MODELINE + "".join(lines)


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[bool, Any]]]:
    """name -> (the editor shows a problem, its diagnostics), for every file at once."""
    import json

    folder = tmp_path_factory.mktemp("agree")
    (folder / "scenario.schema.json").write_text(
        json.dumps(json_schema(), ensure_ascii=False), "utf-8"
    )
    files = {**VALID, **BROKEN, **VALIDATE_ONLY}
    with language_server(folder) as client:
        uris = {
            name: open_document(client, folder / f"{name}.yaml", _with_modeline(text))
            for name, text in files.items()
        }
        published = client.settled_diagnostics(set(uris.values()))
    yield {name: (bool(published[uri]), published[uri]) for name, uri in uris.items()}


def _validate(name: str, text: str) -> list[str]:
    result = validate_text(_with_modeline(text), f"{name}.yaml")
    return [p.format() for p in result.errors]


def test_the_sets_are_large_enough() -> None:
    assert len(_sample_book()) >= 10 and len(_book_samples()) == len(SYSTEM_IDS)
    assert len(_guide_examples()) >= 3
    assert len(BROKEN) >= 25


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_files_are_valid_in_both(name: str, verdicts: dict[str, tuple[bool, Any]]) -> None:
    assert _validate(name, VALID[name]) == []
    flagged, diagnostics = verdicts[name]
    assert not flagged, diagnostics


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_files_are_broken_in_both(name: str, verdicts: dict[str, tuple[bool, Any]]) -> None:
    assert _validate(name, BROKEN[name]) != []
    flagged, _ = verdicts[name]
    assert flagged, f"yaml-language-server accepts {name}"


@pytest.mark.parametrize("name", sorted(VALIDATE_ONLY))
def test_what_only_validate_checks(name: str, verdicts: dict[str, tuple[bool, Any]]) -> None:
    assert _validate(name, VALIDATE_ONLY[name]) != []
    flagged, diagnostics = verdicts[name]
    assert not flagged, f"the schema now catches {name}: move it to BROKEN ({diagnostics})"


_RANGE_TEXT = st.text(alphabet="0123456789.%-~〜 ５", min_size=1, max_size=14)


@settings(max_examples=600, deadline=None)
@given(
    text=st.one_of(
        _RANGE_TEXT,
        st.builds(
            lambda a, b, sep, pct: f"{a}{pct}{sep}{b}%",
            st.sampled_from(
                ["0", "5", "60", "060", "99.9", "60.5", "60.25", "100", "100.0", "101"]
            ),
            st.sampled_from(
                ["0", "5", "60", "060", "99.9", "60.5", "60.25", "100", "100.0", "101"]
            ),
            st.sampled_from(["-", "〜", " ~ ", "～"]),
            st.sampled_from(["", "%", " %"]),
        ),
    )
)
def test_the_schema_reads_win_ranges_as_validate_does(text: str) -> None:
    """The editor's patterns for ``balance.win`` accept exactly what validate accepts."""
    import jsonschema  # type: ignore[import-untyped]

    from saikoro.scenario import parse_win_range
    from saikoro.scenario._schema import WinRange

    schema = WinRange().json_schema()
    editor = jsonschema.Draft202012Validator(schema).is_valid(text)
    assert editor == (parse_win_range(text) is not None), text


@settings(max_examples=600, deadline=None)
@given(text=st.text(alphabet="0123456789-~〜 ５", min_size=1, max_size=12))
def test_the_schema_reads_int_ranges_as_validate_does(text: str) -> None:
    """The editor's patterns for a range field (``players``, a table's keys) accept exactly
    what validate accepts."""
    import jsonschema

    from saikoro.scenario._loader import Node
    from saikoro.scenario._schema import Ctx, IntOrRange

    for kind in (IntOrRange(1, 20), IntOrRange(0, 2000), IntOrRange(0, 24)):
        editor = jsonschema.Draft202012Validator(kind.json_schema()).is_valid(text)
        ctx = Ctx("s.yaml")
        kind.check(Node("scalar", text, 1, 1), "scenario.x", ctx)
        assert editor == (not ctx.problems), (kind, text)
