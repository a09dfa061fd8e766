"""The 穢れ game's dice commands: parsing, rolling and exact odds.

- ``KGA7VS5D8``: attack value 7 against defence value 5, skill damage 8. Each side may
  add ``±n`` modifiers and options: ``@F``/``@M``/``@N`` (or ``@遠``/``@中``/``@近``)
  position, ``K9`` 穢れ, ``W4`` 脱力 with level 4 (attacker), ``J4`` 自失 with level 4
  (defender), ``G3`` a defence skill cutting 3 damage (defender). After the sides:
  ``R`` for a ranged attack and ``>=N`` for "N damage or more". ``KGA7`` alone is the
  attack check only.
- ``KGA7VS5,3@F,4D8``: a 全体攻撃, one attack roll against each target's own defence
  (targets separated by commas, each with its own options).
- ``KGR`` recovery check (再起判定): ``C`` curse, ``K4`` 穢れ, ``H-3`` current HP.
- ``KGS2`` status-recovery check with 2 statuses (``K5`` 穢れ, ``±n``).
- ``KGP3`` poison damage at level 3.

>>> from saikoro.dice import DiceSource
>>> s = DiceSource(dice=[(6, 4), (6, 5), (6, 3), (6, 4)])
>>> roll_command("KGA7VS5D8", s, Settings()).text
'(KGA7VS5D8) ＞ 攻撃 9[4,5]+7=16 ／ 防御 7[3,4]+5=12 ＞ 命中 ＞ ダメージ12'
"""

from __future__ import annotations

import re
from fractions import Fraction

from saikoro.dice import DiceSource, Dist, Odds, ParseError, Roll

from . import status
from .combat import (
    MAX_KEGARE,
    TWO_D6,
    AttackSpec,
    Outcome,
    Position,
    attack_odds,
    check_penalty,
    needs_defence_roll,
    resolve,
)
from .rulings import Settings

__all__ = ["odds_command", "roll_command"]

_EXPR = r"[+-]?\d+(?:[+-]\d+)*"
_OPTS = r"(?:@(?:[FMN]|遠|中|近)|[WJKG]\d+|脱力\d+|自失\d+)*"
_SIDE = re.compile(rf"(?P<v>{_EXPR})(?P<o>{_OPTS})")
_ATTACK = re.compile(
    rf"KGA(?P<a>{_EXPR})(?P<ao>{_OPTS})"
    rf"(?:VS(?P<ds>{_EXPR}{_OPTS}(?:,{_EXPR}{_OPTS})*)(?:D(?P<dmg>{_EXPR}))?)?"
    r"(?P<r>R)?(?:>=(?P<t>\d+))?"
)
_RECOVERY = re.compile(r"KGR(?P<m>(?:[+-]\d+)*)(?P<o>(?:C|呪い|K\d+|H[+-]?\d+)*)")
_STATUS = re.compile(r"KGS(?P<n>\d+)(?P<m>(?:[+-]\d+)*)(?P<o>(?:K\d+)*)")
_POISON = re.compile(r"KGP(?P<lv>\d+)")
_TOKEN = re.compile(r"@(?:[FMN]|遠|中|近)|[WJKGH][+-]?\d+|脱力\d+|自失\d+|C|呪い")
_TERM = re.compile(r"[+-]?\d+")
_WINS = (Outcome.CRITICAL, Outcome.SHATTER, Outcome.HIT)
MAX_TARGETS = 10
"""The most targets one 全体攻撃 command takes."""


def _terms(expr: str) -> list[int]:
    return [int(t) for t in _TERM.findall(expr)]


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _options(command: str, text: str, allowed: str) -> dict[str, int | Position | bool]:
    """Side options as ``{"pos": Position, "K": 9, "W": 4, "C": True ...}``."""
    out: dict[str, int | Position | bool] = {}
    for token in _TOKEN.findall(text):
        if token.startswith("@"):
            key: str = "pos"
            value: int | Position | bool = Position.parse(token[1:])
        elif token in ("C", "呪い"):
            key, value = "C", True
        else:
            key = {"脱力": "W", "自失": "J"}.get(token[:2], token[0])
            value = int(token[2:] if token[0] in "脱自" else token[1:])
        if key not in allowed.split(","):
            raise ParseError(f"{command}: {token} はここでは使えません")
        if key in out:
            raise ParseError(f"{command}: {token} が重複しています")
        out[key] = value
    return out


