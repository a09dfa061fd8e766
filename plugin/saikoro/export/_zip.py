"""Zips with the same bytes for the same content, holding only plain names at their root.

Every entry has the same fixed time (1980-01-01, the zip epoch), the same permissions
(``rw-r--r--``, made on Unix) and deflate; entries are sorted by name. Names are checked:
a VTT extracts what it is given, so a name that could leave the archive's root (``../``,
an absolute path, a drive, a backslash) or that no file system takes (a control
character, a reserved device name) is an error, never written.

>>> import io, zipfile
>>> data = deterministic_zip({"b.xml": b"2", "a.xml": b"1"})
>>> data == deterministic_zip({"a.xml": b"1", "b.xml": b"2"})
True
>>> zipfile.ZipFile(io.BytesIO(data)).namelist()
['a.xml', 'b.xml']
>>> deterministic_zip({"../x": b""})
Traceback (most recent call last):
...
saikoro.export._model.ExportError: zip entry '../x' is not a plain file name
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping

from ._model import ExportError

__all__ = ["EPOCH", "deterministic_zip", "safe_entry_name"]

EPOCH = (1980, 1, 1, 0, 0, 0)
"""The time every entry carries."""

_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")
_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?", re.IGNORECASE)


def safe_entry_name(name: str) -> bool:
    """Whether ``name`` is a plain file name every file system takes, at the root.

    >>> [safe_entry_name(n) for n in ("data.xml", ".token", "a/b", "..", "CON.png", "a\\x00")]
    [True, True, False, False, False, False]
    """
    if name in {".token"}:
        return True
    return bool(_PLAIN.fullmatch(name)) and not _RESERVED.fullmatch(name) and ".." not in name


def deterministic_zip(entries: Mapping[str, bytes]) -> bytes:
    """A zip of ``entries`` (name -> bytes), deflated, sorted, with fixed metadata.

    Raises:
        ExportError: a name is not a plain file name (see :func:`safe_entry_name`).
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(entries):
            if not safe_entry_name(name):
                raise ExportError(f"zip entry {name!r} is not a plain file name")
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, whatever the platform
            info.external_attr = 0o100644 << 16
            archive.writestr(info, entries[name], compresslevel=9)
    return buffer.getvalue()
