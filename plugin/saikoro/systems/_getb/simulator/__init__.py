"""GETB: rounds on the dial-clock map with AP, ST and OP, played on the engine's own rules.

Follows ``getb.round``, ``getb.turn`` and ``getb.attack`` (:mod:`.rules`, where each rule
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
The damage and guard checks are rolled as one final damage, the ``GF`` command's odds
(:func:`~saikoro.systems._getb.final.final_damage_odds`); melee hits recover OP. HP 0
or less is 〔戦闘不能〕 (ruling ``downed``). The battle ends when every enemy of
``balance.defeat`` (default: all) is down (``win``), every PC is down (``wipe``) or the
round limit passes (``timeout``; 10 rounds when the mission gives none), at once or at a
round's end (ruling ``battle_end``).

The step machine is :mod:`.rules`, on the characters of :mod:`.units`. What the seed has
that a fight here does not use is in :attr:`GetbSimulator.NOTES`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import prod
from types import MappingProxyType

from saikoro.balance import Battle, Encounter, Note, Simulator, Tactics
from saikoro.dice import Dist
from saikoro.systems._getb.damage import CheckSpec, damage_dice
from saikoro.systems._getb.model import GetbEnemy, GetbPC
from saikoro.systems._getb.states import tie_key

from .rules import Prepared
from .units import enemy_unit, mean_achievement, pc_unit, start_cell

__all__ = ["SIMULATOR", "GetbSimulator", "Prepared"]

HP_COMBINATIONS = 1_000_000
"""The most combinations of the characters' HP a fight is solved exactly with: the states
of a larger one (three PCs and two enemies of ordinary HP) never fit the budget, and trying
would only spend it (two PCs of 40 HP and an enemy of 30 need 1.5 million outcomes a round)."""


class GetbSimulator(Simulator[Prepared]):
    """The getb simulator: the rules of :mod:`.rules`, with the system's words."""

    system = "getb"
    flows = ("getb.round", "getb.turn", "getb.attack")
    tactics = ("focus", "random")
    tactics_reason = (
        "PCは弱った相手から倒して敵の手数を減らし、ガードとカバーリングを惜しまない（盾"
        "はそのためにある）。ただしガードは自分の次の攻撃に要る【ST】を残せるときだけにする。"
        "そうしないと、手番の前にガードで【ST】を使い切った者は一度も攻撃できない。"
        "GMは狙いを散らす遊び方が一般的なので、エネミーは無作為に狙う。"
    )
    default_rounds = 10
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
        """Place everyone, list their attacks and rank them."""
        enemies = enc.of("enemies", GetbEnemy)
        e_units = [enemy_unit(i, e) for i, e in enumerate(enemies)]
        anchor = e_units[0].start if e_units else "in1"
        gap = 1 if tactics.pc.close_in else 2
        members = enc.of("members", GetbPC)
        p_units = [pc_unit(i, pc, start_cell(anchor, gap, i)) for i, pc in enumerate(members)]
        units = (*p_units, *e_units)
        opt = enc.options
        damage_fails = opt["damage_fumble"] == "fail"
        weak_rule = str(opt["weak_element"])
        specs = {
            (i, m, d): CheckSpec(
                damage_dice(move.dice, move.element, foe.weak, rule=weak_rule), move.modifier
            )
            for i, u in enumerate(units)
            for m, move in enumerate(u.moves)
            for d, foe in enumerate(units)
            if foe.pc != u.pc
        }
        means = {k: mean_achievement(s, damage_fails) for k, s in specs.items()}
        levels = {v: n for n, v in enumerate(sorted(set(means.values())))}
        danger = tuple(
            max(
                (mean_achievement(CheckSpec(m.dice, m.modifier), damage_fails) for m in u.moves),
                default=Fraction(0),
            )
            for u in units
        )
        wanted = set(enc.defeat) or {e.id for e in enemies}
        actions = [(k, m) for k, u in enumerate(units) if not u.pc for m in range(len(u.moves))]
        taken = [
            x for s in enc.side if s.condition and (x := s.condition.taken_at_most) is not None
        ]
        notes = [self.note(key) for key in ("skills", "jump", "step", "items")]
        skills = [
            f"{e.name}「{a.name}」" for e in enemies for a in e.attacks if a.weapon == "skill"
        ]
        if skills:
            notes.append(self.note("skill_cost", skills="、".join(skills)))
        effects = [(e.name, a.name, a.effect) for e in enemies for a in e.attacks if a.effect]
        notes += [self.note("effect", enemy=n, attack=a, effect=x) for n, a, x in effects]
        if weak_rule == "none" and any(u.weak for u in units):
            notes.append(self.note("weak_none"))
        return Prepared(
            units=units,
            pcs=tuple(range(len(p_units))),
            enemies=tuple(range(len(p_units), len(units))),
            defeat=tuple(k for k, u in enumerate(units) if not u.pc and u.key in wanted),
            rounds=enc.round_limit or self.default_rounds,
            policies=tuple(tactics.pc if u.pc else tactics.enemy for u in units),
            final=(str(opt["final_damage_tie"]), damage_fails, opt["guard_fumble"] == "fail"),
            op_rounding=str(opt["op_rounding"]),
            shortfall=opt["ap_shortfall"] == "allow",
            link_aid=str(opt["link_aid"]),
            guard_weapon=str(opt["guard_weapon"]),
            immediate=opt["battle_end"] == "immediate",
            tie_keys=tuple(tie_key(u.max_ap, u.pc, str(opt["ap_tie"])) for u in units),
            specs=specs,
            strength={k: (levels[v], units[k[0]].moves[k[1]].melee) for k, v in means.items()},
            danger=danger,
            actions={km: n for n, km in enumerate(actions)},
            op_matters=tuple(any(m.cost.op for m in u.moves) for u in units),
            aid=tactics.pc.guard and len(p_units) > 1,
            reads=enc.reads,
            taken_cap=max(taken) + 1 if "taken" in enc.reads and taken else 0,
            notes=tuple(notes),
        )

    def exact_rules(self, prep: Prepared) -> Prepared | None:
        """The rules with each attack's damages merged by the state they leave; none for
        more than :data:`HP_COMBINATIONS`, or when a chain too long to follow is not known
        by its least damage (:meth:`Prepared.solvable`)."""
        if prod(u.max_hp + 1 for u in prep.units) > HP_COMBINATIONS or not prep.solvable():
            return None
        return replace(prep, merged=True)

    def figures(self, prep: Prepared, outcomes: Dist[Battle]) -> dict[str, Fraction]:
        """P(wipe) and P(time-out) beside P(win)."""
        ends = self.end_odds(prep, outcomes)
        return {"P(全滅)": ends["wipe"], "P(時間切れ)": ends["timeout"]}

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        return prep.notes


SIMULATOR = GetbSimulator()
"""The registered simulator (``System.simulator`` names this module)."""
