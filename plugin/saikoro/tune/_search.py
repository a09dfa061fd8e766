"""What to change: the smallest edits of a scenario's own numbers that bring its win rate
into its ``balance.win`` range.

The numbers are those of :func:`~._knobs.knobs` (every integer of the enemies and difficulty
targets, the main mission's round limit, the enemies' count). Every version of the scenario
is the author's file with the edit made where the file writes the number
(:class:`~._apply.Source`, the one YAML reader every command uses), measured as
``saikoro simulate`` measures the file (:class:`~._measure.Measurer`), so every figure
tuning prints is ``simulate``'s for that file, battles and seed. It goes in three steps:

1. **Sensitivity.** Each number moved by one step (1, or a tenth of a large value) and the
   win rate measured again on the same battles (the same seeded chunks: common random
   numbers, compared battle by battle), with the 95 % interval of the change. Where the
   interval holds 0, more battles are played (x4, up to ``sensitivity_max``) until its sign
   is known, for the :data:`LOUDER` numbers whose estimate is largest (those a search
   would use); a number whose step changes no battle's outcome is moved five, then
   twenty-one steps each way. A number whose sign stays unknown is shown so, and not
   searched. The exact value is used wherever the encounter is solved within the budget.
2. **Search.** Along the direction that moves the win rate towards the range, each number
   is stepped (1, 2, 3, 5, 8... steps, then bisected) until the screened estimate lands in
   the range; the edits found are ranked by their relative size. When no single edit
   reaches the range, pairs of the most sensitive numbers are tried. An enemy the mission
   must defeat is never copied or removed, and a round limit the mission's text states is
   left alone (:mod:`._knobs`).
3. **Confirmation.** The best candidates are played again on other battles (the next seed,
   so that their luck in the screening does not confirm them), more of them until the
   95 % interval lies inside the range (or the exact value does), or the battles' cap is
   reached (then the suggestion says it could not be confirmed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from saikoro.balance import (
    BalanceError,
    Encounter,
    encounter,
    scenario_tactics,
    simulate,
    simulator_for,
)
from saikoro.dice import InternalError
from saikoro.scenario import LoadError, Scenario, decode_yaml

from ._apply import Source
from ._change import Change, fresh_id
from ._knobs import Knob, knobs, mission_targets
from ._measure import Difference, Measure, Measurer, solvable
from ._result import Sensitivity, Suggestion, TuneResult

__all__ = ["CONFIRM_MAX", "SCREEN", "SENSITIVITY_MAX", "tune"]

SCREEN = 500
"""Battles per screening measurement (a candidate's first estimate)."""

SENSITIVITY_MAX = 4000
"""The most battles a sensitivity is measured with, to learn its sign (x4 from
:data:`SCREEN`)."""

CONFIRM_MAX = 40_000
"""The most battles a candidate is played to confirm it (x4 from :data:`SCREEN`)."""

SUGGESTIONS = 3
"""Suggestions confirmed and shown."""

SEARCHED = 6
"""Numbers searched one by one: those whose sensitivity predicts the smallest relative
edit (the others would need larger ones, or move the win rate too little to reach it)."""

LOUDER = 4
"""Numbers whose sign is not known yet that are measured with more battles at once: those
whose estimate moves the win rate most (the others are shown as measured)."""

_REACHES = (1, 5, 21)
"""How far a number is moved to see which way it leads (steps), when nearer moves change
no battle's outcome."""


# -- edits ----------------------------------------------------------------------------------


def _size(changes: Sequence[tuple[Knob, int]]) -> float:
    """The relative size of edits (the sum over edits of |change| / |old value|)."""
    return sum(abs(v - k.value) / max(1, abs(k.value)) for k, v in changes)


def _side(m: Measure, low: Fraction, high: Fraction) -> int:
    """-1 below the range, 0 inside, +1 above."""
    v = Fraction(m.exact) if m.exact is not None else Fraction(m.win)
    return -1 if v < low else 1 if v > high else 0


_STEPS = (1, 2, 3, 5, 8, 13, 21, 34)


def _ladder(knob: Knob, direction: int) -> list[int]:
    """The values tried along ``direction`` (+1 up, -1 down), nearest first, within bounds."""
    out: list[int] = []
    for n in _STEPS:
        v = knob.value + direction * n * knob.step
        if v < knob.low or v > knob.high:
            edge = knob.high if direction > 0 else knob.low
            if edge != knob.value and edge not in out:
                out.append(edge)
            break
        out.append(v)
    return out


@dataclass(frozen=True)
class _Candidate:
    size: float
    changes: tuple[Change, ...]
    text: str
    measure: Measure


# -- the search -----------------------------------------------------------------------------


class _Search:
    """One scenario's search: its file, range, measurer and seed."""

    def __init__(
        self,
        source: Source,
        *,
        low: Fraction,
        high: Fraction,
        measurer: Measurer,
        seed: int,
        screen: int,
    ) -> None:
        self.source = source
        self.data = source.data
        self.low, self.high = low, high
        self.measurer = measurer
        self.seed = seed
        self.screen = screen

    def change(self, knob: Knob, value: int) -> Change:
        line, column = self.source.position(knob.keys)
        old = knob.value if knob.written else None
        return Change(knob.path, knob.label, old, value, line, column, knob.keys)

    def text(self, edits: Sequence[tuple[Knob, int]]) -> str | None:
        """The file with ``edits`` made (``None``: they cannot be made in place)."""
        try:
            return self.source.edited([self.change(k, v) for k, v in edits])
        except BalanceError:
            return None

    def measure(self, edits: Sequence[tuple[Knob, int]]) -> tuple[str, Measure | None]:
        text = self.text(edits)
        if text is None:
            return "", None
        (m,) = self.measurer.many([text], self.screen, self.seed)
        return text, m

    def many(self, texts: Sequence[str | None], battles: int) -> list[Measure | None]:
        written = [t for t in texts if t is not None]
        found = dict(zip(written, self.measurer.many(written, battles, self.seed), strict=True))
        return [None if t is None else found[t] for t in texts]

    def candidate(self, edits: Sequence[tuple[Knob, int]], text: str, m: Measure) -> _Candidate:
        changes = tuple(self.change(k, v) for k, v in edits)
        return _Candidate(_size(edits), changes, text, m)

    def single(self, knob: Knob, direction: int, start: int) -> _Candidate | None:
        """The value of ``knob`` nearest its own (along ``direction``) that lands in the
        range: the ladder of steps, then bisection back towards the original value."""
        ladder = _ladder(knob, direction)
        texts = [self.text([(knob, v)]) for v in ladder]
        previous = knob.value
        for v, text, m in zip(ladder, texts, self._along(texts), strict=True):
            if m is None or text is None:
                return None  # an edit the scenario's own rules refuse: so are those beyond
            side = _side(m, self.low, self.high)
            if side == start:
                previous = v
                continue
            # the range lies between ``previous`` (short of it) and ``v``: bisect
            best = (v, text, m) if side == 0 else None
            lo, hi = previous, v
            while abs(hi - lo) > 1:
                mid = (lo + hi) // 2
                mid_text, mm = self.measure([(knob, mid)])
                if mm is None:
                    break
                mid_side = _side(mm, self.low, self.high)
                if mid_side == start:
                    lo = mid
                else:
                    hi = mid
                    if mid_side == 0:
                        best = (mid, mid_text, mm)
            if best is None:
                return None  # the range is narrower than one step of this number
            return self.candidate([(knob, best[0])], best[1], best[2])
        return None

    def _along(self, texts: Sequence[str | None]) -> Iterator[Measure | None]:
        """The measures of ``texts`` in order, measured a few at a time (as many as there
        are processes), so that a ladder stops being measured where it reaches the range."""
        group = max(2, self.measurer.jobs)
        for i in range(0, len(texts), group):
            yield from self.many(texts[i : i + group], self.screen)

    def pair(self, a: Knob, da: int, b: Knob, db: int, start: int) -> _Candidate | None:
        """Both numbers moved along their helpful directions by the same number of steps."""
        for n in _STEPS:
            va = min(max(a.value + da * n * a.step, a.low), a.high)
            vb = min(max(b.value + db * n * b.step, b.low), b.high)
            edits = [(a, va), (b, vb)]
            text, m = self.measure(edits)
            if m is None:
                return None
            side = _side(m, self.low, self.high)
            if side == 0:
                return self.candidate(edits, text, m)
            if side != start or (va in (a.low, a.high) and vb in (b.low, b.high)):
                return None
        return None

    def counts(self, start: int) -> list[_Candidate]:
        """One enemy fewer (the PCs lose too often) or one more (they win too often), never
        one the main mission must defeat (:func:`~._knobs.mission_targets`)."""
        enemies = self.data.get("enemies") or []
        targets = mission_targets(self.data)
        ids = {str(e.get("id")) for e in enemies}
        out = []
        for i, e in enumerate(enemies):
            if str(e.get("id")) in targets:
                continue
            if start < 0:
                if len(enemies) < 2:
                    continue
                kind = "remove_enemy"
            else:
                fresh_id(str(e.get("id", "enemy")), ids)  # a copy can be named
                kind = "add_enemy"
            path = f"scenario.enemies[{i}]"
            line, column = self.source.position(("enemies", i))
            name = str(e.get("name", e.get("id")))
            change = Change(path, name, None, None, line, column, ("enemies", i), kind)
            try:
                text = self.source.edited([change])
            except BalanceError:
                continue
            (m,) = self.measurer.many([text], self.screen, self.seed)
            if m is None or _side(m, self.low, self.high) != 0:
                continue
            out.append(_Candidate(1.0, (change,), text, m))
        return out

    def confirm(self, text: str, confirm_max: int) -> tuple[bool, Measure]:
        """Battles other than those the candidate was chosen on (the next seed, so that its
        luck there does not confirm it), more of them (x4 each time) until the 95 % interval
        lies inside the range, the estimate leaves it, or the cap is reached; the exact value
        decides at once."""
        battles = self.screen
        while True:
            (m,) = self.measurer.many([text], battles, self.seed + 1)
            if m is None:
                raise InternalError("a candidate stopped validating")
            if m.exact is not None:
                return self.low <= m.exact <= self.high, m
            if float(self.low) <= m.low and m.high <= float(self.high):
                return True, m
            if battles >= confirm_max or _side(m, self.low, self.high) != 0:
                return False, m
            battles = min(confirm_max, battles * 4)


def _source(scenario: Scenario) -> Source:
    """The scenario's file as the one YAML reader reads it."""
    try:
        data = scenario.path.read_bytes()
    except OSError as e:
        raise BalanceError(
            f"{scenario.path}: 調整にはシナリオのファイルが要ります（{e.strerror or e}）"
        ) from None
    try:
        return Source(decode_yaml(data, scenario.path.name), scenario.path.name)
    except LoadError as e:
        raise BalanceError("; ".join(p.format("ja") for p in e.problems)) from None


def tune(
    scenario: Scenario,
    *,
    seed: int = 0,
    jobs: int = 1,
    screen: int = SCREEN,
    confirm_max: int = CONFIRM_MAX,
    sensitivity_max: int = SENSITIVITY_MAX,
    progress: Callable[[str], None] | None = None,
) -> TuneResult:
    """Search ``scenario``'s numbers for edits that bring its win rate into ``balance.win``.

    Raises:
        BalanceError: the scenario gives no ``balance.win`` range, or its file cannot be read.
    """
    model = scenario.model
    if model.balance is None or not model.balance.win:
        raise BalanceError(
            f"{scenario.path}: balance.win（目標の勝率の範囲）がないので調整できません"
            "（例: `balance: {win: 60%-80%}`）"
        )
    enc = encounter(scenario)
    if enc.balance is None or enc.balance.win is None:
        raise InternalError(f"{scenario.id}: balance.win passed validation but has no range")
    low, high = enc.balance.win
    text = enc.balance.win_text
    tell = progress or (lambda _message: None)
    source = _source(scenario)

    with Measurer(scenario.path.name, solvable(enc), jobs) as measurer:
        search = _Search(source, low=low, high=high, measurer=measurer, seed=seed, screen=screen)
        found = knobs(scenario.system, source.data)
        sensitivities, base = _sensitivities(search, found, max(screen, sensitivity_max))
        tell(f"{len(found)} 個の数値の感度を測った")
        decisive = _decisive(enc, seed, screen, solve=measurer.exact)
        start = _side(base, low, high)

        def result(**rest: Any) -> TuneResult:
            return TuneResult(
                scenario.id,
                (low, high),
                text,
                seed,
                base,
                tuple(sensitivities),
                measured=measurer.versions,
                decisive=decisive,
                **rest,
            )

        if start == 0:
            return result(suggestions=(), reason="勝率はすでに目標の範囲内")
        by_path = {k.path: k for k in found}
        up = start < 0  # the PCs win too rarely: move numbers in the PCs' favour
        moving = [
            s
            for s in sensitivities
            if s.settled and s.per_step != 0 and by_path[s.path].fixed is None
        ]

        def helping(s: Sensitivity) -> tuple[Knob, int]:
            return by_path[s.path], 1 if (s.per_step > 0) == up else -1

        helpful = [helping(s) for s in moving]
        # the numbers searched one by one: those whose sensitivity predicts the smallest edits
        ranked = sorted(moving, key=lambda s: _predicted_size(s, base.value, low, high))
        candidates = [
            c
            for k, d in map(helping, ranked[:SEARCHED])
            if (c := search.single(k, d, start)) is not None
        ]
        candidates += search.counts(start)
        tell(f"{len(candidates)} 件の単独の変更が見つかった")
        if not candidates:
            top = helpful[:4]
            for i, (a, da) in enumerate(top):
                for b, db in top[i + 1 :]:
                    if (c := search.pair(a, da, b, db, start)) is not None:
                        candidates.append(c)
            tell(f"組み合わせを試した（{len(candidates)} 件）")
        candidates.sort(key=lambda c: (len(c.changes), c.size))
        suggestions = []
        for c in candidates[:SUGGESTIONS]:
            confirmed, m = search.confirm(c.text, confirm_max)
            suggestions.append(Suggestion(c.changes, m, confirmed, c.size))
            tell(f"候補を確かめた（{len(suggestions)}）")
        suggestions.sort(key=lambda s: (not s.confirmed, len(s.changes), s.size))
        reason = None
        if not suggestions:
            reason = (
                "1つか2つの数値の変更では目標の範囲に届かない"
                "（範囲を見直すか、エネミーや判定の構成を変える）"
            )
        return result(suggestions=tuple(suggestions), reason=reason)


@dataclass(frozen=True)
class _Probe:
    """A number being measured, moved ``reach`` steps."""

    knob: Knob
    reach: int = 1

    def pairs(self) -> list[tuple[int, int]]:
        """The values compared, lower first: the number's own and one step up (one down at
        its upper bound); from ``reach`` 5 on, ``reach`` steps up and, apart, down."""
        k = self.knob
        if self.reach == 1:
            up = k.at(1, 1)
            return [(k.at(1, -1), k.value)] if up == k.value else [(k.value, up)]
        pairs = [(k.value, k.at(self.reach, 1)), (k.at(self.reach, -1), k.value)]
        return [(lo, hi) for lo, hi in pairs if lo != hi]

    def further(self) -> _Probe | None:
        """The same number moved further (``None``: it was moved the furthest already)."""
        later = [r for r in _REACHES if r > self.reach]
        return _Probe(self.knob, later[0]) if later else None


@dataclass(frozen=True)
class _Compared:
    """Two values of one number and what the change between them did."""

    lo: int
    hi: int
    lo_text: str
    hi_text: str
    difference: Difference

    @property
    def strength(self) -> tuple[bool, float]:
        """What makes one comparison the one shown: a known sign, then a larger change per
        step (both measured in the same steps' units)."""
        d = self.difference
        return d.settled, abs(d.value) / max(1, self.hi - self.lo)


def _sensitivities(
    search: _Search, found: Sequence[Knob], most: int
) -> tuple[list[Sensitivity], Measure]:
    """Each number's sensitivity (see the module) and the scenario's own figure, measured
    with the most battles any sensitivity needed."""
    measurer, seed = search.measurer, search.seed
    base_text = search.source.text
    battles = search.screen
    probes = [_Probe(k) for k in found]
    out: list[Sensitivity] = []

    def text_of(knob: Knob, value: int) -> str | None:
        return base_text if value == knob.value else search.text([(knob, value)])

    while probes:
        texts = {(p, v): text_of(p.knob, v) for p in probes for pair in p.pairs() for v in pair}
        written = [t for t in texts.values() if t is not None]
        measurer.many(list(dict.fromkeys([base_text, *written])), battles, seed)
        more: list[_Probe] = []
        noisy: list[tuple[_Probe, _Compared]] = []
        for p in probes:
            compared = []
            for lo, hi in p.pairs():
                lo_text, hi_text = texts[(p, lo)], texts[(p, hi)]
                if lo_text is None or hi_text is None:
                    continue  # an edit the file or the scenario's rules refuse
                d = measurer.difference(hi_text, lo_text, battles, seed)
                if d is not None:
                    compared.append(_Compared(lo, hi, lo_text, hi_text, d))
            further = p.further()
            if not compared:
                if further is not None:
                    more.append(further)
                continue
            best = max(compared, key=lambda c: c.strength)
            d = best.difference
            if not d.settled and not (d.exact and d.value == 0):
                if all(c.difference.unmoved for c in compared) and further is not None:
                    more.append(further)
                    continue
                if not d.unmoved and battles < most:
                    noisy.append((p, best))
                    continue
            out.append(_sensitivity(p.knob, best, battles, seed, measurer))
        # more battles for the numbers that seem to move the win rate most (those a search
        # would use); the others are shown as measured, their sign not known
        noisy.sort(key=lambda pc: -abs(pc[1].strength[1]))
        for p, best in noisy[LOUDER:]:
            out.append(_sensitivity(p.knob, best, battles, seed, measurer))
        probes = more + [p for p, _ in noisy[:LOUDER]]
        if noisy:
            battles = min(most, battles * 4)
    (base,) = measurer.many([base_text], battles, seed)
    if base is None:
        raise InternalError("the scenario does not validate when its file is read again")
    out.sort(key=lambda s: (not s.settled, -abs(s.per_step)))
    return out, base


def _sensitivity(k: Knob, c: _Compared, battles: int, seed: int, measurer: Measurer) -> Sensitivity:
    lo_m, hi_m = measurer.many([c.lo_text, c.hi_text], battles, seed)
    if lo_m is None or hi_m is None:  # pragma: no cover - measured before
        raise InternalError("a measured version stopped validating")
    d = c.difference
    per = d.scaled((c.hi - c.lo) / k.step)
    exact = lo_m.exact is not None and hi_m.exact is not None
    return Sensitivity(
        k.path,
        k.label,
        k.value,
        k.step,
        per.value,
        per.low,
        per.high,
        d.settled or d.exact,
        c.lo,
        c.hi,
        lo_m.value,
        hi_m.value,
        0 if exact else battles,
        seed,
        k.fixed,
        d.unmoved,
    )


def _predicted_size(s: Sensitivity, base: float, low: Fraction, high: Fraction) -> float:
    """The relative size of the edit of ``s``'s number the sensitivity predicts lands in the
    range (its middle): steps needed times the step, over the value."""
    aim = float(low + high) / 2
    steps = abs(aim - base) / abs(s.per_step)
    return steps * s.step / max(1, abs(s.value))


def _decisive(enc: Encounter, seed: int, battles: int, *, solve: bool) -> tuple[str, ...]:
    """The enemy action, the PC and the check that decide the fight (see TuneResult);
    ``solve``: the encounter is solved within tuning's budget (the checks' exact odds)."""
    r = simulate(enc, battles=battles, seed=seed, tactics=scenario_tactics(enc), solve=solve)
    out = []
    if r.dangerous is not None:
        action = r.dangerous[0].rpartition(":")[2]
        who = f"{r.dangerous_enemy}の" if r.dangerous_enemy else ""
        out.append(f"最も危険な敵の行動：{who}「{action}」（1戦あたり {r.dangerous[1]:.1f}）")
    sim = simulator_for(enc.system)
    if r.pcs and sim.pcs_go_down:
        worst = max(r.pcs, key=lambda p: p.downed)
        if worst.downed > 0:
            out.append(
                f"{sim.downed_caption}が最も高いPC：{worst.name}（{worst.downed * 100:.1f}%）"
            )
    checks = {k: v for k, v in r.exact_figures.items() if k.startswith("P(")}
    if checks:
        name, p = min(checks.items(), key=lambda kv: kv[1])
        out.append(f"最も成功しにくい判定：{name[2:-1]}（{float(p) * 100:.1f}%）")
    return tuple(out)
