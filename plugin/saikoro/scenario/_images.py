"""Images an author puts in a scenario book: what format a file is and how large.

Only the header is read (PNG, JPEG, GIF, WebP): the site gives every ``<img>`` its
``width`` and ``height`` (no page jump while it loads, and a phone scales it down with
``max-width``). Nothing is decoded, so a hostile file costs at most its reading.

>>> import struct, zlib
>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 640, 480)
>>> image_info(png + b"\\x08\\x02\\x00\\x00\\x00")
('png', 640, 480)
>>> image_info(b"GIF89a\\x10\\x00\\x20\\x00"), image_info(b"not an image")
(('gif', 16, 32), None)
"""

from __future__ import annotations

import struct

__all__ = ["IMAGE_SUFFIXES", "MAX_IMAGE_BYTES", "WARN_IMAGE_BYTES", "image_info"]

IMAGE_SUFFIXES: dict[str, str] = {
    ".png": "png",
    ".jpg": "jpeg",
    ".jpeg": "jpeg",
    ".gif": "gif",
    ".webp": "webp",
}
"""The file name endings an image may have, and the format each promises."""

MAX_IMAGE_BYTES = 10 * 1024 * 1024
"""Images larger than this (10 MiB) are refused: a phone would load it on every visit."""

WARN_IMAGE_BYTES = 2 * 1024 * 1024
"""Images larger than this (2 MiB) get a warning: slow on a phone's connection."""

_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""The JPEG markers that start a frame (and give its size): SOF0..SOF15 but DHT, JPG, DAC."""


def _jpeg(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill bytes
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if length < 2:
            return None
        if marker in _JPEG_SOF:
            if i + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return width, height
        i += 2 + length
    return None


def _webp(data: bytes) -> tuple[int, int] | None:
    kind = data[12:16]
    if kind == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return width, height
    if kind == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def image_info(data: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) of an image file's bytes, or ``None`` when they are not a
    PNG, JPEG, GIF or WebP image whose size can be read (or its size is 0)."""
    found: tuple[str, tuple[int, int] | None] | None = None
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        found = "png", struct.unpack(">II", data[16:24])
    elif data.startswith(b"\xff\xd8"):
        found = "jpeg", _jpeg(data)
    elif data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        found = "gif", struct.unpack("<HH", data[6:10])
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        found = "webp", _webp(data)
    if found is None or found[1] is None:
        return None
    kind, (width, height) = found[0], found[1]
    if width <= 0 or height <= 0:
        return None
    return kind, width, height
