"""``mkdocs serve`` behaviour through the plugin's rebuild path (in-process, no server).

MkDocs keeps a plugin instance that defines ``on_startup`` across serve rebuilds; these
tests do what ``mkdocs serve`` does: ``on_startup(command="serve")``, then ``build``
with a freshly loaded config for each rebuild.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort, PluginError
from mkdocs.structure.files import Files

from saikoro.site import SaikoroPlugin
from test_site_support import TWO_D6

GOOD = TWO_D6
BROKEN = TWO_D6.replace("target: 12", "target: twelve")


def _site(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "scenarios").mkdir()
    (root / "docs" / "index.md").write_text("# home\n", "utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: s\ntheme:\n  name: material\nplugins:\n"
        "  - saikoro:\n      roller:\n        enabled: false\n",
        "utf-8",
    )
    (root / "scenarios" / "twod6.yaml").write_text(GOOD, "utf-8")
    (root / "scenarios" / "other.yaml").write_text(GOOD.replace("id: twod6", "id: other"), "utf-8")
    return root


def _config(root: Path) -> Any:
    return load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(root / "site"))


def _plugin(config: Any) -> SaikoroPlugin:
    plugin = config.plugins["saikoro"]
    assert isinstance(plugin, SaikoroPlugin)
    return plugin


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[Path]:
    root = _site(tmp_path / "s")
    config = _config(root)
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    yield root
    _config(root).plugins.on_startup(command="build", dirty=False)


def test_broken_edit_renders_error_page_and_fix_recovers(serving: Path) -> None:
    root = serving
    page = root / "site" / "scenarios" / "twod6" / "index.html"
    assert "山道表" in page.read_text("utf-8")
    (root / "scenarios" / "twod6.yaml").write_text(BROKEN, "utf-8")
    config = _config(root)
    plugin = _plugin(config)
    assert plugin.is_serve
    build(config)  # no exception under serve
    text = page.read_text("utf-8").replace("<wbr>", "")  # phrase breaks
    assert "このシナリオには誤りがあります" in text
    assert "twod6.yaml:" in text and "difficulty_targets[0].target" in text
    assert (root / "site" / "scenarios" / "other" / "index.html").is_file()
    (root / "scenarios" / "twod6.yaml").write_text(GOOD, "utf-8")
    build(_config(root))
    assert "山道表" in page.read_text("utf-8")
    assert "誤りがあります" not in page.read_text("utf-8")


def test_rebuild_after_one_edit_rerenders_only_that_scenario(serving: Path) -> None:
    root = serving
    config = _config(root)
    plugin = _plugin(config)
    before = plugin.book.rendered
    computed = plugin.book.odds.computed
    (root / "scenarios" / "twod6.yaml").write_text(
        GOOD.replace("二つのダイスの表", "二つのダイスの表（改）"), "utf-8"
    )
    start = time.perf_counter()
    build(config)
    elapsed = time.perf_counter() - start
    assert plugin.book.rendered == before + 1
    assert plugin.book.odds.computed == computed  # every odds came from the cache
    assert "（改）" in (root / "site" / "scenarios" / "twod6" / "index.html").read_text("utf-8")
    assert elapsed < 30


def test_build_raises_naming_file_and_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = _site(tmp_path / "b")
    (root / "scenarios" / "twod6.yaml").write_text(BROKEN, "utf-8")
    config = _config(root)
    config.plugins.on_startup(command="build", dirty=False)
    with pytest.raises(Abort):  # MkDocs turns the plugin's PluginError into Abort
        build(config)
    assert re.search(
        r"twod6\.yaml:8:13: error: scenario\.difficulty_targets\[0\]\.target", caplog.text
    )
    plugin = _plugin(config)
    with pytest.raises(PluginError, match=r"twod6\.yaml:8:13"):
        plugin.on_files(Files([]), config=config)


def test_on_serve_watches_the_scenario_folder(serving: Path) -> None:
    import threading

    import watchdog.events

    watched: list[str] = []
    handlers: list[watchdog.events.FileSystemEventHandler] = []

    class Observer:
        def schedule(
            self, handler: watchdog.events.FileSystemEventHandler, path: str, recursive: bool
        ) -> None:
            assert recursive and path == watched[0]
            handlers.append(handler)

    class Server:
        _rebuild_cond = threading.Condition()
        _want_rebuild = False
        observer = Observer()

        def watch(self, path: str) -> None:
            watched.append(path)

    config = _config(serving)
    plugin = _plugin(config)
    plugin.on_config(config)
    server = Server()
    plugin.on_serve(server, config=config, builder=None)  # type: ignore[arg-type]
    assert watched == [str((serving / "scenarios").resolve())]
    # the watcher's misreading (a restored file reported as the folder it replaced)
    # asks for a rebuild; a real folder event does not (issue 22, item 9)
    (handler,) = handlers
    handler.dispatch(watchdog.events.DirModifiedEvent(str(serving / "scenarios")))
    assert not server._want_rebuild
    restored = next((serving / "scenarios").glob("*.yaml"))
    handler.dispatch(watchdog.events.DirModifiedEvent(str(restored)))
    assert server._want_rebuild


# -- a real `mkdocs serve --dirty`: every change is served within 5 s ----------------------

KEGARE = """\
system: kegare
id: ID
title: TITLE
enemies:
  - id: oni
    name: 鬼
    hp: 60
    attack: 2
    defence: 1
    initiative: 3
