"""``saikoro validate`` / ``saikoro schema``: exit codes, formats, languages."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from saikoro.scenario import schema_main, validate_main

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "scenarios"
GOOD = "system: kegare\ntitle: よい\n"
WARN = "system: kegare\ntitle: 警告\ndifficulty_targets:\n  - {name: a, target: 20}\n"
BAD = "system: kegare\ntitle: 悪い\nplayers: lots\n"


def run(argv: list[str], monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = validate_main(argv, out)
    return code, out.getvalue()


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def test_exit_codes(tmp_path: Path) -> None:
    good = write(tmp_path, "good.yaml", GOOD)
    warn = write(tmp_path, "warn.yaml", WARN)
    bad = write(tmp_path, "bad.yaml", BAD)
    assert run([str(good)])[0] == 0
    assert run([str(warn)])[0] == 0
    assert run(["--strict", str(warn)])[0] == 1
    assert run([str(bad)])[0] == 1
    assert run(["--format", "xml", str(good)])[0] == 2
    assert run(["--nope"])[0] == 2
    assert run(["--help"])[0] == 0


def test_text_output_and_summary(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", BAD)
    code, out = run([str(bad)])
    assert code == 1
    assert out.splitlines() == [
        f"{bad}:3:10: error: scenario.players: expected an integer or a range like 2-4, "
        "within 1..20, got 'lots'",
        "1 file(s) checked: 1 error(s), 0 warning(s)",
    ]
    assert run(["-q", str(bad)])[1].count("\n") == 1


def test_directories_are_searched(tmp_path: Path) -> None:
    write(tmp_path, "a/one.yaml", GOOD)
    write(tmp_path, "a/b/two.yml", GOOD.replace("よい", "二つ目"))
    write(tmp_path, "a/.hidden/x.yaml", BAD)
    write(tmp_path, "a/notes.txt", "not yaml")
    code, out = run([str(tmp_path / "a")])
    assert (code, out.splitlines()[-1]) == (0, "2 file(s) checked: 0 error(s), 0 warning(s)")


def test_default_path_is_scenarios(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "scenarios/x.yaml", BAD)
    monkeypatch.chdir(tmp_path)
    code, out = run([])
    assert code == 1 and out.startswith("scenarios/x.yaml:3:10: error:")


def test_missing_paths_and_empty_dirs(tmp_path: Path) -> None:
    code, out = run([str(tmp_path / "nope.yaml")])
    assert code == 1 and "nope.yaml:1:1: error: scenario: no such file or directory" in out
    (tmp_path / "empty").mkdir()
    code, out = run([str(tmp_path / "empty")])
    assert code == 1 and "no scenario files (*.yaml, *.yml) found" in out


def test_duplicate_scenario_ids_across_files(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", GOOD + "id: same\n")
    write(tmp_path, "b.yaml", GOOD + "id: same\n")
    code, out = run([str(tmp_path)])
    assert code == 1
    assert (
        f"{tmp_path / 'b.yaml'}:1:1: error: scenario.id: scenario id 'same' is also used by" in out
    )


def test_json_format(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", BAD)
    code, out = run(["--format", "json", str(bad)])
    payload = json.loads(out)
    assert code == 1
    assert payload["errors"] == 1 and payload["warnings"] == 0 and payload["files"] == 1
    problem = payload["problems"][0]
    assert problem["line"] == 3 and problem["column"] == 10
    assert problem["path"] == "scenario.players" and problem["severity"] == "error"


def test_github_format(tmp_path: Path) -> None:
    warn = write(tmp_path, "warn.yaml", WARN)
    code, out = run(["--format", "github", str(warn)])
    assert code == 0
    assert out.startswith(f"::warning file={warn},line=4,col=23,title=saikoro warning::")
    assert "target 20 needs 20 or more on 2D6" in out
    assert "file(s) checked" not in out


def test_language_selection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = write(tmp_path, "bad.yaml", BAD)
    ja = run(["--lang", "ja", str(bad)])[1]
    assert "整数か 2-4 のような範囲が必要ですが、'lots' が指定されています" in ja
    assert "1 ファイルを検査: エラー 1 件、警告 0 件" in ja
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert run([str(bad)])[1] == ja
    assert "expected an integer" in run(["--lang", "en", str(bad)])[1]


@pytest.mark.parametrize("path", sorted(DATA.glob("*.yaml")), ids=lambda p: p.name)
def test_hostile_fixtures_exit_one_or_zero_with_a_located_message(path: Path) -> None:
    code, out = run(["--strict", str(path)])
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{path}:") and first.split(":")[1].isdigit()


def test_schema_command() -> None:
    out = io.StringIO()
    assert schema_main([], out) == 0
    schema = json.loads(out.getvalue())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    out = io.StringIO()
    assert schema_main(["--system", "kegare"], out) == 0
    system = json.loads(out.getvalue())["properties"]["system"]
    assert (system["const"], system["description"]) == ("kegare", "ルールシステムのID")
    assert schema_main(["--system", "nope"], io.StringIO()) == 2


def test_module_entry_point(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", BAD)
    proc = subprocess.run(
        [sys.executable, "-m", "saikoro.scenario", "validate", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stdout.startswith(f"{bad}:3:10: error:")


def test_load_scenarios_rejects_a_reused_id(tmp_path: Path) -> None:
    from saikoro.scenario import load_scenarios

    write(tmp_path, "a.yaml", GOOD + "id: same\n")
    write(tmp_path, "b.yaml", GOOD + "id: same\n")
    first, second = load_scenarios(tmp_path)
    assert first.ok and first.scenario is not None
    assert second.scenario is None
    assert second.errors[0].format() == (
        f"{tmp_path / 'b.yaml'}:1:1: error: scenario.id: scenario id 'same' is also used by "
        f"{tmp_path / 'a.yaml'}"
    )
