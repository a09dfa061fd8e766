"""Bounded input: files read with a size limit.

:func:`read_bounded` reads a regular file (a symbolic link to one is followed) and
nothing else: a FIFO would block until a writer comes, ``/dev/zero`` never ends, a
directory is no file. It opens without blocking, checks what it opened, and reads at
most one byte more than the limit, so nothing is read without bound.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from saikoro.dice import SaikoroError

__all__ = ["FileTooLargeError", "NotRegularFileError", "read_bounded"]


class NotRegularFileError(SaikoroError, OSError):
    """The path is a directory, FIFO, device or socket, not a file (``kind`` says which)."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(errno.EINVAL, f"not a regular file but a {kind}", path)
        self.kind = kind


class FileTooLargeError(SaikoroError, OSError):
    """The file holds more than the limit (``size`` bytes, ``limit``)."""

    def __init__(self, path: str, size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"{size} bytes; the limit is {limit}", path)
        self.size = size
        self.limit = limit


_KINDS = (
    (stat.S_ISDIR, "directory"),
    (stat.S_ISFIFO, "FIFO (named pipe)"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "special file")


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises:
        NotRegularFileError: ``path`` is not a regular file (after following links).
        FileTooLargeError: the file holds more than ``limit`` bytes.
        OSError: it cannot be opened or read (missing, no permission, a link loop).
    """
    name = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
    except OSError:  # pragma: no cover - fstat of an open descriptor
        os.close(fd)
        raise
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise NotRegularFileError(name, _kind(info.st_mode))
    if info.st_size > limit:
        os.close(fd)
        raise FileTooLargeError(name, info.st_size, limit)
    with os.fdopen(fd, "rb", buffering=0) as f:
        chunks: list[bytes] = []
        left = limit + 1  # a file that grew since fstat: one byte over tells
        while left > 0:
            chunk = f.read(min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileTooLargeError(name, len(data), limit)
    return data
