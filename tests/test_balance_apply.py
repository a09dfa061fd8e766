"""``saikoro tune --apply``: the edit is made on the characters the file writes the value
with, read by the one YAML reader every command uses, and written without losing a byte.

Every other byte stays (comments, quotes, flow style, line endings, a BOM, a trailing tab);
a value a mapping takes from a merge key is written as the mapping's own key; what cannot be
written in place, or at all (read-only, a full disk, a file-size limit), is a clear Japanese
message and leaves the file byte for byte as it was. A property test puts ``saikoro tune
--apply`` under random file-size limits: the file is either unchanged or fully edited.
"""

from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from saikoro.balance import BalanceError
from saikoro.scenario import load_scenario
from saikoro.tune import Change, apply_changes
from saikoro.tune._apply import Source, edited_text
from test_balance_tune import KEGARE  # the same small fight

HP = Change("scenario.enemies[0].hp", "鬼 の hp", 10, 14, 7, 9, ("enemies", 0, "hp"))

CLIFF = """\
system: akatsuki
title: 崖の道
players: 2
difficulty_targets:
  - name: 崖を登る
    ability: 体躯
    difficulty: -3
  - {name: 谷を渡る, ability: 技巧, difficulty: -2}
balance:
  win: "85%-95%"
"""
"""A series of checks, solved exactly (fast): too hard on purpose."""


def _write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def _tune(argv: list[str]) -> tuple[int, str, str]:
    from saikoro.tune import _cli as _tune_cli

    out, err = io.StringIO(), io.StringIO()
    code = _tune_cli.main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_only_the_number_changes() -> None:
    text = KEGARE.replace("    hp: 10\n", "    hp: 10   # 体力\n")
    assert edited_text(text, (HP,)) == text.replace("hp: 10   # 体力", "hp: 14   # 体力")
    flow = Change(
        "scenario.enemies[0].skills[0].damage",
        "爪",
        3,
        5,
        12,
        40,
        ("enemies", 0, "skills", 0, "damage"),
    )
    assert edited_text(text, (flow,)) == text.replace("damage: 3}", "damage: 5}")
    both = edited_text(text, (HP, flow))
    assert both == text.replace("hp: 10 ", "hp: 14 ").replace("damage: 3}", "damage: 5}")


def test_an_enemy_is_copied_under_a_fresh_id_and_removed_by_its_lines() -> None:
    add = Change("scenario.enemies[0]", "鬼", None, None, 5, 5, ("enemies", 0), "add_enemy")
    doubled = edited_text(KEGARE, (add,))
    assert doubled.count("name: 鬼") == 2 and "id: oni-2" in doubled
    assert doubled.startswith(KEGARE.split("missions:", maxsplit=1)[0])
    two = KEGARE.replace(
        "enemies:\n",
        "enemies:\n  - {id: imp, name: 小鬼, hp: 3, attack: 0, defence: 0, initiative: 1}\n",
    )
    gone = Change("scenario.enemies[0]", "小鬼", None, None, 5, 5, ("enemies", 0), "remove_enemy")
    assert edited_text(two, (gone,)) == KEGARE


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_line_endings_and_a_bom_are_kept(tmp_path: Path, newline: str) -> None:
    text = KEGARE.replace("\n", newline)
    path = tmp_path / "s.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    apply_changes(path, (HP,))
    assert path.read_bytes() == b"\xef\xbb\xbf" + text.replace("hp: 10", "hp: 14").encode()
    add = Change(
        "scenario.missions.main.rounds", "上限", 6, 7, 16, 13, ("missions", "main", "rounds")
    )
    apply_changes(path, (add,))
    assert path.read_bytes().count(newline.encode()) == text.count(newline)


def test_a_round_limit_not_written_is_added_in_the_files_style(tmp_path: Path) -> None:
    text = KEGARE.replace("    rounds: 6\n", "").replace("\n", "\r\n")
    path = _write(tmp_path, text)
    rounds = Change("scenario.missions.main.rounds", "上限", None, 4, 14, 5, ("missions", "main"))
    rounds = Change(rounds.path, rounds.label, None, 4, 14, 5, ("missions", "main", "rounds"))
    apply_changes(path, (rounds,))
    assert path.read_bytes().decode() == text.replace(
        "    success: 鬼を倒す\r\n", "    success: 鬼を倒す\r\n    rounds: 4\r\n"
    )


MERGED = """\
system: kegare
title: 双子の鬼
players: 2
enemies:
  - &twin
    id: oni
    name: 鬼
    hp: 10\t
    attack: 1
    defence: 1
    initiative: 3
  - <<: *twin
    id: oni-b
    name: 鬼の弟
"""


