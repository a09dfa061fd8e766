"""Work off ``mkdocs serve``'s save path: one child process at a time, in the background.

A saved edit is served in a second or two whatever the scenario asks: what takes longer
(a simulation cut by the save path's time limit, ``saikoro tune``'s suggestions) is handed
to :class:`Background`, and the page says it is pending. Each job runs a function of
:mod:`saikoro.balance` or :mod:`saikoro.tune` in a fresh process (``spawn``: the server's
threads are never forked), one at a time, in the order they were asked for; a job for the
same ``owner`` (a scenario file) replaces the one queued or running before it, since its
result would be stale. While the server rebuilds (:meth:`Background.hold`), no job starts:
the rebuild that serves the save has the processor to itself. When a job ends,
``Background.done`` gets its key and result (or why there is none) in the background
thread, which asks the server to rebuild.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

__all__ = ["Background", "Job"]


@dataclass(frozen=True)
class Job:
    """One piece of work: ``function(*args)``, known by its ``key``, for its ``owner``."""

    key: str
    owner: str
    function: Callable[..., object]
    args: tuple[Any, ...]


def _child(conn: Connection, function: Callable[..., object], args: tuple[Any, ...]) -> None:
    """Run one job in the child process and send its result back. A bug is not caught: its
    traceback goes to the server's terminal and the parent sees the process end without a
    result."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's: it ends the job
    result = function(*args)
    conn.send(result)
    conn.close()


class Background:
    """A queue of :class:`Job` run one at a time in child processes (see the module).

    ``done(key, ok, value)`` is called in the background thread when a job ends: ``ok`` and
    its result, or not ok and why there is none (the child's traceback is on the server's
    terminal). A job replaced or cancelled is not reported.
    """

    def __init__(self, done: Callable[[str, bool, object], None]) -> None:
        self.done = done
        self._queue: list[Job] = []
        self._running: tuple[Job, BaseProcess, Connection] | None = None
        self._cond = threading.Condition()
        self._closed = False
        self._held = False
        self._thread: threading.Thread | None = None
        self._context = multiprocessing.get_context("spawn")

    def submit(self, job: Job) -> None:
        """Queue ``job`` (unless it is queued or running already), dropping what its owner
        asked for before."""
        with self._cond:
            if self._closed or self.pending(job.key):
                return
            self._queue = [j for j in self._queue if j.owner != job.owner]
            if self._running is not None and self._running[0].owner == job.owner:
                self._running[1].terminate()  # stale: the thread sees it end and moves on
            self._queue.append(job)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="saikoro-background", daemon=True
                )
                self._thread.start()
            self._cond.notify_all()

    def hold(self) -> None:
        """Start no job until :meth:`release` (a rebuild is under way)."""
        with self._cond:
            self._held = True

    def release(self) -> None:
        """Start the jobs waiting (the rebuild is done)."""
        with self._cond:
            self._held = False
            self._cond.notify_all()

    def pending(self, key: str) -> bool:
        """Whether the job ``key`` is queued or running."""
        with self._cond:
            running = self._running is not None and self._running[0].key == key
            return running or any(j.key == key for j in self._queue)

    def close(self) -> None:
        """Stop: the running job is terminated, the queued ones dropped."""
        with self._cond:
            self._closed = True
            self._queue.clear()
            if self._running is not None:
                self._running[1].terminate()
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=10)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while (not self._queue or self._held) and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                job = self._queue.pop(0)
                receive, send = self._context.Pipe(duplex=False)
                process = self._context.Process(
                    target=_child, args=(send, job.function, job.args), daemon=True
                )
                process.start()
                send.close()
                self._running = (job, process, receive)
            got = False
            result: object = None
            # EOF: terminated (replaced, closed), or the child failed without a result
            with contextlib.suppress(EOFError, OSError):
                result, got = receive.recv(), True
            process.join()
            receive.close()
            with self._cond:
                self._running = None
                replaced = self._closed or any(j.owner == job.owner for j in self._queue)
            if replaced:
                continue
            if got:
                self.done(job.key, True, result)
            else:
                code = process.exitcode
                why = f"the background process ended with status {code} (its traceback is above)"
                self.done(job.key, False, why)
