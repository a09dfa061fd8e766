"""The build fails loudly and says where: superfences custom fences, fence problems with
file and line, a missing scenario folder, values the engine refuses, no silent fallbacks."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import markdown
import pytest
from mkdocs.commands.build import build
from mkdocs.config import config_options, load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort

from saikoro.site._fences import FenceContext, add_custom_fences, fence_lines
from saikoro.site._oddscache import OddsCache
from test_site_support import KEGARE, env

MKDOCS = [sys.executable, "-m", "mkdocs"]


def _site(root: Path, page: str = "# home\n", plugin: str = "  - saikoro\n") -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "scenarios").mkdir()
    (root / "docs" / "index.md").write_text(page, "utf-8")
    (root / "mkdocs.yml").write_text(
        f"site_name: s\ntheme:\n  name: material\n  font: false\nplugins:\n{plugin}", "utf-8"
    )
    return root


def _build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MKDOCS, "build", *args],
        cwd=root,
        env=env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _md(ctx: FenceContext, *extensions: str) -> markdown.Markdown:
    names, configs = list(extensions), {}  # type: ignore[var-annotated]
    add_custom_fences(names, configs, ctx)
    return markdown.Markdown(extensions=names, extension_configs=configs)


# -- fences are superfences custom fences ------------------------------------------------


@pytest.mark.parametrize("kind", ["dice", "flow", "scenario"])
def test_fence_in_an_indented_code_block_stays_code(kind: str) -> None:
    body = {"dice": "2D6>=7", "flow": "getb.attack", "scenario": "x#enemy:y"}[kind]
    html = _md(FenceContext()).convert(f"text\n\n    ```{kind}\n    {body}\n    ```\n\nafter\n")
    assert f"<pre><code>```{kind}\n" in html
    assert "saikoro-odds" not in html and "mermaid" not in html and "saikoro-error" not in html


def test_the_plugin_configures_superfences_itself() -> None:
    names: list[Any] = ["toc"]
    configs: dict[str, Any] = {}
    assert add_custom_fences(names, configs, FenceContext()) == []
    assert names == ["toc", "pymdownx.superfences"]
    fences = configs["pymdownx.superfences"]["custom_fences"]
    assert [f["name"] for f in fences] == ["dice", "flow", "scenario"]


def test_a_site_fence_of_the_same_name_is_kept() -> None:
    mine = {"name": "dice", "class": "mine", "format": lambda *_, **__: "<b>mine</b>"}
    names: list[Any] = ["pymdownx.superfences"]
    configs: dict[str, Any] = {"pymdownx.superfences": {"custom_fences": [mine]}}
    assert add_custom_fences(names, configs, FenceContext()) == ["dice"]
    assert names == ["pymdownx.superfences"]
    fences = configs["pymdownx.superfences"]["custom_fences"]
    assert fences[0] is mine and [f["name"] for f in fences[1:]] == ["flow", "scenario"]


def test_indented_fence_in_a_real_build_stays_code(tmp_path: Path) -> None:
    page = "# p\n\n例:\n\n    ```dice\n    2D6>=7\n    ```\n\n```dice\n1D6\n```\n"
    root = _site(tmp_path / "s", page)
    result = _build(root, "--strict")
    assert result.returncode == 0, result.stderr[-3000:]
    html = (root / "site" / "index.html").read_text("utf-8")
    assert "```dice" in html and 'data-command="2D6&gt;=7"' not in html
    assert 'data-command="1D6"' in html


# -- a refused command is a warning with file and line ------------------------


def test_fence_lines_find_the_source_lines() -> None:
    source = (
        "---\nsystem: getb\n---\n# t\n\n```dice\n\nGB3>=8\n```\n\n    ```dice\n    x\n    ```\n"
    )
    assert fence_lines(source) == [("dice", "GB3>=8", 7), ("dice", "x", 12)]


def test_refused_command_warns_with_file_and_line_and_the_build_goes_on(tmp_path: Path) -> None:
    page = "# p\n\n本文\n\n```dice\n2D6\n200D10000\n```\n\n```dice\n1D6\n```\n"
    root = _site(tmp_path / "s", page)
    result = _build(root)
    assert result.returncode == 0, result.stderr[-3000:]
    assert re.search(r"WARNING.*index\.md:7: dice fence: '200D10000': ", result.stderr), (
        result.stderr
    )
    html = (root / "site" / "index.html").read_text("utf-8")
    assert 'data-command="2D6"' in html and 'data-command="1D6"' in html
    assert "saikoro-error" in html
    strict = _build(root, "--strict")
    assert strict.returncode != 0 and "index.md:7" in strict.stderr


def test_warning_lines_count_the_front_matter(caplog: pytest.LogCaptureFixture) -> None:
    source = "---\nsystem: getb\n---\n\n```dice\nsystem: nosuch\n2D6\n```\n"
    ctx = FenceContext(page="rules.md")
    ctx.lines = fence_lines(source)
    with caplog.at_level(logging.WARNING):
        _md(ctx).convert(source.split("---\n", 2)[2])
    assert any("saikoro: rules.md:6: dice fence:" in r.getMessage() for r in caplog.records)


def test_an_internal_error_in_the_engine_is_not_turned_into_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from saikoro.site import _oddscache as engine  # the site's odds come from its engine_odds

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(engine, "engine_odds", broken)
    with pytest.raises(ZeroDivisionError):
        OddsCache().odds("2D6")


# -- the scenario folder --------------------------------------------------------------------


def test_a_typo_in_the_scenarios_option_is_a_config_error(tmp_path: Path) -> None:
    root = _site(tmp_path / "s", plugin="  - saikoro:\n      scenarios: scenaros\n")
    (root / "scenarios" / "port.yaml").write_text(KEGARE, "utf-8")
    result = _build(root)
    assert result.returncode != 0
    assert "there is no folder 'scenaros'" in result.stderr
    assert "did you mean 'scenarios'?" in result.stderr
    assert not (root / "site").exists()


def test_no_scenarios_folder_and_no_option_is_fine(tmp_path: Path) -> None:
    root = _site(tmp_path / "s")
    (root / "scenarios").rmdir()
    result = _build(root, "--strict")
    assert result.returncode == 0, result.stderr[-3000:]


# -- the build never shows "?" for a value ---------------------------------------------------


def test_out_of_range_rulings_fail_the_build_at_their_position(tmp_path: Path) -> None:
    root = _site(tmp_path / "s")
    text = "system: kokuryoku\ntitle: x\nrulings:\n  die: 999999\n"
    (root / "scenarios" / "bad.yaml").write_text(text, "utf-8")
    result = _build(root)
    assert result.returncode != 0
    assert "bad.yaml:4:8: error: scenario.rulings.die:" in result.stderr


@pytest.fixture(autouse=True)
def _no_plugin_left_behind() -> Any:
    """Drop MkDocs' cached plugin after each test: a plugin built here under a
    monkeypatched engine keeps that engine's refusals in its odds cache, and the next
    in-process build in this worker (another module's) would reuse it."""
    yield
    option = MkDocsConfig.plugins
    assert isinstance(option, config_options.Plugins)
    option.plugin_cache.clear()


def _config(root: Path, *, fresh: bool = True) -> Any:
    """The site's configuration for an in-process build.

    MkDocs keeps one instance of a plugin with ``on_startup`` for the whole process (what
    keeps saikoro's caches through serve rebuilds), so in-process builds share it;
    ``fresh`` drops it first, so no test sees what another's monkeypatched engine cached.
    """
    option = MkDocsConfig.plugins
    assert isinstance(option, config_options.Plugins)
    if fresh:
        option.plugin_cache.clear()
    return load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(root / "site"))


