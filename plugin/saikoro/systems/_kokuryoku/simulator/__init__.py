"""国力: the middle-phase checks, then the final phase's rounds of attack and defence.

Every exchange is the engine's (:mod:`saikoro.systems._kokuryoku.checks`, what the ``KKM``
/ ``KKA`` / ``KKI`` commands use): a middle-phase check, who goes first in a round and each
attack's damage (contest with support, ties to the attacker, then attack power + dice
against defence power + dice) are one roll each of the step machine (:class:`Prepared`).

Middle phase (``kokuryoku.middle_check``): every difficulty target is tried once, in order.
The starter is the PC best at the target's ability (any ability when none is set: each
character uses its highest); the others support, best first, until the target is reached.
The nation gains the full ``gain`` on success, half (rounded down) on failure.

Final phase (``kokuryoku.final_round`` / ``kokuryoku.attack``): each round the side with
more power goes first (ruling ``equal_power`` on ties). Every character acts once a round.
With the ``guard`` tactic a side keeps half its characters (rounded down, the best
defenders) back to react; the others attack, one by one, each with its own attack check
(highest ability) and damage roll (its own attack power: ruling ``nation_values``) — a
single attack always targets the national power gauge. Attack *i* is met by the other
side's defender *i* (its check against the attack's, then its defence power + dice); when
none is left the reaction is declined and the defence counts as 0. Defenders left over
once every attack has one support the defence checks (spread over the attacks in turn).
A side without characters is its nation acting alone (abilities 0, the nation's attack
and defence). A gauge at 0 loses at once. The battle ends as ``win`` (the enemy nation's
gauge reaches 0), ``fallen`` (the PCs' gauge reaches 0) or ``timeout`` (the round limit:
the main mission's ``rounds``, 3 when not given).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from types import MappingProxyType

from saikoro.balance import Battle, Encounter, End, Note, Roll, Rules, Simulator, Tactics
from saikoro.dice import Dist, InternalError
from saikoro.scenario.model import pc_model
from saikoro.systems._kokuryoku import checks
from saikoro.systems._kokuryoku.model import (
    ABILITIES,
    KokuryokuEnemy,
    KokuryokuPC,
    KokuryokuTarget,
)
from saikoro.systems._kokuryoku.rulings import Settings
from saikoro.systems._kokuryoku.scenario import REFERENCE_PARTY_FIXED

__all__ = ["SIMULATOR", "Exchange", "KokuryokuSimulator", "Prepared", "Side", "State"]

Member = KokuryokuPC | KokuryokuEnemy


def _level(m: Member, ability: str | None = None) -> int:
    """The ability a check uses (``None``: the highest, as a check may use any)."""
    if ability:
        return getattr(m.abilities, ability) or 0
    return max(getattr(m.abilities, c.value) or 0 for c in ABILITIES)


@dataclass(frozen=True)
class Actor:
    """One character of the final phase: check ability, attack and defence power."""

    name: str
    ability: int
    attack: int
    defence: int


@dataclass(frozen=True)
class Side:
    """One side of the final phase: its nation (the gauge) and the gauge at the start (the
    PCs': before the middle phase), the characters attacking and those kept back to react,
    in order; for the notes, ``skill（character）`` for every skill, the nations beyond the
    first (not played), whether the nation acts alone (the side has no characters)."""

    nation: str
    power: int
    attackers: tuple[Actor, ...]
    defenders: tuple[Actor, ...]
    skills: tuple[str, ...] = ()
    others: tuple[str, ...] = ()
    alone: bool = False
    gone: bool = False
    """The side has no nation, hence no gauge (a battle against it is won at once)."""

    @property
    def size(self) -> int:
        """How many act in a round."""
        return len(self.attackers) + len(self.defenders)


@dataclass(frozen=True)
class Exchange:
    """One attack of a round (the attacker's ability alone: no support on attack) and the
    reaction meeting it (``defence``: the defender's ability, then its supporters'; ``None``
    when declined, then defence power 0), with the damage roll (:func:`checks.attack`)."""

    attacker: str
    attack: tuple[int, ...]
    attack_power: int
    defence: tuple[int, ...] | None
    defence_power: int
    damage: Dist[int]


@dataclass(frozen=True)
class Middle:
    """One middle-phase check: who rolls (starter first) and the engine's odds."""

    name: str
    abilities: tuple[int, ...]
    target: int
    gain: int
    success: Fraction

    @cached_property
    def dice(self) -> Dist[int]:
        """The check as a roll: 0 success (drawn first), 1 failure."""
        return Dist.from_fractions({0: self.success, 1: 1 - self.success})


State = tuple[int, int, int, int, int, int, int]
"""(stage, middle checks passed (a mask), rounds played, PCs' gauge, enemy gauge, whether
the PCs went first, attacks made this round); the stage is :data:`MIDDLE` (the middle
phase's next check in the round field), :data:`ROUND`, :data:`ATTACK` or an end's index
in :data:`ENDS`."""

ENDS = ("win", "fallen", "timeout")
MIDDLE, ROUND, ATTACK = -1, -2, -3


@dataclass(frozen=True)
class Prepared(Rules[State]):
    """Both sides, the exchanges of a round, the middle phase and the rules; the battle."""

    pcs: Side
    npcs: Side
    pc_attacks: tuple[Exchange, ...]
    npc_attacks: tuple[Exchange, ...]
    middle: tuple[Middle, ...]
    rounds: int
    joined: bool
    first: tuple[Dist[int], ...]
    """Who goes first when the PCs have less, equal, more power (:func:`checks.first_odds`):
    0 the PCs (drawn first), 1 the enemies."""
    reads: frozenset[str] = frozenset()
    """The battle's figures the side missions read (what the exact states keep)."""

    @cached_property
    def order(self) -> tuple[tuple[tuple[bool, Exchange], ...], ...]:
        """A round's attacks in turn, (the PCs', exchange): the enemies' first, or the PCs'."""
        pcs, npcs = [(True, x) for x in self.pc_attacks], [(False, x) for x in self.npc_attacks]
        return tuple(npcs + pcs), tuple(pcs + npcs)

    def power(self, mask: int) -> int:
        """The PCs' gauge after the middle checks ``mask`` passed (the others failed)."""
        gains = (checks.gain_for(bool(mask >> i & 1), m.gain) for i, m in enumerate(self.middle))
        return self.pcs.power + sum(gains)

    def start(self) -> State:
        return (MIDDLE, 0, 0, 0, 0, 0, 0)

    def step(self, state: State) -> Roll[State] | Battle:
        stage, mask, r, mine, theirs, pc_first, made = state
        if stage == MIDDLE and r < len(self.middle):
            return Roll(
                self.middle[r].dice, lambda x: (MIDDLE, mask | (x == 0) << r, r + 1, 0, 0, 0, 0)
            )
        if stage == MIDDLE:
            return self.step((ROUND, mask, 0, self.power(mask), self.npcs.power, 0, 0))
        if stage >= 0:
            return self._end(ENDS[stage], mask, r, mine, theirs)
        if self.npcs.gone:  # no enemy gauge: won before any round
            return self._end("win", mask, 0, mine, theirs)
        if stage == ROUND:
            if r == self.rounds:
                return self._end("timeout", mask, r, mine, theirs)
            first = self.first[(mine > theirs) - (mine < theirs) + 1]

            def go(x: int) -> State:
                return (ATTACK, mask, r + 1, mine, theirs, int(x == 0), 0)

            return self.step(go(first.outcomes()[0])) if len(first) == 1 else Roll(first, go)
        if made == len(self.order[pc_first]):
            return self.step((ROUND, mask, r, mine, theirs, 0, 0))
        ours, x = self.order[pc_first][made]

        def hit(dmg: int) -> State:
            m, e = (mine, theirs - dmg) if ours else (mine - dmg, theirs)
            stage = ENDS.index("win") if e <= 0 else ENDS.index("fallen") if m <= 0 else ATTACK
            return (stage, mask, r, m, e, pc_first, made + 1)

        return Roll(x.damage, hit)

    def canonical(self, state: State) -> State:
        """Which middle checks passed matters only through the power they left, unless a
        side mission reads them."""
        if "passed" in self.reads:
            return state
        return (state[0], self.power(state[1]), *state[2:])

    def _end(self, end: str, mask: int, rounds: int, mine: int, theirs: int) -> Battle:
        power = self.power(mask)
        passed = tuple(i for i in range(len(self.middle)) if mask >> i & 1)
        return Battle(
            win=end == "win",
            end=end,
            rounds=rounds,
            taken=power - mine,
            dealt=self.npcs.power - theirs,
            passed=passed,
            facts={"power": max(0, mine)},
            actions=(("攻撃", power - mine),),
            sums=(("national_power", power), ("middle_reached", len(passed))),
        )


def _side(members: Sequence[Member], guard: bool, nation_values: str) -> Side:
    """A side: its first nation's gauge, its characters as attackers and defenders."""
    nations = [m for m in members if m.kind == "nation"]
    if not nations:  # no gauge: nothing to bring to 0 (the enemies: nothing_to_play says so)
        return Side(nation="", power=0, attackers=(), defenders=(), gone=True)
    nation = nations[0]
    chars = [m for m in members if m.kind != "nation"]
    more = (nation.attack, nation.defence) if nation_values == "add" else (0, 0)
    actors = [Actor(c.name, _level(c), c.attack + more[0], c.defence + more[1]) for c in chars]
    if not actors:  # the nation acting alone
        actors = [Actor(nation.name, 0, nation.attack, nation.defence)]
    keep = len(actors) // 2 if guard else 0
    order = sorted(range(len(actors)), key=lambda i: (-actors[i].defence, -actors[i].ability, i))
    defenders = tuple(actors[i] for i in order[:keep])
    rest = [actors[i] for i in sorted(order[keep:])]
    attackers = tuple(sorted(rest, key=lambda a: (-a.attack, -a.ability)))
    skills = tuple(
        f"{s.name}（{m.name}）" for m in members if isinstance(m, KokuryokuEnemy) for s in m.skills
    )
    others = tuple(n.name for n in nations[1:])
    return Side(nation.name, nation.power or 0, attackers, defenders, skills, others, not chars)


def _exchanges(a: Side, d: Side, s: Settings) -> tuple[Exchange, ...]:
    """Side ``a``'s attacks in a round, each with the reaction that meets it: defender *i*
    meets attack *i*, the spare ones support the defence checks in turn."""
    met = min(len(a.attackers), len(d.defenders))
    spare = [x.ability for x in d.defenders[met:]]
    out = []
    for i, atk in enumerate(a.attackers):
        defence = (d.defenders[i].ability, *spare[i::met]) if i < met else None
        power = d.defenders[i].defence if i < met else 0
        x = checks.attack(
            (atk.ability,), defence, atk.attack, power, floor=s.floor, die=s.die, count=s.count
        )
        out.append(Exchange(atk.name, (atk.ability,), atk.attack, defence, power, x.damage))
    return tuple(out)


def _party(enc: Encounter) -> tuple[tuple[KokuryokuPC, ...], bool]:
    """The party's members, with the reference nation joining a party without one."""
    members = enc.of("members", KokuryokuPC)
    if any(m.kind == "nation" for m in members):
        return members, False
    joined = pc_model("kokuryoku", REFERENCE_PARTY_FIXED[0])
    if not isinstance(joined, KokuryokuPC):
        raise InternalError(f"kokuryoku: the reference nation is not a KokuryokuPC: {joined!r}")
    return (joined, *members), True


def _middle(
    chars: Sequence[KokuryokuPC], targets: Sequence[KokuryokuTarget], s: Settings
) -> tuple[Middle, ...]:
    """Each target's rollers (the best at its ability first, then the others, best first)."""
    out = []
    for t in targets if chars else ():
        scores = [_level(c, t.ability) for c in chars]
        k = scores.index(max(scores))
        rollers = (scores[k], *sorted(map(_level, [*chars[:k], *chars[k + 1 :]]), reverse=True))
        odds = checks.cooperative(list(rollers), t.target, die=s.die, count=s.count)
        out.append(Middle(t.name, rollers, t.target, t.gain, odds.success))
    return tuple(out)


class KokuryokuSimulator(Simulator[Prepared]):
    """国力ゲーム: the middle phase's checks, then the final phase's gauge battle."""

    system = "kokuryoku"
    flows = ("kokuryoku.middle_check", "kokuryoku.final_round", "kokuryoku.attack")
    tactics = ("focus", "focus")
    tactics_reason = (
        "単体攻撃は国力ゲージを狙うので対象選びはない。守り（防御役を温存する）を既定にし"
        "、双方とも同じ方針で比べる。"
    )
    default_rounds = 3  # ruling kokuryoku.round_limit
    pcs_go_down = False
    mean_labels = MappingProxyType(
        {
            "national_power": "最終フェーズ開始時の国力(平均)",
            "middle_reached": "目標値に届いた中間フェーズの判定(平均)",
        }
    )
    ends = MappingProxyType(
        {
            "win": End("勝利（相手の国力が0）", True),
            "fallen": End("敗北（自国の国力が0）", False),
            "timeout": End("時間切れ（ラウンド上限）", False),
        }
    )
    battle_facts = frozenset({"power"})
    """The PCs' national power at the end (``power_at_least``)."""
    rulings = (
        "kokuryoku.die",
        "kokuryoku.die_count",
        "kokuryoku.reach",
        "kokuryoku.odds_participants",
        "kokuryoku.equal_power",
        "kokuryoku.nation_values",
        "kokuryoku.gauge",
        "kokuryoku.declined_reaction",
        "kokuryoku.damage_floor",
        "kokuryoku.defeat",
        "kokuryoku.round_limit",
        "kokuryoku.balance_support",
    )
    NOTES = MappingProxyType(
        {
            "attack_support": "攻撃判定への支援（同じ陣営の者が行動を使って攻撃判定に達成値を"
            "足す）は使わず、各人物が自分で攻撃する。支援は攻撃判定を勝ちやすくするが攻撃の回数が"
            "減るので、防御判定の強い相手には支援を重ねる卓のほうが勝ちやすいことがある。",
            "skills": "効果の文章を扱わないスキル：{skills}。スキルの効果は数えないので、"
            "スキルを持つ側は実際より弱く出る。",
            "persons": "人物（愛）への攻撃と愛による戦闘不能は扱わない：単体攻撃はいつも"
            "国力ゲージを狙い、人物は倒れない。人物を狙う複数攻撃（スキル）を使う卓では、倒れた人物の分だけ"
            "その陣営の手数が減る。",
            "heal_buff": "回復・バフ・デバフの行動（判定と支援を使う）は扱わない。使う卓では"
            "そのぶん攻撃の回数が減るかわりに、国力や判定値が伸びる。",
            "alone": "{side}には人物がいないので、国（{nation}）が1人の人物として戦う"
            "（能力値0、攻撃力{attack}・防御力{defence}）。",
            "unopposed": "{side}は防御役を残さない（行動できるのが{size}人で、半数を防御に残す"
            "方針では0人になるか、守りをとらない方針）ので、相手の攻撃にはリアクションせず、"
            "防御は0としてダメージがそのまま入る。",
            "extra_nations": "{side}の2つ目以降の国（{others}）は使わない：国力ゲージは"
            "{nation}のもの。",
            "nation_joined": "パーティに国がいないので、標準パーティの国（{nation}、国力{power}）"
            "が加わる。",
            "no_gauge": "エネミーに国（kind: nation）がいないので、削る国力ゲージがない："
            "最終フェーズは戦わずに勝ちとして数える（この数字に意味はない）。",
        }
    )

    def prepare(self, enc: Encounter, tactics: Tactics) -> Prepared:
        """Both sides, every attack's damage table and the middle phase's odds."""
        s = Settings.from_options(enc.options)
        values = str(enc.options["nation_values"])
        party, joined = _party(enc)
        pcs = _side(party, tactics.pc.guard, values)
        npcs = _side(enc.of("enemies", KokuryokuEnemy), tactics.enemy.guard, values)
        chars = [m for m in party if m.kind != "nation"]

        def first(pc: int, npc: int) -> Dist[int]:
            p = checks.first_odds(pc, npc, s.equal_power, die=s.die, count=s.count)
            return Dist.from_fractions({0: p, 1: 1 - p})

        return Prepared(
            pcs=pcs,
            npcs=npcs,
            pc_attacks=_exchanges(pcs, npcs, s),
            npc_attacks=_exchanges(npcs, pcs, s),
            middle=_middle(chars, enc.of("targets", KokuryokuTarget), s),
            rounds=enc.round_limit or self.default_rounds,
            joined=joined,
            first=(first(0, 1), first(0, 0), first(1, 0)),
            reads=enc.reads,
        )

    def figures(self, prep: Prepared, outcomes: Dist[Battle]) -> dict[str, Fraction]:
        """Each middle check's P(success) and E(national power) after them."""
        del outcomes
        figures: dict[str, Fraction] = {f"P({m.name})": m.success for m in prep.middle}
        power = Fraction(prep.pcs.power)
        for m in prep.middle:
            power += m.success * m.gain + (1 - m.success) * checks.gain_for(False, m.gain)
        figures["E(国力)"] = power
        return figures

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        """What this encounter has that the simulation leaves out or decides by a ruling."""
        if prep.npcs.gone:
            return (self.note("no_gauge"),)
        out = []
        sides = (("PC側", prep.pcs), ("エネミー側", prep.npcs))
        if any(side.size > 1 for _, side in sides):
            out.append(self.note("attack_support"))
        skills = (*prep.pcs.skills, *prep.npcs.skills)
        if skills:
            out.append(self.note("skills", skills="、".join(skills)))
        if not (prep.pcs.alone and prep.npcs.alone):
            out.append(self.note("persons"))
        out.append(self.note("heal_buff"))
        for label, side in sides:
            if side.alone:
                a = (*side.attackers, *side.defenders)[0]
                values = {"nation": side.nation, "attack": a.attack, "defence": a.defence}
                out.append(self.note("alone", side=label, **values))
            if not side.defenders:
                out.append(self.note("unopposed", side=label, size=side.size))
            if side.others:
                others = "、".join(side.others)
                out.append(
                    self.note("extra_nations", side=label, others=others, nation=side.nation)
                )
        if prep.joined:
            out.append(self.note("nation_joined", nation=prep.pcs.nation, power=prep.pcs.power))
        return tuple(out)

    def nothing_to_play(self, enc: Encounter) -> str:
        """An enemy side without a nation has no gauge to bring to 0 (ruling ``gauge``)."""
        if not enc.enemies:
            return "エネミーがいない"
        if not any(e.kind == "nation" for e in enc.of("enemies", KokuryokuEnemy)):
            return "エネミーに国（kind: nation）がいない（削る国力ゲージがない）"
        return ""


SIMULATOR = KokuryokuSimulator()
"""The kokuryoku simulator."""
