"""Cut-action: the chase (``cutaction.chase``), simulated.

The standing PCs flee and the enemies with a vehicle pursue (everyone on foot when none
has one), on :class:`~saikoro.systems._cutaction.chase.Chase` with the goal 10 x the
target. Each cut opens with everyone's body movement check, made together (ruling
``failed_move``; a fumble cannot act this cut); then the leader changes the route and rolls
the chase event table (:meth:`Chase.apply_event`); everyone who can act accelerates (加速,
:meth:`Chase.accelerate`: another movement check, forward by its achievement on a success,
never under 小道); everyone but the leader who changed the route obstructs the nearest
opposing runner in its area or behind it (進路妨害: a body contest,
:func:`~saikoro.systems._cutaction.checks.obstruct_retreat`, ruling ``obstruct_distance``);
a pursuer that can act and reaches the leading PC's value tries the body contest that
captures it; the chase ends as soon as one of its end conditions holds;
runners beyond -5 drop out. The PCs escape when a PC reaches the goal, every pursuer
drops out, or a PC leads when the chase ends otherwise. :mod:`.exact` solves the same
procedure exactly.
"""

from __future__ import annotations

from saikoro.systems._cutaction.chase import FLEEING, PURSUING, Chase
from saikoro.systems._cutaction.checks import contest_wins, obstruct_retreat

from .common import Char, Prepared, RandomDraw

__all__ = [
    "CHASE_CUTS",
    "accelerators",
    "capture_contest",
    "escaped",
    "key",
    "obstructions",
    "run",
    "runners",
]

CHASE_CUTS = 30
"""Safety limit on chase cuts (the chase normally ends by its own rules first)."""


def key(c: Char) -> str:
    """A runner's name in the chase (unique across PCs and enemies)."""
    return f"{c.pc}:{c.index}"


def runners(everyone: list[Char]) -> tuple[list[Char], list[Char]]:
    """The standing PCs (fleeing) and pursuers (the enemies with a vehicle, else all)."""
    pcs = [c for c in everyone if c.pc and c.up]
    chasers = [c for c in everyone if not c.pc and c.up and c.vehicle]
    return pcs, chasers or [c for c in everyone if not c.pc and c.up]


def run(prep: Prepared, draw: RandomDraw, everyone: list[Char]) -> tuple[bool, int]:
    """Play the chase: (escaped, cuts)."""
    pcs, chasers = runners(everyone)
    if not pcs:
        return False, 0
    if not chasers:
        return True, 0
    cast_of = {key(c): c for c in [*pcs, *chasers]}
    failed_move = str(prep.options["failed_move"])
    rounding = str(prep.options["falling_area"])
    contest_rule = str(prep.options["contest_rule"])
    obstruct = str(prep.options["obstruct_distance"])
    # the first cut's movement checks are the cut's own (every cut opens with them)
    first = [(name, FLEEING if c.pc else PURSUING, 0, c.pc) for name, c in cast_of.items()]
    chase = Chase.start(first, target=prep.chase_goal)
    cast = len(cast_of)
    cuts = 0
    while cuts < CHASE_CUTS:
        cuts += 1
        if chase.end_reason(cast=cast) is not None:
            break
        # the initiative timing: everyone's movement check, together; a fumble cannot act
        moves = {n: draw.check(chase.move_success_value(cast_of[n].body)) for n in chase.order()}
        chase = chase.move_checks(moves, failed_move=failed_move)
        fumbled = frozenset(n for n, r in moves.items() if r.fumble)
        if chase.end_reason(cast=cast) is not None:
            break
        leader = chase.order()[0]
        idle = fumbled
        if leader not in fumbled:  # the leader changes the route
            number = draw.d10()
            active = [r.name for r in chase.active()]
            checks = {n: draw.check(cast_of[n].body) for n in active}
            outcome = chase.apply_event(
                number,
                checks=checks,
                moves={n: max(0, moves[n].achievement) for n in active},
                fall_roll=draw.d10(),
                rounding=rounding,
            )
            chase = outcome.chase
            idle = fumbled | outcome.idle
            if chase.end_reason(cast=cast) is not None:
                break
        for n in accelerators(chase, idle):  # 加速
            value = chase.move_success_value(cast_of[n].body)
            chase = chase.accelerate(n, draw.check(value))
        if chase.end_reason(cast=cast) is not None:
            break
        for n, target in obstructions(chase, idle, leader):  # 進路妨害
            back = obstruct_retreat(
                draw.check(cast_of[n].body),
                draw.check(cast_of[target].body),
                rule=contest_rule,
                distance=obstruct,
            )
            if back:
                chase = chase.fall_back(target, back)
        hunt = capture_contest(chase, idle)
        if hunt is not None:
            hunter, front = hunt
            won = contest_wins(
                draw.check(cast_of[hunter].body),
                [draw.check(cast_of[front].body)],
                rule=contest_rule,
            )
            chase = chase.capture(won=won)
        chase = chase.end_cut()
    return escaped(chase, cast), cuts


def capture_contest(chase: Chase, idle: frozenset[str]) -> tuple[str, str] | None:
    """(pursuer, fleeing leader) when the foremost pursuer, able to act, has caught up with
    the fleeing leader (it blockades and tries the agility contest), else ``None``."""
    fleeing = [r for r in chase.active() if r.side == FLEEING]
    pursuing = [r for r in chase.active() if r.side == PURSUING]
    if not fleeing or not pursuing:
        return None
    front = max(fleeing, key=lambda r: r.position)
    hunter = max(pursuing, key=lambda r: r.position)
    if hunter.position < front.position or hunter.name in idle:
        return None
    return hunter.name, front.name


def accelerators(chase: Chase, idle: frozenset[str]) -> list[str]:
    """Who accelerates this cut (加速, in order): everyone still in who can act and move
    (nobody under 小道)."""
    if chase.narrow:
        return []
    return [n for n in chase.order() if n not in idle]


def obstructions(chase: Chase, idle: frozenset[str], leader: str) -> list[tuple[str, str]]:
    """Who obstructs whom this cut (進路妨害): every runner but ``leader`` (who led after the
    movement checks and changed the route with its main action), in order, on the nearest
    opposing runner in its area or behind it."""
    out = []
    for n in chase.order():
        if n in idle or n == leader:
            continue
        me = chase.runner(n)
        targets = [r for r in chase.active() if r.side != me.side and r.position <= me.position]
        if targets:
            out.append((n, max(targets, key=lambda r: (r.position, r.pc)).name))
    return out


def escaped(chase: Chase, cast: int) -> bool:
    """Whether the fleeing side got away when ``chase`` ended."""
    reason = chase.end_reason(cast=cast)
    runners_left = chase.active()
    if reason in ("目標値に到着", "追跡側が全員脱落"):
        return True
    if reason in ("逃走側が全員脱落", "捕捉"):
        return False
    top = chase.leader_position() if runners_left else 0
    lead = [r for r in runners_left if r.position == top]
    return any(r.side == FLEEING for r in lead)
