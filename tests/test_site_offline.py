"""The parts of issue 20 that need no browser: the reader's own values of every system, odds
cells that roll, the search index held back, the service worker's list and version, the app
manifest, and a site under ``mkdocs serve`` without any of it.
"""

from __future__ import annotations

import html.parser
import json
import re
from pathlib import Path

import pytest

import saikoro
from saikoro.scenario import Scenario, load_scenario
from saikoro.scenario.model import PC
from saikoro.site import _lazysearch as lazysearch
from saikoro.site import _offline as offline
from saikoro.site._assets import Assets
from saikoro.site._config import SaikoroConfig
from saikoro.site._oddscache import OddsCache
from saikoro.site._pages.scenario import party_html, target_html
from saikoro.site._profiles import profile
from saikoro.site._roller import RollerSettings, engine_bundles, engine_paths

REPO = Path(__file__).resolve().parents[1]
SAMPLES = sorted((REPO / "scenarios").glob("*.yaml"))


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(markup: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(markup)
    return parser.tags


def _scenarios() -> list[Scenario]:
    out = []
    for path in SAMPLES:
        result = load_scenario(path)
        assert result.scenario is not None, (path, result.errors)
        out.append(result.scenario)
    return out


SCENARIOS = _scenarios()


def _rolls(command: str, system: str) -> bool:
    """Whether the engine takes the command as a check (its odds have a success)."""
    odds = saikoro.odds(command, system=system)
    return odds is not None and odds.success is not None


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.stem for p in SAMPLES])
def test_every_difficulty_follows_the_readers_value_exactly(scenario: Scenario) -> None:
    """A card's template gives, for every value a character can have, the command the
    profile itself makes; a PC's command is the one the profile makes for that PC; every
    command is one the engine takes."""
    system = scenario.system
    model = scenario.model
    prof = profile(system)
    party: tuple[PC, ...] = model.party or ()
    for target in model.difficulty_targets:
        personal = prof.target_personal(target)
        if personal is None:
            continue
        template = personal.template()
        assert template.count("{}") == 1
        for value in (personal.low, personal.example, personal.high):
            command = template.replace("{}", str(value))
            assert command == personal.command(value)
            assert _rolls(command, system), command
        # the example is what the card rolls before the reader sets anything
        assert personal.low <= personal.example <= personal.high
        for pc in party:
            found = prof.target_party(target, pc)
            if found is None:
                continue
            value, command = found
            assert personal.low <= value <= personal.high, (pc.name, value)
            assert _rolls(command, system), command


def _target_card(scenario: Scenario, index: int = 0) -> str:
    model = scenario.model
    return target_html(
        OddsCache(),
        scenario.system,
        model.difficulty_targets[index],
        dict(model.rulings),
        roller=True,
        scope=scenario.id,
        party=model.party or (),
    )


def _by_stem(stem: str) -> Scenario:
    return SCENARIOS[[p.stem for p in SAMPLES].index(stem)]


def test_a_getb_card_carries_its_own_value_and_the_partys() -> None:
    scenario = _by_stem("getb-kyuuchi")
    tags = _tags(_target_card(scenario))
    card = tags[0][1]
    assert card == {"class": "saikoro-target", "data-scope": "getb-kyuuchi"}
    widget = next(a for t, a in tags if "data-personal" in a)
    data = json.loads(widget["data-personal"] or "")
    assert data["key"] == "strength" and data["label"] == "筋力"
    assert data["template"] == "GB{}>=9" and data["example"] == 3
    assert (data["min"], data["max"]) == (0, 30)
    # one entry per PC of the party: its strength and the command it rolls
    assert data["party"] == [[5, "GB5>=9"], [6, "GB6>=9"], [3, "GB3>=9"]]
    assert widget["data-command"] == "GB3>=9"
    steps = [a for t, a in tags if a.get("class") == "saikoro-step"]
    assert [s["data-step"] for s in steps] == ["-1", "1"]
    assert all(s["aria-label"] for s in steps)
    # every odds cell is a button rolling its own command; the grid names the system
    picks = [a["data-command"] for t, a in tags if a.get("class") == "saikoro-pick"]
    assert picks == [f"GB{a}>=9" for a in range(1, 9)]
    grid = next(a for t, a in tags if (a.get("class") or "").split()[:1] == ["saikoro-grid"])
    assert grid["data-system"] == "getb"


def test_akatsuki_party_rolls_its_specialty() -> None:
    scenario = _by_stem("akatsuki-toride")
    model = scenario.model
    prof = profile("akatsuki")
    target = model.difficulty_targets[0]  # 技巧, style 潜入
    party = model.party or ()
    kaname = party[0]  # 技巧 9, specialties 潜入・跳躍
    value, command = prof.target_party(target, kaname) or (0, "")
    assert value == 9 and command.startswith("AK9Z")
    other = party[1]  # no 潜入
    value, command = prof.target_party(target, other) or (0, "")
    assert value == 5 and command.startswith("AK5") and "Z" not in command


