"""A minimal LSP client for yaml-language-server (npm, pinned in package.json).

The server is started with ``--stdio`` and driven with JSON-RPC messages
(``Content-Length`` framing); tests open scenario files that name a generated schema in
their ``# yaml-language-server: $schema=...`` line and read its diagnostics, hovers and
completions.
"""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
TIMEOUT = 60.0
SETTINGS = {
    "yaml": {
        "validate": True,
        "hover": True,
        "completion": True,
        "schemaStore": {"enable": False},
    }
}


class Client:
    """A minimal LSP client: requests with ids, notifications, answers to the server."""

    def __init__(self, process: subprocess.Popen[bytes], settings: dict[str, Any]) -> None:
        self.process = process
        self.settings = settings
        self.next_id = 0
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.diagnostics: queue.Queue[dict[str, Any]] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _write(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        for message in _messages(stdout):
            method = message.get("method")
            if method is not None and "id" in message:  # a request from the server
                self._write({"id": message["id"], "result": self._answer(message)})
            elif method == "textDocument/publishDiagnostics":
                self.diagnostics.put(message["params"])
            elif method is None:
                self.inbox.put(message)

    def _answer(self, request: dict[str, Any]) -> Any:
        if request["method"] == "workspace/configuration":
            items = request["params"]["items"]
            return [self.settings.get(i.get("section", ""), None) for i in items]
        return None

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._write({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        self._write({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.inbox.get(timeout=TIMEOUT)
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                return message.get("result")

    def diagnostics_for(self, uri: str) -> list[dict[str, Any]]:
        """The first non-empty diagnostics published for ``uri``."""
        while True:
            params = self.diagnostics.get(timeout=TIMEOUT)
            if params["uri"] == uri and params["diagnostics"]:
                found: list[dict[str, Any]] = params["diagnostics"]
                return found

    def settled_diagnostics(self, uris: set[str], quiet: float = 3.0) -> dict[str, list[Any]]:
        """The last diagnostics published for each of ``uris`` (every one published at
        least once), once the server has published nothing for ``quiet`` seconds."""
        last: dict[str, list[Any]] = {}
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                params = self.diagnostics.get(timeout=quiet)
            except queue.Empty:
                if uris <= last.keys():
                    return {u: last[u] for u in uris}
                assert time.monotonic() < deadline, sorted(uris - last.keys())
                continue
            if params["uri"] in uris:
                last[params["uri"]] = params["diagnostics"]


def _messages(stream: IO[bytes]) -> Iterator[dict[str, Any]]:
    """JSON-RPC messages read from ``stream`` (``Content-Length`` framing)."""
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                return
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        assert length is not None
        yield json.loads(stream.read(length).decode("utf-8"))


@contextmanager
def language_server(folder: Path) -> Iterator[Client]:
    """yaml-language-server running with ``folder`` as its workspace."""
    node = shutil.which("node")
    assert node, "node is needed to run yaml-language-server (make setup)"
    assert SERVER.is_file(), "run make setup (npm ci) for yaml-language-server"
    process = subprocess.Popen(
        [node, str(SERVER), "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=folder,
    )
    client = Client(process, SETTINGS)
    try:
        client.request(
            "initialize",
            {
                "processId": None,
                "rootUri": folder.as_uri(),
                "capabilities": {
                    "textDocument": {
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                        "completion": {"completionItem": {"documentationFormat": ["markdown"]}},
                    },
                    "workspace": {"configuration": True},
                },
            },
        )
        client.notify("initialized", {})
        client.notify("workspace/didChangeConfiguration", {"settings": SETTINGS})
        yield client
    finally:
        process.kill()
        process.wait(timeout=10)


def open_document(client: Client, path: Path, text: str) -> str:
    """Write ``text`` to ``path`` and open it in the server; its URI."""
    path.write_text(text, "utf-8")
    uri = path.as_uri()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
    )
    return uri
