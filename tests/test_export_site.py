"""The plugin's side of the exports in real MkDocs builds: links, ココフォリア flags, schema.

Two small author sites: one with ``site_url`` and the ``ccfolia`` options set (its
exports link to the published enemy and carry the flags; the schema is published by
default, its ``$id`` the site's URL), one with ``schema: false``.
"""

from __future__ import annotations

import html
import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from test_site_support import REPO, build

pytestmark = pytest.mark.slow

SITE_URL = "https://example.org/book/"


def _site(root: Path, plugin: str, head: str = "") -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "scenarios").mkdir()
    (root / "mkdocs.yml").write_text(
        f"site_name: author\n{head}theme:\n  name: material\n  font: false\n"
        f"plugins:\n  - saikoro:\n{plugin}",
        "utf-8",
    )
    (root / "docs" / "index.md").write_text("# 本\n", "utf-8")
    shutil.copy(REPO / "scenarios" / "getb-haito.yaml", root / "scenarios")
    shutil.copytree(REPO / "scenarios" / "images", root / "scenarios" / "images")
    result = build(root)
    assert result.returncode == 0, result.stderr[-4000:]
    return root / "site"


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    plugin = (
        "      roller:\n        enabled: false\n"
        "      ccfolia:\n        secret: true\n        hide_status: true\n"
    )
    return _site(tmp_path_factory.mktemp("linked"), plugin, f"site_url: {SITE_URL}\n")


@pytest.fixture(scope="module")
def unlinked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    plugin = "      roller:\n        enabled: false\n      schema: false\n"
    return _site(tmp_path_factory.mktemp("unlinked"), plugin)


def test_ccfolia_export_links_back_and_hides(linked: Path) -> None:
    text = (linked / "scenarios" / "getb-haito" / "index.html").read_text("utf-8")
    clips = [json.loads(html.unescape(p)) for p in re.findall(r'data-ccfolia="([^"]*)"', text)]
    assert clips
    for clip in clips:
        data = clip["data"]
        assert data["externalUrl"].startswith(
            (
                f"{SITE_URL}scenarios/getb-haito/#enemy-",
                f"{SITE_URL}scenarios/getb-haito/#getb-haito--npc-",
            )
        )  # an enemy's stat block, or an NPC's card
        anchor = data["externalUrl"].split("#", 1)[1]
        assert f'id="{anchor}"' in text  # the link lands on the stat block
        assert (data["secret"], data["invisible"], data["hideStatus"]) == (True, False, True)
        assert data["memo"].strip()


def test_udonarium_zip_names_dicebot_and_url(linked: Path) -> None:
    folder = linked / "scenarios" / "getb-haito"
    zips = sorted(p for p in folder.glob("*.zip") if not p.name.startswith("room."))  # enemies
    assert zips
    for path in zips:
        with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
            root = ET.fromstring(archive.read("data.xml"))  # noqa: S314 - our own output
        palette = root.find("chat-palette")
        assert palette is not None and palette.get("dicebot") == "DiceBot"
        url = root.find(".//data[@name='URL']")
        assert url is not None and (url.text or "").startswith(SITE_URL)


def test_schema_is_published_by_default(linked: Path) -> None:
    schema = json.loads((linked / "schema" / "scenario.schema.json").read_text("utf-8"))
    assert schema["$id"] == f"{SITE_URL}schema/scenario.schema.json"
    getb = next(
        b["then"] for b in schema["allOf"] if b["if"]["properties"]["system"]["const"] == "getb"
    )
    placement = getb["properties"]["enemies"]["items"]["properties"]["placement"]
    assert placement["title"] == "初期配置のセル"


def test_schema_option_turns_it_off(unlinked: Path) -> None:
    assert not (unlinked / "schema").exists()
    text = (unlinked / "scenarios" / "getb-haito" / "index.html").read_text("utf-8")
    clips = [json.loads(html.unescape(p)) for p in re.findall(r'data-ccfolia="([^"]*)"', text)]
    assert clips and all(c["data"]["externalUrl"] == "" for c in clips)
    assert all(c["data"]["secret"] is False for c in clips)
