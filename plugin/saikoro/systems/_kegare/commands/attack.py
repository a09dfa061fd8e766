"""The attack command ``KGA``: one target or a 全体攻撃 against several."""

from __future__ import annotations

import re
from fractions import Fraction

from saikoro.dice import DiceSource, Dist, Odds, ParseError, Roll
from saikoro.systems._kegare.checks import (
    MAX_KEGARE,
    TWO_D6,
    AttackSpec,
    Outcome,
    attack_odds,
    needs_defence_roll,
    resolve,
)
from saikoro.systems._kegare.rulings import Settings

from .common import (
    EXPR,
    OPTS,
    num,
    options,
    pos,
    probs,
    signed,
    terms,
    two_d6,
)

__all__ = [
    "ATTACK",
    "MAX_TARGETS",
    "attack_spec",
    "attack_specs",
    "group_odds",
    "odds_attack",
    "roll_attack",
]

_SIDE = re.compile(rf"(?P<v>{EXPR})(?P<o>{OPTS})")
ATTACK = re.compile(
    rf"KGA(?P<a>{EXPR})(?P<ao>{OPTS})"
    rf"(?:VS(?P<ds>{EXPR}{OPTS}(?:,{EXPR}{OPTS})*)(?:D(?P<dmg>{EXPR}))?)?"
    r"(?P<r>R)?(?:>=(?P<t>\d+))?"
)
_WINS = (Outcome.CRITICAL, Outcome.SHATTER, Outcome.HIT)
MAX_TARGETS = 10
"""The most targets one 全体攻撃 command takes."""


def attack_spec(m: re.Match[str], settings: Settings) -> AttackSpec:
    """Build the :class:`AttackSpec` of a parsed single-target ``KGA`` command."""
    return attack_specs(m, settings)[0]


def attack_specs(m: re.Match[str], settings: Settings) -> list[AttackSpec]:
    """One :class:`AttackSpec` per target of a parsed ``KGA`` command (one without ``VS``)."""
    command = m.string
    a_terms = terms(m["a"])
    ao = options(command, m["ao"], "pos,K,W")
    damage = sum(terms(m["dmg"])) if m["dmg"] else 0
    if damage < 0:
        raise ParseError(f"{command}: ダメージは0以上です（D{m['dmg']} は {damage}）")
    sides = m["ds"].split(",") if m["ds"] is not None else ["0"]
    if len(sides) > MAX_TARGETS:
        raise ParseError(f"{command}: 全体攻撃の対象は{MAX_TARGETS}人までです")
    specs = []
    for side in sides:
        sm = _SIDE.fullmatch(side)
        if sm is None:  # the command regex only lets well-formed sides through
            raise AssertionError(side)
        d_terms = terms(sm["v"])
        do = options(command, sm["o"], "pos,K,J,G")
        specs.append(
            AttackSpec(
                attack=a_terms[0],
                defence=d_terms[0],
                damage=damage,
                attack_modifier=sum(a_terms[1:]),
                defence_modifier=sum(d_terms[1:]),
                attacker_position=pos(ao),
                target_position=pos(do),
                ranged=bool(m["r"]),
                weakened_level=num(ao, "W"),
                dazed_level=num(do, "J"),
                attacker_kegare=num(ao, "K"),
                defender_kegare=num(do, "K"),
                guard=num(do, "G"),
                min_damage=settings.min_damage,
                position_stack=settings.position_stack,
                critical_guard=settings.critical_guard,
            )
        )
    return specs


def _unable(command: str, m: re.Match[str], kegare: int) -> Roll:
    """An attacker at 穢れ 10 or more: no dice, no attack."""
    text = f"({command}) ＞ 穢れ{kegare}：永続的に戦闘不能で攻撃できない"
    judged = m["ds"] is not None or m["t"] is not None
    if m["ds"] is not None:
        text += " ＞ ダメージ0"
    if judged:
        text += " ＞ 失敗"
    return Roll(command, text, failure=judged, value=0, outcome=Outcome.UNABLE.value)


