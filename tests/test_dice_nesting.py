"""Deep and long input is answered as BCDice 3.16.1 answers it, never a RecursionError.

BCDice answers thousands of nested parentheses, signs and chained terms; saikoro reads
signs and chains in loops and allows the recursion parentheses need, up to
``MAX_NESTING`` (3000) levels plus signs per word, and refuses deeper input with a
``LimitError`` before parsing it (the browser's MicroPython engine refuses more than about
20 levels: ``test_browser_engine.py``). The texts below are BCDice's (checked against npm
``bcdice`` in ``tests/test_bcdice_differential.py``).
"""

from __future__ import annotations

import sys
import threading

import pytest

import saikoro
from saikoro.dice import LimitError

MAX_NESTING = 3000  # saikoro.dice._limits.MAX_NESTING


@pytest.mark.parametrize("depth", [198, 2000, 3000])
def test_nested_parentheses_in_a_sum(depth: int) -> None:
    command = "(" * depth + "1D6" + ")" * depth
    result = saikoro.roll(command, dice=[(6, 3)])
    assert result is not None
    assert result.text == f"({command}) ＞ {'(' * depth}3[3]{')' * depth} ＞ 3"
    assert saikoro.odds(command).mean == 3.5  # type: ignore[union-attr]


@pytest.mark.parametrize("terms", [985, 3000])
def test_chained_terms(terms: int) -> None:
    command = "1D6" + "+1" * terms
    result = saikoro.roll(command, dice=[(6, 3)])
    assert result is not None
    assert result.text == f"({command}) ＞ 3[3]{'+1' * terms} ＞ {3 + terms}"
    assert saikoro.odds(command).mean == terms + 3.5  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("signs", "text"),
    [(987, "(-1D6) ＞ -3[3] ＞ -3"), (986, "(1D6) ＞ 3"), (3000, "(1D6) ＞ 3")],
)
def test_runs_of_minus_signs_cancel_in_pairs(signs: int, text: str) -> None:
    result = saikoro.roll("-" * signs + "1D6", dice=[(6, 3)])
    assert result is not None
    assert result.text == text


def test_calc_keeps_every_sign_and_parenthesis() -> None:
    depth = 2998
    result = saikoro.roll("C(" + "-" * depth + "1)")
    assert result is not None
    assert result.text == f"c({'-' * depth}1) ＞ 1"
    nested = "C(" + "(" * depth + "7" + ")" * depth + ")"
    assert saikoro.roll(nested).text == f"c({'(' * depth}7{')' * depth}) ＞ 7"  # type: ignore[union-attr]


def test_nested_counts_targets_and_modifiers() -> None:
    depth = 2998
    one = "(" * depth + "1" + ")" * depth
    assert saikoro.roll(one + "D6", dice=[(6, 4)]).text == "(1D6) ＞ 4"  # type: ignore[union-attr]
    result = saikoro.roll("2B6>" + one, dice=[(6, 5), (6, 2)])
    assert result is not None and result.text == "(2B6>1) ＞ 5,2 ＞ 成功数2"
    upper = saikoro.roll("1U6[6]+" + "1+" * depth + "1", dice=[(6, 6), (6, 1)])
    assert upper is not None
    assert (
        upper.text
        == f"(1U6[6]+{depth + 1}) ＞ 7[6,1]+{depth + 1} ＞ {depth + 8}/{depth + 8}(最大/合計)"
    )


def test_recursion_limit_is_restored() -> None:
    before = sys.getrecursionlimit()
    saikoro.roll("(" * 3000 + "1D6" + ")" * 3000, dice=[(6, 1)])
    saikoro.odds("(" * 3000 + "1D6" + ")" * 3000)
    assert sys.getrecursionlimit() == before


@pytest.mark.parametrize(
    "command",
    [
        "(" * 3001 + "1D6" + ")" * 3001,
        "1D6" + "+1" * 3001,
        "-" * 3001 + "1D6",
        "C(" + "(1+" * 1501 + "1" + ")" * 1501 + ")",
        "x2 " + "(" * 4990 + "1D6" + ")" * 4990,
        "１Ｄ６" + "＋１" * 3001,
    ],
    ids=lambda c: f"{c[:6]}...{len(c)}",
)
def test_deeper_input_is_refused_before_parsing(command: str) -> None:
    for call in (saikoro.roll, saikoro.odds):
        with pytest.raises(LimitError) as info:
            call(command)
        assert info.value.bound == "nesting"
        assert str(MAX_NESTING) in str(info.value)


def test_the_bound_counts_each_word_alone() -> None:
    text = "2D6 " + " ".join(["(((" + "+" * 999] * 5)  # a long comment, no deep word
    assert saikoro.roll(text, dice=[(6, 1), (6, 2)]) is not None


def test_deep_commands_in_parallel_threads() -> None:
    before = sys.getrecursionlimit()
    deep = "(" * 3000 + "1D6" + ")" * 3000
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(5):
                saikoro.roll(deep, dice=[(6, 2)])
                saikoro.roll("2D6", dice=[(6, 1), (6, 1)])
        except BaseException as exc:  # reported below, from the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sys.getrecursionlimit() == before
