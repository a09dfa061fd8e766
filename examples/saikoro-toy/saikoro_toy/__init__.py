"""トイシステム: the engine of a toy rule system, the template for a sixth system.

The engine is the part a browser runs (the roller's Pyodide), so it imports only the
standard library, :mod:`saikoro.dice` and :mod:`saikoro.systems`. The class names the
parts above it by module path; saikoro finds them through this registration.

>>> from saikoro.dice import DiceSource
>>> Toy().roll_command("TOY7", DiceSource(dice=[(6, 3), (6, 5)])).text
'(2D6>=7) ＞ 8[3,5] ＞ 8 ＞ 成功'
>>> Toy().odds_command("TOY9").success
Fraction(5, 18)
>>> Toy(dice="1D12").odds_command("TOY9").success
Fraction(1, 3)
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from saikoro.dice import DiceSource, Odds, Roll, odds, roll
from saikoro.systems import (
    CommandDoc,
    Edge,
    Flow,
    RightsNotice,
    Ruling,
    Step,
    StepKind,
    System,
)

__all__ = ["FLOWS", "RULINGS", "SYSTEM", "Toy"]

RULINGS = (
    Ruling(
        key="toy.dice",
        title="判定のダイス",
        seed="トイシステムのルールは「ダイスを振って目標値以上なら成功」とだけ書き、ダイスを決めていない。",
        decision="既定は 2D6。オプション dice で 1D12 も選べる。",
        reasoning="2D6 は国産TRPGで最も一般的。出目の幅を一様にしたい卓のために 1D12 を残した。",
        option=True,
        default="2D6",
        choices=("2D6", "1D12"),
        words=(("2D6", "2D6（2〜12）"), ("1D12", "1D12（1〜12）")),
    ),
)
"""Every ruling (this one is an option of the instance: ``get("toy", dice="1D12")``)."""

CHECK = Flow(
    "toy.check",
    "判定",
    (
        Step("start", "目標値を決める", StepKind.START, actor="GM", next=(Edge("roll"),)),
        Step("roll", "ダイスを振る", StepKind.CHECK, actor="PL", check="TOY7", next=(Edge("cmp"),)),
        Step(
            "cmp",
            "出目の合計が目標値以上？",
            StepKind.DECISION,
            next=(Edge("ok", "はい"), Edge("ng", "いいえ")),
        ),
        Step("ok", "成功", StepKind.END),
        Step("ng", "失敗", StepKind.END),
    ),
    summary="ダイスを振り、合計が目標値以上なら成功。",
)
FLOWS: Mapping[str, Flow] = {CHECK.id: CHECK}

_COMMAND = re.compile(r"TOY(\d{1,2})")


def check_dice(system: System) -> str:
    """The dice of a check under the options in force (ruling ``toy.dice``)."""
    return str(system.option("dice"))


class Toy(System):
    """The toy system: ``TOY[目標値]`` succeeds when the dice reach the target."""

    id = "toy"
    name = "トイシステム"
    rights = RightsNotice(
        game="トイシステム",
        holder="saikoro の作者",
        guideline="saikoro の例として自由に使えます。",
        source="saikoro のリポジトリ",
    )
    aliases = ("おもちゃ",)
    commands = (CommandDoc("TOY[目標値]", "ダイスの合計が目標値以上なら成功。", ("TOY7", "TOY10")),)
    rulings = RULINGS
    sample_scenario = "saikoro_toy:sample.yaml"
    sample_flow = "toy.check"

    def _generic(self, command: str) -> str | None:
        m = _COMMAND.fullmatch(command.strip())
        return None if m is None else f"{check_dice(self)}>={int(m.group(1))}"

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        generic = self._generic(command)
        if generic is None:
            return None
        count, _, sides = check_dice(self).partition("D")
        dice = [(int(sides), source.roll(int(sides))) for _ in range(int(count))]
        return roll(generic, dice=dice)

    def odds_command(self, command: str) -> Odds | None:
        generic = self._generic(command)
        return None if generic is None else odds(generic)

    def flows(self) -> Mapping[str, Flow]:
        return FLOWS


SYSTEM = Toy
