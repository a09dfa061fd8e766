"""A small MkDocs site with roller widgets, and a local HTTP server for it.

Used by the browser tests and ``bench/bench_browser.py``. The site is a plain
mkdocs-material site (with ``navigation.instant``) whose pages hold the markup of
:func:`saikoro.site._roller.widget` / :func:`~saikoro.site._roller.free_widget`; a tiny
MkDocs hook adds the roller's CSS/JS and calls
:func:`~saikoro.site._roller.install_assets` after the build, as the plugin does.
"""

from __future__ import annotations

import contextlib
import functools
import gzip as gzip_module
import http.server
import io
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from saikoro.site._roller import free_widget, widget

__all__ = [
    "KOKURYOKU_D6",
    "PREFIX",
    "XSS",
    "Network",
    "Session",
    "build_author_site",
    "build_site",
    "serve",
]

PREFIX = "/sub/path/"
"""The sub-path the site is served under."""

XSS = '<img src=x onerror="window.__saikoroXSS=1">'
"""Markup a scenario author might put in text; it must never run."""

BREAKOUT = "</title></script></textarea>" + XSS
"""Markup that also tries to leave raw-text elements (``<title>``, ``<script>``) first."""

_HOOK = """
import os

from saikoro.site._roller import EXTRA_CSS, EXTRA_JS, RollerSettings, install_assets


def on_config(config):
    config.extra_css.extend(EXTRA_CSS)
    config.extra_javascript.extend(EXTRA_JS)
    return config


def on_post_build(config):
    install_assets(
        config.site_dir,
        RollerSettings(
            policy=os.environ.get("SAIKORO_TEST_POLICY", "visible"),
            config_dir=os.path.dirname(config.config_file_path),
        ),
    )
"""

_CONFIG = """site_name: saikoro roller test
site_url: {site_url}
theme:
  name: material
  language: ja
  font: false
  features:
    - navigation.instant
  palette:
    - scheme: default
      toggle: {icon: material/brightness-7, name: dark}
    - scheme: slate
      toggle: {icon: material/brightness-4, name: light}
hooks:
  - hooks.py
nav:
  - index.md
  - scenario.md
  - rules.md
  - bench.md
"""


def _pages() -> dict[str, str]:
    escaped = XSS.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return {
        "index.md": (
            "# ホーム\n\nローラーのないページ。\n\n"
            "- [シナリオ](scenario.md)\n- [ルール](rules.md)\n"
        ),
        "scenario.md": (
            "# シナリオ\n\n"
            f'<p class="scenario-text">{escaped}</p>\n\n'
            f"{widget('2D6>=7', label='判定 2D6>=7')}\n\n"
            f"{widget('1D100<=50')}\n\n"
            f"{widget(XSS, label=XSS)}\n\n"
            f"{free_widget()}\n\n"
            "[ルールへ](rules.md)\n"
        ),
        "rules.md": (
            "# ルール\n\n"
            f"{widget('3D6')}\n\n"
            f"{free_widget(system='getb')}\n\n"
            "[シナリオへ](scenario.md)\n"
        ),
        "bench.md": (
            "# ベンチ\n\n"
            + "\n\n".join(f"段落 {i}。" * 20 for i in range(40))
            + f"\n\n{widget('2D6>=7')}\n"
        ),
    }


_AUTHOR_CONFIG = """site_name: saikoro author test
site_url: {site_url}
theme:
  name: material
  language: ja
  font: false
  features:
    - navigation.instant
  palette:  # light or dark as the reader's device prefers
    - media: "(prefers-color-scheme: light)"
      scheme: default
      toggle: {icon: material/brightness-7, name: dark}
    - media: "(prefers-color-scheme: dark)"
      scheme: slate
      toggle: {icon: material/brightness-4, name: light}
plugins:
  - search
  - saikoro
"""

_AUTHOR_INDEX = """# ホーム

ローラーのないページ。

- [ルール](rules.md)
- [シナリオ集](scenarios/index.md)
"""

_AUTHOR_RULES = """---
system: getb
---
# ルール

```dice
2D6>=7
```

[シナリオへ](../scenarios/getb-test/)
"""


