"""Every system's commands meet the dice-limit corpus the generic commands pass.

Each documented example of each system is mutated (every number in it replaced by
thousands of digits, by one digit over the literal bound, by a long run of zeros...)
and sent, with the generic hostile corpus, through ``roll`` and ``odds`` with that
system: any exception other than the engine's :class:`~saikoro.dice.DiceError` fails.
The command line is fed the same oversized numbers and must answer in a line, with no
traceback.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys

import pytest

import saikoro
from saikoro.dice import DiceError, LimitError
from saikoro.dice._limits import MAX_LITERAL_DIGITS
from saikoro.systems import SYSTEM_IDS, system_class
from test_dice_hostile import HOSTILE
from test_dice_limits import ODDS, ROLLS

_NUMBER = re.compile(r"\d+")
_HUGE = (
    "9" * 5000,
    "9" * (MAX_LITERAL_DIGITS + 1),
    "1" + "0" * (MAX_LITERAL_DIGITS - 1),
    "0" * 5000,
)
_BIG = ("9" * 60, "9" * 20, "4294967296", "-" + "9" * 30)


def _examples(system: str) -> list[str]:
    out: list[str] = []
    for doc in system_class(system).commands:
        out.extend(doc.examples)
    return out


def _mutations(example: str) -> list[str]:
    """``example`` with each of its numbers (one at a time, then all) made hostile."""
    out: list[str] = []
    spans = [m.span() for m in _NUMBER.finditer(example)]
    for value in (*_HUGE, *_BIG):
        for start, end in spans:
            out.append(example[:start] + value + example[end:])
        out.append(_NUMBER.sub(value, example))
        out.append(example + value)
    return out


CASES = [
    (system, command)
    for system in SYSTEM_IDS
    for example in _examples(system)
    for command in _mutations(example)
]
GENERIC = [(system, command) for system in SYSTEM_IDS for command in (*ROLLS, *ODDS, *HOSTILE)]


def test_every_system_documents_commands_to_mutate() -> None:
    for system in SYSTEM_IDS:
        assert _examples(system), system
    assert len(CASES) > 1000


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_system_commands_refuse_hostile_numbers_with_the_engines_error(system: str) -> None:
    engine = saikoro.get_system(system)
    for case_system, command in CASES:
        if case_system != system:
            continue
        for call in (saikoro.roll, saikoro.odds):
            with contextlib.suppress(DiceError):  # anything else fails the test
                call(command, system=engine)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_generic_hostile_corpus_with_each_system(system: str) -> None:
    engine = saikoro.get_system(system)
    for case_system, command in GENERIC:
        if case_system != system:
            continue
        for call in (saikoro.roll, saikoro.odds):
            with contextlib.suppress(DiceError):
                call(command, system=engine)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_literal_over_the_bound_is_the_generic_limit(system: str) -> None:
    """The same bound and message as ``2D6+<1001 digits>`` in the generic commands."""
    example = _examples(system)[0]
    start, end = _NUMBER.search(example).span()  # type: ignore[union-attr]
    command = example[:start] + "9" * 5000 + example[end:]
    for call in (saikoro.roll, saikoro.odds):
        with pytest.raises(LimitError) as info:
            call(command, system=system)
        assert info.value.bound == "literal_digits"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_cli_answers_oversized_numbers_in_a_line(system: str) -> None:
    example = _examples(system)[0]
    start, end = _NUMBER.search(example).span()  # type: ignore[union-attr]
    command = example[:start] + "9" * 5000 + example[end:]
    for action in ("roll", "odds"):
        done = subprocess.run(
            [sys.executable, "-m", "saikoro", action, command, "--system", system],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 1, done.stderr
        assert done.stderr == "saikoro: 数値が長すぎます（1000桁まで）\n", done.stderr
        assert done.stdout == ""
