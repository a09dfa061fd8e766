"""How the toy system's scenarios appear on pages: which commands show their odds."""

from __future__ import annotations

from saikoro.site import Attack, Grid, Profile

from .model import ToyEnemy, ToyTarget

__all__ = ["PROFILE", "ToyProfile"]


class ToyProfile(Profile[ToyEnemy, ToyTarget, Attack]):
    """A difficulty target shows its check's odds; enemies show their stat block."""

    system = "toy"

    def target_command(self, target: ToyTarget) -> str:
        return f"TOY{target.target}"

    def target_grid(self, target: ToyTarget) -> Grid:
        return Grid("トイ判定", ("判定",), (("成功率", (f"TOY{target.target}",)),))


PROFILE = ToyProfile()
