"""Never lose a byte: files are replaced whole, no command writes outside its folder.

* :func:`saikoro.scenario.replace_file` under a random file-size limit (a full disk or
  a quota, ``RLIMIT_FSIZE`` in a subprocess) leaves the file either as it was or fully
  written, with its mode, and no temporary file beside it;
* every command run in a folder (``new``, ``validate``, ``schema -o``, ``docs --build``,
  ``simulate``, ``pdf``, ``mkdocs build``...) changes nothing outside the folder it was
  given, even when a scenario's ``$schema`` line, a symlinked folder or a ``.gitignore``
  link point out of it (a snapshot of everything around it before and after);
* ``saikoro docs --build DIR`` refuses a folder it did not write, resolves a relative DIR
  against the caller's folder and replaces its own earlier build.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from saikoro._docs import MARK

ROOT = Path(__file__).resolve().parents[1]

# -- replace_file under a file-size limit ------------------------------------------------

_CHILD = textwrap.dedent(
    """
    import json, os, resource, sys
    from pathlib import Path
    from saikoro.scenario import replace_file

    case = json.loads(sys.stdin.read())
    path = Path(case["path"])
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (case["limit"], hard))
    try:
        replace_file(path, bytes.fromhex(case["new"]))
    except OSError as e:
        print(json.dumps({"error": e.errno}))
    else:
        print(json.dumps({"error": None}))
    """
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    old=st.binary(max_size=3000),
    new=st.binary(max_size=6000),
    limit=st.integers(min_value=0, max_value=7000),
    mode=st.sampled_from([0o644, 0o600, 0o664, 0o755]),
)
def test_replace_file_under_a_file_size_limit_leaves_old_or_new(
    tmp_path: Path, old: bytes, new: bytes, limit: int, mode: int
) -> None:
    # hypothesis may run the same example twice (replay, shrinking): a fresh folder each time
    folder = Path(tempfile.mkdtemp(prefix="case-", dir=tmp_path))
    path = folder / "scenario.yaml"
    path.write_bytes(old)
    path.chmod(mode)
    case = {"path": str(path), "new": new.hex(), "limit": limit}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=json.dumps(case),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    error = json.loads(done.stdout)["error"]
    after = path.read_bytes()
    assert after in (old, new)
    if old != new:  # (the same bytes are "written whole" whether or not the write failed)
        assert (after == new) == (error is None)  # written whole exactly when it said so
    if len(new) > limit:
        assert after == old and error is not None  # the limit was hit: nothing changed
    assert (path.stat().st_mode & 0o777) == mode
    assert sorted(p.name for p in folder.iterdir()) == ["scenario.yaml"]  # no temporary


def test_a_read_only_file_is_not_replaced_even_by_root(tmp_path: Path) -> None:
    """A file nobody may write is the author's wish: replace_file refuses it (root, who
    may write anything, too) and leaves it as it was."""
    from saikoro.scenario import replace_file

    path = tmp_path / "schema.json"
    path.write_bytes(b"old")
    path.chmod(0o444)
    with pytest.raises(PermissionError):
        replace_file(path, b"new")
    assert path.read_bytes() == b"old" and sorted(tmp_path.iterdir()) == [path]


def test_replace_file_never_replaces_a_device_or_a_folder(tmp_path: Path) -> None:
    """``saikoro schema -o /dev/full`` (or a FIFO, or a folder) is an error: the device stays
    a device, even for root, who could rename a file over it."""
    from saikoro.scenario import replace_file

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (Path("/dev/full"), fifo, tmp_path):
        with pytest.raises(OSError, match=r"regular file|directory"):
            replace_file(target, b"x")
    assert Path("/dev/full").is_char_device() and fifo.is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


# -- no command writes outside the folder it was given -----------------------------------


def snapshot(top: Path, skip: tuple[Path, ...]) -> dict[str, tuple[object, ...]]:
    """Every entry below ``top`` but those in ``skip``: its kind, mode and content."""
    found: dict[str, tuple[object, ...]] = {}
    for parent, dirs, files in os.walk(top):
        here = Path(parent)
        dirs[:] = [d for d in dirs if here / d not in skip]
        for name in [*dirs, *files]:
            path = here / name
            if path in skip:
                continue
            info = path.lstat()
            key = path.relative_to(top).as_posix()
            if path.is_symlink():
                found[key] = ("link", str(path.readlink()))
            elif path.is_dir():
                found[key] = ("dir", info.st_mode)
            else:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                found[key] = ("file", info.st_mode, info.st_mtime_ns, digest)
    return found


def _stale_schema() -> str:
    from saikoro.scenario import schema_text

    data = json.loads(schema_text())
    data["description"] = "an older saikoro's schema"
    return json.dumps(data)


@pytest.fixture
def around(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A work folder ``W`` and a neighbour beside it holding what hostile files point at:
    another project's (stale, saikoro) schema, a folder of scenarios, a file a
    ``.gitignore`` link names. Home, cache and temporary folders are inside ``W``."""
    work, neighbour = tmp_path / "work", tmp_path / "neighbour"
    for folder in (work / "home", work / "cache", work / "tmp", neighbour / "schema"):
        folder.mkdir(parents=True)
    (neighbour / "schema" / "scenario.schema.json").write_text(_stale_schema(), "utf-8")
    (neighbour / "scens").mkdir()
    shutil.copy(ROOT / "scenarios" / "getb-haito.yaml", neighbour / "scens" / "far.yaml")
    (neighbour / "ignore-target").write_text("# theirs\n", "utf-8")
    (neighbour / "notes.txt").write_text("mine\n", "utf-8")
    env = {
        **os.environ,
        "HOME": str(work / "home"),
        "XDG_CACHE_HOME": str(work / "cache"),
        "TMPDIR": str(work / "tmp"),
        "NO_MKDOCS_2_WARNING": "1",
    }
    env.pop("SITE_URL", None)
    return work, neighbour, env