def roll_attack(command: str, m: re.Match[str], source: DiceSource, settings: Settings) -> Roll:
    specs = attack_specs(m, settings)
    spec = specs[0]
    if spec.attacker_kegare >= MAX_KEGARE:
        return _unable(command, m, spec.attacker_kegare)
    a, a_text = two_d6(source)
    crit, fumble = a == 12, a == 2
    if m["ds"] is None:
        total = a + spec.attack_bonus
        word = "クリティカル" if crit else "ファンブル" if fumble else ""
        text = f"({command}) ＞ {a_text}{signed(spec.attack_bonus)} ＞ {total}"
        if word:
            text += f" ＞ {word}"
        if m["t"] is None:
            return Roll(
                command, text, critical=crit, fumble=fumble, value=total, outcome=word or None
            )
        ok = _check_lands(a, total, int(m["t"]))
        res = "成功" if ok else "失敗"
        return Roll(
            command,
            f"{text} ＞ {res}",
            success=ok,
            failure=not ok,
            critical=crit,
            fumble=fumble,
            value=total,
            outcome=word or res,
        )
    if len(specs) > 1:
        return _roll_group(command, m, specs, source, attack=(a, a_text))
    head = f"({command}) ＞ 攻撃 {a_text}{signed(spec.attack_bonus)}={a + spec.attack_bonus}"
    d_text = ""
    d: int | None = None
    if needs_defence_roll(spec, a):
        d, dice = two_d6(source)
        d_text = f" ／ 防御 {dice}{signed(spec.defence_bonus)}={d + spec.defence_bonus}"
    r = resolve(spec, a, d)
    text = f"{head}{d_text} ＞ {r.outcome.value} ＞ ダメージ{r.damage}"
    won = r.outcome in _WINS
    if m["t"] is not None:
        won = r.damage >= int(m["t"])
        text += " ＞ 成功" if won else " ＞ 失敗"
    return Roll(
        command,
        text,
        success=won,
        failure=not won,
        critical=crit,
        fumble=fumble,
        value=r.damage,
        outcome=r.outcome.value,
    )


def _check_lands(dice: int, total: int, target: int) -> bool:
    """An attack check against ``target``: a natural 12 always lands, a natural 2 never."""
    return dice == 12 or (dice != 2 and total >= target)


def _counts(m: re.Match[str], outcome: Outcome, damage: int) -> bool:
    """Whether one target counts as hit: beaten, or dealt ``>=N`` damage when N is given."""
    return damage >= int(m["t"]) if m["t"] is not None else outcome in _WINS


def _roll_group(
    command: str,
    m: re.Match[str],
    specs: list[AttackSpec],
    source: DiceSource,
    *,
    attack: tuple[int, str],
) -> Roll:
    """A 全体攻撃: one attack roll (``attack``: its sum and text), then each target's defence."""
    a, a_text = attack
    first = specs[0].attack_bonus
    parts = [f"({command})", f"攻撃 {a_text}{signed(first)}={a + first}"]
    if a in (2, 12):
        parts.append("クリティカル" if a == 12 else "ファンブル")
    segments = []
    hit = total = 0
    for i, spec in enumerate(specs, 1):
        seg = f"対象{i}"
        if spec.attack_bonus != first and needs_defence_roll(spec, a):
            seg += f" 攻撃{a + spec.attack_bonus}"
        d: int | None = None
        if needs_defence_roll(spec, a):
            d, dice = two_d6(source)
            seg += f" 防御 {dice}{signed(spec.defence_bonus)}={d + spec.defence_bonus}"
        r = resolve(spec, a, d)
        if r.outcome is not Outcome.FUMBLE:
            segments.append(f"{seg} {r.outcome.value} ダメージ{r.damage}")
        hit += _counts(m, r.outcome, r.damage)
        total += r.damage
    if segments:
        parts.append(" ／ ".join(segments))
    parts += [f"命中{hit}/{len(specs)}人", f"合計ダメージ{total}"]
    return Roll(
        command,
        " ＞ ".join(parts),
        success=hit > 0,
        failure=hit == 0,
        critical=a == 12,
        fumble=a == 2,
        value=total,
        outcome=f"命中{hit}人",
    )