def test_cards_of_the_book_and_pages_without_rollers() -> None:
    scenario = _by_stem("getb-kyuuchi")
    model = scenario.model
    # without a roller: no stepper, no buttons in the odds table
    plain = target_html(OddsCache(), "getb", model.difficulty_targets[0], roller=False)
    assert "saikoro-step" not in plain and "saikoro-pick" not in plain
    assert party_html(scenario, roller=False) == ""
    # with one: the party's names, escaped, as the choices of a select
    box = party_html(scenario)
    names = [a.get("value") for t, a in _tags(box) if t == "option"]
    assert names == ["", "0", "1", "2"]
    assert 'data-scope="getb-kyuuchi"' in box


def test_kegare_cards_have_no_stepper_but_roll_from_every_cell() -> None:
    scenario = _by_stem("kegare-minato")
    card = _target_card(scenario)
    assert "saikoro-stepper" not in card and "data-personal" not in card
    assert card.count('class="saikoro-pick"') == 5
    assert party_html(scenario) == ""


# ---- the search index, held back ---------------------------------------------------------


def test_the_shim_runs_before_materials_bundle() -> None:
    page = (
        '<html><head></head><body><script id="__config" type="application/json">{}</script>'
        '<script src="../assets/javascripts/bundle.a5f9d56c.min.js"></script></body></html>'
    )
    held = lazysearch.hold_search_index(page)
    assert held.index("<script>") < held.index("bundle.a5f9d56c")
    assert "search_index\\.json" in held and "</script><script src=" in held
    assert lazysearch.hold_search_index(held) == held
    assert "/*" not in lazysearch.shim()  # the comment stays in the package


# ---- the service worker's list, version and manifest ------------------------------------


def _site(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


FILES = {
    "index.html": b"<p>home</p>",
    "systems/getb/index.html": b"<p>getb</p>",
    "assets/saikoro/roller.js": b"//",
    "assets/javascripts/bundle.js.map": b"{}",
    "sitemap.xml.gz": b"..",
    "404.html": b"<p>404</p>",
}


def test_offline_list_and_version_follow_the_content(tmp_path: Path) -> None:
    _site(tmp_path, FILES)
    engine = ["assets/saikoro/worker.js"]
    version = offline.write_service_worker(str(tmp_path), engine)
    listing = json.loads((tmp_path / offline.OFFLINE_LIST).read_text("utf-8"))
    assert listing["version"] == version
    # pages by the URL a reader asks for; source maps and the gzipped sitemap left out
    assert sorted(listing["files"]) == [
        "",
        "404.html",
        "assets/saikoro/roller.js",
        "systems/getb/",
    ]
    assert listing["files"] == offline.offline_files(FILES)
    worker = (tmp_path / offline.SERVICE_WORKER).read_text("utf-8")
    config = json.loads(worker.split("/*@saikoro-sw*/ ", 1)[1].split(";\n", 1)[0])
    assert config == {"version": version, "manifest": offline.OFFLINE_LIST, "engine": engine}
    # the same build: byte-identical files; one page changed: a new version
    before = worker
    assert offline.write_service_worker(str(tmp_path), engine) == version
    assert (tmp_path / offline.SERVICE_WORKER).read_text("utf-8") == before
    (tmp_path / "systems/getb/index.html").write_bytes(b"<p>getb, new</p>")
    changed = offline.write_service_worker(str(tmp_path), engine)
    assert changed != version
    listing2 = json.loads((tmp_path / offline.OFFLINE_LIST).read_text("utf-8"))
    differs = {k for k in listing["files"] if listing["files"][k] != listing2["files"][k]}
    assert differs == {"systems/getb/"}


def test_engine_paths_name_every_file_the_worker_loads() -> None:
    paths = engine_paths(RollerSettings())
    names = [p.split("?")[0].rsplit("/", 1)[1] for p in paths]
    assert names[:4] == ["worker.js", "mphost.mjs", "micropython.mjs", "micropython.wasm"]
    # the files whose name does not change with their content carry the build's version
    assert all(re.search(r"\?v=[0-9a-f]{12}$", p) for p in paths[:4])
    bundles = engine_bundles()
    assert paths[4:] == [b.path for b in bundles.values()]


def test_web_manifest_installs_the_book() -> None:
    data = json.loads(offline.web_manifest("凍結給水塔のシナリオブック", "説明", "ja"))
    assert data["display"] == "standalone" and data["lang"] == "ja"
    assert data["start_url"] == data["scope"] == "../../"  # the site root, under any sub-path
    assert len(data["short_name"]) <= 12
    sizes = {i["sizes"] for i in data["icons"]}
    assert sizes == {"192x192", "512x512"}
    for icon in data["icons"]:
        png = (Path(offline.__file__).parent / "assets" / icon["src"]).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(png[16:20], "big")
        assert f"{width}x{width}" == icon["sizes"]


def _assets(*, serve: bool, offline_on: bool = True) -> Assets:
    config = SaikoroConfig()
    config.load_dict({"roller": {"offline": offline_on}})
    errors, warnings = config.validate()
    assert not errors and not warnings
    assets = Assets()
    assets.configure(config, REPO, serve=serve)
    return assets


def test_no_service_worker_under_mkdocs_serve_or_when_off() -> None:
    built = _assets(serve=False)
    assert built.settings is not None and built.settings.offline
    assert '<meta name="saikoro-offline"' in built.page_head("systems/getb/")
    for assets in (_assets(serve=True), _assets(serve=False, offline_on=False)):
        assert assets.settings is not None and not assets.settings.offline
        assert assets.page_head("systems/getb/") == ""
