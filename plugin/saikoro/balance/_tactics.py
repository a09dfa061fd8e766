"""Tactics in play: the PCs' and the enemies' policies, each system's defaults and reasons.

The vocabulary (:class:`Policy`, presets and atoms) is :mod:`saikoro.scenario._tactics`,
which validation reads; the defaults are each system's simulator's
(:attr:`~saikoro.balance.Simulator.tactics`).
"""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.scenario import ATOMS, PRESETS, Policy, TacticsError, parse_policy
from saikoro.systems import Ruling

from ._simulator import simulator_for

__all__ = [
    "ATOMS",
    "PRESETS",
    "Policy",
    "Tactics",
    "TacticsError",
    "tactics_for",
    "tactics_rulings",
]


@dataclass(frozen=True)
class Tactics:
    """The PCs' and the enemies' policies."""

    pc: Policy
    enemy: Policy

    @property
    def label(self) -> str:
        """``PCs / enemies`` as written."""
        return f"{self.pc.name} / {self.enemy.name}"


def tactics_for(system: str, pc: str | None = None, enemy: str | None = None) -> Tactics:
    """The tactics in force: the given names, else the system's defaults."""
    pc_default, enemy_default = simulator_for(system).tactics
    return Tactics(parse_policy(pc or pc_default), parse_policy(enemy or enemy_default))


def tactics_rulings(system: str) -> tuple[Ruling, ...]:
    """The default tactics of ``system`` as :class:`Ruling` objects (for the rulings page)."""
    sim = simulator_for(system)
    pc, enemy = sim.tactics
    presets = "、".join(f"{name}（{desc}）" for name, (_, desc) in PRESETS.items())
    return (
        Ruling(
            key=f"{system}.balance_tactics",
            title="バランス計算での行動方針",
            seed="ルールは戦い方を決めない。誰を狙うか、守るか、近づくかはプレイヤーとGMが選ぶ。",
            decision=(
                f"シミュレーションの既定は PC が {pc}、エネミーが {enemy}。"
                f"saikoro simulate --tactics で変えられる。選べる方針：{presets}"
            ),
            reasoning=sim.tactics_reason,
        ),
    )