def _num(opts: dict[str, int | Position | bool], key: str) -> int:
    v = opts.get(key, 0)
    return v if isinstance(v, int) else 0


def _pos(opts: dict[str, int | Position | bool]) -> Position | None:
    v = opts.get("pos")
    return v if isinstance(v, Position) else None


def attack_spec(m: re.Match[str], settings: Settings) -> AttackSpec:
    """Build the :class:`AttackSpec` of a parsed single-target ``KGA`` command."""
    return attack_specs(m, settings)[0]


def attack_specs(m: re.Match[str], settings: Settings) -> list[AttackSpec]:
    """One :class:`AttackSpec` per target of a parsed ``KGA`` command (one without ``VS``)."""
    command = m.string
    a_terms = _terms(m["a"])
    ao = _options(command, m["ao"], "pos,K,W")
    damage = sum(_terms(m["dmg"])) if m["dmg"] else 0
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
        d_terms = _terms(sm["v"])
        do = _options(command, sm["o"], "pos,K,J,G")
        specs.append(
            AttackSpec(
                attack=a_terms[0],
                defence=d_terms[0],
                damage=damage,
                attack_modifier=sum(a_terms[1:]),
                defence_modifier=sum(d_terms[1:]),
                attacker_position=_pos(ao),
                target_position=_pos(do),
                ranged=bool(m["r"]),
                weakened_level=_num(ao, "W"),
                dazed_level=_num(do, "J"),
                attacker_kegare=_num(ao, "K"),
                defender_kegare=_num(do, "K"),
                guard=_num(do, "G"),
                min_damage=settings.min_damage,
                position_stack=settings.position_stack,
                critical_guard=settings.critical_guard,
            )
        )
    return specs


def _two_d6(source: DiceSource) -> tuple[int, str]:
    a, b = source.roll(6), source.roll(6)
    return a + b, f"{a + b}[{a},{b}]"