def _scenario() -> str:
    text = json.dumps(BREAKOUT, ensure_ascii=False)
    link = json.dumps(f"{BREAKOUT} [x](javascript:window.__saikoroXSS=2)", ensure_ascii=False)
    return f"""system: getb
title: {text}
summary: {link}
players: 3-5
difficulty_targets:
  - name: {text}
    check: agility
    target: 8
enemies:
  - id: ogretail
    name: {text}
    abilities: {{strength: 4, agility: 3, intellect: 1, endurance: 4}}
    hp: 40
    ap: 6
    st: 3
    placement: out3
    attacks:
      - name: {text}
        weapon: long-blade
        element: physical
        power: 5
        range: 0-1
    guard: {{shield: buckler, armor: 2}}
missions:
  main:
    success: {text}
    failure: {text}
  side:
    - success: {text}
      reward: {text}
chase_tables:
  - name: {text}
    die: 1D10
    entries:
      1: {{title: {text}, effect: {link}}}
      2-10: {{title: {text}}}
party:
  - name: {text}
    abilities: {{strength: 5, agility: 6, intellect: 3, endurance: 5}}
    hp: 55
    ap: 7
    st: 3
    op: 3
    weapon: long-blade
    power: 4
    shield: shield
    armor: 3
  - name: 遊撃手
    abilities: {{strength: 3, agility: 2, intellect: 5, endurance: 3}}
    hp: 45
    ap: 8
    st: 4
    op: 4
    weapon: short-blade
    power: 3
    shield: buckler
    armor: 1
"""


KOKURYOKU_D6 = """system: kokuryoku
id: kokuryoku-d6
title: 六面ダイスの国
players: 3
difficulty_targets:
  - name: 砦を築く
    target: 7
    gain: 4
rulings:
  die: 6
"""
"""A scenario whose ruling option makes its checks roll one six-sided die (not 1D10)."""


def build_author_site(workdir: Path, site_url: str) -> Path:
    """An author's site using only ``plugins: [saikoro]``, built into ``workdir/site``.

    Pages: a home page without rollers, a rules page (front matter ``system: getb``, a
    ``dice`` fence, so a roll button and the free-form roller) and the generated pages of
    one GETB scenario whose every text field holds :data:`BREAKOUT` (a party of two PCs,
    agility 6 and 2, the first named so too) and one kokuryoku scenario with a ruling
    option (:data:`KOKURYOKU_D6`).
    """
    docs = workdir / "docs"
    (workdir / "scenarios").mkdir(parents=True, exist_ok=True)
    docs.mkdir(parents=True, exist_ok=True)
    (workdir / "mkdocs.yml").write_text(
        _AUTHOR_CONFIG.replace("{site_url}", site_url), encoding="utf-8"
    )
    (docs / "index.md").write_text(_AUTHOR_INDEX, encoding="utf-8")
    (docs / "rules.md").write_text(_AUTHOR_RULES, encoding="utf-8")
    (workdir / "scenarios" / "getb-test.yaml").write_text(_scenario(), encoding="utf-8")
    (workdir / "scenarios" / "kokuryoku-d6.yaml").write_text(KOKURYOKU_D6, encoding="utf-8")
    return _mkdocs(workdir, "visible")


def _mkdocs(workdir: Path, policy: str) -> Path:
    site = workdir / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", SAIKORO_TEST_POLICY=policy)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "-f",
            str(workdir / "mkdocs.yml"),
            "-d",
            str(site),
        ],
        check=True,
        env=env,
        cwd=workdir,
    )
    return site


def build_site(workdir: Path, site_url: str, *, policy: str = "visible") -> Path:
    """Write the test site's sources into ``workdir`` and build it into ``workdir/site``.

    ``site_url`` must be the URL the site is served at: mkdocs-material's instant
    navigation only follows links whose origin matches the sitemap's.
    """
    docs = workdir / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    (workdir / "mkdocs.yml").write_text(_CONFIG.replace("{site_url}", site_url), encoding="utf-8")
    (workdir / "hooks.py").write_text(_HOOK, encoding="utf-8")
    for name, text in _pages().items():
        (docs / name).write_text(text, encoding="utf-8")
    return _mkdocs(workdir, policy)


