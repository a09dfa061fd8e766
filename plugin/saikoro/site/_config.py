"""The options of the ``saikoro`` MkDocs plugin (``plugins: [saikoro]`` in ``mkdocs.yml``).

Every option has a default, so ``plugins: [saikoro]`` alone turns the ``scenarios/``
folder next to ``mkdocs.yml`` into pages under ``/scenarios/``.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from saikoro.scenario import windows_reserved

from ._paper import PAPERS

__all__ = [
    "BATTLES",
    "MAX_BATTLES",
    "BalanceConfig",
    "Battles",
    "CcfoliaConfig",
    "PdfConfig",
    "RollerConfig",
    "SaikoroConfig",
    "ScenarioFolder",
    "SitePath",
    "check_options",
    "dropped_by",
    "idle_options",
    "site_path",
]


BATTLES = 400
"""Default battles per scenario on the site (the same as ``saikoro validate`` plays)."""
MAX_BATTLES = 100_000
"""The most battles per scenario the site may be asked for (as many as a scenario's own
``balance.battles`` may ask)."""

_NOT_IN_PATH = re.compile(r'[\\:*?"<>|#%\x00-\x1f\x7f]')
"""Characters a folder of the site may not hold: path separators and characters Windows
refuses in a file name, URL delimiters (``#``, ``?``, ``%``) and control characters."""


def site_path(value: str, *, empty: bool = False, what: str = "フォルダ") -> str:
    """``value`` as a path inside the site: ``/``-separated, without a leading or trailing
    ``/``; a :class:`~mkdocs.config.base.ValidationError` (in Japanese: the mistake and the
    fix) when it is empty (unless ``empty``), leaves the site (``..``, an absolute path),
    or holds a name no file system or URL can carry.

    >>> site_path("/scenarios/"), site_path("books/2024"), site_path("", empty=True)
    ('scenarios', 'books/2024', '')
    >>> try:
    ...     site_path("a/../../b")
    ... except base.ValidationError as e:
    ...     print(str(e).split("。")[0])
    'a/../../b' は docs の外（または親のフォルダ）を指しています
    """
    shown = repr(value)
    text = value.strip("/")
    if not text:
        if empty:
            return ""
        raise base.ValidationError(
            f"{shown} は空です: サイトのルートや / には置けません。"
            f"docs の中の{what}名を書いてください（例: scenarios）"
        )
    parts = text.split("/")
    if any(part in {".", ".."} for part in parts) or re.match(r"^[A-Za-z]:", text):
        raise base.ValidationError(
            f"{shown} は docs の外（または親のフォルダ）を指しています。"
            f"docs の中の{what}名を、.. を使わずに書いてください（例: scenarios）"
        )
    for part in parts:
        if not part:
            raise base.ValidationError(
                f"{shown} に空の部分（//）があります。/ を 1 つにしてください"
            )
        bad = _NOT_IN_PATH.search(part)
        if bad is not None:
            raise base.ValidationError(
                f"{shown} に使えない文字 {bad.group()!r} があります"
                "（ファイル名か URL に使えません）。英数字・-・_ などで書いてください"
            )
        named = shown if part == text else f"{shown} の {part!r}"
        if part != part.strip() or part.endswith("."):
            raise base.ValidationError(
                f"{named} は前後に空白があるか . で終わっています（Windows ではそれが消えて"
                "別の名前になります）。空白と末尾の . を取ってください"
            )
        if windows_reserved(part):
            raise base.ValidationError(
                f"{named} は Windows で使えない名前です（con・nul・aux・com1 など）。"
                "別の名前にしてください"
            )
    return text


class SitePath(c.Type):  # type: ignore[type-arg]
    """A folder (or file) inside the site, checked by :func:`site_path`."""

    def __init__(self, default: str, *, empty: bool = False, what: str = "フォルダ") -> None:
        super().__init__(str, default=default)
        self.empty = empty
        self.what = what

    def run_validation(self, value: object) -> str:
        text: str = super().run_validation(value)
        return site_path(text, empty=self.empty, what=self.what)


class Title(c.Type):  # type: ignore[type-arg]
    """A title shown on pages: a string with something in it."""

    def __init__(self, default: str) -> None:
        super().__init__(str, default=default)

    def run_validation(self, value: object) -> str:
        text: str = super().run_validation(value)
        if not text.strip():
            raise base.ValidationError(
                "空です。一覧ページとナビゲーションに出す見出しを書いてください（例: シナリオ）"
            )
        return text


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
    """A number of battles: a whole number from 1 to :data:`MAX_BATTLES`."""

    def __init__(self, default: int) -> None:
        super().__init__(int, default=default)

    def run_validation(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise base.ValidationError(
                f"戦闘回数は整数で書いてください（1〜{MAX_BATTLES}。{value!r} が指定されています）"
            )
        number: int = super().run_validation(value)
        if not 1 <= number <= MAX_BATTLES:
            raise base.ValidationError(
                f"戦闘回数は 1 以上 {MAX_BATTLES} 以下にしてください（{number} が指定されています。"
                f"既定は {BATTLES}）"
            )
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

    prefix = SitePath(default="scenarios")
    """The folder of the site the scenario pages are generated in (``scenarios`` ->
    ``/scenarios/<id>/``, the index at ``/scenarios/``). It must be a folder inside the
    site (not empty or ``/``, no ``..``, no character a file system or URL cannot carry)
    that MkDocs does not leave out (its default ``exclude_docs`` drops ``.*`` and
    ``templates/``; the site's own ``exclude_docs``, ``draft_docs`` and ``not_in_nav``
    count too): anything else is a configuration error."""

    title = Title(default="シナリオ")
    """Title of the generated scenario index page and of its nav section (shown as text:
    markup in it is shown, not run)."""

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

    reference_prefix = SitePath(default="", empty=True)
    """The folder of the site the reference pages are generated in (``rulings.md``,
    ``commands.md``, ``authoring/``); empty (the default): the site's root. Set it when the
    site has pages of its own by those names, e.g. ``reference_prefix: reference`` ->
    ``/reference/rulings/``."""

    schema = c.Type(bool, default=True)
    """Publish the scenario JSON Schema at ``schema_path``, so that editors
    (yaml-language-server: ``# yaml-language-server: $schema=<site>/schema/scenario.schema.json``)
    explain and check scenario files. Off: no schema file in the site."""

    schema_path = SitePath(default="schema/scenario.schema.json", what="ファイル")
    """Where the scenario JSON Schema is published (relative to the site root; a ``.json``
    file inside the site)."""

    ccfolia = c.SubConfig(CcfoliaConfig)
    """ココフォリアの表示設定 of exported enemies (see :class:`CcfoliaConfig`)."""

    balance = c.SubConfig(BalanceConfig)
    """The 「バランス」 section of scenario pages (see :class:`BalanceConfig`)."""

    pdf = c.SubConfig(PdfConfig)
    """The printed book (see :class:`PdfConfig`)."""


def _pattern(spec: Any, uri: str) -> str:
    """The line of a ``.gitignore``-style spec that matches ``uri`` (as MkDocs reads it)."""
    check = getattr(spec, "check_file", None)  # pathspec >= 0.12
    if check is not None:
        index = check(uri).index
        if index is not None:
            return str(spec.patterns[index].pattern)
    return "…"


def dropped_by(uri: str, config: MkDocsConfig, *, nav: bool = False) -> str | None:
    """Why MkDocs would leave the generated file ``uri`` out of the built site (with
    ``nav``, out of the navigation too): the rule, in Japanese, or ``None``.

    MkDocs applies its default ``exclude_docs`` (``.*`` and ``/templates/``), the site's
    ``exclude_docs`` and ``draft_docs`` (left out of ``mkdocs build``) and ``not_in_nav``
    to every file a plugin adds without an inclusion level of its own; saikoro checks
    every file it adds against them instead of losing it without a word.
    """
    parts = uri.split("/")
    if any(part.startswith(".") for part in parts):
        return "MkDocs が既定で除外する名前（exclude_docs の既定「.*」: . で始まる名前）"
    if parts[0] == "templates" and len(parts) > 1:
        return "MkDocs が既定で除外するフォルダ（exclude_docs の既定「/templates/」）"
    options = ("exclude_docs", "draft_docs", *(("not_in_nav",) if nav else ()))
    for option in options:
        spec = config.get(option)
        if spec is not None and spec.match_file(uri):
            return f"mkdocs.yml の {option} の「{_pattern(spec, uri)}」"
    return None


def check_options(options: SaikoroConfig, config: MkDocsConfig) -> None:
    """Options that would do nothing or lose pages without a word: a ``PluginError``
    naming each option and its fix, in Japanese (all at once).

    The pages under ``prefix`` (``reference_prefix``) and the schema at ``schema_path``
    must not be left out by MkDocs' exclusion rules; of ``mermaid_url`` and ``mermaid_dir``
    (where Mermaid comes from) one would be ignored.
    """
    problems: list[str] = []
    places = [("prefix", options.prefix, f"{options.prefix}/index.md", True)]
    if options.reference:
        folder = f"{options.reference_prefix}/" if options.reference_prefix else ""
        places.append(("reference_prefix", options.reference_prefix, f"{folder}rulings.md", False))
    if options.schema:
        places.append(("schema_path", options.schema_path, options.schema_path, False))
    for name, value, uri, nav in places:
        rule = dropped_by(uri, config, nav=nav)
        if rule is not None:
            what = "ファイル" if name == "schema_path" else "ページ"
            problems.append(
                f"オプション {name}: {value!r} に作る{what}（{uri}）は、{rule}に当てはまり、"
                f"{'ナビゲーション' if 'not_in_nav' in rule else 'サイト'}に載りません。"
                f"{name} を別の名前にするか、mkdocs.yml の除外の設定を直してください"
            )
    if options.schema and not options.schema_path.endswith(".json"):
        where = Path(config.docs_dir) / options.schema_path
        mine = ""
        if where.exists():
            base_dir = Path(config.config_file_path or ".").resolve().parent
            shown = where.resolve().relative_to(base_dir).as_posix()
            mine = f"このままでは {shown}（作者のページ）が JSON Schema で置き換えられます。"
        problems.append(
            f"オプション schema_path: {options.schema_path!r} はエディタ用の JSON Schema の"
            f"置き場所です。{mine}.json で終わる名前にしてください"
            "（例: schema/scenario.schema.json）"
        )
    if options.mermaid_url is not None and options.mermaid_dir is not None:
        problems.append(
            "オプション mermaid_url と mermaid_dir の両方が書かれています（URL があると "
            "mermaid_dir は使われません）。どちらか一方だけにしてください"
        )
    if problems:
        raise PluginError("saikoro: プラグインの設定:\n" + "\n".join(f"  {p}" for p in problems))


def idle_options(options: SaikoroConfig) -> list[str]:
    """Options given a value that another option switches off (a warning each, in
    Japanese: said, not ignored without a word; ``--strict`` fails on them)."""
    out = []
    idle = [
        (options.reference_prefix != "", "reference_prefix", "reference: true"),
        (
            options.schema_path != SaikoroConfig.schema_path.default,
            "schema_path",
            "schema: true",
        ),
        (options.balance.battles != BATTLES, "balance.battles", "balance.enabled: true"),
        (
            options.balance.fail_on_miss is not None,
            "balance.fail_on_miss",
            "balance.enabled: true",
        ),
        (
            options.balance.cache_dir != BalanceConfig.cache_dir.default,
            "balance.cache_dir",
            "balance.enabled: true と balance.cache: true",
        ),
    ]
    switches = {
        "reference_prefix": options.reference,
        "schema_path": options.schema,
        "balance.battles": options.balance.enabled,
        "balance.fail_on_miss": options.balance.enabled,
        "balance.cache_dir": options.balance.enabled and options.balance.cache,
    }
    for given, name, needs in idle:
        if given and not switches[name]:
            out.append(
                f"オプション {name} は {needs} のときだけ使われ、今の設定では何もしません"
                f"（消すか、{needs} にしてください）"
            )
    return out
