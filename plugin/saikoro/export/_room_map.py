"""The map of a room: a system's board drawn once, and where each cell is on it.

A system whose board is a map (GETB's dial clock, カットアクション's five rows) gives its
export module a ``room_map()`` returning a :class:`MapSpec` made by :func:`dial_map` or
:func:`rows_map`, and ``enemy_cell(enemy)`` / ``pc_cell(pc)`` naming a piece's starting
cell. The spec holds the drawing (SVG, in grid cells) and the cells' centres; the VTTs get
the drawing as a PNG (:attr:`MapSpec.png`): ココフォリア takes no SVG.

The PNGs are rendered from the SVGs once, by headless Chromium with Noto Sans CJK JP, and
shipped in ``export/maps/`` (so a room is built without a browser and its bytes never
change): each PNG carries the SHA-256 of the SVG it was drawn from, and a stale one is an
error naming the command that redraws it::

    python -m saikoro.export._room_map

>>> spec = dial_map("dial", "ダイアル", centre="中央", inner_ring="内", outer_ring="外")
>>> spec.width, spec.anchors["centre"], spec.anchors["in12"]
(14, (7.0, 7.0), (7.0, 4.25))
"""

from __future__ import annotations

import hashlib
import math
import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from xml.sax.saxutils import escape

from ._model import ExportError

__all__ = ["TOKENS", "MapSpec", "dial_map", "png_text", "rows_map", "token_png"]

PX_PER_CELL = 48
"""Resolution of the shipped PNGs."""
FONT = "'Noto Sans CJK JP', 'Noto Sans JP', sans-serif"
_KEY = "saikoro-svg-sha256"
"""The PNG text chunk holding the SHA-256 of the SVG the image was drawn from."""


@dataclass(frozen=True)
class MapSpec:
    """A board drawn as a map.

    Attributes:
        name: the asset's name (``export/maps/<name>.png``).
        title: what the map is called (the VTT's table name).
        width, height: its size in grid cells.
        anchors: cell name (as scenarios write it) -> its centre, in cells.
        svg: the drawing (``width`` x ``height`` user units: one per cell).
        crowd: offsets (cells) of the second, third... piece standing in one cell.
    """

    name: str
    title: str
    width: int
    height: int
    anchors: Mapping[str, tuple[float, float]]
    svg: str = field(repr=False)
    crowd: tuple[tuple[float, float], ...] = ((0.0, 0.0),)

    @property
    def svg_digest(self) -> str:
        """SHA-256 of :attr:`svg` (what the shipped PNG must have been drawn from)."""
        return hashlib.sha256(self.svg.encode("utf-8")).hexdigest()

    @property
    def png(self) -> bytes:
        """The shipped PNG (checked against the SVG: a stale one raises ExportError)."""
        return _png(self.name, self.svg_digest)


@cache
def _png(name: str, digest: str) -> bytes:
    data = resources.files("saikoro.export").joinpath("maps", f"{name}.png").read_bytes()
    if png_text(data).get(_KEY) != digest:
        raise ExportError(
            f"export/maps/{name}.png was not drawn from the current map; redraw it with "
            "python -m saikoro.export._room_map"
        )
    return data


# -- PNG chunks ---------------------------------------------------------------------------


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ExportError("not a PNG")
    out: list[tuple[bytes, bytes]] = []
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        out.append((kind, data[at + 8 : at + 8 + length]))
        at += 12 + length
    return out


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def png_text(data: bytes) -> dict[str, str]:
    """The ``tEXt`` chunks of a PNG (keyword -> text)."""
    out: dict[str, str] = {}
    for kind, body in _chunks(data):
        if kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            out[key.decode("latin-1")] = value.decode("latin-1")
    return out


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) in pixels of a PNG."""
    kind, body = _chunks(data)[0]
    if kind != b"IHDR":
        raise ExportError("PNG without IHDR")
    width, height = struct.unpack(">II", body[:8])
    return int(width), int(height)


def _stamped(data: bytes, digest: str) -> bytes:
    """``data`` with only its image chunks and a ``tEXt`` naming the SVG's digest."""
    keep = [(k, b) for k, b in _chunks(data) if k in {b"IHDR", b"PLTE", b"tRNS", b"IDAT"}]
    text = _KEY.encode("latin-1") + b"\0" + digest.encode("ascii")
    body = [_chunk(k, b) for k, b in keep[:1]]
    body.append(_chunk(b"tEXt", text))
    body.extend(_chunk(k, b) for k, b in keep[1:])
    return b"\x89PNG\r\n\x1a\n" + b"".join(body) + _chunk(b"IEND", b"")