class Session:
    """A Playwright page and every request and page error it saw."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("pageerror", lambda error: self.errors.append(str(error)))


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class declares it a plain dict
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
        ".zip": "application/zip",
    }
    network: Network | None = None

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet."""

    def send_head(self) -> Any:
        network = self.network
        if network is None:
            return super().send_head()
        return network.send(self)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that goes away mid-transfer (a closed page, a stopped download) is
        normal here; anything else is reported as usual."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class Network:
    """What a served site's network does: gzip like a web host, a log of the bytes sent, an
    optional slow link (a shared bandwidth and a delay per request), and a switch that
    takes the site off the network (every request refused, as with no connection).

    Throttling here, in the server, covers every request a page causes (its module
    worker's Pyodide files and its service worker's fetches included), which throttling
    one page's DevTools session does not.
    """

    _COMPRESSED = (".zip", ".gz", ".png", ".jpg", ".woff2", ".woff")

    def __init__(self, *, gzip: bool = True) -> None:
        self.gzip = gzip
        self.log: list[tuple[str, int]] = []
        self.rate: float | None = None
        """Bytes per second shared by all requests; ``None``: as fast as the machine."""
        self.latency = 0.0
        """Seconds added before each response (round trip)."""
        self.down = False
        self.refused: list[str] = []
        """Paths requested while :attr:`down`."""
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, float], bytes] = {}
        self._next = 0.0

    def throttle(self, rate: float | None, latency: float = 0.0) -> None:
        self.rate, self.latency = rate, latency

    def sent(self, *, since: int = 0, skip: tuple[str, ...] = ()) -> int:
        """Bytes sent (headers and bodies) since log entry ``since``, without paths holding
        any of ``skip``."""
        return sum(n for path, n in self.log[since:] if not any(s in path for s in skip))

    def _body(self, path: Path) -> bytes:
        key = (str(path), path.stat().st_mtime)
        data = self._cache.get(key)
        if data is None:
            data = gzip_module.compress(path.read_bytes(), 6, mtime=0)
            self._cache[key] = data
        return data

    def _wait(self, size: int) -> None:
        if self.latency:
            time.sleep(self.latency)
        if not self.rate:
            return
        with self._lock:  # one shared link: transfers queue behind each other
            start = max(self._next, time.monotonic())
            self._next = start + size / self.rate
            delay = self._next - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    def send(self, handler: _Handler) -> Any:
        if self.down:  # the connection closes with no response: a network error
            self.refused.append(handler.path)
            handler.close_connection = True
            return None
        path = Path(handler.translate_path(handler.path))
        if path.is_dir():
            if not handler.path.split("?", 1)[0].endswith("/"):
                return http.server.SimpleHTTPRequestHandler.send_head(handler)
            path /= "index.html"
        if not path.is_file():
            handler.send_error(404, "File not found")
            self.log.append((handler.path, 200))
            return None
        compress = self.gzip and not path.name.endswith(self._COMPRESSED)
        accepts = "gzip" in (handler.headers.get("Accept-Encoding") or "")
        body = self._body(path) if compress and accepts else path.read_bytes()
        self._wait(len(body))
        handler.send_response(200)
        handler.send_header("Content-Type", handler.guess_type(str(path)))
        handler.send_header("Content-Length", str(len(body)))
        handler.send_header("Cache-Control", "max-age=600")  # as GitHub Pages sends
        if compress and accepts:
            handler.send_header("Content-Encoding", "gzip")
            handler.send_header("Vary", "Accept-Encoding")
        handler.end_headers()
        self.log.append((handler.path, len(body) + 200))  # ~200 bytes of headers
        return io.BytesIO(body)


@contextlib.contextmanager
def serve(
    site: Path, root: Path | None = None, network: Network | None = None, port: int = 0
) -> Iterator[str]:
    """Serve ``site`` under :data:`PREFIX` on 127.0.0.1; yield the site's base URL.

    ``site`` need not exist yet: build it inside the ``with`` block, once the URL is known.
    ``root`` is the served folder (default ``site``'s sibling ``served``); the site appears
    in it as a symbolic link at :data:`PREFIX`. ``network``: gzip, a byte log, throttling
    and an off switch (see :class:`Network`); without it files are sent as they are.
    ``port``: 0 for any free one.
    """
    root = root or site.parent / "served"
    (root / PREFIX.strip("/")).parent.mkdir(parents=True, exist_ok=True)
    link = root / PREFIX.strip("/")
    if not link.is_symlink():
        link.symlink_to(site.absolute(), target_is_directory=True)
    handler_class = type("Handler", (_Handler,), {"network": network})
    handler = functools.partial(handler_class, directory=str(root))
    server = _Server(("127.0.0.1", port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{PREFIX}"
    finally:
        server.shutdown()
        server.server_close()
