"""The plain-text edition (``saikoro text``) and the player's pages: what each holds, in
which order, and what the command says when it cannot."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from saikoro._cli import main as cli_main
from saikoro.scenario import load_scenario, validate_text
from saikoro.site import text_main
from saikoro.site._pages.player import player_page
from saikoro.site._text import book_text, handout_text, scenario_text, site_text

ROOT = Path(__file__).resolve().parents[1]
SOKOU = ROOT / "scenarios" / "cutaction-sokou.yaml"


def _sokou() -> object:
    scenario = load_scenario(SOKOU).scenario
    assert scenario is not None
    return scenario


def test_the_text_follows_the_page_order() -> None:
    text = scenario_text(_sokou())  # type: ignore[arg-type]
    heads = re.findall(r"^## (.+)$", text, re.M)
    assert heads == [
        "概要",
        "トレーラー",
        "ハンドアウト",
        "シーン",
        "NPC",
        "ミッション",
        "難易度",
        "エネミー",
        "チェイス表",
        "クレジット・権利表記",
    ]
    # a table as a Markdown table, with the rule book's event in words and the odds
    event = "チェイスはここで終わる ルールブックのチェイスイベント「行き止まり」："
    assert f"| 10 | 袋小路の倉庫街 | {event}" in text
    assert text.count("| 10.0% |") >= 4
    # the chase says who flees and how far; the note is there
    assert "- 逃げる側：PC全員" in text and "- 到着点：40" in text
    assert "移動目標値4なので、チェイス終了目標値は40。" in text
    # the rights notice of the system
    assert "『カットアクション』の非公式ファン作品です" in text


def test_a_handout_text_holds_only_what_its_player_reads() -> None:
    scenario = _sokou()
    model = scenario.model  # type: ignore[attr-defined]
    pc2 = model.handouts[1]
    text = handout_text(scenario, pc2)  # type: ignore[arg-type]
    assert pc2.secret.strip() in text
    assert model.trailer.strip().splitlines()[0] in text
    for other in model.handouts:
        assert other.text.strip().splitlines()[0] in text
        if other.pc != pc2.pc:
            assert other.secret.strip().splitlines()[0] not in text
    for gm_only in (model.overview, model.summary, model.scenes[0].text, model.npcs[0].secret):
        assert gm_only.strip().splitlines()[0] not in text
    assert "## シーン" not in text and "## エネミー" not in text


def test_the_player_page_is_one_file_that_loads_nothing() -> None:
    scenario = _sokou()
    model = scenario.model  # type: ignore[attr-defined]
    page = player_page(scenario, model.handouts[0])  # type: ignore[arg-type]
    assert page.startswith("<!doctype html>") and "<script" not in page
    assert "<link" not in page and 'name="robots" content="noindex"' in page
    assert model.handouts[0].secret.strip().splitlines()[0] in page
    assert model.handouts[1].secret.strip().splitlines()[0] not in page


def test_a_pc_with_two_handouts_reads_both_secrets() -> None:
    text = (
        "system: kegare\ntitle: t\nhandouts:\n"
        "  - {id: a, pc: PC1, text: 一, secret: 秘一}\n"
        "  - {id: b, pc: PC1, text: 二, secret: 秘二}\n"
        "  - {id: c, pc: PC2, text: 三, secret: 秘三}\n"
    )
    scenario = validate_text(text, "t.yaml").scenario
    assert scenario is not None
    page = player_page(scenario, scenario.model.handouts[1])
    assert "秘一" in page and "秘二" in page and "秘三" not in page


def test_the_site_text_has_a_byte_order_mark() -> None:
    assert site_text("あ") == "\ufeffあ".encode()


def test_the_book_lists_its_scenarios_then_each_one_a_level_down() -> None:
    scenario = _sokou()
    text = book_text("本", [scenario, scenario])  # type: ignore[list-item]
    assert text.startswith("# 本\n\n## 目次\n\n1. 夜明け前の逃走線\n2. 夜明け前の逃走線\n")
    assert "\n## 夜明け前の逃走線\n" in text and "\n### 概要\n" in text


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    status = text_main(argv, out)
    return status, out.getvalue()


def test_the_command_prints_a_scenario_a_book_and_a_handout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run([str(SOKOU)])
    assert status == 0 and out == scenario_text(_sokou())  # type: ignore[arg-type]
    status, out = run([str(ROOT / "scenarios"), "--title", "見本"])
    assert status == 0 and out.startswith("# 見本\n") and out.count("\n## クレジット") == 0
    assert out.count("\n### クレジット・権利表記\n") == 11
    status, out = run([str(SOKOU), "--handout", "pc3"])
    assert status == 0 and "PC3のプレイヤー用" in out
    assert cli_main(["text", str(SOKOU), "--handout", "pc1"]) == 0
    assert "PC1のプレイヤー用" in capsys.readouterr().out


def test_the_command_writes_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sokou.md"
    assert run([str(SOKOU), "-o", str(out)])[0] == 0
    assert out.read_text("utf-8") == scenario_text(_sokou())  # type: ignore[arg-type]
    assert "を書きました" in capsys.readouterr().err


def test_the_command_says_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run([str(SOKOU), "--handout", "pc9"])[0] == 1
    err = capsys.readouterr().err
    assert "ハンドアウト 'pc9' はありません（あるもの: pc1, pc2, pc3）" in err
    assert run([str(tmp_path / "nowhere.yaml")])[0] == 2
    assert "というファイルもフォルダもありません" in capsys.readouterr().err
    broken = tmp_path / "broken.yaml"
    broken.write_text("system: kegare\ntitle: t\nscenes:\n  - {id: a, phase: x, title: y}\n")
    assert run([str(broken)])[0] == 1
    assert f"{broken}:4:20: error: scenario.scenes[0].phase:" in capsys.readouterr().err
    assert run([str(SOKOU), str(SOKOU), "--handout", "pc1"])[0] == 2
    assert "一つだけ" in capsys.readouterr().err
    assert run([str(SOKOU), "-o", str(tmp_path)])[0] == 1
    assert "に書き込めません" in capsys.readouterr().err