def test_merge_keys_and_a_trailing_tab(tmp_path: Path) -> None:
    """A value taken from a merge key becomes the mapping's own key (the anchor, shared,
    stays); the anchor's own value is refused with a message, never a traceback."""
    path = _write(tmp_path, MERGED)
    brother = Change("scenario.enemies[1].hp", "鬼の弟 の hp", 10, 12, 12, 5, ("enemies", 1, "hp"))
    apply_changes(path, (brother,))
    assert path.read_text("utf-8") == MERGED + "    hp: 12\n"
    sc = load_scenario(path).scenario
    assert sc is not None
    assert [e.hp for e in sc.model.enemies] == [10, 12]  # type: ignore[attr-defined]
    shared = Change("scenario.enemies[0].hp", "鬼 の hp", 10, 11, 8, 9, ("enemies", 0, "hp"))
    with pytest.raises(BalanceError, match="ほかも変えて"):
        edited_text(MERGED, (shared,))  # the brother would change too
    alone = MERGED.split("  - <<:", maxsplit=1)[0]
    assert edited_text(alone, (shared,)) == alone.replace("hp: 10\t", "hp: 11\t")


def test_an_alias_is_replaced_not_its_anchor() -> None:
    text = KEGARE.replace("    hp: 10\n", "    hp: *ten\n").replace(
        "players: 2\n", "players: 2\nx-ten: &ten 10\n"
    )
    assert edited_text(text, (HP,)) == text.replace("hp: *ten", "hp: 14")


def test_yaml_12_numbers_are_read_as_validation_reads_them() -> None:
    """``hp: 010`` is 10 (YAML 1.2), as validation reads it: the edit finds 10 there."""
    text = KEGARE.replace("hp: 10\n", "hp: 010\n")
    assert edited_text(text, (HP,)) == KEGARE.replace("hp: 10\n", "hp: 14\n")
    wrong = Change(HP.path, HP.label, 8, 14, 7, 9, HP.keys)  # YAML 1.1 would read 8
    with pytest.raises(BalanceError, match="8 が書かれていません"):
        edited_text(text, (wrong,))


def test_an_edit_that_would_break_the_file_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, CLIFF)
    before = path.read_bytes()
    bad = Change(
        "scenario.difficulty_targets[0].difficulty",
        "崖",
        -3,
        99,
        7,
        17,
        ("difficulty_targets", 0, "difficulty"),
    )
    with pytest.raises(BalanceError, match="検証を通らなく"):
        apply_changes(path, (bad,))
    assert path.read_bytes() == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_a_read_only_file_gets_a_japanese_message(tmp_path: Path) -> None:
    path = _write(tmp_path, CLIFF)
    path.chmod(0o444)
    code, _, err = _tune([str(path), "--apply"])
    assert code == 1
    assert "読み取り専用" in err and "Traceback" not in err
    assert path.read_text("utf-8") == CLIFF


def test_a_read_only_file_as_an_unprivileged_user_sees_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the suite runs as root (who may write a read-only file), the file is made to
    look read-only to ``replace_file`` as it does to any other user."""
    path = _write(tmp_path, CLIFF)
    path.chmod(0o444)
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: mode != os.W_OK and real(p, mode))
    code, _, err = _tune([str(path), "--apply", "--jobs", "1"])
    assert code == 1
    assert "読み取り専用" in err and "ファイルは元のまま" in err and "Traceback" not in err
    assert path.read_text("utf-8") == CLIFF
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.yaml"]


def test_a_file_size_limit_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = _write(tmp_path, CLIFF)
    done = _apply_limited(path, 10)
    assert done.returncode == 1, done.stderr
    assert "ファイルサイズの上限" in done.stderr and "Traceback" not in done.stderr
    assert path.read_text("utf-8") == CLIFF
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.yaml"]


def _apply_limited(path: Path, limit: int) -> subprocess.CompletedProcess[str]:
    """``saikoro tune FILE --apply`` with writes limited to ``limit`` bytes a file."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "saikoro", "tune", str(path), "--apply", "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        preexec_fn=limited,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


@pytest.fixture(scope="module")
def applied(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """What ``saikoro tune --apply`` writes into :data:`CLIFF` with no limit."""
    path = _write(tmp_path_factory.mktemp("full"), CLIFF)
    done = _apply_limited(path, resource.RLIM_INFINITY)
    assert done.returncode == 0, done.stderr
    return path.read_bytes()


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(limit=st.integers(min_value=0, max_value=2 * len(CLIFF.encode())))
def test_tune_apply_under_a_random_file_size_limit(
    tmp_path_factory: pytest.TempPathFactory, applied: bytes, limit: int
) -> None:
    folder = tmp_path_factory.mktemp("limited")
    path = _write(folder, CLIFF)
    done = _apply_limited(path, limit)
    after = path.read_bytes()
    assert after in (CLIFF.encode(), applied), (limit, after)
    assert (after == applied) == (done.returncode == 0), done.stderr
    assert "Traceback" not in done.stderr
    assert [p.name for p in folder.iterdir()] == ["s.yaml"]


def test_the_source_reports_where_values_are() -> None:
    source = Source(KEGARE, "s.yaml")
    assert source.position(("enemies", 0, "hp")) == (7, 9)
    assert source.position(("missions", "main", "nothing")) == (15, 5)  # its mapping
    assert source.data["enemies"][0]["hp"] == 10
