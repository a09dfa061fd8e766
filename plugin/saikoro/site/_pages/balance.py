"""The 「バランス」 section of a scenario page: how hard the fight is, from the simulator.

The figures are those ``saikoro validate`` checks (:func:`saikoro.balance._check.figures`:
seed 0, the scenario's tactics and party), with the exact value where the simulator
solves the encounter, computed at build time through a
:class:`~saikoro.site._balancecache.SiteBalanceStore` (cached by content, shared with
validate). The target's verdict is :func:`saikoro.balance.judge_target`'s, as validate
says it (:func:`saikoro.balance._check.balance_problems`, in the build's log); under
``mkdocs serve`` what is still being computed in the background is shown as pending. The
plugin turns the section on with its :class:`Settings`; a page rendered without them
(``balance.enabled: false``, or outside a build) has no section and simulates nothing.
The settings are the build context's (:class:`saikoro.site._context.BuildContext`),
passed to each function here; none is kept in this module.

Every text that comes from the scenario (PC and enemy names, action names) is escaped;
the simulator's own notes too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from saikoro.balance import (
    VERDICTS,
    BalanceResult,
    Encounter,
    TargetVerdict,
    balance_problems,
    encounter,
    judge_target,
    simulator_for,
    verdict,
)
from saikoro.dice import InternalError
from saikoro.scenario import Problem, Scenario, describe_tactic, parse_win_range
from saikoro.site._balancecache import SiteBalanceStore
from saikoro.site._charts import percent, prob
from saikoro.site._log import log
from saikoro.site._pages.labels import ruling_word
from saikoro.site._safe import esc
from saikoro.systems import system_class
from saikoro.tune import Sensitivity, TuneResult

__all__ = [
    "Settings",
    "figures",
    "nothing_to_play",
    "section",
    "section_html",
    "summary",
    "take_misses",
    "version",
]


@dataclass(frozen=True)
class Settings:
    """The section's settings for the pages rendered next (the plugin's ``balance:``).

    ``misses``: with ``fail_on_miss``, the targets clearly missed so far (the plugin fails
    the build on them); otherwise they go to the log, as every verdict does, in ``lang``.
    """

    store: SiteBalanceStore
    battles: int
    fail_on_miss: bool = False
    lang: str = "ja"
    misses: list[Problem] = field(default_factory=list)


def take_misses(settings: Settings | None) -> list[Problem]:
    """The targets clearly missed since the last call, with ``fail_on_miss`` (the plugin
    fails the build on them)."""
    if settings is None:
        return []
    taken = list(settings.misses)
    settings.misses.clear()
    return taken


def version(settings: Settings | None, scenario: Scenario) -> int:
    """Changes when background work the scenario's section waited for has ended (part of
    the page cache's key under ``mkdocs serve``)."""
    return 0 if settings is None else settings.store.version(scenario)


def _has_simulator(system_id: str) -> bool:
    return system_class(system_id).part("simulator", required=False) is not None


def battles_for(scenario: Scenario, default: int) -> int:
    """The battles to play: the scenario's ``balance.battles`` when it gives one (as
    ``saikoro validate`` does), else the site's ``balance.battles``."""
    if "scenario.balance.battles" in scenario.positions and scenario.model.balance:
        return scenario.model.balance.battles
    return default


