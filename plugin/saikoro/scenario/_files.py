"""Writing an author's files without ever losing a byte.

Every file saikoro writes into a user's folder goes through :func:`replace_file`: the new
bytes are written to a temporary file in the same folder, flushed to disk, given the
original's permission bits, and renamed over the original in one step. A full disk, a
file-size limit, Ctrl-C or a crash leaves either the old file byte for byte or the new one,
never half of it, and no temporary file behind. A symlink is written through (its target
changes, the link stays), as editors do.

:func:`text_like` encodes new text the way an existing file was written: its line endings
(LF, CRLF or CR) and its UTF-8 byte-order mark, so an edit changes only what it edits.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> p = d / "a.yaml"
>>> _ = p.write_bytes(b"\\xef\\xbb\\xbfhp: 3\\r\\nap: 2\\r\\n")
>>> replace_file(p, text_like(p.read_bytes(), "hp: 4\\nap: 2\\n"))
>>> p.read_bytes()
b'\\xef\\xbb\\xbfhp: 4\\r\\nap: 2\\r\\n'
>>> sorted(x.name for x in d.iterdir())
['a.yaml']
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

__all__ = ["newline_of", "replace_file", "text_like"]

_BOM = b"\xef\xbb\xbf"


def newline_of(data: bytes) -> str:
    """The line ending ``data`` uses first (``"\\n"`` when it has none).

    >>> newline_of(b"a\\r\\nb"), newline_of(b"a\\rb"), newline_of(b"ab")
    ('\\r\\n', '\\r', '\\n')
    """
    for i, byte in enumerate(data):
        if byte == 0x0A:
            return "\n"
        if byte == 0x0D:
            return "\r\n" if data[i + 1 : i + 2] == b"\n" else "\r"
    return "\n"


def text_like(original: bytes, text: str) -> bytes:
    """``text`` (written with ``\\n`` line ends) encoded as ``original`` is: UTF-8, the same
    line ending, and the byte-order mark if ``original`` has one."""
    newline = newline_of(original)
    if newline != "\n":
        text = text.replace("\n", newline)
    data = text.encode("utf-8")
    return _BOM + data if original.startswith(_BOM) and not data.startswith(_BOM) else data


def replace_file(path: Path, data: bytes, *, mode: int | None = None, sync: bool = True) -> None:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder + rename).

    The new file keeps the permission bits of the file it replaces (``mode`` when given;
    for a new file, the bits the umask leaves of ``0o666``). Raises :class:`OSError` as the
    system reports it (a read-only file or folder, a full disk), and for a target that is
    no regular file (a folder, a device such as ``/dev/full``, a FIFO: never replaced by a
    file); the original is then untouched and the temporary file removed.

    ``sync=False`` skips flushing the new bytes to the disk before the rename: for what
    saikoro regenerates anyway (a built site's files, caches), where a crash of the whole
    machine may lose the new version but a reader still never sees half of it.
    """
    target = Path(os.path.realpath(path))
    try:
        info = target.stat()
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        kept = 0o666 & ~umask
    else:
        if not stat.S_ISREG(info.st_mode):  # a folder, a device (/dev/full), a FIFO...
            kind = "Is a directory" if stat.S_ISDIR(info.st_mode) else "Not a regular file"
            raise OSError(
                errno.EISDIR if stat.S_ISDIR(info.st_mode) else errno.EINVAL, kind, str(path)
            )
        kept = stat.S_IMODE(info.st_mode)
    if mode is not None:
        kept = mode
    elif target.exists() and (not os.access(target, os.W_OK) or not kept & 0o222):
        # The rename would succeed in a writable folder, but the author made the file
        # read-only: say so as the system would for an in-place write (also to root, who
        # may write anything, for a file nobody may write).
        raise PermissionError(13, "Permission denied", str(path))
    import tempfile  # here: a command that writes nothing starts without it

    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    tmp = Path(tmp_name)
    replaced = False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        tmp.chmod(kept)
        tmp.replace(target)
        replaced = True
    finally:  # a failure, Ctrl-C included: the temporary file goes, the original stays
        if not replaced:
            with contextlib.suppress(OSError):
                tmp.unlink()
