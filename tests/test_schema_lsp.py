"""The published schema in a real editor: yaml-language-server over LSP.

yaml-language-server (npm, pinned in package.json) is started with ``--stdio`` and driven
with JSON-RPC messages (``Content-Length`` framing) on a scenario file that names the
generated schema in its ``# yaml-language-server: $schema=...`` line, as the author
guide tells authors to do. Completion must offer an enemy's fields, hover must explain a
field in Japanese, and a misspelt key must get a diagnostic.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lsp_client import Client, language_server, open_document
from saikoro.scenario import json_schema, validate_text
from saikoro.systems import SYSTEM_IDS

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


@pytest.fixture(scope="module")
def lsp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Client, Path]]:
    folder = tmp_path_factory.mktemp("lsp")
    schema = folder / "scenario.schema.json"
    schema.write_text(json.dumps(json_schema(), ensure_ascii=False), "utf-8")
    with language_server(folder) as client:
        yield client, schema


def _open(client: Client, folder: Path, name: str, text: str) -> str:
    return open_document(client, folder / name, text)


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


def test_completion_and_hover_explain_the_book_parts(lsp: tuple[Client, Path]) -> None:
    """A handout's keys are offered with their Japanese meaning; the trailer is explained."""
    client, schema = lsp
    text = (
        f"# yaml-language-server: $schema={schema.as_uri()}\nsystem: kegare\ntitle: t\n"
        "trailer: 闇が来る\nhandouts:\n  - \n"
    )
    uri = _open(client, schema.parent, "handout.yaml", text)
    result = client.request(
        "textDocument/completion",
        {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 4}},
    )
    items = result["items"] if isinstance(result, dict) else result
    labels = {item["label"] for item in items}
    assert {"id", "pc", "title", "text", "secret", "image"} <= labels, labels
    secret = next(item for item in items if item["label"] == "secret")
    documentation = secret.get("documentation") or {}
    value = documentation.get("value", "") if isinstance(documentation, dict) else documentation
    assert "秘匿" in value, secret
    hover = client.request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 2}},
    )
    assert hover is not None and "トレーラー" in hover["contents"]["value"], hover


_PLACEHOLDER = re.compile(r"^(?P<indent> *)(?:- )?(?P<key>[a-z_]+): \$\{\d+:(?P<value>[^}]*)\}$")


def _set_first(data: Any, key: str, value: Any) -> bool:
    """Set the first ``key`` found in ``data`` (depth first) to ``value``."""
    if isinstance(data, dict):
        if key in data:
            data[key] = value
            return True
        return any(_set_first(v, key, value) for v in data.values())
    if isinstance(data, list):
        return any(_set_first(v, key, value) for v in data)
    return False


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_completion_snippets_insert_valid_values(lsp: tuple[Client, Path], system: str) -> None:
    """Every value a completion inserts (``hp: ${7:3}``) is one validation accepts there.

    A new enemy, a new difficulty target and a new PC are completed in an empty list
    item; each placeholder value is put into the system's sample scenario at that key
    (the sample ``saikoro new`` writes) and the scenario must stay valid.
    """
    import yaml

    from saikoro._new import book_files

    client, schema = lsp
    sample_text = book_files([system], title="t", site_url=None)[f"scenarios/{system}-sample.yaml"]
    sample = yaml.safe_load(sample_text)
    checked = 0
    for field in ("enemies", "difficulty_targets", "party", "handouts", "scenes", "npcs"):
        if not sample.get(field):
            continue
        text = f"# yaml-language-server: $schema={schema.as_uri()}\nsystem: {system}\ntitle: t\n"
        text += f"{field}:\n  - \n"
        uri = _open(client, schema.parent, f"snippet-{system}-{field}.yaml", text)
        result = client.request(
            "textDocument/completion",
            {"textDocument": {"uri": uri}, "position": {"line": 4, "character": 4}},
        )
        items = result["items"] if isinstance(result, dict) else result
        assert items, (system, field)
        for item in items:
            inserted = item.get("insertText") or (item.get("textEdit") or {}).get("newText") or ""
            lines = inserted.splitlines()
            top = min((len(x) - len(x.lstrip(" ")) for x in lines[1:] if x.strip()), default=0)
            if lines and lines[0].rstrip().endswith(":"):  # `abilities:` then its own keys
                top = -1
            for i, line in enumerate(lines):
                m = _PLACEHOLDER.match(line)
                if m is None or not m.group("value"):
                    continue
                data = json.loads(json.dumps(sample))  # a deep copy
                item_data = data[field][0]
                value = yaml.safe_load(m.group("value"))
                if i == 0 or len(m.group("indent")) == top:  # a key of the item itself
                    item_data[m.group("key")] = value
                elif not _set_first(item_data, m.group("key"), value):
                    continue  # a nested key the sample does not use
                result_ = validate_text(json.dumps(data, ensure_ascii=False), "snippet.yaml")
                assert result_.ok, (system, field, line, [p.format() for p in result_.errors])
                checked += 1
    assert checked >= 2, checked


RANGES = """\
# yaml-language-server: $schema={schema}
system: kegare
title: 試験
players: 5-3
balance:
  win: 85%-60%
"""
"""Ranges written backwards (lines 3 and 5): validate refuses both."""


def test_backwards_ranges_get_a_japanese_diagnostic_at_their_line(
    lsp: tuple[Client, Path],
) -> None:
    client, schema = lsp
    text = RANGES.format(schema=schema.as_uri())
    assert {p.line for p in validate_text(text, "ranges.yaml").errors} == {4, 6}
    uri = _open(client, schema.parent, "ranges.yaml", text)
    diagnostics = client.diagnostics_for(uri)
    by_line = {d["range"]["start"]["line"]: d["message"] for d in diagnostics}
    assert set(by_line) == {3, 5}, diagnostics
    assert "2-4 のような範囲" in by_line[3] and "小さい方を先に" in by_line[3], by_line
    assert "60%-90% のような勝率の範囲" in by_line[5], by_line
    for message in by_line.values():
        assert "[0-9]" not in message  # the message, not the regular expression