def test_no_command_writes_outside_the_folder_it_was_given(
    around: tuple[Path, Path, dict[str, str]],
) -> None:
    work, neighbour, env = around
    top = work.parent
    own = (work / "home", work / "cache", work / "tmp")
    saikoro = [sys.executable, "-m", "saikoro"]
    book = work / "book"
    linked = work / "linked"
    linked.mkdir()
    (linked / ".gitignore").symlink_to(neighbour / "ignore-target")

    def run(
        argv: list[str],
        cwd: Path,
        allowed: tuple[Path, ...],
        ok: tuple[int, ...],
        extra: dict[str, str] | None = None,
    ) -> str:
        before = snapshot(top, (*allowed, *own))
        done = subprocess.run(
            argv,
            cwd=cwd,
            env={**env, **(extra or {})},
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode in ok, (argv, done.stdout, done.stderr[-6000:])
        assert "Traceback" not in done.stderr, (argv, done.stderr)
        after = snapshot(top, (*allowed, *own))
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        assert changed == [], f"{argv[2:]} changed {changed} outside {allowed}"
        return done.stdout + done.stderr

    run([*saikoro, "new", "book", "--system", "getb", "--title", "本"], work, (book,), (0,))
    run([*saikoro, "new", "linked", "--system", "kegare"], work, (linked,), (0,))
    assert (neighbour / "ignore-target").read_text("utf-8") == "# theirs\n"
    run([*saikoro, "new", "--add", "--system", "kegare", "book"], work, (book,), (0,))
    run([sys.executable, "-m", "mkdocs", "build", "--strict"], book, (book,), (0,))
    # hostile bits: a $schema line naming the neighbour's schema, a link to its folder
    hostile = book / "scenarios" / "hostile.yaml"
    text = (book / "scenarios" / "getb-sample.yaml").read_text("utf-8").split("\n", 1)[1]
    text = re.sub(r"(?m)^id: .*$", "id: hostile", text)
    line = "# yaml-language-server: $schema=../../../neighbour/schema/scenario.schema.json"
    hostile.write_text(f"{line}\n{text}", "utf-8")
    run([*saikoro, "validate"], book, (book,), (0,))
    (book / "scenarios" / "away").symlink_to(neighbour / "scens")
    out = run([*saikoro, "validate"], book, (book,), (1,))
    assert "away" in out
    run([sys.executable, "-m", "mkdocs", "build"], book, (book,), (1,))
    (book / "scenarios" / "away").unlink()
    run([*saikoro, "schema", "-o", "out/schema.json"], work, (work / "out",), (0,))
    run([*saikoro, "docs", "--build", "docs-site"], work, (work / "docs-site",), (0,))
    sample = str(book / "scenarios" / "getb-sample.yaml")
    run([*saikoro, "simulate", sample, "--battles", "20", "--jobs", "2"], work, (), (0,))
    run([*saikoro, "text", sample], work, (), (0,))
    run([*saikoro, "text", sample, "-o", "out/sample.md"], work, (work / "out",), (0,))
    run([*saikoro, "odds", "2D6>=7"], work, (), (0,))
    run([*saikoro, "roll", "2D6", "--seed", "1"], work, (), (0,))
    run([sys.executable, "-m", "mkdocs", "build", "--strict"], book, (book,), (0,))
    page = str(book / "site" / "scenarios" / "book" / "index.html")
    with tempfile.TemporaryDirectory(prefix="s") as short:  # Chromium's socket path: short
        pdf = [*saikoro, "pdf", page, "out/book.pdf"]
        run(pdf, work, (work / "out",), (0,), {"TMPDIR": short})
    assert (work / "out" / "book.pdf").read_bytes().startswith(b"%PDF")
    assert (neighbour / "schema" / "scenario.schema.json").read_text("utf-8") == _stale_schema()


# -- saikoro docs --build DIR ---------------------------------------------------------


def _docs(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "saikoro", "docs", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_docs_build_refuses_a_folder_it_did_not_write(
    around: tuple[Path, Path, dict[str, str]],
) -> None:
    """A book's folder (absolute or relative, or ``.``) is refused before anything is
    written; nothing in it changes."""
    work, _neighbour, env = around
    book = work / "book"
    (book / "docs").mkdir(parents=True)
    (book / "mkdocs.yml").write_text("site_name: mine\n", "utf-8")
    (book / "docs" / "index.md").write_text("# mine\n", "utf-8")
    before = snapshot(work, (work / "home", work / "cache", work / "tmp"))
    for target, cwd in ((str(book), work), ("book", work), (".", book), ("docs", book)):
        done = _docs(["--build", target], cwd, env)
        assert done.returncode == 1, done.stderr
        assert "saikoro docs --build が書いたフォルダでもありません" in done.stderr
        assert "何も書いていません" in done.stderr and "Traceback" not in done.stderr
    assert snapshot(work, (work / "home", work / "cache", work / "tmp")) == before


def test_docs_build_writes_a_relative_folder_here_and_replaces_its_own_build(
    around: tuple[Path, Path, dict[str, str]],
) -> None:
    work, _neighbour, env = around
    done = _docs(["--build", "out/docs"], work, env)
    assert done.returncode == 0, done.stderr
    site = work / "out" / "docs"
    assert str(site) in done.stdout
    assert (site / "authoring" / "fields" / "index.html").is_file()
    mark = json.loads((site / MARK).read_text("utf-8"))
    assert "index.html" in mark["files"]
    assert [p.name for p in (work / "out").iterdir()] == ["docs"]  # nothing left beside it
    stale = site / "authoring" / "index.html"
    stale.write_text("edited", "utf-8")
    again = _docs(["--build", str(site)], work / "home", env)  # absolute, from elsewhere
    assert again.returncode == 0, again.stderr
    assert stale.read_text("utf-8") != "edited"
    (site / "mine.txt").write_text("mine", "utf-8")
    refused = _docs(["--build", "out/docs"], work, env)
    assert refused.returncode == 1 and "mine.txt" in refused.stderr
    assert (site / "mine.txt").read_text("utf-8") == "mine"
    assert (site / "index.html").is_file()


def test_docs_build_that_fails_leaves_the_folder_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site is built beside DIR: an error (or Ctrl-C) while it builds leaves DIR and
    its parent as they were."""
    import saikoro._docs as docs

    target = tmp_path / "docs"
    target.mkdir()

    def broken(site: Path) -> list[str]:
        (site / "index.html").write_text("half", "utf-8")
        raise KeyboardInterrupt

    monkeypatch.setattr(docs, "build_docs", broken)
    with pytest.raises(KeyboardInterrupt):
        docs.write_docs(target)
    assert sorted(tmp_path.iterdir()) == [target] and list(target.iterdir()) == []


def test_docs_port_out_of_range_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from saikoro._cli import main

    for port in ("70000", "-1", "99999999999999999999", "x"):
        assert main(["docs", "--port", port]) == 2
        err = capsys.readouterr().err
        assert "--port: 0 から 65535 までの整数を指定してください" in err, err


@pytest.mark.parametrize(
    "args", [["schema"], ["text", str(ROOT / "scenarios")]], ids=["schema", "text"]
)
def test_output_cut_by_a_file_size_limit_is_an_error(tmp_path: Path, args: list[str]) -> None:
    """``saikoro schema > file`` under a quota: exit 1 and a message, never a cut file and
    exit 0 (CPython's own writer stops at a short write without a word)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))

    target = tmp_path / "out"
    with target.open("wb") as out:
        done = subprocess.run(
            [sys.executable, "-m", "saikoro", *args],
            stdout=out,
            stderr=subprocess.PIPE,
            preexec_fn=limit,
            check=False,
            timeout=300,
        )
    assert done.returncode == 1, done.stderr.decode()
    assert "標準出力" in done.stderr.decode() and "Traceback" not in done.stderr.decode()
    assert target.stat().st_size <= 4096


def test_output_goes_out_whole_through_a_slow_pipe() -> None:
    """The guarded standard output still writes everything (a pipe takes it in pieces)."""
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "schema"], check=False, capture_output=True, timeout=300
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["$schema"]
