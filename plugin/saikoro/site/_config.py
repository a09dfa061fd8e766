"""The options of the ``saikoro`` MkDocs plugin (``plugins: [saikoro]`` in ``mkdocs.yml``).

Every option has a default, so ``plugins: [saikoro]`` alone turns the ``scenarios/``
folder next to ``mkdocs.yml`` into pages under ``/scenarios/``.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c

from ._paper import PAPERS

__all__ = [
    "BATTLES",
    "BalanceConfig",
    "Battles",
    "CcfoliaConfig",
    "PdfConfig",
    "RollerConfig",
    "SaikoroConfig",
    "ScenarioFolder",
]


BATTLES = 400
"""Default battles per scenario on the site (the same as ``saikoro validate`` plays)."""


class ScenarioFolder(c.Dir):
    """A folder that must exist; when it does not, the error names close folder names."""

    def __init__(self) -> None:
        super().__init__(exists=False)

    def run_validation(self, value: object) -> str:
        path: str = super().run_validation(value)
        folder = Path(path)
        if folder.is_dir():
            return path
        message = f"there is no folder {value!r} (looked for {path})"
        if folder.parent.is_dir():
            folders = [
                p.name for p in folder.parent.iterdir() if p.is_dir() and not p.name.startswith(".")
            ]
            close = difflib.get_close_matches(folder.name, folders, n=1, cutoff=0.6)
            if close:
                message += f"; did you mean {close[0]!r}?"
        raise base.ValidationError(message)


class RollerConfig(base.Config):  # type: ignore[no-untyped-call]
    """The dice roller shown on pages (``roller:`` under the plugin's options)."""

    enabled = c.Type(bool, default=True)
    """Put roll buttons and a free-form roller on pages. Off: odds only, no Python in browsers."""

    loading = c.Choice(("intent", "eager", "visible", "click"), default="intent")
    """When the in-browser engine (about 0.3 MB) starts loading: when the reader points at,
    touches or focuses a roller (``intent``), at page load (``eager``), when a roller
    scrolls into view (``visible``), or on the first click (``click``). Phones load it on
    the first tap whatever the choice."""

    pyodide_url = c.Deprecated(
        message="saikoro: the roller's pyodide_url is no longer used: the roller runs "
        "MicroPython, bundled with saikoro; remove the option"
    )
    """Removed: the roller no longer runs Pyodide."""

    pyodide_dir = c.Deprecated(
        message="saikoro: the roller's pyodide_dir is no longer used: the roller runs "
        "MicroPython, bundled with saikoro; remove the option"
    )
    """Removed: the roller no longer runs Pyodide."""

    offline = c.Type(bool, default=True)
    """Keep the book on the reader's device: a service worker (``saikoro-sw.js`` at the
    site root) keeps the dice engine once the reader has rolled (no second download), so
    later visits roll at once, and every page when the reader taps
    「オフライン用に保存（2.4 MB）」 (never by itself), so the site works with the network
    off; a web app manifest lets a phone install the book as an app. Never under ``mkdocs
    serve``. Off: neither."""


class CcfoliaConfig(base.Config):  # type: ignore[no-untyped-call]
    """How enemies copied to ココフォリア are hidden (``ccfolia:`` under the plugin's options).

    These are ココフォリア's own three settings of a character; all are off by default,
    as in ココフォリア. The GM can still change them on the piece after pasting.
    """

    secret = c.Type(bool, default=False)
    """ステータスを非公開: players who do not own the piece see neither its status nor
    its initiative (``secret``)."""

    invisible = c.Type(bool, default=False)
    """発言時キャラクターを表示しない: no character image over the message window when
    the enemy speaks (``invisible``)."""

    hide_status = c.Type(bool, default=False)
    """盤面キャラクター一覧に表示しない: the enemy is not listed in the board's character
    list (``hideStatus``)."""


class Battles(c.Type):  # type: ignore[type-arg]
    """A number of battles: a whole number, at least 1."""

    def __init__(self, default: int) -> None:
        super().__init__(int, default=default)

    def run_validation(self, value: object) -> int:
        if isinstance(value, bool):
            raise base.ValidationError(f"expected a whole number of battles, got {value!r}")
        number: int = super().run_validation(value)
        if number < 1:
            raise base.ValidationError(f"expected at least 1 battle, got {number}")
        return number


class BalanceConfig(base.Config):  # type: ignore[no-untyped-call]
    """The 「バランス」 section of scenario pages (``balance:`` under the plugin's options)."""

    enabled = c.Type(bool, default=True)
    """Simulate each scenario's fight at build time and show how hard it is (win rate with
    its 95 % interval, rounds, each PC's danger, a verdict). Off: no section, no simulation."""

    battles = Battles(default=BATTLES)
    """Battles simulated per scenario (from seed 0), unless the scenario's own
    ``balance.battles`` says how many. The 95 % interval is about ±1/√battles wide."""

    cache = c.Type(bool, default=True)
    """Keep the figures in ``cache_dir`` between builds, keyed by the simulation's whole
    input (so a build after one edit simulates only the changed fight). Off: memory only
    (``mkdocs serve`` still keeps them across rebuilds)."""

    cache_dir = c.Type(str, default=".cache/plugin/saikoro/balance")
    """The cache folder, relative to ``mkdocs.yml`` (or absolute). Safe to delete.
    ``saikoro validate`` reads and fills the same folder."""

    fail_on_miss = c.Optional(c.Type(bool))
    """Whether a scenario whose win rate clearly misses its ``balance.win`` (the exact value,
    or the whole 95 % interval, outside the range) fails the build. Off, the miss is
    reported in the log and on the page, and ``--strict`` does not fail on it: the balance
    gate is the author's choice, not MkDocs'. Not set: the environment variable
    ``SAIKORO_FAIL_ON_MISS`` decides (off when unset; the CI workflow of ``saikoro new``
    sets it, as ``saikoro validate`` reads it). A figure whose interval crosses a bound is
    "not yet certain" and never fails."""


class PdfConfig(base.Config):  # type: ignore[no-untyped-call]
    """The printed book (``pdf:`` under the plugin's options): what ``saikoro pdf`` and the
    browser's print of the whole-book page use unless told otherwise."""

    paper = c.Optional(c.Choice(tuple(PAPERS)))
    """The book's paper: ``A4``, ``B5`` (JIS, 182 x 257 mm) or ``A5``. The whole-book page
    asks the browser's print for it, and ``saikoro pdf`` prints on it unless ``--paper``
    says otherwise. Unset: the browser's choice, and A4 for ``saikoro pdf``."""


class SaikoroConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options of the ``saikoro`` plugin."""

    scenarios = c.Optional(ScenarioFolder())
    """Folder of scenario YAML files, relative to ``mkdocs.yml`` (or absolute). Unset: the
    ``scenarios/`` folder next to ``mkdocs.yml`` when there is one (a site without
    scenarios needs none). A folder given here must exist: a typo is a configuration
    error, not an empty book."""

    prefix = c.Type(str, default="scenarios")
    """URL prefix of the generated scenario pages (``scenarios`` -> ``/scenarios/<id>/``)."""

    title = c.Type(str, default="シナリオ")
    """Title of the generated scenario index page and of its nav section."""

    roller = c.SubConfig(RollerConfig)
    """The in-browser dice roller (see :class:`RollerConfig`)."""

    mermaid_url = c.Optional(c.Type(str))
    """URL of ``mermaid.min.js`` from a CDN; unset = self-hosted (the pinned copy bundled in
    the saikoro package), so flowcharts never call out to another host."""

    mermaid_dir = c.Optional(c.Type(str))
    """A folder holding a ``mermaid.min.js`` to self-host instead of the bundled copy
    (relative to ``mkdocs.yml``); unset = the copy bundled in the saikoro package."""

    typography = c.Type(bool, default=True)
    """Set Japanese text as a rule on every page: full-width brackets, colons and marks
    where they touch Japanese (``毒(LV1)`` -> ``毒（LV1）``, ``システム: X`` ->
    ``システム：X``), line breaks only between phrases in headings and table cells
    (BudouX). Code is never touched. Off: page text is left as written."""

    language = c.Choice(("ja", "en"), default="ja")
    """Language of scenario problem messages (build errors, warnings and the error pages
    shown under ``mkdocs serve``). Page labels are Japanese; scenario text is shown as
    written."""

    reference = c.Type(bool, default=False)
    """Also generate saikoro's own reference pages (rulings, commands, the scenario field
    reference and the author guide under ``authoring/``); used by saikoro's own site and
    by ``saikoro docs``."""

    reference_prefix = c.Type(str, default="reference")
    """URL prefix of the generated reference pages."""

    schema = c.Type(bool, default=True)
    """Publish the scenario JSON Schema at ``schema_path``, so that editors
    (yaml-language-server: ``# yaml-language-server: $schema=<site>/schema/scenario.schema.json``)
    explain and check scenario files. Off: no schema file in the site."""

    schema_path = c.Type(str, default="schema/scenario.schema.json")
    """Where the scenario JSON Schema is published (relative to the site root)."""

    ccfolia = c.SubConfig(CcfoliaConfig)
    """ココフォリアの表示設定 of exported enemies (see :class:`CcfoliaConfig`)."""

    balance = c.SubConfig(BalanceConfig)
    """The 「バランス」 section of scenario pages (see :class:`BalanceConfig`)."""

    pdf = c.SubConfig(PdfConfig)
    """The printed book (see :class:`PdfConfig`)."""