def roll_command(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    """Roll one of the commands, or return ``None`` when ``command`` is not one."""
    if m := _ATTACK.fullmatch(command):
        return _roll_attack(command, m, source, settings)
    if m := _RECOVERY.fullmatch(command):
        opts = _recovery_options(command, m["o"])
        mod = status.recovery_modifier(
            cursed=bool(opts.get("C")), kegare=_num(opts, "K"), modifier=sum(_terms(m["m"]))
        )
        die = source.roll(6)
        healed = max(0, die + mod)
        text = f"({command}) ＞ {die}[{die}]{_signed(mod) if mod else ''} ＞ {healed}"
        if "H" not in opts:
            return Roll(command, text, value=healed)
        hp = _num(opts, "H") + healed
        ok = hp >= 1 and _num(opts, "K") < status.MAX_KEGARE
        word = "成功" if ok else "失敗"
        return Roll(
            command,
            f"{text} ＞ HP{hp} ＞ {word}",
            success=ok,
            failure=not ok,
            value=healed,
            outcome=word,
        )
    if m := _STATUS.fullmatch(command):
        n = _statuses(command, m["n"])
        opts = _options(command, m["o"], "K")
        mod = sum(_terms(m["m"])) + check_penalty(_num(opts, "K"))
        target = status.status_recovery_target(n)
        total, dice = _two_d6(source)
        value = total + mod
        ok = value > target if settings.status_recovery == "above" else value >= target
        word = "成功" if ok else "失敗"
        text = (
            f"({command}) ＞ 目標値{target} ＞ {dice}{_signed(mod) if mod else ''}"
            f" ＞ {value} ＞ {word}"
        )
        return Roll(command, text, success=ok, failure=not ok, value=value, outcome=word)
    if m := _POISON.fullmatch(command):
        level = _poison_level(command, m["lv"])
        faces = source.roll_many(level, 6)
        dmg = max(settings.min_damage, sum(faces) - 2)
        text = f"({command}) ＞ {sum(faces)}[{','.join(map(str, faces))}]-2 ＞ {dmg}"
        return Roll(command, text, value=dmg)
    return None


def _recovery_options(command: str, text: str) -> dict[str, int | Position | bool]:
    """Options of ``KGR``; the recovery check is only for a character at HP 0 or below."""
    opts = _options(command, text, "C,K,H")
    if _num(opts, "H") > 0:
        raise ParseError(
            f"{command}: 再起判定は HP 0 以下（戦闘不能）のキャラクターだけが行えます"
            f"（H{_num(opts, 'H')}）"
        )
    return opts


def _statuses(command: str, text: str) -> int:
    n = int(text)
    if not 1 <= n <= len(status.Status):
        raise ParseError(f"{command}: 状態異常の数は1〜{len(status.Status)}です")
    return n


def _poison_level(command: str, text: str) -> int:
    level = int(text)
    if not 1 <= level <= 5:
        raise ParseError(f"{command}: 毒のLVは1〜5です")
    return level


def _unable(command: str, m: re.Match[str], kegare: int) -> Roll:
    """An attacker at 穢れ 10 or more: no dice, no attack."""
    text = f"({command}) ＞ 穢れ{kegare}：永続的に戦闘不能で攻撃できない"
    judged = m["ds"] is not None or m["t"] is not None
    if m["ds"] is not None:
        text += " ＞ ダメージ0"
    if judged:
        text += " ＞ 失敗"
    return Roll(command, text, failure=judged, value=0, outcome=Outcome.UNABLE.value)


def _roll_attack(command: str, m: re.Match[str], source: DiceSource, settings: Settings) -> Roll:
    specs = attack_specs(m, settings)
    spec = specs[0]
    if spec.attacker_kegare >= MAX_KEGARE:
        return _unable(command, m, spec.attacker_kegare)
    a, a_text = _two_d6(source)
    crit, fumble = a == 12, a == 2
    if m["ds"] is None:
        total = a + spec.attack_bonus
        word = "クリティカル" if crit else "ファンブル" if fumble else ""
        text = f"({command}) ＞ {a_text}{_signed(spec.attack_bonus)} ＞ {total}"
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
    head = f"({command}) ＞ 攻撃 {a_text}{_signed(spec.attack_bonus)}={a + spec.attack_bonus}"
    d_text = ""
    d: int | None = None
    if needs_defence_roll(spec, a):
        d, dice = _two_d6(source)
        d_text = f" ／ 防御 {dice}{_signed(spec.defence_bonus)}={d + spec.defence_bonus}"
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
    parts = [f"({command})", f"攻撃 {a_text}{_signed(first)}={a + first}"]
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
            d, dice = _two_d6(source)
            seg += f" 防御 {dice}{_signed(spec.defence_bonus)}={d + spec.defence_bonus}"
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


def _probs(dist: Dist[int]) -> dict[int | str, Fraction]:
    return dict(dist.probabilities().items())


def odds_command(command: str, settings: Settings) -> Odds | None:
    """Exact odds of one of the commands, or ``None`` when ``command`` is not one."""
    if m := _ATTACK.fullmatch(command):
        return _attack_odds(command, m, settings)
    if m := _RECOVERY.fullmatch(command):
        opts = _recovery_options(command, m["o"])
        cursed, kegare, mod = bool(opts.get("C")), _num(opts, "K"), sum(_terms(m["m"]))
        healed = status.recovery(cursed=cursed, kegare=kegare, modifier=mod)
        success: Fraction | None = None
        if "H" in opts:
            success = status.recovery_success(
                _num(opts, "H"), cursed=cursed, kegare=kegare, modifier=mod
            )
        return Odds(command, _probs(healed), success=success, label="回復量")
    if m := _STATUS.fullmatch(command):
        n = _statuses(command, m["n"])
        opts = _options(command, m["o"], "K")
        mod = sum(_terms(m["m"])) + check_penalty(_num(opts, "K"))
        cured = status.status_recovery(
            n, kegare=_num(opts, "K"), modifier=sum(_terms(m["m"])), rule=settings.status_recovery
        )
        return Odds(command, _probs(TWO_D6 + mod), success=cured, label="達成値")
    if m := _POISON.fullmatch(command):
        level = _poison_level(command, m["lv"])
        dist = status.poison(level, min_damage=settings.min_damage)
        return Odds(command, _probs(dist), label="ダメージ")
    return None


def _attack_odds(command: str, m: re.Match[str], settings: Settings) -> Odds:
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
            _probs(check),
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
            _probs(damage),
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
        _probs(res.damage),
        success=won,
        events=events,
        label="ダメージ",
        critical=natural,
        fumble=natural,
    )