def group_odds(m: re.Match[str], specs: list[AttackSpec]) -> tuple[Dist[int], dict[int, Fraction]]:
    """Exact joint odds of a 全体攻撃: total damage, and how many targets are hit.

    The attack roll is shared, so the targets are independent only once it is known:
    for each attack sum, each target's (hit, damage) is enumerated over its 36 defence
    rolls and the targets are convolved.
    """
    joint: dict[tuple[int, int], int] = {}
    for a, wa in TWO_D6.items():
        state: dict[tuple[int, int], int] = {(0, 0): wa}
        for spec in specs:
            rolls = list(TWO_D6.items()) if needs_defence_roll(spec, a) else [(None, 36)]
            one: dict[tuple[int, int], int] = {}
            for d, wd in rolls:
                r = resolve(spec, a, d)
                key = (int(_counts(m, r.outcome, r.damage)), r.damage)
                one[key] = one.get(key, 0) + wd
            nxt: dict[tuple[int, int], int] = {}
            for (k, t), w in state.items():
                for (k1, t1), w1 in one.items():
                    nxt[k + k1, t + t1] = nxt.get((k + k1, t + t1), 0) + w * w1
            state = nxt
        for key, w in state.items():
            joint[key] = joint.get(key, 0) + w
    denominator = 36 ** (len(specs) + 1)
    damage: dict[int, int] = {}
    hits: dict[int, int] = dict.fromkeys(range(len(specs) + 1), 0)
    for (k, t), w in joint.items():
        damage[t] = damage.get(t, 0) + w
        hits[k] += w
    return Dist(damage, denominator), {k: Fraction(w, denominator) for k, w in hits.items()}


def odds_attack(command: str, m: re.Match[str], settings: Settings) -> Odds:
    specs = attack_specs(m, settings)
    spec = specs[0]
    unable = spec.attacker_kegare >= MAX_KEGARE
    natural = Fraction(0) if unable else Fraction(1, 36)
    if m["ds"] is None:
        target = None if m["t"] is None else int(m["t"])
        if unable:
            return Odds(
                command,
                {Outcome.UNABLE.value: Fraction(1)},
                success=None if target is None else Fraction(0),
                label="攻撃判定値",
                critical=natural,
                fumble=natural,
            )
        bonus = spec.attack_bonus
        check = TWO_D6 + bonus
        hit = None
        if target is not None:
            hit = TWO_D6.probability_where(lambda a: _check_lands(a, a + bonus, target))
        return Odds(
            command,
            probs(check),
            success=hit,
            label="攻撃判定値",
            critical=natural,
            fumble=natural,
        )
    if len(specs) > 1:
        damage, hits = group_odds(m, specs)
        events = {f"命中{k}人": p for k, p in hits.items()}
        return Odds(
            command,
            probs(damage),
            success=1 - hits[0],
            events=events,
            label="合計ダメージ",
            critical=natural,
            fumble=natural,
        )
    res = attack_odds(spec)
    events = {
        o.value: res.outcomes.probability(o.value)
        for o in Outcome
        if o not in (Outcome.UNABLE, Outcome.UNAFFECTED) or res.outcomes.probability(o.value)
    }
    won = res.success if m["t"] is None else res.damage.at_least(int(m["t"]))
    return Odds(
        command,
        probs(res.damage),
        success=won,
        events=events,
        label="ダメージ",
        critical=natural,
        fumble=natural,
    )