# -- drawings -----------------------------------------------------------------------------


def _svg(width: int, height: int, body: Sequence[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width * PX_PER_CELL}" height="{height * PX_PER_CELL}" '
        f'font-family="{escape(FONT)}">' + "".join(body) + "</svg>"
    )


def _text(x: float, y: float, size: float, text: str, anchor: str = "middle", **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.3f}" y="{y:.3f}" font-size="{size}" text-anchor="{anchor}" '
        f'dominant-baseline="central" fill="#3b3a36"{extra}>{escape(text)}</text>'
    )


def _point(cx: float, cy: float, r: float, degrees: float) -> tuple[float, float]:
    """The point at ``r`` from the centre, ``degrees`` clockwise from 12 o'clock."""
    a = math.radians(degrees)
    return cx + r * math.sin(a), cy - r * math.cos(a)


def _sector(c: float, r0: float, r1: float, a0: float, a1: float) -> str:
    """The ring sector between radii ``r0``..``r1`` and angles ``a0``..``a1`` round (c, c)."""
    cx = cy = c
    x0, y0 = _point(cx, cy, r1, a0)
    x1, y1 = _point(cx, cy, r1, a1)
    x2, y2 = _point(cx, cy, r0, a1)
    x3, y3 = _point(cx, cy, r0, a0)
    return (
        f"M{x0:.4f} {y0:.4f}A{r1} {r1} 0 0 1 {x1:.4f} {y1:.4f}"
        f"L{x2:.4f} {y2:.4f}A{r0} {r0} 0 0 0 {x3:.4f} {y3:.4f}Z"
    )


@cache
def dial_map(name: str, title: str, *, centre: str, inner_ring: str, outer_ring: str) -> MapSpec:
    """A dial clock (GETB's map): the centre, 12 in-cells and 12 out-cells, 12 o'clock on
    top; ``centre``, ``inner_ring`` and ``outer_ring`` label the centre and the rings.

    Cells are named as scenarios write them (``centre``, ``in1``..``in12``,
    ``out1``..``out12``); each ring's number is written at the cell's inner edge, so a
    piece standing at the centre of the cell leaves it readable.
    """
    size = 14
    c = size / 2
    r0, r1, r2 = 1.5, 4.0, 6.5
    body = [f'<rect width="{size}" height="{size}" fill="#f3efe6"/>']
    anchors: dict[str, tuple[float, float]] = {"centre": (c, c)}
    for n in range(1, 13):
        a0, a1 = n * 30 - 15, n * 30 + 15
        for ring, inner, outer, fill in (("in", r0, r1, "#dde8f0"), ("out", r1, r2, "#e4eedc")):
            body.append(
                f'<path d="{_sector(c, inner, outer, a0, a1)}" fill="{fill}" '
                'stroke="#5b5a55" stroke-width="0.05"/>'
            )
            x, y = _point(c, c, (inner + outer) / 2, n * 30)
            anchors[f"{ring}{n}"] = (round(x, 4), round(y, 4))
            lx, ly = _point(c, c, inner + 0.38, n * 30)
            body.append(_text(lx, ly, 0.5, str(n), font_weight="bold"))
    body.append(
        f'<circle cx="{c}" cy="{c}" r="{r0}" fill="#ece6d8" stroke="#5b5a55" stroke-width="0.05"/>'
    )
    body.append(_text(c, c + 0.95, 0.4, centre))
    body.append(_text(0.25, size - 0.4, 0.42, f"内側の環: {inner_ring}", "start"))
    body.append(_text(size - 0.25, size - 0.4, 0.42, f"外側の環: {outer_ring}", "end"))
    crowd = ((0.0, 0.0), (0.42, 0.32), (-0.42, 0.32), (0.0, 0.62), (0.42, -0.3), (-0.42, -0.3))
    return MapSpec(name, title, size, size, anchors, _svg(size, size, body), crowd)


