"""The action check (行為判定) of 君ヨ、暁ノ大地ニ死スベシ: target, roll and result.

A check is 2D6 rolled under a target. The target is the ability level plus the
difficulty, preparation, supporters, other modifiers and awakening-card boosts spent
before the roll. A target below 2 fails before any die is rolled. When the style of
the check is the character's specialty, a doublet (ゾロ目) succeeds even above the
target, gives one awakening card when the roll was within the target and adds 1 to
the achievement (達成度 = target - dice total).

>>> spec = CheckSpec(level=6, difficulty=-1, preparation=1, supporters=(1,))
>>> spec.target
7
>>> r = resolve_check(spec, 3, 2)
>>> r.status.value, r.achievement
('成功', 2)
>>> resolve_check(CheckSpec(level=5, specialty=True), 5, 5).status.value
'成功'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from saikoro.systems._base import RulesError

__all__ = [
    "SUPERHUMAN_LEVEL",
    "SUPPORTER_MIN_LEVEL",
    "AfterMode",
    "CheckResult",
    "CheckRules",
    "CheckSpec",
    "CheckSpecError",
    "CheckStatus",
    "can_support",
    "resolve_check",
    "supporter_bonus",
    "target_value",
]

SUPERHUMAN_LEVEL = 9
"""Ability level from which a character is superhuman (超人) in that ability."""

SUPPORTER_MIN_LEVEL = 5
"""Lowest ability level (人並み) at which a non-expert may support a check."""

MAX_SUPPORTERS = 2
"""At most this many supporters join one check."""


class CheckSpecError(RulesError):
    """A check's parameters break the rules (too many supporters, bad preparation...)."""


class AfterMode(enum.Enum):
    """How awakening cards are spent after the dice are seen."""

    FIXED = "fixed"
    """Always spend the given number of cards (each adds 1 to the target)."""
    AS_NEEDED = "as_needed"
    """Spend the fewest cards (up to the given number) that turn a failure into a success."""


class CheckStatus(enum.Enum):
    """How a check ended; the value is the result word printed by the commands."""

    SUCCESS = "成功"
    """The check succeeded (within the target, or saved by a specialty doublet)."""
    FAILURE = "失敗"
    """The dice went over the target."""
    AUTO_FAILURE = "自動失敗"
    """The target was below 2 before rolling: failed without dice."""
    IMPOSSIBLE = "判定不可"
    """A base difficulty of -4 or harsher for a character who is not superhuman."""


@dataclass(frozen=True)
class CheckRules:
    """The table's choices for the ambiguous corners (see the system's rulings).

    Attributes:
        alpha: ``"final"`` — a specialty doublet within the target after every boost
            gives the awakening card; ``"before"`` — only a doublet within the target
            fixed before the roll does (after-roll boosts never earn a card).
        beta_achievement: ``"raw"`` — a doublet success above the target keeps
            target - total (+1), which can be zero or negative; ``"clamp"`` — its base
            achievement counts as 0 (so the doublet makes it 1).
    """

    alpha: str = "final"
    beta_achievement: str = "raw"

    def __post_init__(self) -> None:
        if self.alpha not in ("final", "before"):
            raise CheckSpecError(f"unknown alpha rule {self.alpha!r}")
        if self.beta_achievement not in ("raw", "clamp"):
            raise CheckSpecError(f"unknown beta_achievement rule {self.beta_achievement!r}")


def supporter_bonus(level: int, *, expert: bool = False) -> int:
    """The target bonus one supporter gives.

    Experts (the action is their 得意分野) and superhumans (level 9+) give +2, others
    +1; a non-expert below level 5 cannot support.

    >>> supporter_bonus(5), supporter_bonus(9), supporter_bonus(2, expert=True)
    (1, 2, 2)
    >>> supporter_bonus(4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    saikoro.systems._akatsuki.checks.CheckSpecError: レベル4ではサポーターに...
    """
    if expert or level >= SUPERHUMAN_LEVEL:
        return 2
    if level < SUPPORTER_MIN_LEVEL:
        raise CheckSpecError(
            f"レベル{level}ではサポーターになれません（{SUPPORTER_MIN_LEVEL}以上か専門家が必要）"
        )
    return 1


def can_support(
    level: int,
    *,
    expert: bool = False,
    in_combat: bool = False,
    same_lane: bool = True,
    minor_action: bool = True,
) -> bool:
    """Whether a character may support a check.

    Outside combat only the ability matters (level 5+, or an expert at any level);
    in combat the supporter must also be in the target's lane and spend a minor action.

    >>> can_support(5), can_support(3), can_support(3, expert=True)
    (True, False, True)
    >>> can_support(7, in_combat=True, same_lane=False)
    False
    """
    if in_combat and not (same_lane and minor_action):
        return False
    return expert or level >= SUPPORTER_MIN_LEVEL


def target_value(
    level: int,
    *,
    difficulty: int = 0,
    preparation: int = 0,
    supporters: tuple[int, ...] = (),
    modifier: int = 0,
    boost_points: int = 0,
) -> int:
    """The target before the roll: level plus every modifier (validated).

    >>> target_value(7, difficulty=-2, preparation=2, supporters=(2, 1), boost_points=3)
    13
    """
    return CheckSpec(
        level=level,
        difficulty=difficulty,
        preparation=preparation,
        supporters=supporters,
        modifier=modifier,
        boost_points=boost_points,
    ).target


