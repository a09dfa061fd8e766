"""The built wheel, as an author gets it: installed in a fresh venv, used outside the checkout.

The wheel is built once per session (sdist first, then the wheel from the sdist, as
``make dist`` does) and installed into a new virtual environment. Sites are then built
from folders under the temporary directory, with an empty ``HOME`` and a ``PATH`` holding
only the venv's ``bin`` (no npm, node or npx), so nothing can come from this repository's
``node_modules`` or working directory. Chromium then reads the built site from a local
server and must never request another host.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import saikoro
from saikoro.site.vendor import BUNDLES, LICENSE_NAME

sys.path.insert(0, str(Path(__file__).parent / "browser"))

from harness import Session, serve

pytestmark = [pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
ENGINE_TIMEOUT = 90_000

MARKER = "<!-- author-quick-start -->"
"""Precedes the author's minimal setup (a ``sh`` block) in the README and the guide."""

_INDEX = """# ホーム

```dice
2D6>=7
```

```flow
getb.attack
```

- [シナリオ](scenarios/index.md)
"""

_SCENARIO = """# yaml-language-server: $schema=../site/schema/scenario.schema.json
system: getb
id: wheel-test
title: 配布物の試験
summary: インストールしたパッケージだけでサイトが動くことを確かめる。
players: 3
difficulty_targets:
  - name: 跳び移る
    check: agility
    target: 8
enemies:
  - id: small
    name: 小型アラガミ
    abilities: {strength: 3, agility: 3, intellect: 1, endurance: 3}
    hp: 20
    ap: 4
    st: 2
    placement: out1
    attacks:
      - {name: 体当たり, weapon: long-blade, element: physical, power: 3, range: 0-1}
"""


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One pytest-xdist worker at a time (the others wait, then reuse the result)."""
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _shared(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """``dist/`` of this checkout: the sdist and the wheel built from it."""
    root = _shared(tmp_path_factory, worker_id)
    out = root / "saikoro-dist"
    with _locked(root / "saikoro-dist.lock"):
        if not list(out.glob("*.whl")):
            built = subprocess.run(
                [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            log = built.stdout + built.stderr
            assert built.returncode == 0, log
            (out / "build.log").write_text(log, encoding="utf-8")
    return out


def test_build_prints_no_deprecation_banners(dist: Path) -> None:
    log = (dist / "build.log").read_text(encoding="utf-8")
    assert "Successfully built" in log
    assert not re.search(r"deprecat|!!|SetuptoolsWarning", log, re.IGNORECASE), log


@pytest.fixture(scope="session")
def wheel(dist: Path) -> Path:
    (found,) = dist.glob("saikoro-*.whl")
    return found


@pytest.fixture(scope="session")
def venv(tmp_path_factory: pytest.TempPathFactory, worker_id: str, wheel: Path) -> Path:
    """A fresh virtual environment with only the wheel (and its dependencies) installed."""
    root = _shared(tmp_path_factory, worker_id)
    env_dir = root / "saikoro-venv"
    with _locked(root / "saikoro-venv.lock"):
        if not (env_dir / "ok").is_file():
            subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
            pip = subprocess.run(
                [str(env_dir / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
                capture_output=True,
                text=True,
                timeout=900,
                check=False,
                env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
            )
            assert pip.returncode == 0, pip.stdout + pip.stderr
            (env_dir / "ok").write_text("installed\n")
    return env_dir


def _clean_env(venv: Path, home: Path) -> dict[str, str]:
    """An author's shell: only the venv on PATH (no node, npm, npx), an empty HOME."""
    home.mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": str(venv / "bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "NO_MKDOCS_2_WARNING": "1",
        "VIRTUAL_ENV": str(venv),
    }
    for tool in ("node", "npm", "npx"):
        assert not (venv / "bin" / tool).exists()
    return env


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, f"{shlex.join(args)}\n{result.stdout}\n{result.stderr}"
    return result


