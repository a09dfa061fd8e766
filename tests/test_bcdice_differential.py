"""saikoro against the real BCDice 3.16.1: random generic commands and edge probes.

Every command is rolled by BCDice (npm ``bcdice`` 4.9.0, its own randomizer, one
Node.js process for the whole batch) and its dice are replayed into ``saikoro.roll``:
text and flags must be the same (see ``tests/bcdice/differential.py``). The test does
not skip when Node.js or the package is missing: ``make setup`` installs it, and a
run without it must fail. ``make bench`` runs a larger batch with another seed.
"""

from __future__ import annotations

import pytest

from bcdice.differential import compare, edge_probes, generate

SEED = 20261201
COUNT = 3000


def _fail_on(report_mismatches: list[str], total: int) -> None:
    if report_mismatches:
        listed = "\n".join(report_mismatches[:60])
        more = len(report_mismatches) - 60
        tail = f"\n... and {more} more" if more > 0 else ""
        pytest.fail(
            f"{len(report_mismatches)} of {total} commands differ from BCDice:\n{listed}{tail}"
        )


def test_random_commands_agree_with_bcdice(capsys: pytest.CaptureFixture[str]) -> None:
    cases = generate(COUNT, SEED)
    report = compare(cases)
    with capsys.disabled():
        print(f"\nBCDice differential (seed {SEED}): {report.summary()}")
    assert report.answered > COUNT // 2  # most commands are real rolls, not refusals
    _fail_on(report.mismatches, report.total)


def test_edge_probes_agree_with_bcdice() -> None:
    cases = edge_probes()
    report = compare(cases)
    _fail_on(report.mismatches, report.total)


def test_generator_covers_every_family() -> None:
    families = {case.family.split("+")[0] for case in generate(COUNT, SEED)}
    assert families >= {
        "add", "calc", "barabara", "reroll", "upper", "tally", "d66", "choice", "repeat",
        "chat", "malformed",
    }  # fmt: skip
    variants = {case.family.partition("+")[2] for case in generate(COUNT, SEED)}
    assert {"comment", "fullwidth", "marks"} <= variants