def section(settings: Settings | None, scenario: Scenario, block: Callable[[str], str]) -> str:
    """The section's Markdown (a heading and one HTML block), ``""`` when it is off.

    ``scenario`` is a validated :class:`saikoro.scenario.Scenario` (see
    :class:`saikoro.scenario.Scenario`); ``block`` keeps the HTML out of
    the Markdown (the page's slots)."""
    if settings is None:
        return ""
    if not _has_simulator(scenario.system):  # a plugin system without one
        note = (
            '<p class="saikoro-note">このシステムにはバランスのシミュレーションがありません。</p>'
        )
        return "## バランス\n" + block(note)
    enc = encounter(scenario)
    missing = nothing_to_play(enc)
    if missing:
        note = (
            f'<p class="saikoro-note">{missing}ので、バランスのシミュレーションはしていません。</p>'
        )
        return "## バランス\n" + block(note)
    battles = battles_for(scenario, settings.battles)
    result, pending = settings.store.figures_now(scenario, enc, battles)
    found = target_verdict(scenario, result)
    tuned: TuneResult | None = None
    tune_state = ""
    if not pending:
        _report(settings, scenario, result)
        if found is not None and found.state == "out":
            tuned, waiting = settings.store.tune_now(scenario)
            tune_state = "pending" if waiting else ("" if tuned else "on_demand")
    html = section_html(scenario, result, tuned, pending=pending, tune_state=tune_state)
    return "## バランス\n" + block(html)


def _report(settings: Settings, scenario: Scenario, result: BalanceResult) -> None:
    """The verdict in the build's log, worded as ``saikoro validate`` words it: a target
    clearly missed is kept for the plugin to fail the build with ``fail_on_miss``, else
    logged as information (MkDocs' ``--strict`` does not decide the balance gate); not yet
    certain, or battles cut by time, always information."""
    shown = _shown_path(scenario)
    for problem in balance_problems(scenario, result, shown):
        if problem.gate == "miss" and settings.fail_on_miss:
            settings.misses.append(problem)
            continue
        text = problem.format(settings.lang)
        if problem.gate == "miss":
            text += f"（saikoro tune {shown} が範囲に入れる変更を探します）"
        log.info(text)


def figures(settings: Settings | None, scenario: Scenario) -> BalanceResult | None:
    """The figures of the scenario's section (cached: one simulation per page; under
    ``mkdocs serve`` those played so far while the rest runs in the background), ``None``
    when the page has none (the section off, no simulator, nothing to play)."""
    if settings is None or not _has_simulator(scenario.system):
        return None
    enc = encounter(scenario)
    if nothing_to_play(enc):
        return None
    result, _ = settings.store.figures_now(scenario, enc, battles_for(scenario, settings.battles))
    return result


def summary(settings: Settings | None, scenario: Scenario) -> tuple[str, str, float] | None:
    """(verdict, its CSS word, win rate it rests on) of the scenario's section, for the
    scenario index; ``None`` when the page has no verdict. The figures are the section's
    own (cached: the page was rendered first)."""
    result = figures(settings, scenario)
    if result is None:
        return None
    basis = float(result.exact) if result.exact is not None else result.win

    word = verdict(basis)
    return word, _VERDICT_CLASS[word], basis


def nothing_to_play(enc: Encounter) -> str:
    """Why the encounter has nothing to simulate (``""``: it has something): a scenario
    that would "win" every time gets no verdict
    (:meth:`saikoro.balance.Simulator.nothing_to_play`)."""
    return simulator_for(enc.system).nothing_to_play(enc)


# -- words ----------------------------------------------------------------------------------

_VERDICT_CLASS = {"易しい": "easy", "標準": "standard", "厳しい": "hard", "非常に厳しい": "deadly"}


def _plays(result: BalanceResult) -> str:
    """What one simulated play is called (戦闘; 試行 for a series of checks)."""
    return simulator_for(result.system).play_word


def _pct(x: float) -> str:
    return percent(x)  # the site's one formatting of a probability


def thresholds_text() -> str:
    """The verdicts' thresholds in one line (易しい 90% 以上 ／ …)."""
    parts = []
    for i, (low, word, _) in enumerate(VERDICTS):
        if i == len(VERDICTS) - 1:
            parts.append(f"{word} {VERDICTS[i - 1][0] * 100:.0f}% 未満")
        else:
            parts.append(f"{word} {low * 100:.0f}% 以上")
    return " ／ ".join(parts)


