"""The plugin's switch for roll widgets over :mod:`saikoro.site.roller`.

Pages call :func:`widget` / :func:`free_widget` here; with the plugin's ``roller.enabled``
off they get nothing, so a site can show odds without rollers.
"""

from __future__ import annotations

from collections.abc import Mapping

from saikoro.systems import OptionValue

from . import roller

__all__ = ["configure", "enabled", "free_widget", "widget"]

_state = {"enabled": True}


def configure(*, enabled: bool) -> None:
    """Switch roll widgets on or off for the pages rendered next (the plugin's option)."""
    _state["enabled"] = enabled


def enabled() -> bool:
    """Whether roll widgets are rendered."""
    return _state["enabled"]


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
    return roller.widget(command, system=system, label=label, options=options)


def free_widget(
    *, system: str | None = None, options: Mapping[str, OptionValue] | None = None
) -> str:
    """HTML of a free-form roller (empty when rolling is off).

    ``options`` apply to ``system`` (the one preselected), as in :func:`widget`.
    """
    if not _state["enabled"]:
        return ""
    return roller.free_widget(system=system, options=options)
