"""Built-in reference parties: what a scenario is simulated with when it names no party.

Each system's scenario definition holds its archetypes (``REFERENCE_PARTY``, see
:func:`saikoro.scenario.reference_party`); a party of *n* takes the first *n*
(cycling, with numbered names, beyond four). They are written in the scenario's own
``party:`` format, so the scenario schema validates them (a test does) and the docs page
(``saikoro/site/_guide/balance.md``) shows them as an author would write them.
"""

from __future__ import annotations

from typing import Any

from saikoro.scenario import reference_party as _reference_party

from ._errors import BalanceError

__all__ = ["reference_party"]


def reference_party(system: str, size: int) -> list[dict[str, Any]]:
    """The reference party of ``size`` PCs for ``system`` (in ``party:`` format).

    :func:`saikoro.scenario.reference_party`, for a size a user gives.

    Raises:
        BalanceError: ``size`` is below 1.
    """
    if size < 1:
        raise BalanceError("a party needs at least one PC")
    return _reference_party(system, size)
