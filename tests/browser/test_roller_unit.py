"""``saikoro.site._roller`` without a browser: markup, the engine bundles and installed files."""

from __future__ import annotations

import doctest
import gzip
import html.parser
import json
import re
from pathlib import Path

import pytest

import saikoro
from saikoro.site import RollerAssetError
from saikoro.site import _roller as roller
from saikoro.site._roller import (
    ASSET_DIR,
    EXTRA_CSS,
    EXTRA_JS,
    INSERT_KEYS,
    RUNTIME_FILES,
    RollerSettings,
    engine_bundles,
    find_runtime_dir,
    free_widget,
    install_assets,
    roller_script,
    widget,
)
from saikoro.systems import SYSTEM_IDS, system_class

PACKAGE = Path(saikoro.__file__).parent
NASTY = "\"><img src=x onerror=alert(1)>&amp;'<script>"


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(markup: str) -> _Tags:
    parser = _Tags()
    parser.feed(markup)
    parser.close()
    return parser


def test_doctests() -> None:
    result = doctest.testmod(roller, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_widget_markup_round_trips_hostile_text() -> None:
    parsed = parse(widget(NASTY, system=NASTY, label=NASTY))
    tags = [t for t, _ in parsed.tags]
    assert tags == ["div", "button", "output"]  # no <img>, no <script>
    div = parsed.tags[0][1]
    assert div["data-command"] == NASTY
    assert div["data-system"] == NASTY
    assert div["class"] == "saikoro-roller"
    assert parsed.tags[1][1]["type"] == "button"
    assert parsed.tags[2][1]["aria-live"] == "polite"
    assert "".join(parsed.text) == NASTY


def test_widget_defaults() -> None:
    parsed = parse(widget("2D6>=7"))
    assert "data-system" not in parsed.tags[0][1]
    assert "".join(parsed.text) == "2D6>=7"


def test_widget_carries_ruling_options() -> None:
    options = {"die": 6, "die_count": 2}
    parsed = parse(widget("KKM[3,3]>=12G10", system="kokuryoku", options=options))
    div = parsed.tags[0][1]
    assert div["data-system"] == "kokuryoku"
    assert json.loads(div["data-options"] or "") == {"die": 6, "die_count": 2}
    # compact, sorted: the same options always give the same text (the worker's cache key)
    assert div["data-options"] == '{"die":6,"die_count":2}'
    assert roller.options_json({"b": True, "a": "x"}) == '{"a":"x","b":true}'


def test_widget_without_options_has_no_options_attribute() -> None:
    for markup in (
        widget("2D6", system="getb"),
        widget("2D6", system="getb", options={}),
        widget("2D6", options={"die": 6}),  # generic command: options belong to a system
        free_widget(system="getb", options={}),
        free_widget(options={"die": 6}),
    ):
        assert "data-options" not in markup, markup


def test_hostile_option_values_stay_escaped() -> None:
    options: dict[str, bool | int | str] = {NASTY: NASTY, "die": 6, "flag": True}
    for markup in (
        widget("KK3", system="kokuryoku", options=options),
        free_widget(system="kokuryoku", options=options),
    ):
        assert "<img" not in markup and "<script" not in markup
        parsed = parse(markup)
        assert not {"img", "script"} & {t for t, _ in parsed.tags}
        div = next(attrs for tag, attrs in parsed.tags if tag == "div")  # the roller
        assert json.loads(div["data-options"] or "") == options  # round-trips exactly
        assert div["data-system"] == "kokuryoku"


def test_free_widget_carries_ruling_options() -> None:
    parsed = parse(free_widget(system="国力", options={"die": 6}))
    assert parsed.tags[0] == ("section", {"data-search-exclude": None})  # not searched
    div = parsed.tags[1][1]
    assert div["data-system"] == "kokuryoku"  # the alias resolved: options apply to it
    assert json.loads(div["data-options"] or "") == {"die": 6}
    assert [a["value"] for t, a in parsed.tags if t == "option" and "selected" in a] == [
        "kokuryoku"
    ]


def test_free_widget() -> None:
    parsed = parse(free_widget(system="getb"))
    tags = [t for t, _ in parsed.tags]
    assert tags.count("input") == 1
    assert tags.count("select") == 1
    buttons = [a for t, a in parsed.tags if t == "button"]
    # the roll button, and the keys that put in what a phone keyboard hides
    assert [b["class"] for b in buttons] == ["saikoro-roll"] + ["saikoro-key"] * len(INSERT_KEYS)
    assert [b["data-insert"] for b in buttons[1:]] == list(INSERT_KEYS)
    assert tags.count("output") == 1
    # the page's commands come as chips (filled in by roller.js), and the offline state
    assert any(a.get("class") == "saikoro-chips" for t, a in parsed.tags if t == "div")
    assert any(a.get("class") == "saikoro-offline" for t, a in parsed.tags if t == "p")
    options = [a for t, a in parsed.tags if t == "option"]
    assert [o["value"] for o in options] == ["", *SYSTEM_IDS]
    assert [o["value"] for o in options if "selected" in o] == ["getb"]
    none = parse(free_widget())
    assert [a["value"] for t, a in none.tags if t == "option" and "selected" in a] == [""]


def test_free_widget_rejects_unknown_system() -> None:
    with pytest.raises(ValueError, match="unknown system"):
        free_widget(system="no-such-system")


def test_settings_validation() -> None:
    assert RollerSettings().policy == "intent"
    for policy in ("intent", "eager", "visible", "click"):
        assert RollerSettings(policy=policy).policy == policy
    with pytest.raises(RollerAssetError):
        RollerSettings(policy="lazy")
    with pytest.raises(RollerAssetError):
        RollerSettings(roll_timeout=0)


def test_engine_bundles_are_the_packages_engine_and_deterministic() -> None:
    bundles = engine_bundles()
    assert {n: b.data for n, b in engine_bundles().items()} == {
        n: b.data for n, b in bundles.items()
    }
    assert list(bundles) == ["core", *SYSTEM_IDS]
    names = [p for b in bundles.values() for p, _ in b.files if p.startswith("saikoro/")]
    expected = ["saikoro/__init__.py"]
    parts = {m.replace(".", "/") for s in SYSTEM_IDS for m in system_class(s).part_modules()}
    for sub in ("dice", "systems"):
        expected += [
            "saikoro/" + p.relative_to(PACKAGE).as_posix()
            for p in (PACKAGE / sub).rglob("*.py")
            if "__pycache__" not in p.parts
            and not any(
                str(p.relative_to(PACKAGE.parent).with_suffix("")).startswith(part)
                for part in parts
            )
        ]
    assert sorted(names) == sorted(expected)
    assert not any(n.endswith(("/scenario.py", "/page.py", "/vtt.py")) for n in names)
    for name, bundle in ((p, b.name) for b in bundles.values() for p, _ in b.files):
        system = re.match(r"saikoro/systems/_(\w+)/", name)
        assert bundle == (system.group(1) if system else "core"), name
    # the system bundles are what a page of that system adds: small
    assert len(bundles["core"].data) < 60_000
    assert all(len(b.data) < 35_000 for n, b in bundles.items() if n != "core")


def test_engine_bundles_import_only_their_shims_and_saikoro() -> None:
    pattern = re.compile(r"^\s*(?:from|import)\s+([\w.]+)", re.MULTILINE)
    native = {
        "json",
        "heapq",
        "sys",
        "random",
        "collections",
        "math",
        "_saikoro_js",
        "itertools",
        "functools",
        "operator",
        "types",
    }
    for bundle in engine_bundles().values():
        for name, text in bundle.files:
            for module in pattern.findall(text):
                top = module.split(".")[0]
                allowed = module.startswith(".") or top.startswith("_mp")
                assert allowed or top in native or top == "saikoro", (name, module)


def test_find_runtime_dir() -> None:
    found = find_runtime_dir()
    assert all((found / f).is_file() for f in RUNTIME_FILES)


def _config(script: str) -> dict[str, object]:
    match = re.search(r"Object\.assign\(\n\s*\{.*?\},\n\s*(\{.*?\})\n\s*\);", script, re.DOTALL)
    assert match, "configuration not injected"
    return json.loads(match.group(1))  # type: ignore[no-any-return]


def test_install_assets(tmp_path: Path) -> None:
    install_assets(str(tmp_path), RollerSettings(policy="click"))
    target = tmp_path / ASSET_DIR
    for path in [*EXTRA_CSS, *EXTRA_JS]:
        assert (tmp_path / path).is_file()
    assert (target / "worker.js").is_file()
    assert (target / "mphost.mjs").is_file()
    bundles = engine_bundles()
    for bundle in bundles.values():
        assert (tmp_path / bundle.path).read_bytes() == bundle.data
    runtime = find_runtime_dir()
    for name in RUNTIME_FILES:
        assert (target / "micropython" / name).read_bytes() == (runtime / name).read_bytes()
    config = _config((target / "roller.js").read_text(encoding="utf-8"))
    assert config["policy"] == "click"
    engine = config["engine"]
    assert isinstance(engine, dict) and sorted(engine) == sorted(bundles)
    assert engine["getb"] == {
        "url": bundles["getb"].path.removeprefix(ASSET_DIR + "/"),
        "bytes": len(bundles["getb"].data),
    }
    assert re.fullmatch(r"[0-9a-f]{12}", str(config["version"]))
    # small on every page: the roller's own files stay small (history, share links, the
    # phone policy, rolls from every odds cell, the reader's own values on scenario and
    # rules pages, chips and the service worker's registration and the engine's bundle
    # list: ~41 KB without comments, 12 KB compressed)
    script = (target / "roller.js").read_bytes()
    assert len(script) < 42_000
    assert len(gzip.compress(script)) < 12_500
    assert b"\n//" not in script  # comment lines stay in the package's source
    assert (target / "roller.css").stat().st_size < 15_000
    # a second install leaves unchanged files alone; an old build's bundle goes
    mtime = (target / "micropython" / "micropython.wasm").stat().st_mtime_ns
    stale = target / "engine" / "getb.000000000000.gz"
    stale.write_bytes(b"old")
    install_assets(str(tmp_path), RollerSettings(policy="click"))
    assert (target / "micropython" / "micropython.wasm").stat().st_mtime_ns == mtime
    assert not stale.exists()


def test_worker_and_script_use_no_location_based_urls() -> None:
    assets = PACKAGE / "site" / "assets"
    script = roller_script()
    worker = (assets / "worker.js").read_text(encoding="utf-8")
    assert "document.currentScript" in script
    assert "location.pathname" not in script and "location.origin" not in script
    assert '{ type: "module" }' in script
    assert "loadMicroPython" in worker and "micropip" not in worker
    assert "http://" not in script + worker and "https://" not in script + worker


def test_the_page_script_is_its_modules_in_one_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    """roller.js is the ES modules of assets/roller/ (each // @ts-check, type-checked by
    `make lint-js`) in one function scope: no import or export left, no type cast, every
    module's declarations in; a module that redeclares another's name fails the build."""
    from saikoro.site import _roller as roller

    script = roller_script()
    assert script.startswith("// saikoro dice roller") and script.endswith("})();\n")
    assert not re.search(r"^\s*(import|export)\b", script, re.MULTILINE)
    assert "@type" not in script and "@ts-check" not in script
    for name in ("function load(", "function rollCell(", "const offline =", "function scan("):
        assert name in script
    folder = PACKAGE / "site" / "assets" / "roller"
    assert {p.stem for p in folder.glob("*.js")} == set(roller.ROLLER_MODULES)
    # a module listed twice declares every name again: the build fails, naming it
    monkeypatch.setattr(roller, "ROLLER_MODULES", (*roller.ROLLER_MODULES, "config"))
    with pytest.raises(roller.RollerAssetError, match=r"declares CONFIG, as config\.js does"):
        roller_script()
