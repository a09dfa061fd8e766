"""カットアクション: the fight (``cutaction.cut``), then the chase (``cutaction.chase``).

A battle is a step machine (:class:`~.rules.CutactionRules`): the fight's steps are
:mod:`.fight`'s, the chase's :mod:`.chase`'s, every roll is built from the engine's exact
distributions (:mod:`.rolls`) and the encounter is read once (:mod:`.prepare`). An attack
is a contest of the attack check against the target's reaction (防御/回避: ``reaction``,
else body), then the damage with the body resist check (what ``CAA`` computes); at 体力 0
or less a character is 消耗 and out. The chase (a ``kind: chase`` target, ruling
``chase_sides``) has the standing PCs and the enemies of ``runners`` (default: those with
a vehicle, else all) run, fleeing or pursuing as ``flees`` says. The balance engine samples
the battles and solves small encounters exactly; :meth:`CutactionSimulator.notes` says what
the simulation leaves out.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from saikoro.balance import Battle, Encounter, End, Note, Simulator, Tactics, tactics_for
from saikoro.dice import Dist
from saikoro.systems._cutaction.chase import END_DEAD_END, END_TIME
from saikoro.systems._cutaction.events import event_number

from .cast import END_KEYS, ENDS
from .fight import JOINT
from .prepare import DEFAULT_CUTS, Prepared, chases_of, prepare
from .rules import CutactionRules

__all__ = ["ENDS", "NOTES", "SIMULATOR", "CutactionSimulator"]

NOTES: Mapping[str, str] = MappingProxyType(
    {
        "effect": (
            "効果は扱わない: {enemy}「{attack}」: {effect}"
            "（命中したときの効果の文章。状態異常とカット終わりのその抵抗判定はないものとして計算）"
        ),
        "support": (
            "サポートアクション（消費アイテムの使用・受け渡し、装備の変更）は扱わない。"
            "回復などのアイテムを使う卓では PC の勝率は表より高い。"
        ),
        "posture": (
            "PC は遮蔽を取らず、エネミーはシナリオの遮蔽のまま。遮蔽の取り直し・全力移動・"
            "戦闘エリアからの離脱は扱わない。遮蔽を活かす PC なら受けるダメージは表より少ない。"
        ),
        "interrupt": (
            "割り込み（同じエリアで敏捷の対抗判定に勝って先に動く）は扱わない。"
            "行動順はイニシアチブ判定（チェイスでは移動値）のとおり。"
        ),
        "recovery": "回復判定はシーンアクションなので、戦闘とチェイスのあいだには行わない。",
        "decelerate": "チェイスで減速は使わない（逃げる側にも追う側にも得がない）。",
        "jumping": (
            "飛び移る・振り落とす（乗り物 {vehicles} への乗り移り）は扱わない。"
            "操縦者に飛び移れば乗り物ごと脱落させられるので、追う側の勝率は表より上がりうる。"
        ),
        "shared_vehicle": (
            "同じ乗り物（{vehicles}）に乗る者も、それぞれ自分で移動判定と加速をする"
            "（本来は操縦者だけが判定し、同乗者は一緒に動く）。"
        ),
        "further_pursuers": (
            "チェイスイベントの「さらなる追跡者」は何も起こらないものとして扱う（公安機関の能力値が"
            "ない。現れるのは最後尾なので、逃げる側の勝敗への影響は小さい）。"
        ),
        "table_entries": (
            "チェイス表「{table}」の {entries} は効果の文章を扱わず、何も起きないとして計算する"
            "（項目に event でルールブックのイベントを書けば、そのイベントとして扱う）。"
        ),
        "other_chases": (
            "チェイスの判定が複数ある: 最初の「{first}」だけを計算し、{others} は計算しない。"
        ),
    }
)
"""Everything :meth:`CutactionSimulator.notes` can say (the guide's balance page lists them)."""


CHASE_RUNNERS = 2
"""The most runners of a chase the exact solver tries."""

EXACT_SIZE = 100_000
"""The largest :meth:`~.rules.CutactionRules.size` of a fight against two enemies or more
that the exact solver tries. As measured, such fights that fit the budget reach 39,125 (1 PC
against 2 enemies over 10 cuts: 12,929-33,989; 2 against 2 over 2 cuts: 26,015-39,125; 3
against 2 over 1: 20,020) and none from 120,395 fits (2 against 2 over 6 cuts; the sample
cutaction-tou, 2 against 2 over 8: 144,765, spent 5-10 s finding out); between, side
missions that read 体力 and longer fights run out (2 against 2 over 3 cuts: 49,610). A
fight against one enemy is not bounded: its 体力 is compared with no other's, so the key
caps it by what it can still lose, and far more fits (3 PCs against one over 10 cuts:
215,380; 4 against one over 6, 421,641, runs out)."""


class CutactionSimulator(Simulator[Prepared]):
    """The cutaction simulator: :class:`~.rules.CutactionRules`, with the system's words."""

    system = "cutaction"
    flows = ("cutaction.cut", "cutaction.chase")
    tactics = ("focus", "random")
    tactics_reason = (
        "PCは弱った相手から倒し、エネミーは狙いを散らす。遮蔽や封鎖はシナリオの配置どおり。"
        "チェイスでは毎カット全員が加速し、先頭はルートを変え、追う側は届く相手を攻撃して"
        "届かなければ進路妨害、逃げる側は進路妨害を先にする。追いついた追跡側は封鎖して捕まえにいく。"
    )
    default_rounds = DEFAULT_CUTS
    round_unit = "カット"
    rounds_caption = "決着までのカット数（チェイスの前に戦闘があれば戦闘の）"
    rounds_column = "カット"
    mean_labels = MappingProxyType(
        {
            "fight_won": "戦闘に勝ってチェイスに進んだ割合",
            "escaped": "チェイスで逃走側が逃げ切った割合",
            "chase_cuts": "チェイスのカット数の平均（戦闘に負けた戦闘は0）",
        }
    )
    ends = ENDS
    rulings = (
        "cutaction.check_dice",
        "cutaction.negative_achievement",
        "cutaction.failed_initiative_order",
        "cutaction.contest_rule",
        "cutaction.reaction",
        "cutaction.resist_failure",
        "cutaction.exhausted_resist_fails",
        "cutaction.zero_hp",
        "cutaction.halving",
        # the chase's
        "cutaction.chase_sides",
        "cutaction.chase_cut_limit",
        "cutaction.chase_caught",
        "cutaction.chase_time_limit",
        "cutaction.chase_dead_end",
        "cutaction.chase_actions",
        "cutaction.chase_event_order",
        "cutaction.chase_events_detail",
        "cutaction.falling_area",
        "cutaction.obstruct_distance",
        "cutaction.failed_move",
        "cutaction.chase_drop",
    )
    NOTES = NOTES

    def prepare(self, enc: Encounter, tactics: Tactics) -> Prepared:
        return prepare(enc, tactics)

    def rules(self, prep: Prepared) -> CutactionRules:
        return CutactionRules(prep)

    def exact_rules(self, prep: Prepared) -> CutactionRules | None:
        """None for a fight of more than :data:`~.fight.JOINT` fighters (their initiative
        checks, one after another, have more outcomes in the first cut than a budget buys)
        or against two enemies or more past :data:`EXACT_SIZE`, and for a chase of more
        than :data:`CHASE_RUNNERS` runners (a duel's chase takes a sixth of the full budget;
        with a third runner none fitted)."""
        if (prep.defeat and prep.pcs + len(prep.fight) > JOINT) or prep.cast > CHASE_RUNNERS:
            return None
        rules = self.rules(prep)
        return None if len(prep.fight) > 1 and rules.size() > EXACT_SIZE else rules

    def figures(self, prep: Prepared, outcomes: Dist[Battle]) -> dict[str, Fraction]:
        """P(each end)."""
        ends = self.end_odds(prep, outcomes)
        return {f"P({ENDS[end].label})": p for end, p in ends.items() if p}

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        out = [self.note("effect", enemy=e, attack=a, effect=t) for e, a, t in prep.effects]
        out += [self.note("support"), self.note("interrupt")]
        if prep.defeat:
            out += [self.note("posture"), self.note("recovery")]
        plan = prep.chase
        if plan is not None:
            out.append(self.note("decelerate"))
            vehicles = sorted({v for c in plan.runners if (v := prep.chars[c].vehicle)})
            if vehicles:
                out.append(self.note("jumping", vehicles="・".join(vehicles)))
            if prep.vehicles:
                out.append(self.note("shared_vehicle", vehicles="・".join(prep.vehicles)))
            if any(number == event_number("さらなる追跡者") for number, _, _ in plan.events):
                out.append(self.note("further_pursuers"))
            if plan.unmodelled:
                entries = "・".join(f"「{t}」" for t in plan.unmodelled)
                out.append(self.note("table_entries", table=plan.table, entries=entries))
            if plan.others:
                others = "・".join(f"「{t}」" for t in plan.others)
                out.append(self.note("other_chases", first=plan.name, others=others))
        return tuple(out)

    def facts(self, enc: Encounter) -> frozenset[str]:
        return frozenset({"escaped"}) if chases_of(enc) else frozenset()

    def ends_for(self, prep: Prepared) -> dict[str, End]:
        """The ends a battle of the prepared encounter can have (in :data:`ENDS`' order)."""
        plan = prep.chase
        if plan is None:
            return {k: ENDS[k] for k in ("win", "wipe", "timeout")}
        leader = prep.settings.chase_time_limit == "leader"
        as_time = prep.settings.chase_dead_end == "as_time_limit"
        dead_end = any(number == event_number("行き止まり") for number, _, _ in plan.events)
        possible = {  # (why the chase ended, the fleeing side got away): under these rulings
            (END_TIME, False): leader,
            (END_DEAD_END, True): dead_end and as_time,
            (END_DEAD_END, False): dead_end and (leader or not as_time),
        }
        keys = {"wipe", "timeout"} if prep.defeat else set()
        for (why, pcs_flee, fled), end in END_KEYS.items():
            if pcs_flee == plan.pcs_flee and possible.get((why, fled), True):
                keys.add(end)
        return {k: e for k, e in ENDS.items() if k in keys}

    def round_limit(self, enc: Encounter) -> tuple[int | None, bool]:
        """The fight's cut limit; for a chase alone, the chase's (its runners at most)."""
        prep = prepare(enc, tactics_for(self.system))
        if prep.defeat or prep.chase is None:
            return super().round_limit(enc)
        return prep.cast, False


SIMULATOR = CutactionSimulator()
