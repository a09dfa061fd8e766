"""A thin adapter over :mod:`saikoro.site.roller` (the browser roller, written separately).

Pages call :func:`widget` / :func:`free_widget` here; when the roller module is missing
(or rolling is switched off) they get a plain, inert ``<button>`` with the same
``data-command`` so the odds pages still build.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from types import ModuleType

from saikoro.systems import OptionValue

from .safe import esc

__all__ = ["configure", "enabled", "free_widget", "roller_module", "widget"]

_state = {"enabled": True}


def configure(*, enabled: bool) -> None:
    """Switch roll widgets on or off for the pages rendered next (the plugin's option)."""
    _state["enabled"] = enabled


def enabled() -> bool:
    """Whether roll widgets are rendered."""
    return _state["enabled"]


def roller_module() -> ModuleType | None:
    """The roller module, or ``None`` when it is not installed yet."""
    try:
        return importlib.import_module("saikoro.site.roller")
    except ImportError:
        return None


def widget(
    command: str,
    *,
    system: str | None = None,
    label: str | None = None,
    options: Mapping[str, OptionValue] | None = None,
) -> str:
    """HTML of one roll widget for ``command`` (escaped); ``""`` when rolling is off.

    ``options`` are the system's ruling options the page's odds used (a scenario's
    ``rulings:``), so the roll follows them too.
    """
    if not _state["enabled"]:
        return ""
    module = roller_module()
    if module is not None:
        html: str = module.widget(command, system=system, label=label, options=options)
        return html
    data_system = f' data-system="{esc(system)}"' if system else ""
    if system and options:
        data_system += f' data-options="{esc(_options_json(options))}"'
    return (
        f'<span class="saikoro-roll" data-command="{esc(command)}"{data_system}>'
        f'<button type="button" class="md-button saikoro-roll-button" disabled>'
        f"{esc(label or command)}</button>"
        f'<output aria-live="polite"></output></span>'
    )


def free_widget(
    *, system: str | None = None, options: Mapping[str, OptionValue] | None = None
) -> str:
    """HTML of a free-form roller (empty without the roller module or when rolling is off).

    ``options`` apply to ``system`` (the one preselected), as in :func:`widget`.
    """
    module = roller_module()
    if module is None or not _state["enabled"]:
        return ""
    html: str = module.free_widget(system=system, options=options)
    return html


def _options_json(options: Mapping[str, OptionValue]) -> str:
    return json.dumps(dict(options), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
