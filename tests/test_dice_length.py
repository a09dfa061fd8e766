"""A whole command is bounded in length, refused at once; long sums are refused cheaply."""

from __future__ import annotations

import pytest

import saikoro
from saikoro.dice import LimitError, Poly
from saikoro.dice import _lexer as lexer

TOO_LONG = [
    "a" * 1_000_000,
    "2D6 " + "コメント" * 300_000,
    "choice[" + "a" * 500_000 + ",b]",
    "choice " + "x" * 500_000 + " y",
    "x2 " + "1D6+" * 5000 + "1",
]


@pytest.mark.parametrize("command", TOO_LONG, ids=lambda c: f"{c[:12]}...{len(c)}")
def test_over_long_input_is_refused_before_it_is_read(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_tokenize(text: str) -> list[lexer.Token]:
        raise AssertionError("tokenized an over-long command")

    monkeypatch.setattr(lexer, "_tokenize", no_tokenize)
    for call in (saikoro.roll, saikoro.odds):
        with pytest.raises(LimitError) as info:
            call(command)
        assert info.value.bound == "command_length"
        assert "10000" in str(info.value)


def test_the_bound_leaves_room_for_long_choices_and_comments() -> None:
    items = ",".join(f"項目{i}" for i in range(100))
    assert saikoro.roll(f"choice[{items}]", dice=[(100, 7)]).text.endswith("＞ 項目6")  # type: ignore[union-attr]
    assert saikoro.roll("2D6 " + "長いコメント" * 1000, dice=[(6, 1), (6, 2)]) is not None


def test_every_family_reads_one_token_list(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = lexer._tokenize

    def counting(text: str) -> list[lexer.Token]:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(lexer, "_tokenize", counting)
    assert saikoro.odds("a" * 5000) is None
    assert calls == ["a" * 5000]
    calls.clear()
    assert saikoro.roll("q" * 3000) is None
    assert len(calls) == 1


def test_a_long_sum_is_refused_before_any_term_is_computed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_sum(cls: type[Poly], n: int, sides: int) -> Poly:
        raise AssertionError("computed a term of a sum that is refused anyway")

    monkeypatch.setattr(Poly, "dice_sum", classmethod(no_sum))
    with pytest.raises(LimitError) as info:
        saikoro.odds("+".join(["1D10000"] * 100))
    assert info.value.bound == "outcomes"
    with pytest.raises(LimitError):
        saikoro.odds("1D10000-" * 30 + "1D6")


def test_sums_within_the_bound_still_compute() -> None:
    assert saikoro.odds("1D10000+1D10000").mean == 10001  # type: ignore[union-attr]
    assert saikoro.odds("20D100KH1") is not None  # a kept die spans 100 outcomes only
