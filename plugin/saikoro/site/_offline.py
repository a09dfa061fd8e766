"""The book at the table without a network: a service worker, its file list and a web app
manifest.

Built sites get (under ``mkdocs build``; never under ``mkdocs serve``, where a worker
serving kept pages would hide every live reload):

* ``saikoro-sw.js`` at the site root, so its scope is the whole site whatever sub-path the
  site is published under (a worker's scope is at most its own folder). It carries the
  build's version: a new build is a new worker and a new cache (see ``assets/sw.js``);
* ``assets/saikoro/offline.json``: every file of the site with a hash of its content
  (what the worker fetches to keep the whole site, and how a new version tells which
  kept files it can keep): ``{"version": ..., "files": {"systems/getb/": "3f2a...", ...}}``;
* ``assets/saikoro/manifest.webmanifest`` and two icons, linked from every page's
  ``<head>`` with a theme colour, so a phone can install the book as an app.

The version is a hash of the file list, which holds every file's content hash: any change
anywhere makes a new one; an unchanged build writes byte-identical files.

>>> sorted(offline_files({"index.html": b"a", "x/index.html": b"b", "a.js.map": b"c"}))
['', 'x/']
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from saikoro.scenario import replace_file

from ._lru import Lru
from ._safe import esc

__all__ = [
    "MANIFEST",
    "OFFLINE_LIST",
    "SERVICE_WORKER",
    "head_tags",
    "offline_files",
    "site_download_bytes",
    "web_manifest",
    "write_service_worker",
]

SERVICE_WORKER = "saikoro-sw.js"
"""The worker's file, at the site root."""

OFFLINE_LIST = "assets/saikoro/offline.json"
"""The list of the site's files the worker keeps, with their content hashes."""

MANIFEST = "assets/saikoro/manifest.webmanifest"
"""The web app manifest."""

ICONS = ("icon-192.png", "icon-512.png")
"""The app's icons (a die), in ``assets/saikoro/``."""

THEME_COLOR = "#4051b5"
"""mkdocs-material's default primary colour (indigo): the app's title bar."""

_SKIP_SUFFIXES = (".map", ".gz")
"""Files no reader's browser asks for: source maps, the gzipped sitemap."""

_ASSETS = Path(__file__).parent / "assets"
_CONFIG_MARK = "/*@saikoro-sw*/ "
_HASH = 16
"""Hex digits of a file's SHA-256 kept in the list (64 bits: enough to tell versions)."""

_digests: Lru[tuple[str, int, int], str] = Lru(8192)
"""Content hashes by (path, size, mtime): large files copied unchanged (MicroPython) are read
once per process (bounded: a long serve session edits files without end)."""


def _digest(path: Path) -> str:
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    found = _digests.get(key)
    if found is None:
        hasher = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                hasher.update(block)
        found = hasher.hexdigest()[:_HASH]
        _digests[key] = found
    return found


def _url(path: str) -> str:
    """The site-relative URL a reader requests for a file (``x/index.html`` -> ``x/``)."""
    if path == "index.html":
        return ""
    if path.endswith("/index.html"):
        return path[: -len("index.html")]
    return path


def offline_files(contents: Mapping[str, bytes]) -> dict[str, str]:
    """The offline list of files given by their contents: URL -> content hash.

    Skips what browsers never request (:data:`_SKIP_SUFFIXES`), the worker itself and the
    list. Used by :func:`write_service_worker` and the tests.
    """
    out = {}
    for path in sorted(contents):
        if _skipped(path):
            continue
        out[_url(path)] = hashlib.sha256(contents[path]).hexdigest()[:_HASH]
    return out


_ROOM = "/room."
"""A scenario's VTT rooms (``<scenario>/room.*.zip``): a GM downloads them at a computer;
a phone keeping the book offline would store each map three times over."""


def _skipped(path: str) -> bool:
    return (
        path in (SERVICE_WORKER, OFFLINE_LIST)
        or path.endswith(_SKIP_SUFFIXES)
        or (_ROOM in path and path.endswith(".zip"))
    )


def _site_files(site_dir: Path) -> dict[str, str]:
    out = {}
    for folder, dirs, names in os.walk(site_dir):
        dirs.sort()
        for name in sorted(names):
            path = Path(folder) / name
            rel = path.relative_to(site_dir).as_posix()
            if _skipped(rel) or not path.is_file():
                continue
            out[_url(rel)] = _digest(path)
    return dict(sorted(out.items()))


