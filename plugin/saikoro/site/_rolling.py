"""The plugin's switch for roll widgets over :mod:`saikoro.site._roller`.

Pages call :func:`widget` / :func:`free_widget` here with ``enabled`` (the plugin's
``roller.enabled``, passed down from the build); off, they get nothing, so a site can
show odds without rollers.
"""

from __future__ import annotations

from collections.abc import Mapping

from saikoro.systems import OptionValue

from . import _roller as roller

__all__ = ["free_widget", "widget"]


def widget(
    command: str,
    *,
    enabled: bool,
    system: str | None = None,
    label: str | None = None,
    options: Mapping[str, OptionValue] | None = None,
    personal: str | None = None,
) -> str:
    """HTML of one roll widget for ``command`` (escaped); ``""`` when not ``enabled``.

    ``options`` are the system's ruling options the page's odds used (a scenario's
    ``rulings:``), so the roll follows them too; ``personal``: how the command follows
    the reader's own value (see :func:`saikoro.site._roller.widget`).
    """
    if not enabled:
        return ""
    return roller.widget(command, system=system, label=label, options=options, personal=personal)


def free_widget(
    *,
    enabled: bool,
    system: str | None = None,
    options: Mapping[str, OptionValue] | None = None,
) -> str:
    """HTML of a free-form roller (empty when not ``enabled``).

    ``options`` apply to ``system`` (the one preselected), as in :func:`widget`.
    """
    if not enabled:
        return ""
    # its labels and choices are not text to search (a <section>: Material's indexer ends
    # an excluded element at the first closing tag of its name, and the roller holds divs)
    return (
        "<section data-search-exclude>"
        + roller.free_widget(system=system, options=options)
        + "</section>"
    )
