"""VTT exports: ココフォリア clipboard JSON and ユドナリウム zip, parsed back."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
import zipfile

import pytest

import saikoro
from saikoro.export import (
    CcfoliaVisibility,
    Character,
    ccfolia_json,
    ccfolia_script,
    enemy_character,
    udonarium_xml,
    udonarium_zip,
)
from saikoro.scenario.model import enemy_model

HOSTILE = "</script><script>alert(1)</script>&\"'<!--"

OGRETAIL = {
    "id": "ogretail",
    "name": "オウガテイル",
    "abilities": {"strength": 4, "agility": 3, "intellect": 1, "endurance": 4},
    "hp": 40,
    "ap": 6,
    "st": 3,
    "placement": "out3",
    "attacks": [
        {
            "name": "噛みつき",
            "weapon": "long-blade",
            "element": "physical",
            "power": 5,
            "range": "0-1",
        }
    ],
    "guard": {"shield": "buckler", "armor": 2},
}


def _character(name: str = "オウガテイル") -> Character:
    return Character(
        name=name,
        initiative=6,
        status=(("HP", 40, 40), ("AP", 6, 6)),
        params=(("筋力", "4"),),
        commands=("3U10[10]+9 噛みつき", "1D10+4 筋力判定"),
        memo=f"memo {name}",
        external_url="https://example.com/x",
    )


def test_ccfolia_shape() -> None:
    data = ccfolia_json(_character())
    assert data["kind"] == "character"
    body = data["data"]
    assert isinstance(body, dict)
    assert body["name"] == "オウガテイル"
    assert body["initiative"] == 6
    assert body["status"] == [
        {"label": "HP", "value": 40, "max": 40},
        {"label": "AP", "value": 6, "max": 6},
    ]
    assert body["params"] == [{"label": "筋力", "value": "4"}]
    assert body["commands"] == "3U10[10]+9 噛みつき\n1D10+4 筋力判定"
    assert body["externalUrl"] == "https://example.com/x"


def test_ccfolia_script_cannot_break_out() -> None:
    html = ccfolia_script(_character(HOSTILE), 'x" onload="y')
    inner = re.fullmatch(r'<script type="application/json" id="([\w-]+)">(.*)</script>', html, re.S)
    assert inner is not None
    assert inner.group(1) == "xonloady"
    assert "<" not in inner.group(2) and ">" not in inner.group(2) and "&" not in inner.group(2)
    assert json.loads(inner.group(2))["data"]["name"] == HOSTILE


def test_udonarium_zip_parses() -> None:
    blob = udonarium_zip(_character(HOSTILE))
    with zipfile.ZipFile(io.BytesIO(blob)) as archive:
        assert archive.namelist() == ["data.xml"]
        text = archive.read("data.xml").decode("utf-8")
    root = ET.fromstring(text)  # noqa: S314 - our own output
    assert root.tag == "character"
    sheet = root.find("data[@name='character']")
    assert sheet is not None
    assert sheet.find("data[@name='image']/data[@name='imageIdentifier']") is not None
    name = sheet.find("data[@name='common']/data[@name='name']")
    assert name is not None and name.text == HOSTILE
    hp = sheet.find("data[@name='detail']/data[@name='リソース']/data[@name='HP']")
    assert hp is not None and hp.get("type") == "numberResource"
    assert hp.text == "40" and hp.get("currentValue") == "40"
    palette = root.find("chat-palette")
    assert palette is not None
    assert (palette.text or "").splitlines() == ["3U10[10]+9 噛みつき", "1D10+4 筋力判定"]


def test_udonarium_zip_is_deterministic() -> None:
    assert udonarium_zip(_character()) == udonarium_zip(_character())


def test_udonarium_xml_escapes() -> None:
    text = udonarium_xml(_character(HOSTILE))
    assert "<script>" not in text and "&lt;script&gt;" in text


def test_udonarium_names_the_dice_bot() -> None:
    root = ET.fromstring(udonarium_xml(_character()))  # noqa: S314 - our own output
    palette = root.find("chat-palette")
    assert palette is not None and palette.get("dicebot") == "DiceBot"


def test_ccfolia_visibility_flags() -> None:
    plain = ccfolia_json(_character())["data"]
    assert isinstance(plain, dict)
    assert (plain["secret"], plain["invisible"], plain["hideStatus"]) == (False, False, False)
    hidden = ccfolia_json(_character(), CcfoliaVisibility(secret=True, hide_status=True))["data"]
    assert isinstance(hidden, dict)
    assert (hidden["secret"], hidden["invisible"], hidden["hideStatus"]) == (True, False, True)


@pytest.mark.parametrize("system", ["getb", "kegare", "akatsuki", "kokuryoku", "cutaction"])
def test_sample_enemies_export(system: str) -> None:
    from pathlib import Path

    from saikoro.scenario import load_scenarios

    folder = Path(__file__).resolve().parents[1] / "scenarios"
    enemies = [
        e
        for r in load_scenarios(folder)
        if r.scenario and r.scenario.system == system
        for e in r.scenario.model.enemies
    ]
    assert enemies, f"the sample book has an enemy for {system}"
    for enemy in enemies:
        character = enemy_character(system, enemy, url="https://example.org/#e")
        assert character.name == enemy.name
        assert character.commands and character.memo
        data = ccfolia_json(character)["data"]
        assert isinstance(data, dict) and data["name"] == enemy.name
        assert data["externalUrl"] == "https://example.org/#e"
        root = ET.fromstring(udonarium_xml(character))  # noqa: S314 - our own output
        assert root.find("chat-palette") is not None
        for line in character.commands:  # generic BCDice commands, not system ones
            command = line.split()[0]
            assert saikoro.odds(command) is not None, line


def test_getb_palette_and_character() -> None:
    character = enemy_character("getb", enemy_model("getb", OGRETAIL))
    assert character.initiative == 6
    assert ("HP", 40, 40) in character.status
    assert character.commands[0].startswith("3U10[10]+9 噛みつき ※")  # long blade: 3 dice
    assert any(c.startswith("2U10[10]+6 ガード") for c in character.commands)  # buckler, 2 + 4
    assert "1D10+4 抵抗判定" in {" ".join(c.split()[:2]) for c in character.commands}
    assert "【攻撃】噛みつき" in character.memo
    assert "ロングブレード" in character.memo and "物理" in character.memo


def test_vtt_settings_and_hostile_ids() -> None:
    from saikoro.site._vtt import VttSettings

    settings = VttSettings("https://example.org/book", "scenarios", directory_urls=True)
    assert settings.enemy_url("s", "e") == "https://example.org/book/scenarios/s/#enemy-e"
    assert '"' not in settings.enemy_url('x"><script>', "e")


def test_export_doctests() -> None:
    import doctest

    from saikoro.export import _ccfolia as ccfolia
    from saikoro.export import _enemy as enemy
    from saikoro.export import _memo as memo
    from saikoro.export import _palette as palette
    from saikoro.export import _udonarium as udonarium
    from saikoro.site import _vtt as vtt
    from saikoro.systems._akatsuki import vtt as akatsuki
    from saikoro.systems._cutaction import vtt as cutaction
    from saikoro.systems._getb import vtt as getb
    from saikoro.systems._kegare import vtt as kegare
    from saikoro.systems._kokuryoku import vtt as kokuryoku

    modules = (akatsuki, ccfolia, cutaction, enemy, getb, kegare, kokuryoku, memo, palette)
    for module in (*modules, udonarium, vtt, saikoro.export):
        failures, tried = doctest.testmod(module)
        assert failures == 0 and tried > 0, module.__name__