def _party(result: BalanceResult) -> str:
    size = len(result.pcs)
    if result.party == "scenario":
        return f"シナリオのPC（{size}人）"
    if result.party.startswith("reference-"):
        return f"標準パーティ {size}人（シナリオにPCがないため、プレイヤーの最少人数の既定のPC）"
    return esc(result.party)


def _policy(name: str) -> str:
    """A side's tactics in words (the names are the scenario's settings, not readers')."""
    parts = [p.strip() for p in name.split(",") if p.strip()]
    return esc("、".join(describe_tactic(p) for p in parts))


def _tactics(result: BalanceResult) -> str:
    pc, _, enemy = result.tactics.partition(" / ")
    return f"PC：{_policy(pc)}<br>エネミー：{_policy(enemy)}"


def _danger(scenario: Scenario, result: BalanceResult) -> str:
    """The most dangerous enemy action in words (``""`` when no enemy dealt damage)."""
    if result.dangerous is None:
        return ""
    action, damage = result.dangerous
    enemy_id, sep, move = action.partition(":")
    if sep:
        names = {e.id: e.name for e in scenario.model.enemies}
        if enemy_id not in names:
            raise InternalError(f"{scenario.id}: the simulator named an unknown enemy {enemy_id!r}")
        who = f"{esc(names[enemy_id])}の「{esc(move)}」"
    else:  # no enemy named: the enemy side's attacks together (kokuryoku's)
        side = "・".join(e.name for e in scenario.model.enemies)
        who = f"エネミー側（{esc(side)}）の「{esc(action)}」の合計"
    plays = _plays(result)
    return f"{who}（1{plays}あたり平均 {damage:.1f} ダメージ）"


def _bar(share: float) -> str:
    return f'<span class="saikoro-balance-bar" style="--p:{share * 100:.1f}%"></span>'