def test_a_value_the_engine_refuses_fails_the_build_at_the_scenario_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from saikoro.dice import LimitError
    from saikoro.dice import odds as dice_odds
    from saikoro.site import _oddscache as engine  # the site's odds come from its engine_odds

    real = dice_odds  # what the site calls

    def refusing(command: str, *args: Any, **kwargs: Any) -> Any:
        if command.startswith("KGA"):
            raise LimitError("too much work (test)")
        return real(command, *args, **kwargs)

    monkeypatch.setattr(engine, "engine_odds", refusing)
    root = _site(tmp_path / "s")
    (root / "scenarios" / "port.yaml").write_text(KEGARE, "utf-8")
    config = _config(root)
    config.plugins.on_startup(command="build", dirty=False)
    with pytest.raises(Abort):
        build(config)
    plugin = config.plugins["saikoro"]
    assert plugin.build.odds_files == {}, "the failed build's state is dropped"
    assert plugin.build.balance is None
    assert re.search(
        r"port\.yaml:4:5: error: scenario\.enemies\[0\]: この値は表示できません。"
        r"エンジンが次を受け付けません: KGA[^:]*: too much work \(test\)",
        caplog.text,
    ), caplog.text
    assert not (root / "site" / "scenarios" / "port" / "index.html").exists()


