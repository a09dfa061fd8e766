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
import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from saikoro.site._roller import free_widget, widget

__all__ = [
    "KOKURYOKU_D6",
    "PREFIX",
    "XSS",
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
    one GETB scenario whose every text field holds :data:`BREAKOUT` and one kokuryoku
    scenario with a ruling option (:data:`KOKURYOKU_D6`).
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
        ".zip": "application/zip",
    }

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet."""


@contextlib.contextmanager
def serve(site: Path, root: Path | None = None) -> Iterator[str]:
    """Serve ``site`` under :data:`PREFIX` on 127.0.0.1; yield the site's base URL.

    ``site`` need not exist yet: build it inside the ``with`` block, once the URL is known.
    ``root`` is the served folder (default ``site``'s sibling ``served``); the site appears
    in it as a symbolic link at :data:`PREFIX`.
    """
    root = root or site.parent / "served"
    (root / PREFIX.strip("/")).parent.mkdir(parents=True, exist_ok=True)
    link = root / PREFIX.strip("/")
    if not link.is_symlink():
        link.symlink_to(site.absolute(), target_is_directory=True)
    handler = functools.partial(_Handler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{PREFIX}"
    finally:
        server.shutdown()
        server.server_close()
