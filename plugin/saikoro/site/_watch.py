"""Watching the scenario folder under ``mkdocs serve``, including one case the file
watcher gets wrong.

When a scenario file is replaced by a folder of the same name and the file then comes
back, watchdog's inotify observer still believes the path is a folder and reports the
restored file's events as folder events; MkDocs ignores folder events, so the scenario
stayed unbuilt (404) until some other file changed (issue 22, item 9). A second handler
on the same watch catches those events: a "folder" event whose path is a regular
scenario file asks the server for a rebuild, exactly as MkDocs' own handler does for a
file event.
"""

from __future__ import annotations

import os
from pathlib import Path

import watchdog.events
from mkdocs.livereload import LiveReloadServer

from saikoro.dice import InternalError

__all__ = ["request_rebuild", "watch_scenarios"]

_SUFFIXES = (".yaml", ".yml")


class _MisreadFiles(watchdog.events.FileSystemEventHandler):
    """Rebuilds on a folder event whose path is a scenario file (see the module)."""

    def __init__(self, server: LiveReloadServer) -> None:
        self.server = server

    def on_any_event(self, event: watchdog.events.FileSystemEvent) -> None:
        path = os.fsdecode(event.src_path)
        if event.is_directory and path.endswith(_SUFFIXES) and Path(path).is_file():
            request_rebuild(self.server)


def request_rebuild(server: LiveReloadServer) -> None:
    """Ask the server for a rebuild, as a changed file does (from any thread)."""
    # What MkDocs' own watch callback does (mkdocs.livereload 1.6; mkdocs is pinned <2).
    with server._rebuild_cond:
        server._want_rebuild = True
        server._rebuild_cond.notify_all()


def watch_scenarios(server: LiveReloadServer, folder: Path) -> None:
    """Watch ``folder`` for scenario changes (MkDocs' watch plus the handler above)."""
    if not (hasattr(server, "_rebuild_cond") and hasattr(server, "_want_rebuild")):
        # checked here, in the main thread: a MkDocs without them is a bug to report loudly
        raise InternalError("mkdocs.livereload has no _rebuild_cond/_want_rebuild any more")
    server.watch(str(folder))
    server.observer.schedule(_MisreadFiles(server), os.path.realpath(folder), recursive=True)
