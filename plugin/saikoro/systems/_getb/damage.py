"""The attack judgement: damage check, guard check and final damage, exactly.

The attacker's damage check rolls chained d10 (see :mod:`.chain`) and adds weapon power,
ability and modifiers. The defender, when guarding, rolls a guard check the same way
and adds the shield's armour, strength and modifiers. Then:

* the attack fails (final damage 0) when the damage check had no dice, fumbled or
  reached 0 or less;
* a critical guard stops everything (0);
* an attacker with the higher achievement deals the difference;
* otherwise the defender wins and takes 1 (a tie by default: see the rulings);
* a final damage of 1 or more gets the final-damage modifiers (never below 0).

The odds of the whole attack are in :mod:`.final`.

>>> damage_check_odds(CheckSpec(3, 7)).critical
Fraction(271, 1000)
>>> resolve(20, 12), resolve(12, 12), resolve(20, PERFECT)
((8, '有効打'), (1, '防御'), (0, '完全防御'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from saikoro.dice import LimitError, Odds, Poly
from saikoro.systems._base import OptionError, RulesError

from .chain import (
    DEFAULT_CRITICAL,
    DEFAULT_FUMBLE,
    MAX_DICE,
    Spread,
    spread,
    validate_thresholds,
)

__all__ = [
    "ATTACK_FAILED",
    "DEFENDED",
    "FAILED",
    "GUARD_FAILED",
    "HIT",
    "NO_GUARD",
    "PERFECT",
    "PERFECT_GUARD",
    "TIE_RULES",
    "WEAK_ELEMENT_RULES",
    "CheckSpec",
    "GuardValue",
    "attack_values",
    "attack_weights",
    "damage_check_odds",
    "damage_dice",
    "events_of",
    "guard_check_odds",
    "guard_values",
    "guard_weights",
    "op_recovery",
    "resolve",
]

ATTACK_FAILED = "攻撃失敗"
"""The damage check failed (no dice, fumble, achievement 0 or less): no damage."""
PERFECT_GUARD = "完全防御"
"""The guard check was a critical: final damage 0."""
HIT = "有効打"
"""The attacker's achievement was higher: the difference is the damage."""
DEFENDED = "防御"
"""The defender won the comparison: the damage is 1."""
NO_GUARD = "ガードなし"
"""The target did not guard: the damage is the attacker's achievement."""
GUARD_FAILED = "ガード失敗"
"""The guard check failed (no dice or a fumble): it counts as 0."""

PERFECT = "perfect"
"""Guard value: the guard check was a critical."""
FAILED = "failed"
"""Guard value: the guard check failed automatically."""

GuardValue = int | str | None
"""A guard result: an achievement (0 or more), ``PERFECT``, ``FAILED`` or ``None`` (no guard)."""

TIE_RULES = ("defender", "zero")
"""How a tie in the comparison is settled: the defender wins (1 damage) or nothing gets through."""

WEAK_ELEMENT_RULES = ("die", "none")
"""What hitting a weak element does (the options of ruling ``getb.weak_element``)."""


def damage_dice(dice: int, element: str, weak: Iterable[str], *, rule: str = "die") -> int:
    """The damage check's dice for an attack of ``element`` on a target weak to ``weak``.

    Ruling ``getb.weak_element``: ``die`` adds one die when the element is a weak one;
    ``none`` changes nothing.

    >>> damage_dice(3, "fire", ("fire", "ice")), damage_dice(3, "ice", ("fire",))
    (4, 3)
    >>> damage_dice(3, "fire", ("fire",), rule="none")
    3
    """
    if rule not in WEAK_ELEMENT_RULES:
        raise OptionError(f"unknown weak element rule {rule!r}")
    return dice + 1 if rule == "die" and element in weak else dice


@dataclass(frozen=True)
class CheckSpec:
    """A damage or guard check: dice, fixed part, critical and fumble values.

    Attributes:
        dice: number of dice (0 or less: the check fails automatically).
        modifier: power/armour + ability + modifiers, added to the dice.
        critical: a die at or above this is a critical and adds a die.
        fumble: the check fumbles when every die is at or below this.
    """

    dice: int
    modifier: int = 0
    critical: int = DEFAULT_CRITICAL
    fumble: int = DEFAULT_FUMBLE

    def spread(self) -> Spread:
        """The exact :class:`~.chain.Spread` of the check (needs ``dice >= 1``)."""
        return _spread(self.dice, self.modifier, self.critical, self.fumble)


@lru_cache(maxsize=64)
def _spread(dice: int, modifier: int, critical: int, fumble: int) -> Spread:
    return spread(dice, modifier, critical=critical, fumble=fumble)


