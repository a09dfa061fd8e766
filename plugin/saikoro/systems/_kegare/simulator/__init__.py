"""穢れ's balance simulator: the battle as a step machine (:mod:`.rules`) on the engine's
rules (:mod:`.fight`); skills read by :func:`~saikoro.systems._kegare.effects.read_effect`
(the ruling ``balance_skills``). Everything the simulation leaves out is said by
:meth:`KegareSimulator.notes` (the guide's balance page lists them).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import prod
from types import MappingProxyType

from saikoro.balance import Encounter, Note, Simulator, Tactics
from saikoro.systems._kegare import model as km
from saikoro.systems._kegare.effects import describe, read_effect
from saikoro.systems._kegare.flows import FLOWS
from saikoro.systems._kegare.rulings import Settings

from .fight import BIT, Fighter, Move, Prepared, choose, values
from .rules import KegareRules

__all__ = ["SIMULATOR", "KegareSimulator", "Prepared"]

DEFAULT_TURNS = 20
"""The turn limit when the main mission gives none."""

EXACT_CHARACTERS = 5
"""The most characters (PCs and enemies together) of a battle solved exactly, a small one's
(up to 3 PCs against 2 enemies)."""

EXACT_SIZE = 40_000
"""The most HP + 1 of every character multiplied together and by the turn limit once per
character but one, of a battle solved exactly. It fits the budget up to 20,736 (the oracles'
2 PCs against 2 enemies over two turns), outgrows it from 69,984 (those over three turns):
exploring it to the budget's end would only delay its figures by some 15 s."""


def _values(c: km.KegarePC | km.KegareEnemy) -> tuple[int, int, int, int, str, bool]:
    """HP, attack, defence, initiative, position and 加護, as a :class:`Fighter` takes them."""
    return c.hp, c.attack, c.defence, c.initiative, c.position, c.blessed


def _bits(statuses: Iterable[str]) -> int:
    """The bits of ``statuses`` in a character's ``marks`` (or ``immune``)."""
    return sum({BIT[status] for status in statuses})


def _pc(pc: km.KegarePC) -> Fighter:
    move = Move("攻撃", "攻撃", pc.damage, pc.ranged)
    return Fighter(pc.name, pc.name, True, *_values(pc), (move,), danger=pc.attack + pc.damage)


def _move(e: km.KegareEnemy, s: km.KegareSkill) -> Move:
    r = read_effect(s.kind, s.effect)
    area, marks = s.target == "all", _bits(r.statuses)
    return Move(f"{e.id}:{s.name}", s.name, s.damage or 0, s.ranged, area, r.poison, marks)


def _enemy(e: km.KegareEnemy, corruption: str) -> Fighter:
    moves = tuple(_move(e, s) for s in e.skills if s.kind == "attack")
    readings = [read_effect(s.kind, s.effect) for s in e.skills if s.kind != "attack"]
    return Fighter(
        e.name,
        e.id,
        False,
        *_values(e),
        moves,
        _bits(e.immune),
        suffers=corruption == "all",
        guards=tuple((r.guard, r.min_kegare) for r in readings if r.guard),
        cuts=tuple((r.cut, r.min_kegare) for r in readings if r.cut),
        covers=tuple((r.cover, r.min_kegare) for r in readings if r.cover is not None),
        danger=e.attack + max((m.damage for m in moves), default=0),
    )


def _unread(enemies: Iterable[km.KegareEnemy]) -> tuple[tuple[str, ...], ...]:
    """``skill（enemy）`` of the support skills, the skills whose effect is not (wholly)
    read, the attack skills giving a status without effect here, and ``skill（enemy）→
    reading`` of the skills whose effect is read."""
    support: list[str] = []
    unread: list[str] = []
    inert: list[str] = []
    read: list[str] = []
    for e in enemies:
        for s in e.skills:
            label = f"{s.name}（{e.name}）"
            reading = read_effect(s.kind, s.effect)
            if s.kind == "support":
                support.append(label)
            elif not reading.modelled:
                unread.append(label)
            elif s.effect and describe(reading):
                read.append(f"{label}→{describe(reading)}")
            if {"weakness", "daze", "charm"} & set(reading.statuses):
                inert.append(label)
    return tuple(tuple(dict.fromkeys(x)) for x in (support, unread, inert, read))


NOTES = MappingProxyType(
    {
        "pc_skills": "PCのスキルとアイテムは書式に無いので使わない（PCは毎手番、書かれた"
        "ダメージの攻撃だけをする）。",
        "kegare_change": "受容・拒絶（補助行動で自分の穢れを±1）は使わない。拒絶で穢れを"
        "下げれば穢れの効果が遅れるので、実際に勝つ見込みはこれより高くなりうる。",
        "support": "支援スキルは使わない：{skills}。敵が使えば攻撃の代わりに強化が入るので、"
        "実際に勝つ見込みは上下しうる（強い強化なら低くなる）。",
        "unread": "効果の文章を扱わないスキル：{skills}（その効果は無いものとして計算）。",
        "read": "効果の文章から読んだもの：{skills}（saikoro validate も行ごとに示す。"
        "読み違いは効果の文章を直す）。",
        "no_attack": "攻撃スキルのないエネミー：{enemies}（手番はパスする）。",
        "inert": "脱力・自失・魅了は付いても働かない（脱力・自失はキャラクターのLVが書式に無く、"
        "魅了は支援スキルを使わないため）。付けるもの：{sources}。実際には脱力・自失で"
        "判定値が下がる。",
        "random_table": "ランダム異常表は7つの状態異常から等確率（毒はLV1）とみなす"
        "（random_status）。",
        "choice": "{enemy}の攻撃スキルは期待ダメージで選ぶ（1ターン目に狙われうるPCの平均）："
        "{values} → {chosen}。",
    }
)
"""Everything :meth:`KegareSimulator.notes` can say (the guide's balance page)."""


