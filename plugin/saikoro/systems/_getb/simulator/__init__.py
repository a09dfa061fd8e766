"""GETB: rounds on the dial-clock map with AP, ST and OP.

Follows ``getb.round`` and ``getb.attack``. Enemies stand on their ``placement``; PCs
start one cell from the first enemy (``close_in``) or two (``keep_range``), never in the
centre. Each round every character refills AP and ST
(:meth:`~saikoro.systems._getb.states.Combatant.round_start`); the character with the most
AP takes the next turn (:meth:`GodEaterTableBurst.initiative`, ruling ``ap_tie``) until
everyone is at 0 AP. On its turn a PC whose side guards (``guard``) first rescues the
nearest downed ally when it can reach its cell and pay this turn (a 〈戦闘移動〉 of one
cell, or a 〈全力移動〉 of ST1 and one AP a cell, then 〈リンクエイド〉: ruling ``link_aid``,
ST1 AP2; the ally stands up with half the rescuer's HP, given by the rescuer).
Otherwise a character picks a target by its policy; if no attack reaches it, a
``close_in`` character makes a 〈戦闘移動〉 of one cell towards it (PCs never through the
centre). It then makes the affordable attack in range with the highest
power (blades ST1 + AP2/3/4, guns OP1 + AP1 with one die plus the bullet's, enemy skills
ST1 + AP3, ruling ``skill_attack``; an enemy with no OP given shoots without OP), paying
as :meth:`GodEaterTableBurst.pay` does (ruling ``ap_shortfall``); with nothing to do it
gives up its AP (〈行動放棄〉).

The attack: a chained damage check (:func:`~saikoro.systems._getb.chain.roll_chain`:
weapon dice, one more when the attack's element is one the target is weak to, ruling
``weak_element``; power + strength for blades and close skills, + intellect for guns and
ranged skills); with the ``guard`` policy and ST left the target guards (shield dice +
armour + strength), and a target that cannot is covered by an ally in its cell who can
(〈カバーリング〉, that ally takes the hit); the final damage is
:func:`~saikoro.systems._getb.damage.resolve` (rulings ``final_damage_tie``,
``damage_fumble``, ``guard_fumble``); blade hits recover OP
(:meth:`GodEaterTableBurst.op_recovered`, up to the maximum). HP 0 or less is
戦闘不能. ``win``: every enemy in ``balance.defeat`` (default: all) down within the round
limit (10 rounds when none is given); every PC down at a round's end loses.

The attack effects written in the scenario are free text and not simulated: :func:`notes`
lists them.
"""

from __future__ import annotations

import random
from fractions import Fraction
from types import MappingProxyType

from saikoro.balance._budget import Budget
from saikoro.balance._model import Encounter
from saikoro.balance._simulator import Note, Simulator
from saikoro.balance._stats import Tally
from saikoro.balance._tactics import Tactics

from .exact import exact
from .play import TIE_KEYS, battle, fast_chain
from .units import (
    DEFAULT_ROUNDS,
    SKILL_COST,
    Move,
    Prepared,
    Unit,
    prepare,
)

__all__ = [
    "DEFAULT_ROUNDS",
    "FLOWS",
    "SKILL_COST",
    "Move",
    "Prepared",
    "Unit",
    "battle",
    "exact",
    "fast_chain",
    "notes",
    "prepare",
]

FLOWS = ("getb.round", "getb.attack")
"""The system flows this simulator follows."""

_TIE_KEYS = TIE_KEYS  # the name the engine tests import


def notes(prep: Prepared) -> tuple[str, ...]:
    """What is not modelled (the scenario's attack effects by name)."""
    out = [
        "スキル・アビリティの効果、ジャンプ（飛行）、ステップ、待機は使わない。全力移動は"
        "リンクエイドに駆けつけるときだけ使う。"
        "スキル攻撃のコストは ST1・AP3 とみなす（裁定 skill_attack）。",
    ]
    out += [f"効果は扱わない: {text}" for text in prep.effects]
    if not prep.weak_die and any(u.weak for u in prep.units):
        out.append("弱点属性は判定に影響しない（裁定 weak_element: none）。")
    return tuple(out)


class GetbSimulator(Simulator[Prepared]):
    """The getb simulator: the functions above, with the system's words."""

    system = "getb"
    flows = FLOWS
    tactics = ("focus", "random")
    tactics_reason = (
        "PCは弱った相手から倒して敵の手数を減らし、ガードとカバーリングを惜しまない（盾"
        "はそのためにある）。GMは狙いを散らす遊び方が一般的なので、エネミーは無作為に狙"
        "う。"
    )
    default_rounds = DEFAULT_ROUNDS
    mean_labels = MappingProxyType({"link_aid": "リンクエイドの回数(平均)"})

    def prepare(self, enc: Encounter, tactics: Tactics) -> Prepared:
        return prepare(enc, tactics)

    def battle(self, prep: Prepared, rng: random.Random, tally: Tally) -> None:
        battle(prep, rng, tally)

    def exact(self, prep: Prepared, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
        del budget  # interim: the solvers keep their own bounds
        return exact(prep)

    NOTES = MappingProxyType({"text": "{text}"})  # interim: the old notes, as written

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        return tuple(self.note("text", text=text) for text in notes(prep))


SIMULATOR = GetbSimulator()