_sent: Lru[tuple[str, int, int], int] = Lru(8192)
"""Bytes a web host sends for a file (gzip where it helps), by (path, size, mtime)."""

_STORED = (".png", ".jpg", ".jpeg", ".webp", ".woff2", ".woff", ".gz", ".zip")


def _sent_bytes(path: Path) -> int:
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    found = _sent.get(key)
    if found is None:
        found = stat.st_size
        if not path.name.endswith(_STORED):
            found = min(found, len(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)))
        _sent[key] = found
    return found


def site_download_bytes(site_dir: str) -> int:
    """What keeping the whole site offline downloads: every listed file, gzipped as web
    hosts send it (the size 「オフライン用に保存（2.4 MB）」 shows)."""
    root = Path(site_dir)
    total = 0
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in names:
            path = Path(folder) / name
            if path.is_file() and not _skipped(path.relative_to(root).as_posix()):
                total += _sent_bytes(path)
    return total


def write_service_worker(site_dir: str, engine: Iterable[str]) -> str:
    """Write the offline list and the worker into the built site; return the version.

    Args:
        site_dir: the built site (complete: every other file written).
        engine: site-relative paths of the files the dice engine loads, as its worker
            requests them (``?v=`` included: the HTTP cache then answers them).
    """
    root = Path(site_dir)
    files = _site_files(root)
    text = json.dumps(files, sort_keys=True, separators=(",", ":"))
    version = hashlib.sha256(text.encode("utf-8")).hexdigest()[:_HASH]
    listing = json.dumps({"version": version, "files": files}, separators=(",", ":"))
    _write(root / OFFLINE_LIST, listing.encode("utf-8"))
    source = (_ASSETS / "sw.js").read_text(encoding="utf-8")
    mark = source.index(_CONFIG_MARK) + len(_CONFIG_MARK)
    end = source.index(";", mark)
    config = {"version": version, "manifest": OFFLINE_LIST, "engine": list(engine)}
    worker = source[:mark] + json.dumps(config, sort_keys=True) + source[end:]
    _write(root / SERVICE_WORKER, worker.encode("utf-8"))
    return version


def _write(path: Path, data: bytes) -> None:
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(
        path, data, sync=False
    )  # whole or not at all: a served site never shows half of it


def web_manifest(name: str, description: str = "", lang: str = "ja") -> str:
    """The web app manifest's text (paths relative to it: it lives in ``assets/saikoro/``).

    >>> data = json.loads(web_manifest("本", "説明"))
    >>> data["start_url"], data["scope"], data["display"], data["icons"][0]["sizes"]
    ('../../', '../../', 'standalone', '192x192')
    """
    data = {
        "name": name,
        "short_name": name if len(name) <= 12 else name[:12],
        "description": description,
        "lang": lang,
        "start_url": "../../",
        "scope": "../../",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": icon, "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any maskable"}
            for icon, size in zip(ICONS, (192, 512), strict=True)
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def files(config: MkDocsConfig, asset_dir: str) -> list[File]:
    """The manifest and icons as generated files (copied by MkDocs, served by ``serve``)."""
    out = [
        File.generated(
            config,
            MANIFEST,
            content=web_manifest(
                str(config.site_name or "saikoro"),
                str(config.site_description or ""),
                str(config.theme.get("language") or "ja"),
            ),
        )
    ]
    out.extend(
        File.generated(config, f"{asset_dir}/{icon}", abs_src_path=str(_ASSETS / icon))
        for icon in ICONS
    )
    return out


def head_tags(page_url: str) -> str:
    """The ``<head>`` tags of a page at ``page_url`` (site-relative) linking the manifest.

    >>> head_tags("systems/getb/")  # doctest: +NORMALIZE_WHITESPACE
    '<link rel="manifest" href="../../assets/saikoro/manifest.webmanifest"><meta
    name="theme-color" content="#4051b5"><link rel="apple-touch-icon"
    href="../../assets/saikoro/icon-192.png"><meta name="saikoro-offline" content="1">'
    """
    manifest = get_relative_url(MANIFEST, page_url or ".")
    icon = get_relative_url(f"{MANIFEST.rsplit('/', 1)[0]}/{ICONS[0]}", page_url or ".")
    return (
        f'<link rel="manifest" href="{esc(manifest)}">'
        f'<meta name="theme-color" content="{THEME_COLOR}">'
        f'<link rel="apple-touch-icon" href="{esc(icon)}">'
        # the service worker's sign that the server still serves an offline build
        '<meta name="saikoro-offline" content="1">'
    )
