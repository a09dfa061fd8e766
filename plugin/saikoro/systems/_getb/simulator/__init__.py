"""GETB: rounds on the dial-clock map with AP, ST and OP, played on the engine's own rules.

Follows ``getb.round``, ``getb.turn`` and ``getb.attack`` (:mod:`.play`, where each rule
is the engine's function). Enemies stand on their ``placement``; PCs start one cell from
the first enemy (``close_in``) or two (``keep_range``), never in the centre, with their
melee weapon equipped (ruling ``guard_weapon``) and HP and OP at their maxima (ruling
``battle_start``). Each round every standing character recovers AP and ST; whoever has
the most AP takes the next turn (ties: ruling ``ap_tie``) until everyone is at 0 AP.

On its turn a PC whose side guards first rescues a downed ally it can reach this turn
(〈リンクエイド〉, ruling ``link_aid``). Otherwise a character picks a target (its
policy), moves (free 〈戦闘移動〉 of one cell, else the shortest 〈全力移動〉) to make its
strongest affordable attack (its expected achievement, by the engine), switching its
神機's form (〈変形〉) when the attack needs it; with no attack this turn it steps towards
the target and 〈待機〉, or gives up (〈行動放棄〉) when it cannot pay any attack this round.

The responses: the target guards (ST1, a melee weapon equipped: ruling ``guard_weapon``)
when its side's policy guards and the ST left still pays an attack it could make this
round; otherwise an ally in its cell covers it on the same terms (ruling ``covering``).
The damage and guard checks are drawn from the engine's weights and settled by
:func:`~saikoro.systems._getb.damage.resolve`, as the ``GF`` command does; melee hits
recover OP. HP 0 or less is 〔戦闘不能〕 (ruling ``downed``). The battle ends when every
enemy of ``balance.defeat`` (default: all) is down (``win``), every PC is down (``wipe``)
or the round limit passes (``timeout``; 10 rounds when the mission gives none), at once
or at a round's end (ruling ``battle_end``).

A fight of one PC against one enemy is solved exactly (:mod:`.exact`). What the seed has
that a fight here does not use is in :attr:`GetbSimulator.NOTES`.
"""

from __future__ import annotations

import random
from fractions import Fraction
from types import MappingProxyType

from saikoro.balance import Budget, Encounter, Note, Simulator, Tactics, Tally

from . import exact as _exact
from . import play
from .units import DEFAULT_ROUNDS, Prepared, prepare

__all__ = ["FLOWS", "SIMULATOR", "GetbSimulator"]

FLOWS = ("getb.round", "getb.turn", "getb.attack")
"""The system flows this simulator follows."""


class GetbSimulator(Simulator[Prepared]):
    """The getb simulator: :mod:`.play` and :mod:`.exact`, with the system's words."""

    system = "getb"
    flows = FLOWS
    tactics = ("focus", "random")
    tactics_reason = (
        "PCは弱った相手から倒して敵の手数を減らし、ガードとカバーリングを惜しまない（盾"
        "はそのためにある）。ただしガードは自分の次の攻撃に要る【ST】を残せるときだけにする。"
        "そうしないと、手番の前にガードで【ST】を使い切った者は一度も攻撃できない。"
        "GMは狙いを散らす遊び方が一般的なので、エネミーは無作為に狙う。"
    )
    default_rounds = DEFAULT_ROUNDS
    mean_labels = MappingProxyType({"link_aid": "リンクエイドの回数(平均)"})
    rulings = (
        "getb.final_damage_tie",
        "getb.damage_fumble",
        "getb.guard_fumble",
        "getb.no_guard",
        "getb.attack_zero",
        "getb.attack_critical",
        "getb.guard_floor",
        "getb.op_rounding",
        "getb.op_cap",
        "getb.ap_tie",
        "getb.ap_shortfall",
        "getb.weak_element",
        "getb.guard_weapon",
        "getb.covering",
        "getb.link_aid",
        "getb.skill_attack",
        "getb.downed",
        "getb.battle_start",
        "getb.battle_end",
        "getb.wait_rounding",
        "getb.dial_clock",
        "getb.check_dice",
    )
    NOTES = MappingProxyType(
        {
            "skills": "スキル・アビリティの効果は扱わない（シナリオの書式にない）。判定やダメージを"
            "増やすスキルを使う卓では、勝率はこの数字より高くなりやすい。",
            "skill_cost": "コストの書かれていないスキル攻撃は【ST】1・【AP】3とみなす"
            "（裁定 skill_attack）: {skills}",
            "effect": "効果は扱わない: {enemy}「{attack}」: {effect}",
            "jump": "〈ジャンプ〉（このターンの間〔飛行〕を得る）は使わない。ルールは〔飛行〕"
            "そのものの効果を書いておらず、効くのはそれを参照するスキルだけなので、数字は"
            "変わらない。",
            "step": "〈ステップ〉（レスポンスで【ST】1を払い1セル動く）は使わない。射程の外へ"
            "逃れれば攻撃は自動的に失敗するので、使う卓では受けるダメージがこの数字より"
            "少なくなりうる（そのぶん【ST】をガードや攻撃に回せない）。",
            "items": "携行品（使用・受け渡し・廃棄と入手）は使わない。回復などの携行品を持ち込む卓"
            "では、勝率はこの数字より高くなりやすい。",
            "weak_none": "弱点属性は判定に影響しない（裁定 weak_element: none）。",
        }
    )

    def prepare(self, enc: Encounter, tactics: Tactics) -> Prepared:
        return prepare(enc, tactics)

    def battle(self, prep: Prepared, rng: random.Random, tally: Tally) -> None:
        play.battle(prep, rng, tally)

    def exact(self, prep: Prepared, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
        return _exact.exact(prep, budget)

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        out = [self.note("skills"), self.note("jump"), self.note("step"), self.note("items")]
        if prep.skills:
            out.append(self.note("skill_cost", skills="、".join(prep.skills)))
        out += [
            self.note("effect", enemy=enemy, attack=attack, effect=effect)
            for enemy, attack, effect in prep.effects
        ]
        if prep.weak_rule == "none" and any(u.weak for u in prep.units):
            out.append(self.note("weak_none"))
        return tuple(out)


SIMULATOR = GetbSimulator()
"""The registered simulator (``System.simulator`` names this module)."""
