"""What a scenario folder holds is read or reported, never skipped without a word; the
book's schema copies are refreshed inside the book only, and a read-only one is reported.

* a symlinked folder under ``scenarios/`` is followed when it stays inside the book, and
  an error otherwise; ``boss.YAML`` is read; a folder that cannot be listed is an error
  (``saikoro validate``, ``mkdocs build``, ``saikoro simulate``);
* a stale read-only ``schema/scenario.schema.json`` gives a warning and the scenarios are
  still reported; a ``$schema`` line naming another project's schema never writes there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from saikoro._cli import main
from saikoro.scenario import load_scenarios, scan_files, schema_text
from samples import copy_pictures

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "scenarios" / "getb-haito.yaml"


def _scenario(path: Path, scenario_id: str, schema_line: str | None = None) -> None:
    text = SAMPLE.read_text("utf-8")
    lines = [line for line in text.splitlines() if not line.startswith(("id:", "# yaml-"))]
    head = [schema_line] if schema_line else []
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*head, f"id: {scenario_id}", *lines]) + "\n", "utf-8")
    copy_pictures(path.parent)


@pytest.fixture
def book(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    (root / "scenarios").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: x\n", "utf-8")
    _scenario(root / "scenarios" / "plain.yaml", "plain")
    return root


def test_a_symlinked_folder_inside_the_book_is_read(book: Path) -> None:
    _scenario(book / "shared" / "inner.yaml", "inner")
    (book / "scenarios" / "linked").symlink_to(book / "shared")
    (book / "scenarios" / "loop").symlink_to(book / "scenarios")  # read once, no loop
    scan = scan_files(book / "scenarios")
    assert scan.problems == []
    assert [p.relative_to(book / "scenarios").as_posix() for p in scan.files] == [
        "linked/inner.yaml",
        "plain.yaml",
    ]
    ids = sorted(r.scenario.id for r in load_scenarios(book / "scenarios") if r.scenario)
    assert ids == ["inner", "plain"]


def test_a_symlinked_folder_out_of_the_book_is_an_error(
    book: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _scenario(book.parent / "elsewhere" / "far.yaml", "far")
    (book / "scenarios" / "away").symlink_to(book.parent / "elsewhere")
    monkeypatch.chdir(book)
    assert main(["validate", "--lang", "ja"]) == 1
    out = capsys.readouterr().out
    assert "scenarios/away:1:1: error: scenario: シナリオ集" in out and "の外のフォルダ" in out
    assert "far" not in out.replace(str(book.parent / "elsewhere"), "")  # never read
    assert "エラー 1 件" in out


def test_a_scenario_named_in_upper_case_is_read(book: Path) -> None:
    _scenario(book / "scenarios" / "boss.YAML", "boss")
    _scenario(book / "scenarios" / "Other.Yml", "other")
    ids = sorted(r.scenario.id for r in load_scenarios(book / "scenarios") if r.scenario)
    assert ids == ["boss", "other", "plain"]


def test_an_unreadable_folder_is_an_error_never_zero_errors(
    book: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The folder's listing fails as it fails for a user without the read permission
    (os.scandir raising PermissionError: the test runs as root too)."""
    locked = book / "scenarios" / "locked"
    _scenario(locked / "hidden.yaml", "hidden")
    real = os.scandir

    def scandir(path: str | os.PathLike[str]) -> object:
        if Path(path).resolve() == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.chdir(book)
    assert main(["validate", "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert (
        "scenarios/locked:1:1: error: scenario: cannot read this folder (Permission denied)" in out
    )
    assert "1 error(s)" in out
    results = load_scenarios(book / "scenarios")
    assert any(r.file.endswith("locked") and r.errors for r in results)


def test_an_unreadable_folder_as_an_unprivileged_user() -> None:
    """The same with a real permission: run as ``nobody`` when the tests run as root (in a
    folder of its own that ``nobody`` may enter)."""
    with tempfile.TemporaryDirectory(prefix="saikoro-layout-") as name:
        top = Path(name)
        top.chmod(0o755)
        book = top / "book"
        _scenario(book / "scenarios" / "plain.yaml", "plain")
        locked = book / "scenarios" / "locked"
        _scenario(locked / "hidden.yaml", "hidden")
        for folder in (book, book / "scenarios"):
            folder.chmod(0o755)
        locked.chmod(0)
        prefix: list[str] = []
        if os.geteuid() == 0:
            setpriv = shutil.which("setpriv")
            assert setpriv, "setpriv (util-linux) runs the command as nobody"
            prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        done = subprocess.run(
            [*prefix, sys.executable, "-m", "saikoro", "validate", "--lang", "en", "scenarios"],
            cwd=book,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env={**os.environ, "HOME": str(top)},
        )
        locked.chmod(0o755)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "scenarios/locked:1:1: error: scenario: cannot read this folder" in done.stdout
    assert "2 file(s) checked" not in done.stdout  # hidden.yaml was not read


def test_the_build_reports_a_link_out_of_the_book(tmp_path: Path) -> None:
    from saikoro._new import create_book

    book = tmp_path / "made"
    create_book(book, ["getb"], title="t")
    _scenario(book.parent / "elsewhere" / "far.yaml", "far")
    (book / "scenarios" / "away").symlink_to(book.parent / "elsewhere")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=book,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode != 0
    assert "scenarios/away" in done.stderr and "の外のフォルダ" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_simulate_reports_an_unreadable_folder(
    book: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (book / "scenarios" / "away").symlink_to(book.parent)
    assert main(["simulate", str(book / "scenarios"), "--battles", "1", "--jobs", "1"]) == 1
    captured = capsys.readouterr()
    assert "away" in captured.out + captured.err


# -- the book's schema copy -------------------------------------------------------------


def _stale() -> str:
    data = json.loads(schema_text())
    data["description"] = "an older saikoro's schema"
    return json.dumps(data, indent=2) + "\n"


def test_a_read_only_stale_schema_is_reported_and_the_scenarios_still_checked(
    book: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = book / "schema" / "scenario.schema.json"
    schema.parent.mkdir()
    schema.write_text(_stale(), "utf-8")
    schema.chmod(0o444)
    line = "# yaml-language-server: $schema=../schema/scenario.schema.json"
    _scenario(book / "scenarios" / "named.yaml", "named", line)
    (book / "scenarios" / "bad.yaml").write_text("system: getb\ntitle: t\nplayers: 0x100\n")
    monkeypatch.chdir(book)
    assert main(["validate", "--lang", "en"]) == 1  # bad.yaml's error, reported
    captured = capsys.readouterr()
    assert "bad.yaml:3:10: error: scenario.players" in captured.out
    assert "3 file(s) checked: 1 error(s)" in captured.out
    assert "warning:" in captured.err and "書き換えられません" in captured.err
    assert "Traceback" not in captured.err
    assert schema.read_text("utf-8") == _stale()


def test_a_stale_schema_keeps_its_line_endings_and_mode(book: Path) -> None:
    from saikoro.scenario import refresh_schemas

    schema = book / "schema" / "scenario.schema.json"
    schema.parent.mkdir()
    schema.write_bytes(_stale().replace("\n", "\r\n").encode())
    schema.chmod(0o640)
    line = "# yaml-language-server: $schema=../schema/scenario.schema.json"
    _scenario(book / "scenarios" / "named.yaml", "named", line)
    done = refresh_schemas([book / "scenarios" / "named.yaml"])
    assert done.written == [schema.resolve()] and done.failed == []
    assert schema.read_bytes() == schema_text().replace("\n", "\r\n").encode()
    assert schema.stat().st_mode & 0o777 == 0o640
    assert refresh_schemas([book / "scenarios" / "named.yaml"]).written == []  # up to date


def test_a_schema_line_naming_another_projects_schema_never_writes_there(
    book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = book.parent / "other" / "schema" / "scenario.schema.json"
    other.parent.mkdir(parents=True)
    other.write_text(_stale(), "utf-8")
    line = "# yaml-language-server: $schema=../../other/schema/scenario.schema.json"
    _scenario(book / "scenarios" / "named.yaml", "named", line)
    absolute = f"# yaml-language-server: $schema={other}"
    _scenario(book / "scenarios" / "absolute.yaml", "absolute", absolute)
    monkeypatch.chdir(book)
    assert main(["validate"]) == 0
    assert other.read_text("utf-8") == _stale()


def test_the_build_warns_about_a_read_only_stale_schema(tmp_path: Path) -> None:
    from saikoro._new import create_book

    book = tmp_path / "made"
    create_book(book, ["getb"], title="t")
    schema = book / "schema" / "scenario.schema.json"
    schema.write_text(_stale(), "utf-8")
    schema.chmod(0o444)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=book,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert "WARNING" in done.stderr and "書き換えられません" in done.stderr
    assert "Traceback" not in done.stderr and schema.read_text("utf-8") == _stale()
    assert (book / "site" / "scenarios" / "getb-sample" / "index.html").is_file()