def test_under_serve_a_refused_value_gives_an_error_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from saikoro.dice import LimitError
    from saikoro.dice import odds as dice_odds
    from saikoro.site import _oddscache as engine  # the site's odds come from its engine_odds

    real = dice_odds  # what the site calls

    def refusing(command: str, *args: Any, **kwargs: Any) -> Any:
        if command.startswith("KGA"):
            raise LimitError("too much work (test)")
        return real(command, *args, **kwargs)

    monkeypatch.setattr(engine, "engine_odds", refusing)
    root = _site(tmp_path / "s")
    (root / "scenarios" / "port.yaml").write_text(KEGARE, "utf-8")
    config = _config(root)
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        build(config)
        page = (
            (root / "site" / "scenarios" / "port" / "index.html")
            .read_text("utf-8")
            .replace("<wbr>", "")
        )
        assert "このシナリオには誤りがあります" in page
        assert "port.yaml:4:5: error: scenario.enemies[0]" in page
        assert ">?<" not in page
    finally:
        _config(root).plugins.on_startup(command="build", dirty=False)


# -- no silent fallbacks --------------------------------------------------------------------


def test_profiles_have_no_generic_fallback() -> None:
    from saikoro.site._profiles import profile
    from saikoro.systems import SYSTEM_IDS, UnknownSystemError, system_class

    for system in SYSTEM_IDS:
        assert type(profile(system)).__module__ == f"{system_class(system).package()}.page"
    with pytest.raises(UnknownSystemError):
        profile("nosuch")


def test_a_broken_profile_module_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from saikoro.site import _profiles as profiles

    real = importlib.import_module

    def broken(name: str, *args: Any) -> Any:
        if name == "saikoro.systems._kegare.page":
            raise ModuleNotFoundError("No module named 'saikoro.systems._kegare.page'")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError):
        profiles.profile("kegare")


def test_no_except_exception_left_in_site() -> None:
    root = Path(__file__).resolve().parents[1] / "plugin" / "saikoro" / "site"
    for path in root.rglob("*.py"):
        if path.name == "_fences.py":  # re-raised as an error at the fence's line (issue 22)
            continue
        assert "except Exception" not in path.read_text("utf-8"), path


@pytest.mark.parametrize("reserved", ["index", "book"])
def test_a_reserved_id_fails_the_build_at_the_id(tmp_path: Path, reserved: str) -> None:
    root = _site(tmp_path / "s")
    text = KEGARE.replace("title: 港", f"title: 港\nid: {reserved}")
    (root / "scenarios" / "x.yaml").write_text(text)
    result = _build(root)
    assert result.returncode != 0
    assert "x.yaml:3:5: error: scenario.id:" in result.stderr, result.stderr[-3000:]
    assert f"{reserved}" in result.stderr


def test_a_scenario_fence_whose_odds_are_refused_warns(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from saikoro.dice import LimitError
    from saikoro.dice import odds as dice_odds
    from saikoro.scenario import validate_text
    from saikoro.site import _oddscache as engine  # the site's odds come from its engine_odds

    real = dice_odds  # what the site calls

    def refusing(command: str, *args: Any, **kwargs: Any) -> Any:
        if command.startswith("KGA"):
            raise LimitError("too much work (test)")
        return real(command, *args, **kwargs)

    monkeypatch.setattr(engine, "engine_odds", refusing)
    scenario = validate_text(KEGARE, "port.yaml").scenario
    assert scenario is not None
    ctx = FenceContext(page="guide.md", scenarios={"port": scenario})
    source = "# g\n\n```scenario\nport#enemy:oni\n```\n"
    ctx.lines = fence_lines(source)
    with caplog.at_level(logging.WARNING):
        _md(ctx).convert(source)
    assert any(
        "guide.md:4: scenario fence: port#enemy:oni: the engine refuses KGA" in r.getMessage()
        for r in caplog.records
    ), caplog.text


def test_the_roller_switch_is_per_build_and_leaves_nothing_behind(tmp_path: Path) -> None:
    """``roller.enabled`` travels with the build: one build without rollers, in the same
    process, does not take them off the next one's pages (or the other way round)."""
    page = "---\nsystem: kegare\n---\n# 規則\n\n```dice\nKGA2\n```\n"
    pages: dict[int, tuple[bool, list[str]]] = {}
    for enabled in (False, True, False):
        flag = "true" if enabled else "false"
        plugin = f"  - saikoro:\n      roller:\n        enabled: {flag}\n"
        root = _site(tmp_path / f"s{len(pages)}", page, plugin)
        (root / "scenarios" / "port.yaml").write_text(KEGARE, "utf-8")
        config = _config(root, fresh=not pages)  # then one plugin instance, as under serve
        config.plugins.on_startup(command="build", dirty=False)
        build(config)
        site = root / "site"
        shown = [(site / p).read_text("utf-8") for p in ("index.html", "scenarios/port/index.html")]
        pages[len(pages)] = (enabled, shown)
    for enabled, (rules, scenario) in pages.values():
        for html in (rules, scenario):
            assert ("saikoro-roller" in html) is enabled, enabled
        assert "data-probability" in rules and "data-probability" in scenario
