"""The real ユドナリウム, built once from its public source and served for the tests.

The source (MIT, v1.17.3) is in ``../shared/peer-apps/udonarium/`` (read-only). It is
copied into a cache folder outside the checkout (``$SAIKORO_TEST_CACHE``, else
``$XDG_CACHE_HOME/saikoro-test``, else ``~/.cache/saikoro-test``), built there with
``npm ci`` and ``ng build --configuration development`` (the production build inlines
Google Fonts and fails offline; about 2.5 minutes), and only the built app is kept,
named by the version and a digest of the source: a later session (or a later ``make
test`` on a clean clone) reuses it at once. A file lock makes concurrent test workers
wait for one build instead of running two.

:class:`Udonarium` drives the app in a Playwright page: it drops a zip on the page as a
user drops a file (a ``drop`` event carrying the file, which Udonarium's
``FileArchiver`` handles), and reads back the objects through Udonarium's own classes
(``ObjectStore``, ``GameCharacter``, ``TextNote``, ``GameTable``, ``Terrain``,
``ImageStorage``), found in the page's webpack modules.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: shared_data
from shared_data import SHARED, require, unavailable

SOURCE = SHARED / "peer-apps" / "udonarium"
BUILD_TIMEOUT = 1800
"""Seconds ``npm ci`` and ``ng build`` may take each (a loaded machine is slow)."""


def cache_root() -> Path:
    """Where built apps are kept (outside the checkout)."""
    explicit = os.environ.get("SAIKORO_TEST_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "saikoro-test"


def source_digest(source: Path) -> str:
    """SHA-256 of the source tree (paths and bytes): a changed source is built again."""
    digest = hashlib.sha256()
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        digest.update(path.relative_to(source).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _run(command: list[str], cwd: Path, log: Path) -> None:
    env = {**os.environ, "NG_CLI_ANALYTICS": "false", "CI": "true"}
    with log.open("ab") as out:
        out.write(f"$ {' '.join(command)}\n".encode())
        out.flush()
        done = subprocess.run(
            command,
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            timeout=BUILD_TIMEOUT,
            check=False,
        )
    if done.returncode != 0:
        tail = log.read_text("utf-8", errors="replace")[-3000:]
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{tail}")


def built_app() -> Path:
    """The folder of the built Udonarium (``index.html`` and its scripts), built if needed."""
    source = require(SOURCE, "Udonarium's source")
    npm = shutil.which("npm")
    if npm is None:
        unavailable("npm is needed to build Udonarium")
        raise AssertionError  # unreachable: unavailable() skips or fails
    version = json.loads((source / "package.json").read_text("utf-8"))["version"]
    root = cache_root()
    folder = root / f"udonarium-{version}-{source_digest(source)[:16]}"
    app = folder / "dist" / "udonarium"
    stamp = folder / "built"
    if stamp.is_file() and (app / "index.html").is_file():
        return app
    root.mkdir(parents=True, exist_ok=True)
    with (root / f"udonarium-{version}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be building it
        if stamp.is_file() and (app / "index.html").is_file():
            return app
        work = root / f"udonarium-{version}.building"
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(source, work, ignore=shutil.ignore_patterns("node_modules", "dist"))
        log = root / f"udonarium-{version}.log"
        log.write_text("", encoding="utf-8")
        _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], work, log)
        ng = work / "node_modules" / ".bin" / "ng"
        _run([str(ng), "build", "--configuration", "development"], work, log)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        shutil.move(str(work / "dist"), str(folder / "dist"))
        shutil.rmtree(work, ignore_errors=True)  # node_modules: 400 MB not needed again
        stamp.write_text(version, encoding="utf-8")
    return app


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class declares it a plain dict
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet."""


@contextlib.contextmanager
def serve_app(app: Path) -> Iterator[str]:
    """Serve ``app`` at the root of 127.0.0.1 (its ``<base href="/">``); yield the URL."""
    handler = functools.partial(_Quiet, directory=str(app))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


# Udonarium's classes, found among the page's webpack modules by the names they export.
_FIND = """
() => {
  if (window.__saikoro) return true;
  let req = null;
  self.webpackChunkudonarium.push([[Symbol('saikoro')], {}, (r) => { req = r; }]);
  const found = {};
  const names = ['ObjectStore', 'GameCharacter', 'TextNote', 'GameTable', 'Terrain',
                 'ImageStorage', 'DataSummarySetting', 'ChatTabList', 'EventSystem',
                 'DiceBot', 'StringUtil'];
  for (const id of Object.keys(req.m)) {
    const source = req.m[id].toString();
    for (const name of names) {
      if (!found[name] && source.includes(' ' + name + ': () =>')) {
        const exported = req(id)[name];
        if (exported) found[name] = exported;
      }
    }
  }
  // core/system exports the EventSystem instance, event-system.ts its class
  if (found.EventSystem && !found.EventSystem.register) {
    found.EventSystem = found.EventSystem.instance;
  }
  window.__saikoro = found;
  window.__saikoroLoaded = [];
  found.EventSystem.register(window.__saikoroLoaded).on('FILE_LOADED', (event) => {
    window.__saikoroLoaded.push(event.data.file.name);
  });
  return names.every((n) => found[n]);
}
"""

_DROP = """
async ([b64, name]) => {
  window.__saikoroLoaded.length = 0;
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const file = new File([bytes], name, { type: 'application/zip' });
  const transfer = new DataTransfer();
  transfer.items.add(file);
  const event = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
  document.body.dispatchEvent(event);
}
"""