@cache
def rows_map(name: str, title: str, rows: tuple[tuple[str, str], ...]) -> MapSpec:
    """Rows stacked top to bottom (the first of ``rows`` on top), each two cells high.

    ``rows`` are (cell name as scenarios write it, label); pieces stand left to right in
    their row, after the label.
    """
    width, label_w, row_h = 16, 3.5, 2
    height = row_h * len(rows)
    fills = ("#f2dcd6", "#f6e8e2", "#efece4", "#e2eaf2", "#d5e2ee")
    body = [f'<rect width="{width}" height="{height}" fill="#f3efe6"/>']
    anchors: dict[str, tuple[float, float]] = {}
    for i, (key, label) in enumerate(rows):
        y = i * row_h
        fill = fills[round(i * (len(fills) - 1) / max(1, len(rows) - 1))]
        body.append(
            f'<rect x="0" y="{y}" width="{width}" height="{row_h}" fill="{fill}" '
            'stroke="#5b5a55" stroke-width="0.05"/>'
        )
        body.append(
            f'<line x1="{label_w}" y1="{y}" x2="{label_w}" y2="{y + row_h}" '
            'stroke="#5b5a55" stroke-width="0.03"/>'
        )
        body.append(_text(label_w / 2, y + row_h / 2, 0.6, label, font_weight="bold"))
        anchors[key] = (label_w + 1.0, y + row_h / 2)
    crowd = tuple((1.6 * i, 0.0) for i in range(7)) + tuple((1.6 * i + 0.8, 0.5) for i in range(7))
    return MapSpec(name, title, width, height, anchors, _svg(width, height, body), crowd)


# -- piece tokens -------------------------------------------------------------------------

TOKENS = {
    "enemy": ("敵", "#b8473a"),
    "pc": ("PC", "#3a6ab8"),
    "npc": ("NPC", "#4f8a4a"),
    "gm": ("表", "#6b6862"),
}
"""The piece image of each kind of piece: its mark and colour."""
TOKEN_PX = 96


def _token_svg(kind: str) -> str:
    mark, colour = TOKENS[kind]
    size = 0.42 if len(mark) == 1 else 0.3 if len(mark) == 2 else 0.22
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" width="{TOKEN_PX}" '
        f'height="{TOKEN_PX}" font-family="{escape(FONT)}">'
        f'<circle cx="0.5" cy="0.5" r="0.46" fill="{colour}" stroke="#ffffff" '
        'stroke-width="0.05"/>'
        + _text(0.5, 0.53, size, mark, fill="#ffffff", font_weight="bold").replace(
            'fill="#3b3a36"', ""
        )
        + "</svg>"
    )


def token_png(kind: str) -> bytes:
    """The shipped piece image of ``kind`` (``enemy``, ``pc``, ``npc``, ``gm``)."""
    svg = _token_svg(kind)
    return _png(f"token-{kind}", hashlib.sha256(svg.encode("utf-8")).hexdigest())


# -- drawing the PNGs (a development step; the PNGs are shipped) --------------------------


def _maps() -> list[MapSpec]:
    """Every built-in system's map."""
    from saikoro.systems import all_systems

    out: dict[str, MapSpec] = {}
    for system in all_systems():
        make = getattr(system.part("vtt", required=False), "room_map", None)
        if make is not None:
            spec = make()
            out[spec.name] = spec
    return [out[k] for k in sorted(out)]


def _drawings() -> list[tuple[str, str, int, int]]:
    """(name, SVG, width px, height px) of every shipped PNG."""
    out = [(s.name, s.svg, s.width * PX_PER_CELL, s.height * PX_PER_CELL) for s in _maps()]
    out += [(f"token-{k}", _token_svg(k), TOKEN_PX, TOKEN_PX) for k in TOKENS]
    return out


def render(drawings: Sequence[tuple[str, str, int, int]], folder: Path) -> list[Path]:
    """Draw each SVG to ``folder/<name>.png`` in headless Chromium (transparent outside
    the drawing)."""
    from playwright.sync_api import sync_playwright

    written: list[Path] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(device_scale_factor=1)
        for name, svg, w, h in drawings:
            page.set_viewport_size({"width": w, "height": h})
            page.set_content(
                f'<html><body style="margin:0;background:transparent">{svg}</body></html>',
                wait_until="load",
            )
            page.evaluate("document.fonts.ready")
            shot = page.screenshot(
                clip={"x": 0, "y": 0, "width": w, "height": h}, omit_background=True
            )
            digest = hashlib.sha256(svg.encode("utf-8")).hexdigest()
            path = folder / f"{name}.png"
            path.write_bytes(_stamped(shot, digest))
            written.append(path)
        browser.close()
    return written


def main() -> int:
    """Redraw the shipped map PNGs (``python -m saikoro.export._room_map``)."""
    folder = Path(__file__).with_name("maps")
    folder.mkdir(exist_ok=True)
    for path in render(_drawings(), folder):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
