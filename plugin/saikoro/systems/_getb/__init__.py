"""GOD EATER TABLE BURST (GETB): checks, contests, attacks and the dial-clock map.

Checks are 1D10 + ability against a target (critical 10 succeeds, fumble 1 fails).
Attacks roll chained d10 damage checks against chained guard checks; the final damage
is the difference, 1 when the defender wins, 0 on a critical guard.

>>> from saikoro.dice import DiceSource
>>> g = GodEaterTableBurst()
>>> g.roll_command("GB3>=14", DiceSource(dice=[(10, 10)])).text
'(GB3>=14) ＞ 10[10]+3 ＞ 13 ＞ クリティカル'
>>> g.odds_command("GC3/3").success
Fraction(9, 20)
>>> g.board().distance("out12", "out6")
4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._base import FAN_WORK, RightsNotice, RulesError, System
from saikoro.systems._flow import Flow

from .board import CENTRE, BoardError, DialClock, parse_range
from .chain import ChainRoll, Spread, roll_chain, spread
from .checks import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    CheckOutcome,
    Difficulty,
    check_odds,
    check_outcome,
    contest_odds,
    contest_winner,
    difficulty,
)
from .commands import odds_command, roll_command
from .damage import (
    CheckSpec,
    damage_check_odds,
    guard_check_odds,
    op_recovery,
    resolve,
)
from .final import final_damage_odds
from .flows import FLOWS
from .reference import COMMANDS
from .rulings import RULINGS, Settings
from .states import (
    Combatant,
    Condition,
    Cost,
    CostError,
    Shield,
    Weapon,
    attack_cost,
    full_move_cost,
    initiative_order,
)

__all__ = [
    "ATTACKER_WINS",
    "CENTRE",
    "DEFENDER_WINS",
    "SYSTEM",
    "BoardError",
    "ChainRoll",
    "CheckOutcome",
    "CheckSpec",
    "Combatant",
    "Condition",
    "Cost",
    "CostError",
    "DialClock",
    "Difficulty",
    "GodEaterTableBurst",
    "Settings",
    "Shield",
    "Spread",
    "Weapon",
    "attack_cost",
    "check_odds",
    "check_outcome",
    "contest_odds",
    "contest_winner",
    "damage_check_odds",
    "difficulty",
    "final_damage_odds",
    "full_move_cost",
    "guard_check_odds",
    "initiative_order",
    "op_recovery",
    "parse_range",
    "resolve",
    "roll_chain",
    "spread",
]


class GodEaterTableBurst(System):
    """GOD EATER TABLE BURST; options are the rulings marked as options in :mod:`.rulings`."""

    id = "getb"
    sample_scenario = "saikoro.systems._getb:sample.yaml"
    sample_flow = "getb.attack"
    name = "GOD EATER TABLE BURST"
    rights = RightsNotice(
        game="GOD EATER TABLE BURST（ゴッドイーターTRPG）",
        holder=(
            "ルールの作者（wiki の執筆者）、"
            "原作ゲーム『GOD EATER』は株式会社バンダイナムコエンターテインメント"
        ),
        guideline=FAN_WORK,
        source="GOD EATER TABLE BURST の攻略 wiki",
    )
    aliases = (
        "ゴッドイーター",
        "ゴッドイーターTRPG",
        "ゴッドイーターテーブルバースト",
        "GOD EATER",
        "GodEater",
        "GETB",
        "ゴッドイーターTB",
    )
    commands = COMMANDS
    rulings = RULINGS

    __slots__ = ()

    @property
    def settings(self) -> Settings:
        """The options as the commands read them."""
        return Settings.from_options(self.options)

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        """Roll a GETB command (see :mod:`.commands`), or ``None``."""
        return roll_command(command, source, self.settings)

    def odds_command(self, command: str) -> Odds | None:
        """Exact odds of a GETB command, or ``None``."""
        return odds_command(command, self.settings)

    def flows(self) -> Mapping[str, Flow]:
        """Battle, round, turn, attack, damage/guard checks, check and contest."""
        return dict(FLOWS)

    def board(self) -> DialClock:
        """The dial-clock map."""
        return DialClock()

    # -- state helpers that follow the options ------------------------------------

    def initiative(self, combatants: Iterable[Combatant]) -> list[Combatant]:
        """Turn order by AP, ties as the ``ap_tie`` option says.

        >>> cs = [Combatant("敵", 9, 3, ap=6, pc=False), Combatant("PC", 7, 3, ap=6)]
        >>> [c.name for c in GodEaterTableBurst().initiative(cs)]
        ['敵', 'PC']
        >>> [c.name for c in GodEaterTableBurst(ap_tie="pc_first").initiative(cs)]
        ['PC', '敵']
        """
        return initiative_order(combatants, tie=str(self.option("ap_tie")))

    def pay(self, combatant: Combatant, cost: Cost) -> Combatant:
        """Pay ``cost``, following the ``ap_shortfall`` option.

        >>> c = Combatant("x", 8, 3, ap=2, st=1)
        >>> GodEaterTableBurst(ap_shortfall="allow").pay(c, attack_cost(Weapon.BUSTER)).ap
        0
        """
        allow = self.option("ap_shortfall") == "allow"
        return combatant.pay(cost, allow_ap_shortfall=allow)

    def in_attack_range(
        self,
        attacker: str,
        target: str,
        weapon: Weapon,
        *,
        reach: str | tuple[int, int] | None = None,
    ) -> bool:
        """Whether ``target`` stands within the range of ``weapon`` from ``attacker``.

        Blades reach ``0-1``; a gun needs the bullet's ``reach``.

        >>> g = GodEaterTableBurst()
        >>> g.in_attack_range("in1", "out1", Weapon.SHORT)
        True
        >>> g.in_attack_range("in1", "in3", Weapon.LONG)
        False
        >>> g.in_attack_range("out1", "out4", Weapon.SHOOTING, reach="2-3")
        True
        """
        span = reach if reach is not None else weapon.reach
        if span is None:
            raise RulesError("射撃の射程はバレットで決まります: reach を指定してください")
        return self.board().in_range(attacker, target, span)

    def op_recovered(self, damage: int, *, melee: bool = True) -> int:
        """OP recovered for dealing ``damage`` (0 for non-melee), per ``op_rounding``.

        >>> GodEaterTableBurst(op_rounding="up").op_recovered(11)
        2
        """
        if not melee:
            return 0
        return op_recovery(damage, rounding=str(self.option("op_rounding")))


SYSTEM = GodEaterTableBurst
"""The registered class."""
