"""``saikoro.site._roller`` without a browser: markup, the engine zip and installed files."""

from __future__ import annotations

import doctest
import gzip
import html.parser
import io
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

import saikoro
from saikoro.site import RollerAssetError
from saikoro.site import _roller as roller
from saikoro.site._roller import (
    ASSET_DIR,
    EXTRA_CSS,
    EXTRA_JS,
    INSERT_KEYS,
    PYODIDE_FILES,
    RollerSettings,
    engine_zip,
    find_pyodide_dir,
    free_widget,
    install_assets,
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
        div = parsed.tags[0][1]
        assert json.loads(div["data-options"] or "") == options  # round-trips exactly
        assert div["data-system"] == "kokuryoku"


def test_free_widget_carries_ruling_options() -> None:
    parsed = parse(free_widget(system="国力", options={"die": 6}))
    div = parsed.tags[0][1]
    assert div["data-system"] == "kokuryoku"  # the alias resolved: options apply to it
    assert json.loads(div["data-options"] or "") == {"die": 6}
    assert [a["value"] for t, a in parsed.tags if t == "option" and "selected" in a] == [
        "kokuryoku"
    ]


def _worker_python() -> dict[str, Any]:
    """The worker's Python (run in Pyodide there) run here in CPython."""
    worker = (PACKAGE / "site" / "assets" / "worker.js").read_text(encoding="utf-8")
    match = re.search(r"const PYTHON = `(.*?)`;", worker, re.DOTALL)
    assert match
    namespace: dict[str, Any] = {}
    path = list(sys.path)
    try:
        exec(match.group(1), namespace)  # noqa: S102 - our own asset's code
    finally:
        sys.path[:] = path
    return namespace


def test_worker_rolls_with_the_options_and_caches_the_system() -> None:
    python = _worker_python()
    roll = python["saikoro_roll"]
    for _ in range(20):
        six = json.loads(roll("KKM[3,3,3]>=15G4", "kokuryoku", '{"die":6}'))
        assert six["ok"] and six["text"].startswith("(KKM[3,3,3]>=15G4) ＞"), six
        assert six["dice"] and {sides for sides, _ in six["dice"]} == {6}, six
        assert all(1 <= value <= 6 for _, value in six["dice"])
    default = json.loads(roll("KK0", "kokuryoku", ""))
    assert [sides for sides, _ in default["dice"]] == [10]
    assert json.loads(roll("KK0", "kokuryoku"))["dice"][0][0] == 10  # options are optional
    assert json.loads(roll("1D6", "", '{"die":6}'))["ok"]  # generic: options unused
    cached = python["_systems"]
    assert cached[("kokuryoku", '{"die":6}')].option("die") == 6
    assert cached[("kokuryoku", '{"die":6}')] is python["_configured"]("kokuryoku", '{"die":6}')
    # a bad option is the roll's error message, not an exception or an internal error
    for bad in ('{"die":"6"}', '{"nope":1}', "[6]", "{"):
        reply = json.loads(roll("KK0", "kokuryoku", bad))
        assert reply["ok"] is False and reply["message"], bad
        assert "内部エラー" not in reply["message"], (bad, reply)


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
    assert RollerSettings().policy == "visible"
    for policy in ("eager", "visible", "click"):
        assert RollerSettings(policy=policy).policy == policy
    with pytest.raises(RollerAssetError):
        RollerSettings(policy="lazy")
    with pytest.raises(RollerAssetError):
        RollerSettings(roll_timeout=0)


def test_engine_zip_is_the_packages_engine_and_deterministic() -> None:
    data = engine_zip()
    assert data == engine_zip()
    archive = zipfile.ZipFile(io.BytesIO(data))
    names = archive.namelist()
    expected = ["saikoro/__init__.py"]
    parts = {m.replace(".", "/") for s in SYSTEM_IDS for m in system_class(s).part_modules()}
    for sub in ("dice", "systems"):
        expected += sorted(
            "saikoro/" + p.relative_to(PACKAGE).as_posix()
            for p in (PACKAGE / sub).rglob("*.py")
            if "__pycache__" not in p.parts
            and not any(
                str(p.relative_to(PACKAGE.parent).with_suffix("")).startswith(part)
                for part in parts
            )
        )
    assert names == expected
    assert not any(n.endswith(("/scenario.py", "/page.py", "/vtt.py")) for n in names)
    for name in names:
        assert archive.read(name) == (PACKAGE.parent / name).read_bytes()
        info = archive.getinfo(name)
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
    assert not any("/site/" in n or "/scenario/" in n for n in names)


def test_engine_zip_imports_only_stdlib_and_itself() -> None:
    archive = zipfile.ZipFile(io.BytesIO(engine_zip()))
    pattern = re.compile(r"^\s*(?:from|import)\s+([\w.]+)", re.MULTILINE)
    for name in archive.namelist():
        for module in pattern.findall(archive.read(name).decode("utf-8")):
            top = module.split(".")[0]
            relative = module.startswith(".")
            assert relative or top in sys.stdlib_module_names or top == "saikoro", (
                name,
                module,
            )


def test_find_pyodide_dir_default_and_errors(tmp_path: Path) -> None:
    found = find_pyodide_dir(RollerSettings())
    assert all((found / f).is_file() for f in PYODIDE_FILES)
    with pytest.raises(RollerAssetError, match=r"pyodide_dir .* lacks pyodide\.mjs"):
        find_pyodide_dir(RollerSettings(pyodide_dir=str(tmp_path)))
    relative = RollerSettings(pyodide_dir=found.name, config_dir=str(found.parent))
    assert find_pyodide_dir(relative) == found
    for name in PYODIDE_FILES:
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "package.json").write_text('{"version": "0.1.0"}')
    with pytest.raises(RollerAssetError, match="pinned"):
        find_pyodide_dir(RollerSettings(pyodide_dir=str(tmp_path)))