def _rounds(result: BalanceResult) -> str:
    sim = simulator_for(result.system)
    caption, column = sim.rounds_caption, sim.rounds_column
    # the limit of what the rows count (the simulator's, as the scenario wrote it)
    limit = result.round_limit if result.round_limit_written else None
    if limit:
        caption += f"（上限 {limit}）"
    n = result.battles
    rows = "".join(
        f'<tr><th scope="row">{k}</th><td>{v}</td>'
        f'<td class="saikoro-balance-share">{_pct(v / n)}{_bar(v / n)}</td></tr>'
        for k, v in sorted(result.rounds.items())
    )
    return (
        f'<table class="saikoro-balance-table saikoro-balance-rounds"><caption>{caption}</caption>'
        f'<thead><tr><th scope="col">{column}</th><th scope="col">{_plays(result)}数</th>'
        f'<th scope="col" class="saikoro-balance-share">割合</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )


def _pcs(result: BalanceResult) -> str:
    sim = simulator_for(result.system)
    if not sim.pcs_go_down:
        return (
            '<p class="saikoro-note">このシステムでは PC 個人は倒れない（決着は国力ゲージなど）'
            "ので、PCごとの危険度はありません。</p>"
        )
    if not result.pcs:
        return ""
    caption, column = sim.downed_caption, sim.downed_column
    rows = "".join(
        f'<tr><th scope="row">{esc(p.name)}</th>'
        f'<td class="saikoro-balance-share">{_pct(p.downed)}{_bar(p.downed)}</td>'
        f'<td class="saikoro-balance-ci">{_pct(p.downed_low)}〜{_pct(p.downed_high)}</td></tr>'
        for p in result.pcs
    )
    return (
        f'<table class="saikoro-balance-table saikoro-balance-pcs"><caption>{caption}</caption>'
        '<thead><tr><th scope="col">PC</th>'
        f'<th scope="col" class="saikoro-balance-share">{column}</th>'
        f'<th scope="col">95% 区間</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def _side(result: BalanceResult) -> str:
    """P(each side mission) with its interval; "not simulated" and why, never a guess."""
    if not result.side:
        return ""
    rows = []
    for m in result.side:
        if not m.modelled or m.rate is None or m.low is None or m.high is None:
            why = esc(m.reason or "判定できる達成条件が書かれていない")
            rows.append(
                f'<tr><th scope="row">{esc(m.text)}</th>'
                f'<td colspan="2" class="saikoro-note">計算しない（{why}）</td></tr>'
            )
            continue
        exact = "" if m.exact is None else f"<br>厳密 {prob(m.exact)}"
        rows.append(
            f'<tr><th scope="row">{esc(m.text)}</th>'
            f'<td class="saikoro-balance-share">{_pct(m.rate)}{_bar(m.rate)}</td>'
            f'<td class="saikoro-balance-ci">{_pct(m.low)}〜{_pct(m.high)}{exact}</td></tr>'
        )
    return (
        '<table class="saikoro-balance-table saikoro-balance-side">'
        "<caption>サイドミッションの達成率</caption>"
        '<thead><tr><th scope="col">サイドミッション</th>'
        '<th scope="col" class="saikoro-balance-share">達成率</th>'
        f'<th scope="col">95% 区間</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def _means(result: BalanceResult) -> str:
    sim = simulator_for(result.system)
    unit = sim.round_unit
    items = []
    if result.dealt_per_round or result.taken_per_round:
        items.append(
            f"<li>1{unit}あたりのダメージ：与 {result.dealt_per_round:.1f} ／ "
            f"被 {result.taken_per_round:.1f}</li>"
        )
    for name, value in result.means.items():
        label = sim.mean_labels.get(name)
        if label is None:
            continue  # a figure without words yet is not shown as an id
        shown = _pct(value) if "割合" in label else f"{value:.2f}"
        items.append(f"<li>{esc(label)}：{shown}</li>")
    return f"<ul>{''.join(items)}</ul>" if items else ""


def target_verdict(scenario: Scenario, result: BalanceResult) -> TargetVerdict | None:
    """The verdict on the scenario's ``balance.win`` (``None``: it gives none)."""
    target = scenario.model.balance.win if scenario.model.balance else None
    if not target:
        return None
    bounds = parse_win_range(target)
    if bounds is None:
        raise InternalError(f"{result.scenario}: balance.win {target!r} passed validation")
    return judge_target(
        bounds,
        win=result.win,
        low=result.win_low,
        high=result.win_high,
        battles=result.battles,
        exact=result.exact,
    )


def _ends(result: BalanceResult) -> str:
    """How the battles ended (win, wipe, time-out, caught...), each with its interval; the
    ends that never happened are named under the table."""
    rows = "".join(
        f'<tr><th scope="row">{esc(e.label)}</th>'
        f'<td class="saikoro-balance-share">{_pct(e.rate)}{_bar(e.rate)}</td>'
        f'<td class="saikoro-balance-ci">{_pct(e.low)}〜{_pct(e.high)}</td></tr>'
        for e in result.ends
        if e.count
    )
    never = [e for e in result.ends if not e.count]
    if never:
        bound = _pct(max(e.high for e in never))
        names = "、".join(f"「{esc(e.label)}」" for e in never)
        rows += (
            '<tr><td colspan="3" class="saikoro-note">'
            f"一度も起きなかった結末（それぞれ 95% 区間の上限 {bound}）：{names}</td></tr>"
        )
    if not rows:
        return ""
    return (
        '<table class="saikoro-balance-table saikoro-balance-ends">'
        f"<caption>{_plays(result)}の結末</caption>"
        '<thead><tr><th scope="col">結末</th>'
        '<th scope="col" class="saikoro-balance-share">割合</th>'
        f'<th scope="col">95% 区間</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def _limit(result: BalanceResult) -> str:
    """The round limit in force, and where it comes from."""
    if result.round_limit is None:
        return ""
    unit = simulator_for(result.system).round_unit
    where = "シナリオの指定" if result.round_limit_written else "システムの既定値"
    return f"<div><dt>上限</dt><dd>{result.round_limit} {esc(unit)}（{where}）</dd></div>"


def _rulings(result: BalanceResult) -> str:
    """The rulings the figures rely on: their titles, and the value a scenario chose where it
    is not the default (the key, an id for code, only in ``data-ruling``; ids are for code,
    titles for readers)."""
    if not result.rulings:
        return ""
    items = []
    for r in result.rulings:
        value = ""
        if r.value is not None and not r.default:
            value = f"：{esc(ruling_word(result.system, r.key, r.value))}（既定から変更）"
        items.append(f'<li data-ruling="{esc(r.key)}">{esc(r.title)}{value}</li>')
    listed = "".join(items)
    return (
        f'<div><dt>使った裁定</dt><dd><ul class="saikoro-balance-rulings">{listed}</ul></dd></div>'
    )


def _per_step(s: Sensitivity) -> str:
    """A sensitivity's change per step in points, with its 95 % interval (or why its sign is
    not known)."""
    if s.unmoved:
        return "動かない"
    shown = f"{s.per_step * 100:+.1f}"
    if s.low == s.high:
        return shown
    interval = f"（95% 区間 {s.low * 100:+.1f}〜{s.high * 100:+.1f}）"
    return shown + interval if s.settled else f"{shown}{interval}、向きは不確か"


def _tuned_html(tuned: TuneResult) -> str:
    """What to change: the suggestions (each a YAML change at its line, with the figure it
    gives) and the numbers that move the win rate most."""
    parts = ['<div class="saikoro-balance-tune">', '<p class="saikoro-card-title">何を変えるか</p>']
    if tuned.suggestions:
        items = []
        for s in tuned.suggestions:
            m = s.measure
            figure = (
                prob(m.exact)
                if m.exact is not None
                else (
                    f"{_pct(m.win)}（95% 区間 {_pct(m.low)}〜{_pct(m.high)}、"
                    f"{m.battles}回、シード {m.seed}）"
                )
            )
            state = "確認済み" if s.confirmed else "確認できず"
            changes = "".join(
                f"<li><code>{esc(c.yaml_text())}</code>（{esc(c.label)}、{c.line} 行目）</li>"
                for c in s.changes
            )
            items.append(f"<li>勝率 {figure} → {esc(s.verdict)}（{state}）<ul>{changes}</ul></li>")
        parts.append(f'<ol class="saikoro-balance-suggestions">{"".join(items)}</ol>')
    elif tuned.reason:
        parts.append(f'<p class="saikoro-note">{esc(tuned.reason)}</p>')
    if tuned.sensitivities:
        rows = "".join(
            f'<tr><th scope="row">{esc(s.label)}</th><td>{s.value}</td><td>{s.step}</td>'
            f"<td>{_per_step(s)}</td></tr>"
            for s in tuned.sensitivities[:3]
        )
        parts.append(
            '<table class="saikoro-balance-table saikoro-balance-sensitivity">'
            "<caption>勝率を最も動かす数値</caption>"
            '<thead><tr><th scope="col">数値</th><th scope="col">いまの値</th>'
            '<th scope="col">1段階</th><th scope="col">勝率の変化（ポイント）</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
        )
    parts.append(
        '<p class="saikoro-note">同じ乱数の戦闘で測り比べた値（シード '
        f"{tuned.seed}）。<code>saikoro tune --apply</code> で"
        "最初の確認済みの提案を書き込めます。</p>"
    )
    parts.append("</div>")
    return "".join(parts)


def _limit_words(result: BalanceResult) -> str:
    """The round limit as the lead sentence says it, with where it comes from."""
    unit = simulator_for(result.system).round_unit
    where = "シナリオの指定" if result.round_limit_written else "システムの既定値"
    return f"上限 {result.round_limit} {unit}、{where}"


_OPTION = re.compile(r"（[a-z][a-z0-9_]*(?:[=:][a-z0-9_]+)?）")


def _for_readers(text: str) -> str:
    """A simulator's note without the option names it cites (「…とみなす（random_status）」):
    they are for the rulings page, not for the readers of a scenario.

    >>> _for_readers("等確率とみなす（random_status）。")
    '等確率とみなす。'
    """
    return _OPTION.sub("", text)


def _quoted(label: str) -> str:
    """A label in 「」 unless it brings its own."""
    return esc(label) if "「" in label else f"「{esc(label)}」"


def lead(scenario: Scenario, result: BalanceResult) -> str:
    """The section's first sentence: the verdict and the win rate, the main way to lose
    with its share, the most dangerous enemy action, and the round limit when it decides
    games (a time-out among the losses)."""
    basis = float(result.exact) if result.exact is not None else result.win
    word = verdict(basis)
    parts = [
        f'<span class="saikoro-verdict saikoro-verdict-{_VERDICT_CLASS[word]}">{word}</span> '
        f'<span class="saikoro-balance-win">勝率 <strong>{_pct(result.win)}</strong></span>'
        f'<span class="saikoro-balance-ci">（95% 区間 {_pct(result.win_low)}〜'
        f"{_pct(result.win_high)}）</span>"
    ]
    losses = sorted((e for e in result.ends if not e.win and e.count), key=lambda e: -e.rate)
    clauses = []
    if losses:
        main = losses[0]
        lose = f"負けの多くは{_quoted(main.label)}の {_pct(main.rate)}"
        timeout = next((e for e in losses if e.key == "timeout"), None)
        if timeout is not None and result.round_limit:
            limit = _limit_words(result)
            if timeout is main:
                lose += f"（{limit}）"
            else:
                lose += f"、時間切れ（{limit}）も {_pct(timeout.rate)}"
        clauses.append(lose)
    else:
        clauses.append(f"負けた{_plays(result)}はなく")
    danger = _danger(scenario, result)
    if danger:
        clauses.append(f"最も危険なのは{danger}です。")
    else:
        clauses[-1] += "です。"
    return f'<p class="saikoro-balance-lead">{parts[0]}：{"で、".join(clauses)}</p>'


def _target_html(scenario: Scenario, result: BalanceResult, *, pending: bool) -> str:
    """The ``balance.win`` line: 範囲内, 範囲外 or まだ確かでない (and what would decide it)."""
    found = target_verdict(scenario, result)
    if found is None or scenario.model.balance is None:
        return ""
    target = scenario.model.balance.win
    if pending:
        css, state = "pending", "判定は計算が終わってから"
    elif found.state == "uncertain":
        css, state = "unsure", found.word
        if found.needed is None:
            state += "：境目にあり、戦闘を増やしても決まりそうにない"
        else:
            state += f"：決めるには <code>balance.battles: {found.needed}</code> ほど"
    else:
        css, state = ("ok" if found.state == "in" else "miss"), found.word
    return (
        f'<p class="saikoro-balance-target saikoro-balance-target-{css}">'
        f"目標の勝率：<strong>{esc(target)}</strong>（{state}）</p>"
    )


def _shown_path(scenario: Scenario) -> str:
    """The scenario's file as a command names it (relative to the folder the build runs in)."""
    path = Path(scenario.path)
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.name


def _tune_state_html(scenario: Scenario, state: str) -> str:
    """What to change, while it is not shown: being computed, or left to ``saikoro tune``."""
    if state == "pending":
        note = "提案を計算中です（終わるとページが更新されます）。"
    else:
        note = (
            f"<code>saikoro tune {esc(_shown_path(scenario))}</code> で提案を計算できます"
            "（<code>mkdocs serve</code> では自動で計算して、ここに載せます）。"
        )
    return (
        '<div class="saikoro-balance-tune"><p class="saikoro-card-title">何を変えるか</p>'
        f'<p class="saikoro-note">{note}</p></div>'
    )


def section_html(
    scenario: Scenario,
    result: BalanceResult,
    tuned: TuneResult | None = None,
    *,
    pending: bool = False,
    tune_state: str = "",
) -> str:
    """The section's HTML for ``result`` (the figures of ``scenario``).

    For readers first: the verdict and win rate, one sentence (:func:`lead`), how the
    games ended and who falls; how it was computed (method, party, tactics, rulings,
    seed), the rounds and the rest are folded under a ``<details>``. ``pending``: the
    rest of the battles are played in the background (``mkdocs serve``); ``tune_state``
    ``pending`` or ``on_demand``: the suggestions are not shown yet."""
    head = ['<div class="saikoro-balance">', lead(scenario, result)]
    head.append(_target_html(scenario, result, pending=pending))
    if pending:
        head.append(
            '<p class="saikoro-note saikoro-balance-pending">計算中：ここまでに終えた'
            f"{result.battles:,}回の{_plays(result)}による途中の値です"
            f"（全{result.requested:,}回）。終わるとページが更新されます。</p>"
        )
    elif result.cut is not None:
        head.append(
            f'<p class="saikoro-note saikoro-balance-cut">時間の上限（{result.cut:g} 秒）で'
            f"打ち切り：<code>balance.battles</code> の {result.requested:,}回のうち "
            f"{result.battles:,}回の結果です。すべて行うには <code>saikoro simulate</code>。</p>"
        )
    if result.exact is not None:
        exact = prob(result.exact)
        head.append(f'<p class="saikoro-balance-exact">厳密な勝率：<strong>{exact}</strong></p>')
    # figures and folds are not text to search (the lead sentence is)
    figures = (
        f'<section class="saikoro-balance-figures" data-search-exclude>{_ends(result)}'
        f"{_pcs(result)}{_side(result)}</section>"
    )
    # how it was computed, and the rest: folded
    low, high = verdict(result.win_low), verdict(result.win_high)
    straddle = ""
    if result.exact is None and low != high:
        straddle = f"区間が「{low}」から「{high}」にまたがるので、判定は目安です。"
    basis_text = "厳密な値" if result.exact is not None else "推定値"
    method = (
        f'<p class="saikoro-note saikoro-balance-method">{result.battles}回の{_plays(result)}'
        "のシミュレーション"
        f"（乱数の種 {result.seed}）。判定は勝率の{basis_text}による：{thresholds_text()}。"
        f"{straddle}</p>"
    )
    if result.exact is None and result.exact_reason:
        method += f'<p class="saikoro-note">厳密解なし：{esc(result.exact_reason)}</p>'
    facts = (
        '<dl class="saikoro-balance-facts">'
        f"<div><dt>パーティ</dt><dd>{_party(result)}</dd></div>"
        f"<div><dt>行動方針</dt><dd>{_tactics(result)}</dd></div>"
        f"{_limit(result)}{_rulings(result)}</dl>"
    )
    notes = ""
    if result.notes:
        items = "".join(f"<li>{esc(_for_readers(n.text))}</li>" for n in result.notes)
        notes = (
            '<p class="saikoro-card-title">シミュレーションで扱っていないこと</p>'
            f'<ul class="saikoro-balance-notes">{items}</ul>'
        )
    folded = "".join(
        [
            method,
            facts,
            _rounds(result),
            _means(result),
            _tuned_html(tuned) if tuned is not None else "",
            _tune_state_html(scenario, tune_state) if tune_state else "",
            notes,
        ]
    )
    more = (
        '<details class="saikoro-balance-more" data-search-exclude>'
        "<summary>計算の方法・パーティ・裁定・決着までの"
        f"{esc(simulator_for(result.system).round_unit)}数</summary>{folded}</details>"
    )
    return "".join([*head, figures, more, "</div>"])
