"""One counted budget for every exact solver: work is counted, never timed.

An exact solver charges :meth:`Budget.spend` for each unit of work it does (balance's
solver, :func:`~saikoro.balance.solve`: each outcome of each state's roll, and each end;
a system's own chain: each transition); when the budget runs out it raises
:class:`OutOfBudget`, and the runner reports the encounter as simulated only, with the
reason. Whether a figure is exact therefore never depends on the machine's speed, and no
small file can make a solver run for minutes.

>>> b = Budget(10)
>>> b.spend(4); b.spend(6); b.used
10
>>> b.spend(1)
Traceback (most recent call last):
...
saikoro.balance._budget.OutOfBudget: the exact solution needs more than 10 steps
"""

from __future__ import annotations

from saikoro.dice import SaikoroError

__all__ = ["AUTHOR_SECONDS", "AUTHOR_STEPS", "EXACT_STEPS", "Budget", "OutOfBudget"]

EXACT_STEPS = 10_000_000
"""The work an exact solution may take in ``saikoro simulate`` (seconds to tens of seconds
of CPU: a step of getb's chain is cheaper than one of kegare's or cutaction's, or of
balance's solver, which steps the rules once per state)."""

AUTHOR_STEPS = 250_000
"""The work an exact solution may take where an author waits (``saikoro validate``,
pre-commit, ``mkdocs build`` and ``serve``): a probe of at most about half a second, so
that an encounter too big to solve says so at once instead of running to
:data:`EXACT_STEPS`. Every sample scenario is solved within it where it can be solved."""

AUTHOR_SECONDS = 5.0
"""The most time the battles of one scenario may take where an author waits: a scenario
asking for more (``balance.battles: 100000`` of battles that last 99 rounds) is cut after
this many seconds, and its figure says how many battles were played (see
:func:`~saikoro.balance.simulate`'s ``seconds``). Counted battles, not time, decide
everything else: a run that is not cut gives the same figures on every machine."""


class OutOfBudget(SaikoroError):  # noqa: N818 - a signal between solver and runner
    """The exact solution needs more work than its budget: the runner gives up solving.

    It never reaches a user: the runner turns it into "not solved exactly", with
    :attr:`Budget.limit` as the reason.
    """


class Budget:
    """A count of work an exact solver may still do."""

    __slots__ = ("limit", "used")

    def __init__(self, limit: int = EXACT_STEPS) -> None:
        self.limit = limit
        self.used = 0

    def spend(self, steps: int = 1) -> None:
        """Charge ``steps`` units of work.

        Raises:
            OutOfBudget: the total passes :attr:`limit`.
        """
        self.used += steps
        if self.used > self.limit:
            raise OutOfBudget(f"the exact solution needs more than {self.limit} steps")
