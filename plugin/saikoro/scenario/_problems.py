"""Problems found in scenario files, and their messages in English and Japanese.

A :class:`Problem` stores a message *code* and its arguments rather than text, so the
same problem can be shown in either language. The catalogues live in
``scenario/locale/{en,ja}.json``; both have the same keys (a test checks it).

>>> p = Problem("s.yaml", 3, 5, "error", "scenario.title", Msg("type", (Msg("t.str"), "1")))
>>> p.format("en")
's.yaml:3:5: error: scenario.title: expected a string, got 1'
>>> p.format("ja")
's.yaml:3:5: error: scenario.title: 文字列が必要ですが、1 が指定されています'
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from saikoro.dice import SaikoroError

__all__ = [
    "BALANCE_SECONDS_ENV",
    "FAIL_ON_MISS_ENV",
    "LANGS",
    "Gate",
    "Msg",
    "Problem",
    "Severity",
    "balance_seconds_env",
    "catalogue",
    "default_lang",
    "fail_on_miss_env",
    "render",
    "show_value",
]

LANGS = ("en", "ja")
"""The languages with a message catalogue."""

Severity = Literal["error", "warning", "note"]
"""A note says how saikoro read something (never a problem: ``--strict`` ignores it)."""
Gate = Literal["", "miss", "note"]
"""What a balance-gate verdict is (see :attr:`Problem.gate`)."""

FAIL_ON_MISS_ENV = "SAIKORO_FAIL_ON_MISS"
"""The environment variable that makes a ``balance.win`` target clearly missed a failure in
``saikoro validate`` and the build (where neither ``--fail-on-miss`` nor the plugin's
``balance.fail_on_miss`` says): the CI workflow of ``saikoro new`` sets it."""


class SettingError(SaikoroError, ValueError):
    """A setting from the environment that is not one of its values."""


BALANCE_SECONDS_ENV = "SAIKORO_BALANCE_SECONDS"
"""The environment variable that sets how long ``saikoro validate`` and the build may play
one scenario's battles (seconds; :data:`saikoro.balance.AUTHOR_SECONDS` when unset)."""

MAX_BALANCE_SECONDS = 86_400
"""The most :data:`BALANCE_SECONDS_ENV` may ask (a day)."""


def balance_seconds_env(environ: Mapping[str, str] | None = None) -> float | None:
    """The seconds :data:`BALANCE_SECONDS_ENV` gives (``None``: not set).

    >>> balance_seconds_env({"SAIKORO_BALANCE_SECONDS": "60"}), balance_seconds_env({})
    (60.0, None)

    Raises:
        SettingError: not a number of seconds from 0.1 to :data:`MAX_BALANCE_SECONDS`.
    """
    value = (os.environ if environ is None else environ).get(BALANCE_SECONDS_ENV, "").strip()
    if not value:
        return None
    try:
        seconds = float(value) if len(value) <= 20 else math.nan
    except ValueError:
        seconds = math.nan
    if not 0.1 <= seconds <= MAX_BALANCE_SECONDS:  # NaN too
        raise SettingError(
            f"{BALANCE_SECONDS_ENV}: expected seconds from 0.1 to {MAX_BALANCE_SECONDS}, "
            f"got {value[:30]!r}"
        )
    return seconds


def fail_on_miss_env(environ: Mapping[str, str] | None = None) -> bool:
    """Whether :data:`FAIL_ON_MISS_ENV` asks for the balance gate to fail (unset: no).

    >>> fail_on_miss_env({"SAIKORO_FAIL_ON_MISS": "true"}), fail_on_miss_env({})
    (True, False)

    Raises:
        SettingError: a value that is neither true nor false (``1``/``0``, ``yes``/``no``...).
    """
    value = (os.environ if environ is None else environ).get(FAIL_ON_MISS_ENV, "")
    word = value.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("", "0", "false", "no", "off"):
        return False
    raise SettingError(f"{FAIL_ON_MISS_ENV}: expected true or false, got {value!r}")


@dataclass(frozen=True)
class Said:
    """A text that comes in both languages already (an engine's refusal, say): an argument
    of a :class:`Msg` rendered as the report's language asks."""

    en: str
    ja: str