_READ = """
() => {
  const U = window.__saikoro;
  const store = U.ObjectStore.instance;
  const data = (element) => element ? {
    name: element.getAttribute('name'),
    type: element.getAttribute('type'),
    value: String(element.value),
    currentValue: element.currentValue === undefined ? null : String(element.currentValue),
    children: element.children.map(data),
  } : null;
  const image = (id) => {
    const file = U.ImageStorage.instance.get(id);
    if (!file) return null;
    const type = file.blob ? file.blob.type : null;
    return { identifier: file.identifier, state: file.state, type };
  };
  return {
    characters: store.getObjects(U.GameCharacter).map((c) => ({
      name: c.name,
      location: c.location.name,
      x: c.location.x,
      y: c.location.y,
      image: image(c.imageDataElement.getFirstElementByName('imageIdentifier').value),
      dicebot: c.chatPalette ? c.chatPalette.dicebot : null,
      palette: c.chatPalette ? c.chatPalette.getPalette() : null,
      lines: c.chatPalette
        ? c.chatPalette.paletteLines.map((l) => c.chatPalette.evaluate(l, c.rootDataElement))
        : [],
      variables: c.chatPalette ? c.chatPalette.paletteVariables.length : 0,
      detail: data(c.detailDataElement),
    })),
    notes: store.getObjects(U.TextNote).map((n) => ({
      title: n.title, text: n.text, x: n.location.x, y: n.location.y,
      width: n.width, height: n.height, location: n.location.name,
    })),
    tables: store.getObjects(U.GameTable).map((t) => ({
      name: t.name, width: t.width, height: t.height, selected: t.selected,
      terrains: t.terrains.map((r) => ({
        name: r.name, width: r.width, depth: r.depth, height: r.height, mode: r.mode,
        locked: r.isLocked, x: r.location.x, y: r.location.y,
        floor: image(r.imageDataElement.getFirstElementByName('floor').value),
      })),
    })),
    summary: U.DataSummarySetting.instance.dataTag,
    loaded: window.__saikoroLoaded.slice(),
    chatTabs: U.ChatTabList.instance.chatTabs.map((t) => t.name),
  };
}
"""


class Udonarium:
    """A page running Udonarium (see the module docstring)."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.goto(url)
        page.wait_for_function("() => !!document.querySelector('game-table')", timeout=120_000)
        page.wait_for_function(_FIND, timeout=60_000)

    def screenshot(self, path: Path, *, zoom_out: float = 350) -> None:
        """A screenshot of the table as a GM sees it: the start-up windows (connection,
        chat, the network error of an offline app) closed, the camera moved back
        ``zoom_out`` px (the app's own view transform, dev build's ``ng`` helper)."""
        self.page.evaluate(
            """(back) => {
              for (const b of document.querySelectorAll('ui-panel button')) {
                if (b.textContent.trim() === 'close') b.click();
              }
              // the offline app's network error: closing it only retries, so hide it
              if (!document.getElementById('saikoro-hide-modal')) {
                const style = document.createElement('style');
                style.id = 'saikoro-hide-modal';
                style.textContent = 'modal { display: none !important; }';
                document.head.appendChild(style);
              }
              const table = ng.getComponent(document.querySelector('game-table'));
              if (!window.__saikoroZoomed) {
                table.setTransform(120, -120, -back, 0, 0, 0);
                window.__saikoroZoomed = true;
              }
            }""",
            zoom_out,
        )
        time.sleep(0.5)
        self.page.screenshot(path=str(path))

    def drop(self, data: bytes, name: str = "room.zip") -> None:
        """Drop a zip on the page, as a user drops the file."""
        self.page.evaluate(_DROP, [base64.b64encode(data).decode("ascii"), name])

    def roll(self, lines: list[tuple[str, str]]) -> list[str]:
        """Each (game system, chat text) as Udonarium rolls a chat message: the text made
        half-width (``StringUtil.toHalfWidth``) and sent to its own BCDice
        (``DiceBot.diceRollAsync``); the result text, ``""`` when it rolled nothing."""
        result: list[str] = self.page.evaluate(
            """async (lines) => {
              const U = window.__saikoro;
              const out = [];
              for (const [bot, text] of lines) {
                const message = U.StringUtil.toHalfWidth(text).trim();
                out.push((await U.DiceBot.diceRollAsync(message, bot)).result);
              }
              return out;
            }""",
            [list(line) for line in lines],
        )
        return result

    def read(self) -> dict[str, Any]:
        """Every character, note and table as Udonarium's objects hold them."""
        result: dict[str, Any] = self.page.evaluate(_READ)
        return result

    def load(self, data: bytes, *, characters: int, notes: int) -> dict[str, Any]:
        """Drop ``data`` and wait until its characters, notes and images are loaded."""
        self.drop(data)
        deadline = time.monotonic() + 120
        while True:
            state = self.read()
            images = [c["image"] for c in state["characters"]] + [
                r["floor"] for t in state["tables"] for r in t["terrains"]
            ]
            done = (
                "room.zip" in state["loaded"]  # FileArchiver handled every entry
                and len(state["characters"]) == characters
                and len(state["notes"]) == notes
                and all(i is not None and i["state"] == 2 for i in images)
            )
            if done:
                return state
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"Udonarium did not load the room: {len(state['characters'])} characters "
                    f"of {characters}, {len(state['notes'])} notes of {notes}, images {images}"
                )
            time.sleep(0.2)