def test_wheel_ships_exactly_the_served_runtimes(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    vendor = {n for n in names if n.startswith("saikoro/site/vendor/") and not n.endswith(".py")}
    expected = {"saikoro/site/vendor/manifest.json"}
    for bundle in BUNDLES.values():
        for file in (*bundle.files, LICENSE_NAME):
            expected.add(f"saikoro/site/vendor/{bundle.name}/{file}")
    assert vendor == expected
    assert "saikoro/_new/templates/github/workflows/scenarios.yml" in names
    assert not [n for n in names if "node_modules" in n or n.startswith(("tests/", "docs/"))]
    dist_info = f"saikoro-{saikoro.__version__}.dist-info"
    assert f"{dist_info}/licenses/licenses/micropython.LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode("utf-8")
    assert "License-Expression: MIT\n" in metadata
    assert f"Version: {saikoro.__version__}\n" in metadata
    print(f"\nwheel {wheel.name}: {wheel.stat().st_size / 1e6:.2f} MB")


def test_dist_metadata_passes_twine(dist: Path) -> None:
    files = sorted(str(p) for p in dist.iterdir() if p.suffix != ".log")
    assert any(f.endswith(".tar.gz") for f in files) and any(f.endswith(".whl") for f in files)
    result = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 2


def test_installed_package_is_the_wheel_not_the_checkout(venv: Path, tmp_path: Path) -> None:
    env = _clean_env(venv, tmp_path / "home")
    script = (
        "import saikoro, saikoro.site.vendor as v\n"
        "print(saikoro.__file__)\nprint(v.bundle_dir('micropython'))"
    )
    out = _run([str(venv / "bin" / "python"), "-c", script], tmp_path, env).stdout.split()
    assert all(Path(p).is_relative_to(venv) for p in out), out


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _quick_start(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    assert MARKER in text, f"{path} lost its author quick start marker"
    block = re.search(r"```sh\n(.*?)```", text[text.index(MARKER) :], re.DOTALL)
    assert block, path
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_author_quick_start_works_as_written(venv: Path, tmp_path: Path) -> None:
    """The README's and the guide's minimal setup, run line by line in an author's shell.

    ``pip install saikoro`` is what the venv fixture did with the wheel; ``mkdocs serve``
    runs until it answers (on a free port instead of 8000, which another site may hold).
    """
    readme = _quick_start(REPO / "README.md")
    guide = _quick_start(REPO / "plugin" / "saikoro" / "site" / "_guide" / "index.md")
    assert readme == guide
    env = _clean_env(venv, tmp_path / "home")
    cwd = tmp_path / "work"
    cwd.mkdir()
    served = False
    for line in readme:
        args = shlex.split(line, comments=True)
        if args[:3] == ["pip", "install", "saikoro"]:
            continue
        if args[0] == "cd":
            cwd = cwd / args[1]
            continue
        if args[:2] == ["mkdocs", "serve"]:
            port = _free_port()
            _serve_once(args, port, cwd, env)
            served = True
            continue
        _run(args, cwd, env)
    assert served and (cwd / "site" / "scenarios" / "getb-sample" / "index.html").is_file()


def _serve_once(args: list[str], port: int, cwd: Path, env: dict[str, str]) -> None:
    server = subprocess.Popen(
        [*args, "-a", f"127.0.0.1:{port}"],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/scenarios/getb-sample/", timeout=5
                ) as response:
                    assert response.status == 200
                    assert "saikoro-roller" in response.read().decode("utf-8")
                    return
            except OSError:
                assert time.monotonic() < deadline, "mkdocs serve never answered"
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing in CI")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


_OPEN_SHADOW = """
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (init) {
  return attach.call(this, { ...init, mode: "open" });
};
"""
"""mkdocs-material draws flowcharts in a closed shadow root; open it so the test can look."""


@pytest.mark.browser
def test_author_site_from_the_wheel_works_offline(venv: Path, tmp_path: Path, browser: Any) -> None:
    book = tmp_path / "book"
    assert not book.is_relative_to(REPO)
    (book / "docs").mkdir(parents=True)
    (book / "scenarios").mkdir()
    (book / "docs" / "index.md").write_text(_INDEX, encoding="utf-8")
    (book / "scenarios" / "wheel-test.yaml").write_text(_SCENARIO, encoding="utf-8")
    env = _clean_env(venv, tmp_path / "home")
    with serve(book / "site") as url:
        (book / "mkdocs.yml").write_text(
            f"site_name: wheel test\nsite_url: {url}\ntheme:\n  name: material\n"
            "  language: ja\n  font: false\nplugins:\n  - search\n  - saikoro\n",
            encoding="utf-8",
        )
        _run([str(venv / "bin" / "mkdocs"), "build", "--strict"], book, env)
        runtime = book / "site" / "assets" / "saikoro" / "micropython"
        assert sorted(p.name for p in runtime.iterdir()) == sorted(
            [*BUNDLES["micropython"].files, LICENSE_NAME]
        )
        context = browser.new_context()
        context.add_init_script(_OPEN_SHADOW)
        session = Session(context.new_page())
        page = session.page
        try:
            page.goto(url)
            page.locator("details.saikoro-flow-fold summary").first.click()  # charts are folded
            page.wait_for_selector(".mermaid svg g.node", state="attached", timeout=30_000)
            page.goto(f"{url}scenarios/wheel-test/")
            widget = page.locator(".saikoro-roller:not(.saikoro-free)").first
            widget.scroll_into_view_if_needed()
            widget.locator(".saikoro-roll").click()
            output = widget.locator(".saikoro-output")
            page.wait_for_function(
                "(el) => el.textContent && !el.classList.contains('saikoro-loading')",
                arg=output.element_handle(),
                timeout=ENGINE_TIMEOUT,
            )
            text = output.text_content() or ""
            classes = (output.get_attribute("class") or "").split()
            assert "saikoro-error" not in classes, text
            assert re.search(r"＞ \d+", text), text
            page.wait_for_load_state("networkidle")
        finally:
            context.close()
        assert session.errors == []
        origin = url.split("/sub/")[0]
        outside = [
            u for u in session.requests if not u.startswith((origin + "/", "data:", "blob:"))
        ]
        assert outside == []
        fetched = {u.removeprefix(url).split("?")[0] for u in session.requests}
        for name in (*BUNDLES["micropython"].files, "mermaid.min.js", "worker.js", "mphost.mjs"):
            assert any(f.endswith(name) for f in fetched), (name, sorted(fetched))
        print("\nthe reader's pages fetched:\n  " + "\n  ".join(sorted(fetched)))


def test_metadata_names_the_documentation_and_the_source(wheel: Path) -> None:
    dist_info = f"saikoro-{saikoro.__version__}.dist-info"
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode("utf-8")
    urls = dict(
        line.removeprefix("Project-URL: ").split(", ", 1)
        for line in metadata.splitlines()
        if line.startswith("Project-URL: ")
    )
    assert urls["Documentation"].startswith("https://"), urls
    assert urls["Source"].startswith("https://"), urls
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"saikoro/site/_guide/{page}" for page in ("index.md", "balance.md", "ci.md")} <= names


def test_field_reference_offline_from_the_installed_package(venv: Path, tmp_path: Path) -> None:
    """An author with only the wheel (no network, no checkout) reaches the guide and the
    field reference: ``saikoro --help`` names ``saikoro docs``, which builds them."""
    env = _clean_env(venv, tmp_path / "home")
    cwd = tmp_path / "anywhere"
    cwd.mkdir()
    saikoro_bin = str(venv / "bin" / "saikoro")
    assert "saikoro docs" in _run([saikoro_bin, "--help"], cwd, env).stdout
    printed = _run([saikoro_bin, "docs", "--print", "fields"], cwd, env).stdout
    assert "# フィールドリファレンス" in printed and "| `enemies[].hp` |" in printed
    built = _run([saikoro_bin, "docs", "--build", str(cwd / "docs")], cwd, env)
    assert "warning" not in built.stderr.lower(), built.stderr
    fields = (cwd / "docs" / "authoring" / "fields" / "index.html").read_text("utf-8")
    fields = fields.replace("<wbr>", "").replace("既定値：", "既定値: ")  # typography
    assert "フィールドリファレンス" in fields and "enemies[].immune" in fields and "脱力" in fields
    assert "既定値: False" not in fields and "既定値: false" in fields
    guide = (cwd / "docs" / "authoring" / "index.html").read_text("utf-8")
    assert "シナリオを書く" in guide and 'href="fields/"' in guide
    assert (cwd / "docs" / "schema" / "scenario.schema.json").is_file()
    assert "fonts.googleapis" not in guide
    book = tmp_path / "book"
    new = _run([saikoro_bin, "new", str(book), "--system", "kegare"], cwd, env)
    assert "saikoro docs" in new.stdout
    assert "saikoro docs" in (book / "docs" / "index.md").read_text("utf-8")


def test_rooms_from_the_installed_package(venv: Path, tmp_path: Path) -> None:
    """``saikoro room`` from the wheel alone: its maps are package data, no browser needed."""
    env = _clean_env(venv, tmp_path / "home")
    saikoro_bin = str(venv / "bin" / "saikoro")
    scenario = REPO / "scenarios" / "getb-haito.yaml"
    args = [saikoro_bin, "room", str(scenario), "--to", "udonarium", "--to", "ccfolia"]
    _run([*args, "-o", str(tmp_path / "rooms")], tmp_path, env)
    for name in ("getb-haito.udonarium.zip", "getb-haito.ccfolia.zip"):
        archive = zipfile.ZipFile(tmp_path / "rooms" / name)
        assert sum(n.endswith(".png") for n in archive.namelist()) >= 2  # the map, a token