@dataclass(frozen=True)
class CheckSpec:
    """Everything that shapes one check.

    Attributes:
        level: the ability level used.
        difficulty: base difficulty: +1 easy, 0 normal, -1, -2, -3 ...; -4 or harsher
            only for a superhuman (level 9+).
        preparation: 0 (none) or +1..+3 for groundwork laid beforehand.
        supporters: each supporter's bonus, 1 or 2 (expert or superhuman); at most two.
        modifier: any other modifier (weapon buffs, 高天力 ...).
        boost_points: awakening points of the cards spent before the roll.
        after_cards: awakening cards spent after the roll (+1 target each).
        after_mode: whether ``after_cards`` are always spent or only as needed.
        specialty: the style is the character's specialty, so doublets take effect.
    """

    level: int
    difficulty: int = 0
    preparation: int = 0
    supporters: tuple[int, ...] = ()
    modifier: int = 0
    boost_points: int = 0
    after_cards: int = 0
    after_mode: AfterMode = AfterMode.FIXED
    specialty: bool = False

    def __post_init__(self) -> None:
        if self.level < 0:
            raise CheckSpecError("能力レベルは0以上です")
        if self.difficulty > 1:
            raise CheckSpecError("基本難易度は+1（簡単）が上限です")
        if not 0 <= self.preparation <= 3:
            raise CheckSpecError("下準備の修正は+1〜+3です")
        if len(self.supporters) > MAX_SUPPORTERS:
            raise CheckSpecError("サポーターは2人までです")
        if any(b not in (1, 2) for b in self.supporters):
            raise CheckSpecError("サポーター1人の修正は+1か+2です")
        if self.boost_points < 0 or self.after_cards < 0:
            raise CheckSpecError("ブーストに使う覚醒札は0以上です")

    @property
    def superhuman(self) -> bool:
        """Level 9 or more: the superhuman band of difficulty is open."""
        return self.level >= SUPERHUMAN_LEVEL

    @property
    def allowed(self) -> bool:
        """Whether the check may be attempted at all (-4 or harsher needs a superhuman)."""
        return self.difficulty > -4 or self.superhuman

    @property
    def target(self) -> int:
        """The target fixed before the roll (after-roll boosts not included)."""
        return (
            self.level
            + self.difficulty
            + self.preparation
            + sum(self.supporters)
            + self.modifier
            + self.boost_points
        )


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check.

    Attributes:
        status: success, failure, automatic failure or not allowed.
        target: the target before the roll.
        final_target: the target after after-roll boosts (equal to ``target`` without).
        dice: the two dice (empty when nothing was rolled).
        doublet: a doublet whose effects applied (specialty style only).
        alpha: the doublet earned an awakening card (succeeded within the target).
        beta: the doublet saved a roll above the final target.
        achievement: 達成度 (final target - total, +1 for a doublet); ``None`` unrolled.
        cards_spent: awakening cards spent after the roll.
        cards_gained: awakening cards earned (each supporter earns as many).
    """

    status: CheckStatus
    target: int
    final_target: int
    dice: tuple[int, ...] = ()
    doublet: bool = False
    alpha: bool = False
    beta: bool = False
    achievement: int | None = None
    cards_spent: int = 0
    cards_gained: int = 0

    @property
    def success(self) -> bool:
        """Whether the check succeeded."""
        return self.status is CheckStatus.SUCCESS

    @property
    def total(self) -> int | None:
        """The dice total, ``None`` when nothing was rolled."""
        return sum(self.dice) if self.dice else None

    @property
    def rolled(self) -> bool:
        """Whether dice were rolled."""
        return bool(self.dice)


def precheck(spec: CheckSpec) -> CheckResult | None:
    """The result decided before rolling (not allowed / target below 2), else ``None``.

    >>> precheck(CheckSpec(level=1)).status.value
    '自動失敗'
    >>> precheck(CheckSpec(level=8, difficulty=-4)).status.value
    '判定不可'
    >>> precheck(CheckSpec(level=2)) is None
    True
    """
    target = spec.target
    if not spec.allowed:
        return CheckResult(CheckStatus.IMPOSSIBLE, target, target)
    if target < 2:
        return CheckResult(CheckStatus.AUTO_FAILURE, target, target)
    return None


def resolve_check(
    spec: CheckSpec, d1: int, d2: int, rules: CheckRules | None = None
) -> CheckResult:
    """Resolve a check for the two dice ``d1``, ``d2`` (ignored when no roll happens).

    >>> r = resolve_check(CheckSpec(level=5, specialty=True), 4, 4)
    >>> r.success, r.beta, r.achievement
    (True, True, -2)
    >>> r = resolve_check(CheckSpec(level=5, after_cards=2, after_mode=AfterMode.AS_NEEDED), 3, 3)
    >>> r.success, r.cards_spent, r.final_target, r.achievement
    (True, 1, 6, 0)
    """
    rules = rules or CheckRules()
    early = precheck(spec)
    if early is not None:
        return early
    target = spec.target
    total = d1 + d2
    doublet = spec.specialty and d1 == d2
    if spec.after_mode is AfterMode.FIXED:
        spent = spec.after_cards
    elif total <= target or doublet:
        spent = 0
    else:
        need = total - target
        spent = need if need <= spec.after_cards else 0
    final = target + spent
    within = total <= final
    success = within or doublet
    alpha = doublet and (within if rules.alpha == "final" else total <= target)
    beta = doublet and not within
    base = final - total
    if beta and rules.beta_achievement == "clamp":
        base = 0
    return CheckResult(
        status=CheckStatus.SUCCESS if success else CheckStatus.FAILURE,
        target=target,
        final_target=final,
        dice=(d1, d2),
        doublet=doublet,
        alpha=alpha,
        beta=beta,
        achievement=base + (1 if doublet else 0),
        cards_spent=spent,
        cards_gained=1 if alpha else 0,
    )
