"""The balance docs page shows what the code does (tactics, verdicts, reference parties)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from saikoro.balance import ATOMS, PRESETS, VERDICTS, reference_party, simulator_for
from saikoro.systems import SYSTEM_IDS

DEFAULTS = {s: simulator_for(s).tactics for s in SYSTEM_IDS}

DOC = (
    Path(__file__).resolve().parents[1] / "plugin" / "saikoro" / "site" / "_guide" / "balance.md"
).read_text("utf-8")


def test_every_tactic_and_default_is_documented() -> None:
    for name, (_, description) in PRESETS.items():
        assert f"| `{name}` | {description} |" in DOC
    for name, description in ATOMS.items():
        assert f"| `{name}` | {description} |" in DOC
    for system, (pc, enemy) in DEFAULTS.items():
        assert f"| {system} | `{pc}` | `{enemy}` |" in DOC


def test_verdict_thresholds_are_documented() -> None:
    for _, word, text in VERDICTS:
        assert f"| {word} | {text} |" in DOC


def test_reference_parties_match_the_page() -> None:
    blocks = dict(re.findall(r"### (\w+)\n\n```yaml\n(.*?)```", DOC, flags=re.DOTALL))
    assert set(blocks) == set(DEFAULTS)
    for system, block in blocks.items():
        shown = yaml.safe_load(block)["party"]
        size = sum(1 for m in shown if m.get("kind") != "nation")
        assert shown == reference_party(system, size)


def test_rulings_page_shows_the_default_tactics() -> None:
    from saikoro.site import rulings_page

    page = rulings_page()
    for system in DEFAULTS:
        assert f'id="{system}-balance_tactics"' in page
