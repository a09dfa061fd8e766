"""The toy system's balance simulator: the party tries each difficulty target in turn.

A battle is the scenario's checks in order: the PCs try a check one after the other
until one succeeds; the scenario is won when every check is passed. Every roll is the
engine's own ``TOY`` command (:meth:`Toy.roll_command`), and the exact figure is built
from its exact odds (:meth:`Toy.odds_command`): a small chain, solved in full.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from saikoro.balance import Budget, Encounter, End, Note, Simulator, Tactics, Tally
from saikoro.dice import DiceSource, InternalError
from saikoro.systems import System

from .model import ToyTarget

__all__ = ["SIMULATOR", "ToySimulator"]


@dataclass(frozen=True)
class Prepared:
    """The checks (commands and exact odds) and the party's size."""

    rules: System
    commands: tuple[str, ...]
    chances: tuple[Fraction, ...]
    pcs: int
    enemies: tuple[str, ...]


class ToySimulator(Simulator[Prepared]):
    """Each check tried by the PCs in turn; every check passed wins."""

    system = "toy"
    flows = ("toy.check",)
    tactics = ("focus", "focus")
    tactics_reason = "トイシステムには戦い方の選択がない（判定を順に試すだけ）。"
    rounds_caption = "成功した判定の数"
    rounds_column = "成功数"
    round_unit = "判定"
    play_word = "試行"
    downed_caption = "PCごとの判定失敗率"
    downed_column = "失敗率"
    ends = MappingProxyType(
        {"win": End("すべての判定に成功", True), "failed": End("判定に失敗", False)}
    )
    rulings = ("toy.dice",)
    NOTES = MappingProxyType(
        {"enemies": "エネミー（{names}）との戦闘はトイシステムにないので扱わない。"}
    )

    def prepare(self, enc: Encounter, tactics: Tactics) -> Prepared:
        del tactics
        targets = []
        for t in enc.targets:
            if not isinstance(t, ToyTarget):
                raise InternalError(f"toy: {t!r} is not a ToyTarget")
            targets.append(t)
        rules = enc.rules
        commands = tuple(f"TOY{t.target}" for t in targets)
        chances = []
        for command in commands:
            found = rules.odds_command(command)
            if found is None or found.success is None:
                raise InternalError(f"toy: {command} has no odds")
            chances.append(found.success)
        enemies = tuple(e.name for e in enc.enemies)
        return Prepared(rules, commands, tuple(chances), len(enc.party.members), enemies)

    def battle(self, prep: Prepared, rng: random.Random, tally: Tally) -> None:
        source = DiceSource(rng=rng)
        passed = []
        failed = [False] * prep.pcs
        for i, command in enumerate(prep.commands):
            for pc in range(prep.pcs):
                result = prep.rules.roll_command(command, source)
                if result is None:
                    raise InternalError(f"toy: {command} did not roll")
                if result.success:
                    passed.append(i)
                    break
                failed[pc] = True
            else:
                break
        win = len(passed) == len(prep.commands)
        tally.record(
            win=win,
            end="win" if win else "failed",
            rounds=len(passed),
            downed=failed,
            passed=passed,
        )

    def exact(self, prep: Prepared, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
        win = Fraction(1)
        figures: dict[str, Fraction] = {}
        for command, p in zip(prep.commands, prep.chances, strict=True):
            budget.spend(prep.pcs)
            passed = 1 - (1 - p) ** prep.pcs
            figures[f"P({command})"] = passed
            win *= passed
        return win, figures

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        if not prep.enemies:
            return ()
        return (self.note("enemies", names="、".join(prep.enemies)),)

    def nothing_to_play(self, enc: Encounter) -> str:
        return "" if enc.targets else "判定がない"


SIMULATOR = ToySimulator()