def attack_weights(spec: CheckSpec, fumble_fails: bool) -> tuple[dict[int, int], int]:
    if spec.dice <= 0:
        return {0: 1}, 1
    s = spec.spread()
    out: dict[int, int] = {}
    for part in (s.normal_weights, s.critical_weights):
        for k, w in part.items():
            out[max(k, 0)] = out.get(max(k, 0), 0) + w
    for k, w in s.fumble_weights.items():
        key = 0 if fumble_fails else max(k, 0)
        out[key] = out.get(key, 0) + w
    return dict(sorted(out.items())), s.denominator


def guard_weights(
    spec: CheckSpec, fumble_fails: bool, perfect_truncated: bool
) -> tuple[dict[int | str, int], int]:
    if spec.dice <= 0:
        return {FAILED: 1}, 1
    if perfect_truncated:
        return _guard_weights_small(spec, fumble_fails)
    s = spec.spread()
    d = s.denominator
    out: dict[int | str, int] = {}
    parts = [s.normal_weights] if fumble_fails else [s.normal_weights, s.fumble_weights]
    for part in parts:
        for k, w in part.items():
            out[max(k, 0)] = out.get(max(k, 0), 0) + w
    if fumble_fails and s.fumble_probability:
        out[FAILED] = int(s.fumble_probability * d)
    crit = s.critical_probability - s.truncated
    if crit:
        out[PERFECT] = int(crit * d)
    return out, d


def _guard_weights_small(spec: CheckSpec, fumble_fails: bool) -> tuple[dict[int | str, int], int]:
    """Guard results over ``10**dice``: every critical (chains never followed) is PERFECT."""
    n = spec.dice
    validate_thresholds(spec.critical, spec.fumble)
    if n > MAX_DICE:
        raise LimitError(f"ダイスの数は1〜{MAX_DICE}個にしてください ({n})", bound="dice")
    low = min(spec.critical - 1, 10)
    fumble = min(spec.fumble, 10)
    no_crit = Poly.dice_sum(n, low).weights
    fumbles = Poly.dice_sum(n, fumble).weights if fumble > 0 and fumble_fails else []
    out: dict[int | str, int] = {}
    for i, w in enumerate(no_crit):
        rest = w - (fumbles[i] if i < len(fumbles) else 0)
        if rest:
            key = max(n + i + spec.modifier, 0)
            out[key] = out.get(key, 0) + rest
    if fumbles:
        out[FAILED] = fumble**n
    if 10**n - low**n:
        out[PERFECT] = 10**n - low**n
    return out, 10**n


def attack_values(spec: CheckSpec, *, fumble_fails: bool = True) -> dict[int, Fraction]:
    """The damage check's effective achievement: ``0`` stands for a failed attack.

    >>> attack_values(CheckSpec(0, 9))
    {0: Fraction(1, 1)}
    >>> attack_values(CheckSpec(1, -5))[0]
    Fraction(1, 2)
    """
    weights, d = attack_weights(spec, fumble_fails)
    return {k: Fraction(w, d) for k, w in weights.items()}


def guard_values(
    spec: CheckSpec, *, fumble_fails: bool = True, perfect_truncated: bool = False
) -> dict[int | str, Fraction]:
    """The guard check's result: achievement (at least 0), ``PERFECT`` or ``FAILED``.

    Truncated chains are all criticals; with ``perfect_truncated`` their mass goes to
    ``PERFECT`` (exact for the final damage, which is 0 either way).

    >>> g = guard_values(CheckSpec(2, 4), perfect_truncated=True)
    >>> g[PERFECT], g[FAILED]
    (Fraction(19, 100), Fraction(1, 100))
    """
    weights, d = guard_weights(spec, fumble_fails, perfect_truncated)
    return {k: Fraction(w, d) for k, w in weights.items()}


def resolve(
    attack: int | None, guard: GuardValue, *, final_modifier: int = 0, tie: str = "defender"
) -> tuple[int, str]:
    """Final damage and its result word, for one attack.

    Args:
        attack: the damage check's achievement; ``None`` or 0 or less: the attack failed.
        guard: the guard's :data:`GuardValue`.
        final_modifier: sum of the final-damage modifiers (applied to damage of 1 or more).
        tie: ``"defender"`` (a tie is the defender's win: 1) or ``"zero"`` (nothing).

    >>> resolve(None, 3)
    (0, '攻撃失敗')
    >>> resolve(15, None, final_modifier=2), resolve(15, FAILED)
    ((17, 'ガードなし'), (15, 'ガード失敗'))
    >>> resolve(10, 10, tie="zero"), resolve(9, 10, final_modifier=-3)
    ((0, '防御'), (0, '防御'))
    """
    if tie not in TIE_RULES:
        raise OptionError(f"unknown tie rule {tie!r}")
    if attack is None or attack <= 0:
        return 0, ATTACK_FAILED
    if guard == PERFECT:
        return 0, PERFECT_GUARD
    if guard is None:
        base, word = attack, NO_GUARD
    elif guard == FAILED:
        base, word = attack, GUARD_FAILED
    elif isinstance(guard, int) and attack > guard:
        base, word = attack - guard, HIT
    elif isinstance(guard, int):
        base = 0 if attack == guard and tie == "zero" else 1
        word = DEFENDED
    else:
        raise RulesError(f"unknown guard value {guard!r}")
    if base >= 1:
        base = max(0, base + final_modifier)
    return base, word


