"""The toy system's balance simulator: the party tries each difficulty target in turn.

A battle is the scenario's checks in order: the PCs try a check one after the other
until one succeeds; the scenario is won when every check is passed. That is all this
module says: the rules as a step machine (:class:`Prepared` is a
:class:`saikoro.balance.Rules`), each roll the exact odds of the engine's own ``TOY``
command (:meth:`Toy.odds_command`). saikoro's balance engine samples the battles and
solves them exactly, as it does for its own systems.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from saikoro.balance import Battle, Encounter, End, Note, Roll, Rules, Simulator, Tactics
from saikoro.dice import Dist, InternalError

from .model import ToyTarget

__all__ = ["SIMULATOR", "Prepared", "ToySimulator"]

State = tuple[int, int, tuple[bool, ...]]
"""(the check being tried, the PC trying it, which PCs have failed a check)."""


@dataclass(frozen=True)
class Prepared(Rules[State]):
    """The checks (commands and exact odds) and the party's size: the battle's rules."""

    commands: tuple[str, ...]
    chances: tuple[Fraction, ...]
    pcs: int
    enemies: tuple[str, ...]

    def start(self) -> State:
        return (0, 0, (False,) * self.pcs)

    def step(self, state: State) -> Roll[State] | Battle:
        check, pc, failed = state
        if check == len(self.commands) or pc == self.pcs:  # all passed, or no one left
            return Battle(
                win=check == len(self.commands),
                end="win" if check == len(self.commands) else "failed",
                rounds=check,
                downed=failed,
                passed=tuple(range(check)),
            )
        p = self.chances[check]
        missed = (*failed[:pc], True, *failed[pc + 1 :])
        return Roll(
            Dist.from_fractions({True: p, False: 1 - p}),
            lambda ok: (check + 1, 0, failed) if ok else (check, pc + 1, missed),
        )


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
        commands = tuple(f"TOY{t.target}" for t in enc.of("targets", ToyTarget))
        chances = []
        for command in commands:
            found = enc.rules.odds_command(command)
            if found is None or found.success is None:
                raise InternalError(f"toy: {command} has no odds")
            chances.append(found.success)
        enemies = tuple(e.name for e in enc.enemies)
        return Prepared(commands, tuple(chances), len(enc.party.members), enemies)

    def figures(self, prep: Prepared, outcomes: Dist[Battle]) -> dict[str, Fraction]:
        """Each check's P(passed), given that the checks before it were."""
        out = {}
        reached = Fraction(1)
        for i, command in enumerate(prep.commands):

            def beyond(b: Battle, n: int = i + 1) -> bool:
                return b.rounds >= n

            passed = outcomes.probability_where(beyond)
            out[f"P({command})"] = passed / reached
            reached = passed
        return out

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        if not prep.enemies:
            return ()
        return (self.note("enemies", names="、".join(prep.enemies)),)

    def nothing_to_play(self, enc: Encounter) -> str:
        return "" if enc.targets else "判定がない"


SIMULATOR = ToySimulator()