@dataclass(frozen=True)
class Msg:
    """A message: a catalogue key and its arguments (strings, ints or nested messages).

    >>> render(Msg("t.int_range", (1, 99)), "en")
    'an integer between 1 and 99'
    """

    code: str
    args: tuple[str | int | Msg | Said, ...] = ()


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The message catalogue of ``lang`` (``en`` or ``ja``): code -> format string."""
    # read beside this module, as the package's other files are (importlib.resources would
    # import tempfile and zipfile on every start of the command)
    text = (Path(__file__).parent / "locale" / f"{lang}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def render(msg: Msg | Said | str | int, lang: str) -> str:
    """The text of ``msg`` in ``lang`` (nested messages rendered too)."""
    if isinstance(msg, Said):
        return msg.ja if lang == "ja" else msg.en
    if not isinstance(msg, Msg):
        return str(msg)
    template = catalogue(lang).get(msg.code) or catalogue("en").get(msg.code) or msg.code
    return template.format(*(render(a, lang) for a in msg.args))


def default_lang(environ: dict[str, str] | None = None) -> str:
    """The language of messages: Japanese, as the site and every command speak, unless the
    locale asks for English (LC_ALL, LC_MESSAGES or LANG, the first set, starting with
    ``en``).

    >>> default_lang({"LANG": "ja_JP.UTF-8"}), default_lang({}), default_lang({"LANG": "C.UTF-8"})
    ('ja', 'ja', 'ja')
    >>> default_lang({"LC_ALL": "en_US.UTF-8", "LANG": "ja_JP.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return "en" if value.lower().startswith("en") else "ja"
    return "ja"


_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _escape_control(match: re.Match[str]) -> str:
    """A control character as an escape, so messages never carry one to a terminal."""
    char = match.group()
    return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(char, f"\\x{ord(char):02x}")


def show_value(value: object) -> str | Msg:
    """How a YAML value is shown after "got" in messages.

    >>> show_value("forty"), show_value(40), show_value(True), show_value(None)
    ("'forty'", '40', 'true', 'null')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        text = str(value)
        return text if len(text) <= 24 else text[:10] + "…" + f"({len(text)} digits)"
    if isinstance(value, str):
        short = value if len(value) <= 40 else value[:37] + "…"
        return "'" + _CONTROLS.sub(_escape_control, short) + "'"
    if isinstance(value, dict):
        return Msg("v.map")
    if isinstance(value, list):
        return Msg("v.seq")
    return repr(value)


@dataclass(frozen=True)
class Problem:
    """One error or warning, with its place in the file.

    Attributes:
        file: the file name as given.
        line: 1-based line.
        column: 1-based column.
        severity: ``error``, ``warning`` or ``note`` (how something was read).
        path: the key path, ``scenario.enemies[0].hp`` (``scenario`` for the whole file).
        msg: the message (code and arguments).
        hint_msg: an optional hint (a did-you-mean, the odds...).
        gate: ``""`` for a problem in the file; for a verdict of the balance gate (a
            warning, which ``saikoro validate --strict`` leaves alone), ``"miss"`` (the
            ``balance.win`` target clearly missed: an error with ``--fail-on-miss``) or
            ``"note"`` (not yet certain, battles cut by time: never a failure).
    """

    file: str
    line: int
    column: int
    severity: Severity
    path: str
    msg: Msg
    hint_msg: Msg | None = field(default=None)
    gate: Gate = ""

    @property
    def message(self) -> str:
        """The message in English."""
        return render(self.msg, "en")

    @property
    def hint(self) -> str | None:
        """The hint in English, if any."""
        return None if self.hint_msg is None else render(self.hint_msg, "en")

    def text(self, lang: str = "en") -> str:
        """The message in ``lang``."""
        return render(self.msg, lang)

    def hint_text(self, lang: str = "en") -> str | None:
        """The hint in ``lang``, if any."""
        return None if self.hint_msg is None else render(self.hint_msg, lang)

    def format(self, lang: str = "en") -> str:
        """``FILE:LINE:COL: error: PATH: MESSAGE`` plus ``(hint: ...)`` when there is a hint."""
        out = f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.path}: "
        out += self.text(lang)
        hint = self.hint_text(lang)
        if hint:
            out += render(Msg("hint", (hint,)), lang)
        return out

    def to_json(self, lang: str = "en") -> dict[str, object]:
        """A JSON-ready dict (message and hint rendered in ``lang``)."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "path": self.path,
            "code": self.msg.code,
            "message": self.text(lang),
            "hint": self.hint_text(lang),
            "gate": self.gate or None,
        }

    def sort_key(self) -> tuple[str, int, int, int]:
        """Order: file, line, column, errors before warnings before notes."""
        rank = {"error": 0, "warning": 1}.get(self.severity, 2)
        return (self.file, self.line, self.column, rank)