def op_recovery(damage: int, *, rounding: str = "down") -> int:
    """OP a melee attacker recovers for dealing ``damage``: damage / 10, rounded.

    >>> [op_recovery(d) for d in (0, 9, 10, 25)]
    [0, 0, 1, 2]
    >>> op_recovery(15, rounding="up"), op_recovery(15, rounding="nearest")
    (2, 2)
    >>> op_recovery(14, rounding="nearest")
    1
    """
    if damage <= 0:
        return 0
    if rounding == "down":
        return damage // 10
    if rounding == "up":
        return -(-damage // 10)
    if rounding == "nearest":
        return (damage + 5) // 10
    raise OptionError(f"unknown rounding {rounding!r}")


def events_of(values: Mapping[str, Fraction]) -> dict[str, Fraction]:
    return {k: v for k, v in values.items() if v}


def damage_check_odds(spec: CheckSpec, *, fumble_fails: bool = True, command: str = "") -> Odds:
    """Exact odds of a damage check; 0 in the distribution is a failed attack.

    ``success`` is the chance that the attack goes on to the guard step. It is exact:
    chains too long to follow total far above 0, so their mass (``truncated``, not in the
    distribution) is counted as success and reported as ``truncated_success``.

    >>> o = damage_check_odds(CheckSpec(2, 3))
    >>> o.success, o.failure, o.critical, o.fumble
    (Fraction(99, 100), Fraction(1, 100), Fraction(19, 100), Fraction(1, 100))
    >>> o.truncated_success == o.truncated > 0
    True
    """
    if spec.dice <= 0:
        return Odds(
            command,
            {0: Fraction(1)},
            success=Fraction(0),
            critical=Fraction(0),
            fumble=Fraction(0),
            events={ATTACK_FAILED: Fraction(1)},
            label="達成値",
        )
    s = spec.spread()
    values = attack_values(spec, fumble_fails=fumble_fails)
    failed = values.get(0, Fraction(0))
    cut_succeeds = s.truncated if s.cut_minimum > 0 else Fraction(0)
    return Odds(
        command=command,
        distribution={k: p for k, p in values.items()},  # noqa: C416 - widens the key type
        success=1 - failed - s.truncated + cut_succeeds,
        truncated=s.truncated,
        truncated_success=cut_succeeds,
        critical=s.critical_probability,
        fumble=s.fumble_probability,
        events=events_of({ATTACK_FAILED: failed}),
        label="達成値",
    )


def guard_check_odds(spec: CheckSpec, *, fumble_fails: bool = True, command: str = "") -> Odds:
    """Exact odds of a guard check; a failed guard counts as 0.

    ``success`` is the chance of a guard that did not fail, exactly: chains too long to
    follow are criticals, so their mass counts as success (``truncated_success``).
    Events give 完全防御 (a critical) and ガード失敗.

    >>> o = guard_check_odds(CheckSpec(3, 5))
    >>> o.events[PERFECT_GUARD], o.events[GUARD_FAILED]
    (Fraction(271, 1000), Fraction(1, 1000))
    """
    if spec.dice <= 0:
        return Odds(
            command,
            {0: Fraction(1)},
            success=Fraction(0),
            critical=Fraction(0),
            fumble=Fraction(0),
            events={GUARD_FAILED: Fraction(1)},
            label="達成値",
        )
    s = spec.spread()
    dist: dict[int | str, Fraction] = {}
    for part in (s.normal, s.critical, s.fumble if not fumble_fails else {}):
        for k, p in part.items():
            dist[max(k, 0)] = dist.get(max(k, 0), Fraction(0)) + p
    failed = s.fumble_probability if fumble_fails else Fraction(0)
    if failed:
        dist[0] = dist.get(0, Fraction(0)) + failed
    return Odds(
        command=command,
        distribution=dict(sorted(dist.items(), key=lambda kv: int(kv[0]))),
        success=1 - failed,
        truncated=s.truncated,
        truncated_success=s.truncated,
        critical=s.critical_probability,
        fumble=s.fumble_probability,
        events=events_of({PERFECT_GUARD: s.critical_probability, GUARD_FAILED: failed}),
        label="達成値",
    )
