"""BCDice's own test vectors for the generic commands, replayed through ``saikoro.roll``.

The vectors live outside the repository (``../shared/peer-vectors/bcdice/*.toml``,
BSD-licensed BCDice data); without them the tests skip, saying why (in CI they fail:
see :mod:`shared_data`).
"""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

import saikoro
from shared_data import BCDICE_VECTORS, require

VECTORS = BCDICE_VECTORS
FLAGS = ("secret", "success", "failure", "critical", "fumble")


def _load() -> list[tuple[str, dict[str, Any]]]:
    if not VECTORS.is_dir():
        return []
    cases = []
    for path in sorted(VECTORS.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for i, case in enumerate(data.get("test", [])):
            cases.append((f"{path.stem}-{i}", case))
    return cases


CASES = _load()
if not CASES:
    require(VECTORS / "AddDice.toml", "BCDice's test vectors")


def _check(case: dict[str, Any]) -> str | None:
    """``None`` when the case passes, else a description of the difference."""
    dice = [(r["sides"], r["value"]) for r in case.get("rands", [])]
    result = saikoro.roll(case["input"], dice=dice)
    text = "" if result is None else result.text
    if text != case["output"]:
        return f"{case['input']!r}: expected {case['output']!r}, got {text!r}"
    if result is not None:
        for flag in FLAGS:
            if getattr(result, flag) != case.get(flag, False):
                return f"{case['input']!r}: flag {flag} is {getattr(result, flag)}"
        if len(result.dice) != len(dice):
            return f"{case['input']!r}: used {len(result.dice)} of {len(dice)} dice"
    return None


@pytest.mark.parametrize(("name", "case"), CASES, ids=[name for name, _ in CASES])
def test_vector(name: str, case: dict[str, Any]) -> None:
    problem = _check(case)
    assert problem is None, f"{name}: {problem}"


def test_vector_summary(capsys: pytest.CaptureFixture[str]) -> None:
    problems = [p for _, case in CASES if (p := _check(case)) is not None]
    passed = len(CASES) - len(problems)
    with capsys.disabled():
        print(f"\nBCDice vectors: {passed}/{len(CASES)} pass")
    assert not problems, problems[:5]