def _config(script: str) -> dict[str, object]:
    match = re.search(r"Object\.assign\(\n\s*\{.*?\},\n\s*(\{.*?\})\n\s*\);", script, re.DOTALL)
    assert match, "configuration not injected"
    return json.loads(match.group(1))  # type: ignore[no-any-return]


def test_install_assets_self_hosted(tmp_path: Path) -> None:
    install_assets(str(tmp_path), RollerSettings(policy="click"))
    target = tmp_path / ASSET_DIR
    for path in [*EXTRA_CSS, *EXTRA_JS]:
        assert (tmp_path / path).is_file()
    assert (target / "worker.js").is_file()
    assert (target / "engine.zip").read_bytes() == engine_zip()
    pyodide = find_pyodide_dir(RollerSettings())
    for name in PYODIDE_FILES:
        assert (target / "pyodide" / name).read_bytes() == (pyodide / name).read_bytes()
    config = _config((target / "roller.js").read_text(encoding="utf-8"))
    assert config["policy"] == "click"
    assert config["pyodideURL"] is None
    assert re.fullmatch(r"[0-9a-f]{12}", str(config["version"]))
    # small on every page: the roller's own files stay small (history, share links, the
    # phone policy, rolls from every odds cell, the reader's own values on scenario and
    # rules pages, chips and the service worker's registration: ~38 KB without comments,
    # 11 KB compressed)
    script = (target / "roller.js").read_bytes()
    assert len(script) < 38_500
    assert len(gzip.compress(script)) < 11_000
    assert b"\n//" not in script  # comment lines stay in the package's source
    assert (target / "roller.css").stat().st_size < 14_000
    # a second install leaves unchanged files alone
    mtime = (target / "pyodide" / "pyodide.asm.wasm").stat().st_mtime_ns
    install_assets(str(tmp_path), RollerSettings(policy="click"))
    assert (target / "pyodide" / "pyodide.asm.wasm").stat().st_mtime_ns == mtime


def test_install_assets_cdn(tmp_path: Path) -> None:
    settings = RollerSettings(
        pyodide_url="https://cdn.example/pyodide/v314.0.7/full", pyodide_dir=str(tmp_path / "none")
    )
    install_assets(str(tmp_path), settings)  # no Pyodide needed locally
    target = tmp_path / ASSET_DIR
    assert not (target / "pyodide").exists()
    config = _config((target / "roller.js").read_text(encoding="utf-8"))
    assert config["pyodideURL"] == "https://cdn.example/pyodide/v314.0.7/full/"


def test_install_assets_without_pyodide_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RollerAssetError, match=r"Pyodide 314\.0\.7"):
        install_assets(str(tmp_path / "site"), RollerSettings(pyodide_dir=str(tmp_path)))


def test_worker_and_script_use_no_location_based_urls() -> None:
    assets = PACKAGE / "site" / "assets"
    script = (assets / "roller.js").read_text(encoding="utf-8")
    worker = (assets / "worker.js").read_text(encoding="utf-8")
    assert "document.currentScript" in script
    assert "location.pathname" not in script and "location.origin" not in script
    assert '{ type: "module" }' in script
    assert "unpackArchive" in worker and "micropip" not in worker
    assert "http://" not in script + worker and "https://" not in script + worker
