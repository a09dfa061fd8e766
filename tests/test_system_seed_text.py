"""No sentence of the rule texts (the seeds) is copied into the project.

The seeds are copyrighted: the project describes them in its own words. Any run of 16
characters shared with a seed (after NFKC and whitespace removal, the games' titles
allowed) in a tracked file is a defect. The seeds live outside the repository
(``../shared/seeds``), as CI provides them; without them the test skips (in CI it fails).
"""

from __future__ import annotations

import subprocess
import unicodedata
from pathlib import Path

from shared_data import SEEDS as SEEDS_DIR
from shared_data import require

ROOT = Path(__file__).resolve().parents[1]
SEEDS = require(SEEDS_DIR / "README.md", "the rule texts (seeds)").parent
WINDOW = 16
TITLES = ("GODEATERTABLEBURST", "君ヨ、暁ノ大地ニ死スベシ")


def norm(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


def seed_grams() -> dict[str, str]:
    grams: dict[str, str] = {}
    seeds = sorted(SEEDS.glob("*.txt"))
    assert len(seeds) == 5, f"the five seeds are expected in {SEEDS}"
    for seed in seeds:
        t = norm(seed.read_text(encoding="utf-8", errors="replace"))
        for i in range(len(t) - WINDOW + 1):
            g = t[i : i + WINDOW]
            if not any(g in title or title in g for title in TITLES):
                grams.setdefault(g, seed.name)
    return grams


def project_files() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    return [ROOT / f for f in out if f and (ROOT / f).is_file()]


def test_no_seed_run_anywhere_in_the_project() -> None:
    grams = seed_grams()
    hits = []
    for path in project_files():
        if path.stat().st_size > 2_000_000:
            continue
        try:
            t = norm(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            continue
        for i in range(len(t) - WINDOW + 1):
            if t[i : i + WINDOW] in grams:
                hits.append(f"{path.relative_to(ROOT)}: {t[i : i + WINDOW]!r}")
                break
    assert hits == []


def test_the_phrases_reported_in_issue_10_are_gone() -> None:
    from saikoro.systems import get

    texts = []
    for system in ("kegare", "getb"):
        s = get(system)
        texts += [r.seed + r.decision + r.reasoning for r in s.rulings]
        texts += [repr(f) for f in s.flows().values()]
    joined = norm("".join(texts))
    # split so that this file does not carry the runs it looks for
    for phrase in (
        ("防御判定を行わず", "にダメージを出す。"),
        ("ランダム異常表を", "振り、その状態異常"),
        ("結果を踏まえて", "シナリオを描写し、"),
    ):
        assert norm("".join(phrase)) not in joined, phrase
