"""The published schema in a real editor: yaml-language-server over LSP.

yaml-language-server (npm, pinned in package.json) is started with ``--stdio`` and driven
with JSON-RPC messages (``Content-Length`` framing) on a scenario file that names the
generated schema in its ``# yaml-language-server: $schema=...`` line, as the author
guide tells authors to do. Completion must offer an enemy's fields, hover must explain a
field in Japanese, and a misspelt key must get a diagnostic.
"""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from saikoro.scenario import json_schema

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
TIMEOUT = 60.0

SCENARIO = """\
# yaml-language-server: $schema={schema}
system: getb
title: 試験
enemies:
  - id: ogre
    name: オウガテイル
    abilities: {{strength: 4, agility: 3, intellect: 1, endurance: 4}}
    hp: 40
    ap: 6
    st: 3
    placement: out3
    attacks:
      - {{name: 噛みつき, weapon: long-blade, element: physical, power: 5}}
    hpp: 3
"""
"""A GETB scenario whose only mistake is the key ``hpp`` (line 13)."""

PARTIAL = """\
# yaml-language-server: $schema={schema}
system: getb
title: 試験
enemies:
  - id: ogre
    name: オウガテイル
{indent}
"""
"""A scenario being written: the cursor is on the enemy's empty line (line 6, column 4)."""


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


@pytest.fixture(scope="module")
def lsp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Client, Path]]:
    node = shutil.which("node")
    assert node, "node is needed to run yaml-language-server (make setup)"
    assert SERVER.is_file(), "run make setup (npm ci) for yaml-language-server"
    folder = tmp_path_factory.mktemp("lsp")
    schema = folder / "scenario.schema.json"
    schema.write_text(json.dumps(json_schema(), ensure_ascii=False), "utf-8")
    settings = {
        "yaml": {
            "validate": True,
            "hover": True,
            "completion": True,
            "schemaStore": {"enable": False},
        }
    }
    process = subprocess.Popen(
        [node, str(SERVER), "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=folder,
    )
    client = Client(process, settings)
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
        client.notify("workspace/didChangeConfiguration", {"settings": settings})
        yield client, schema
    finally:
        process.kill()
        process.wait(timeout=10)


def _open(client: Client, folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, "utf-8")
    uri = path.as_uri()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
    )
    return uri


def test_typo_gets_a_diagnostic(lsp: tuple[Client, Path]) -> None:
    client, schema = lsp
    uri = _open(client, schema.parent, "typo.yaml", SCENARIO.format(schema=schema.as_uri()))
    diagnostics = client.diagnostics_for(uri)
    lines = {d["range"]["start"]["line"] for d in diagnostics}
    assert 13 in lines, diagnostics  # the `hpp:` line, and only problems we planted
    assert lines == {13}, diagnostics
    assert any("hpp" in d["message"] for d in diagnostics), diagnostics


def test_hover_explains_fields_in_japanese(lsp: tuple[Client, Path]) -> None:
    client, schema = lsp
    text = SCENARIO.format(schema=schema.as_uri())
    uri = _open(client, schema.parent, "hover.yaml", text)
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if "placement:" in line)
    hover = client.request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": row, "character": 6}},
    )
    assert hover is not None
    value = hover["contents"]["value"]
    assert "初期配置のセル" in value, value
    assert "#### saikoro" not in value, value
    row = next(i for i, line in enumerate(lines) if "weapon" in line)
    column = lines[row].index("weapon")
    hover = client.request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": row, "character": column + 2}},
    )
    assert hover is not None and "攻撃方法の種類" in hover["contents"]["value"], hover


def test_completion_offers_enemy_fields(lsp: tuple[Client, Path]) -> None:
    client, schema = lsp
    uri = _open(
        client, schema.parent, "partial.yaml", PARTIAL.format(schema=schema.as_uri(), indent="    ")
    )
    result = client.request(
        "textDocument/completion",
        {"textDocument": {"uri": uri}, "position": {"line": 6, "character": 4}},
    )
    items = result["items"] if isinstance(result, dict) else result
    labels = {item["label"] for item in items}
    assert {"abilities", "hp", "ap", "st", "placement", "attacks", "guard", "weak"} <= labels
    hp = next(item for item in items if item["label"] == "placement")
    documentation = hp.get("documentation") or {}
    text = documentation.get("value", "") if isinstance(documentation, dict) else documentation
    assert "初期配置のセル" in text, hp