"""
SERVE_DEADLINE = 5.0


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - localhost
            return int(response.status), response.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, ""


def _wait(url: str, ok: Any, deadline: float) -> tuple[float, int, str]:
    start = time.perf_counter()
    status, text = 0, ""
    while time.perf_counter() - start < deadline:
        status, text = _get(url)
        if ok(status, text):
            return time.perf_counter() - start, status, text
        time.sleep(0.05)
    raise AssertionError(f"{url}: not served within {deadline} s (last status {status})")


@pytest.fixture
def dirty_server(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    import subprocess
    import sys

    from test_site_support import env

    root = tmp_path / "d"
    (root / "docs").mkdir(parents=True)
    (root / "scenarios").mkdir()
    (root / "docs" / "index.md").write_text("# home\n", "utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: s\ntheme:\n  name: material\n  font: false\nplugins:\n"
        "  - saikoro:\n      roller:\n        enabled: false\n",
        "utf-8",
    )
    for sid in ("alpha", "beta", "gamma"):
        text = KEGARE.replace("ID", sid).replace("TITLE", f"{sid} 題")
        (root / "scenarios" / f"{sid}.yaml").write_text(text, "utf-8")
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dirty", "-a", f"127.0.0.1:{port}"],
        cwd=root,
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        _wait(base + "scenarios/alpha/", lambda s, _: s == 200, 120)
        yield root, base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            process.kill()
            process.wait()
        assert process.stderr is not None
        log = process.stderr.read()
        assert "Traceback" not in log, log[-4000:]


@pytest.mark.slow
def test_dirty_serve_shows_edits_deletions_renames_and_id_changes(
    dirty_server: tuple[Path, str],
) -> None:
    root, base = dirty_server
    folder = root / "scenarios"
    alpha = base + "scenarios/alpha/"
    assert re.search(r"<dd>60</dd>", _get(alpha)[1])
    time.sleep(1.1)  # a later mtime than the first build's output, on coarse file systems

    # an edit that changes only the stat block (the page's HTML, not its Markdown)
    (folder / "alpha.yaml").write_text(
        (folder / "alpha.yaml").read_text("utf-8").replace("hp: 60", "hp: 61"), "utf-8"
    )
    _wait(alpha, lambda s, t: s == 200 and "<dd>61</dd>" in t, SERVE_DEADLINE)

    # a deleted scenario is gone, and so is its export folder
    (folder / "beta.yaml").unlink()
    _wait(base + "scenarios/beta/", lambda s, _: s == 404, SERVE_DEADLINE)
    assert _get(base + "scenarios/beta/oni.zip")[0] == 404
    _wait(base + "scenarios/", lambda s, t: s == 200 and "beta/" not in t, SERVE_DEADLINE)

    # a renamed file whose id comes from its name
    text = (folder / "gamma.yaml").read_text("utf-8").replace("id: gamma\n", "")
    (folder / "gamma.yaml").unlink()
    (folder / "delta.yaml").write_text(text, "utf-8")
    _wait(base + "scenarios/delta/", lambda s, t: s == 200 and "<dd>60</dd>" in t, SERVE_DEADLINE)
    _wait(base + "scenarios/gamma/", lambda s, _: s == 404, SERVE_DEADLINE)

    # an id change in place
    (folder / "alpha.yaml").write_text(
        (folder / "alpha.yaml").read_text("utf-8").replace("id: alpha", "id: omega"), "utf-8"
    )
    _wait(base + "scenarios/omega/", lambda s, t: s == 200 and "<dd>61</dd>" in t, SERVE_DEADLINE)
    _wait(alpha, lambda s, _: s == 404, SERVE_DEADLINE)


@pytest.mark.slow
def test_dirty_serve_recovers_a_file_replaced_by_a_folder(
    dirty_server: tuple[Path, str],
) -> None:
    # issue 22: a scenario file replaced by a directory, then restored, stayed 404 for 20 s
    root, base = dirty_server
    path = root / "scenarios" / "alpha.yaml"
    alpha = base + "scenarios/alpha/"
    text = path.read_text("utf-8")
    time.sleep(1.1)
    for inside in ("", "inner.yaml"):
        path.unlink()
        path.mkdir()
        if inside:  # a folder of that name holding a scenario of its own
            (path / inside).write_text(text.replace("id: alpha", "id: inner"), "utf-8")
            _wait(base + "scenarios/inner/", lambda s, _: s == 200, SERVE_DEADLINE)
        _wait(alpha, lambda s, _: s == 404, SERVE_DEADLINE)
        for child in path.iterdir():
            child.unlink()
        path.rmdir()
        path.write_text(text, "utf-8")
        _wait(alpha, lambda s, t: s == 200 and "<dd>60</dd>" in t, SERVE_DEADLINE)