def _choices(sim: KegareSimulator, prep: Prepared) -> list[Note]:
    """The ``choice`` notes: which attack skill decides each enemy's turn at the start."""
    out: list[Note] = []
    pcs = list(prep.pcs)
    for e in prep.enemies:
        if len(e.moves) < 2 or not pcs:
            continue
        if prep.tactics.enemy.target == "random":
            targets = pcs
        else:
            hps, dangers = [p.hp for p in pcs], [p.danger for p in pcs]
            targets = [pcs[choose(prep.tactics.enemy, hps, dangers)]]
        totals = dict.fromkeys(e.moves, Fraction(0))
        for t in targets:
            for move, value in values(prep, e, t, pcs, 1):
                totals[move] += value / len(targets)
        chosen = max(e.moves, key=lambda m: (totals[m], -e.moves.index(m)))
        shown = "、".join(f"{m.name} {float(v):.1f}" for m, v in totals.items())
        out.append(sim.note("choice", enemy=e.label, values=shown, chosen=chosen.name))
    return out


class KegareSimulator(Simulator[Prepared]):
    """The 穢れ simulator."""

    system = "kegare"
    flows = tuple(FLOWS)
    tactics = ("focus", "random")
    tactics_reason = (
        "PCは倒せる相手から倒す。エネミーの狙いはGMの裁量なので無作為にし、特定のPC"
        "だけが狙われる偏りを避ける。エネミーの攻撃スキルは、狙ったPC（全体攻撃なら立っている"
        "PC全員）が受けるダメージの期待値と、毒なら残りのターンで治るまでに受ける毒の"
        "ダメージの期待値の合計が最も大きいものを使う（同じなら先に書かれたもの）。"
        "GMが敵を上手に動かすときの最も単純な基準で、範囲攻撃や毒を見落とさない。"
    )
    default_rounds = DEFAULT_TURNS
    round_unit = "ターン"
    rounds_caption = "かかったターン数"
    rounds_column = "ターン"
    rulings = (
        "kegare.position_stack",
        "kegare.min_damage",
        "kegare.critical_guard",
        "kegare.critical_damage",
        "kegare.value_modifiers",
        "kegare.group_attack",
        "kegare.downing_hit_effects",
        "kegare.skillless_enemy",
        "kegare.balance_skills",
        "kegare.defence_skill_uses",
        "kegare.paralysis_rounding",
        "kegare.random_status",
        "kegare.poison_timing",
        "kegare.recovery",
        "kegare.status_recovery",
        "kegare.status_check_down",
        "kegare.down_and_checks",
        "kegare.down_kegare",
        "kegare.kegare_ten",
        "kegare.corruption_effects",
    )
    NOTES = NOTES
    battle_facts = frozenset({"corruption"})

    def prepare(self, enc: Encounter, tactics: Tactics) -> Prepared:
        """The characters' starting states, the tactics and the rulings in force."""
        o = enc.options
        corruption = str(o["corruption_effects"])
        enemies = tuple(_enemy(e, corruption) for e in enc.of("enemies", km.KegareEnemy))
        return Prepared(
            pcs=tuple(_pc(pc) for pc in enc.of("members", km.KegarePC)),
            enemies=enemies,
            defeat=frozenset(enc.defeat) or frozenset(e.key for e in enemies),
            turns=enc.round_limit or DEFAULT_TURNS,
            tactics=tactics,
            settings=Settings.from_options(o),
            random_status=str(o["random_status"]),
            guard_uses=str(o["defence_skill_uses"]),
            rounding=str(o["paralysis_rounding"]),
            downing_effects=str(o["downing_hit_effects"]),
            status_check_down=str(o["status_check_down"]),
            reads=enc.reads,
            skills=_unread(enc.of("enemies", km.KegareEnemy)),
        )

    def rules(self, prep: Prepared) -> KegareRules:
        return KegareRules(prep)

    def exact_rules(self, prep: Prepared) -> KegareRules | None:
        """The rules within :data:`EXACT_CHARACTERS` and :data:`EXACT_SIZE` (else ``None``)."""
        everyone = (*prep.pcs, *prep.enemies)
        size = prod(f.hp + 1 for f in everyone) * prep.turns ** (len(everyone) - 1)
        if len(everyone) > EXACT_CHARACTERS or size > EXACT_SIZE:
            return None
        return self.rules(prep)

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        out = [self.note("pc_skills"), self.note("kegare_change")]
        support, unread, inert, read = prep.skills
        for key, skills in (("support", support), ("unread", unread), ("read", read)):
            if skills:
                out.append(self.note(key, skills="、".join(skills)))
        silent = [e.label for e in prep.enemies if not e.moves]
        if silent:
            out.append(self.note("no_attack", enemies="、".join(silent)))
        table = ("ランダム異常表",) if prep.random_status != "none" else ()
        if inert + table:
            out.append(self.note("inert", sources="、".join(inert + table)))
        if table:
            out.append(self.note("random_table"))
        out.extend(_choices(self, prep))
        return tuple(out)


SIMULATOR = KegareSimulator()
"""The 穢れ simulator (the ``simulator`` part of :class:`saikoro.systems._kegare.Kegare`)."""
