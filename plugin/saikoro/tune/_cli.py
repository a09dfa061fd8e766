"""``saikoro tune FILE...``: the edits that bring each scenario into its ``balance.win`` range.

Prints, per scenario, its figure against the target, the numbers that move the win rate
most (per step), and up to three suggestions, each a YAML change at its file:line with
the new figure and whether it was confirmed; ``--apply`` writes the first confirmed one
back (comments and layout kept) and validates the file again. ``--format json`` for CI.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console

from saikoro.balance import MAX_JOBS, MAX_SEED, BalanceError, default_jobs
from saikoro.scenario import (
    CommandParser,
    Msg,
    Scenario,
    add_files_argument,
    bounded_int,
    default_lang,
    files_or_book,
    load_scenario,
    render,
    scan_files,
)

from ._apply import apply_changes
from ._measure import Measure
from ._result import Sensitivity, Suggestion, TuneResult
from ._search import CONFIRM_MAX, SCREEN, SENSITIVITY_MAX, tune

__all__ = ["format_tune", "main", "sensitivity_line"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

MAX_BATTLES = 1_000_000
"""The most battles a measurement may be asked for (``--screen``, ``--sensitivity-max``,
``--confirm-max``)."""


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _points(x: float) -> str:
    return f"{x * 100:+.1f}"


def _figure(m: Measure, *, seed: bool = False) -> str:
    if m.exact is not None:
        return f"{float(m.exact) * 100:.1f}%（厳密な値 {m.exact}）"
    where = f"、シード {m.seed}" if seed else ""
    return f"{_pct(m.win)}（95%区間 {_pct(m.low)}〜{_pct(m.high)}、{m.battles}戦{where}）"


def _suggestion(n: int, s: Suggestion, file: str) -> list[str]:
    m = s.measure
    state = "確認済み" if s.confirmed else "確認できず（区間が範囲からはみ出す）"
    lines = [f"    {n}. 勝率 {_figure(m, seed=True)} → {s.verdict}（{state}）"]
    lines += [
        f"       {file}:{c.line}:{c.column}  {c.yaml_text()}  （{c.label}）" for c in s.changes
    ]
    return lines


def sensitivity_line(s: Sensitivity) -> str:
    """One row of the sensitivity table: the change per step with its 95 % interval, and the
    two figures compared (``simulate``'s, for those values, battles and seed).

    >>> from saikoro.tune import Sensitivity
    >>> print(sensitivity_line(Sensitivity("p", "鬼 の hp", 10, 1, -0.05, -0.07, -0.03, True,
    ...     10, 11, 0.6, 0.55, 500, 0)))
    鬼 の hp = 10（1ずつ）: -5.0 ポイント（95%区間 -7.0〜-3.0）  10 → 11 で 60.0% → 55.0%（500戦）
    """
    if s.unmoved:
        change = "動かない（どの戦闘の勝敗も変わらない）" if s.battles else "動かない（厳密）"
    elif s.battles == 0:
        change = f"{_points(s.per_step)} ポイント（厳密）"
    elif s.settled:
        change = f"{_points(s.per_step)} ポイント（95%区間 {_points(s.low)}〜{_points(s.high)}）"
    else:
        change = (
            f"{_points(s.per_step)} ポイント、向きは不確か（95%区間 {_points(s.low)}〜"
            f"{_points(s.high)} が0をまたぐ）"
        )
    played = "厳密" if s.battles == 0 else f"{s.battles}戦"
    compared = (
        f"{s.low_value} → {s.high_value} で {_pct(s.win_low_value)} → {_pct(s.win_high_value)}"
        f"（{played}）"
    )
    line = f"{s.label} = {s.value}（{s.step}ずつ）: {change}  {compared}"
    if s.fixed:
        line += f"  ※{s.fixed}ので提案しない"
    return line


SHOWN = 6
"""Rows of the sensitivity table a terminal shows (the JSON has them all)."""


def format_tune(r: TuneResult, file: str, title: str) -> str:
    """One scenario's tuning as a person reads it in a terminal."""
    b = r.baseline
    head = [
        f"{title} ({r.scenario}) — 目標の勝率 {r.target_text}",
        f"  いまの勝率: {_figure(b, seed=True)}",
    ]
    if r.reason and not r.suggestions:
        head.append(f"  {r.reason}")
    head.extend(f"  {line}" for line in r.decisive)
    if r.sensitivities:
        head.append(
            "  勝率を動かす数値（1段階上げたときの勝率の変化。比べた2つの勝率は、"
            f"同じ戦闘（シード {r.seed}）での saikoro simulate の値）:"
        )
        head.extend(f"    {sensitivity_line(s)}" for s in r.sensitivities[:SHOWN])
        if len(r.sensitivities) > SHOWN:
            head.append(f"    ……ほか {len(r.sensitivities) - SHOWN} 個（--format json で全部）")
    if r.suggestions:
        head.append("  提案（小さい変更から。確認は別のシードの戦闘で）:")
        for i, suggestion in enumerate(r.suggestions, 1):
            head += _suggestion(i, suggestion, file)
        head.append(f"  （{r.measured} 通りを測定。--apply で確認済みの最初の提案を書き込む）")
    return "\n".join(head)


def main(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``saikoro tune``; returns the exit status (1: a scenario could not be brought into
    its range, or an edit could not be written)."""
    stdout = out or sys.stdout
    stderr = err or sys.stderr
    parser = CommandParser(
        prog="saikoro tune",
        description="シナリオ自身の数値（エネミーのHP、攻撃、ダメージ、目標値、ラウンド上限、"
        "エネミーの数など）の最小の修正で、模擬した勝率を balance.win の範囲に入れるものを"
        "探す。--apply なら確かめられた最初の修正をファイルに書き込む。",
    )
    add_files_argument(parser)
    parser.add_argument(
        "--seed",
        type=bounded_int(0, MAX_SEED - 1),
        default=0,
        help="すべての測定の乱数の種（既定 0）。提案は次の種で確かめる",
    )
    jobs = min(default_jobs(), MAX_JOBS)
    parser.add_argument(
        "--jobs", type=bounded_int(1, MAX_JOBS), default=jobs, help=f"プロセスの数（既定 {jobs}）"
    )
    parser.add_argument(
        "--screen",
        type=bounded_int(1, MAX_BATTLES),
        default=SCREEN,
        help=f"最初の測定の戦闘の回数（既定 {SCREEN}、最大 {MAX_BATTLES:,}）",
    )
    parser.add_argument(
        "--sensitivity-max",
        type=bounded_int(1, MAX_BATTLES),
        default=SENSITIVITY_MAX,
        help=f"数値が勝率をどちらに動かすかを調べる戦闘の最大数（既定 {SENSITIVITY_MAX:,}）",
    )
    parser.add_argument(
        "--confirm-max",
        type=bounded_int(1, MAX_BATTLES),
        default=CONFIRM_MAX,
        help=f"提案を確かめる戦闘の最大数（既定 {CONFIRM_MAX:,}）",
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="出力の形式（既定: text）"
    )
    parser.add_argument(
        "--apply", action="store_true", help="確かめられた最初の提案をファイルに書き込む"
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return EXIT_OK if e.code in (0, None) else EXIT_USAGE
    lang = default_lang()
    given = files_or_book(args.files, "saikoro tune", lang, stderr)
    if given is None:
        return EXIT_USAGE
    paths: list[Path] = []
    for f in given:
        p = Path(f)
        if os.path.isdir(p):  # noqa: PTH112 - os.path: a name too long is no folder, not an exception
            scan = scan_files(p)
            for problem in scan.problems:
                stderr.write(problem.format(lang) + "\n")
            if scan.problems:
                return EXIT_FAIL
            paths += scan.files
        elif os.path.isfile(p):  # noqa: PTH113 - a name too long: False, not OSError
            paths.append(p)
        else:
            stderr.write(f"{f}:1:1: error: scenario: {render(Msg('cli.not_found'), lang)}\n")
            return EXIT_FAIL
    if not paths:
        stderr.write(f"saikoro tune: {render(Msg('cli.no_files', (', '.join(given),)), lang)}\n")
        return EXIT_FAIL
    status = EXIT_OK
    payload: list[dict[str, Any]] = []
    texts: list[str] = []
    console = Console(file=stderr, stderr=True)
    live = args.format == "text" and stderr.isatty()
    for path in paths:
        res = load_scenario(path)
        if res.scenario is None:
            for problem in res.errors:
                stderr.write(problem.format(lang) + "\n")
            status = EXIT_FAIL
            continue
        sc = res.scenario
        if sc.model.balance is None or not sc.model.balance.win:
            if len(paths) == 1:
                stderr.write(
                    f"{path}:1:1: error: balance.win: 目標の勝率の範囲がないので調整できません"
                    "（例: `balance: {win: 60%-80%}` を書き足す）\n"
                )
                return EXIT_FAIL
            continue
        try:
            r = _tune_one(sc, args, console if live else None)
        except KeyboardInterrupt:
            stderr.write("saikoro tune: 中断しました（ファイルは書き換えていません）\n")
            return 130
        except BalanceError as e:
            stderr.write(f"saikoro tune: {e}\n")
            status = EXIT_FAIL
            continue
        entry = r.to_json()
        entry["file"] = str(path)
        text = format_tune(r, str(path), sc.title)
        if not r.in_range and not any(s.confirmed for s in r.suggestions):
            status = EXIT_FAIL
        if args.apply and not r.in_range:
            chosen = next((s for s in r.suggestions if s.confirmed), None)
            if chosen is None:
                text += "\n  書き込む確認済みの提案がありません。"
                status = EXIT_FAIL
            else:
                try:
                    after = apply_changes(path, chosen.changes)
                except BalanceError as e:
                    stderr.write(f"saikoro tune: {e}\n")
                    return EXIT_FAIL
                warnings = len(after.warnings)
                text += f"\n  {path} に書き込み、検証しました（エラー 0、警告 {warnings}）。"
                entry["applied"] = r.suggestions.index(chosen)
        payload.append(entry)
        texts.append(text)
    if args.format == "json":
        stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    elif texts:
        stdout.write("\n\n".join(texts) + "\n")
    return status


def _tune_one(sc: Scenario, args: argparse.Namespace, console: Console | None) -> TuneResult:
    """Tune one scenario, with a status line on a terminal (``console``)."""
    options = {
        "seed": args.seed,
        "jobs": args.jobs,
        "screen": args.screen,
        "confirm_max": args.confirm_max,
        "sensitivity_max": args.sensitivity_max,
    }
    if console is None:
        return tune(sc, **options)
    with console.status(f"{sc.id}: 調整を探しています", spinner="dots") as status:

        def progress(message: str) -> None:
            status.update(f"{sc.id}: {message}")

        return tune(sc, progress=progress, **options)
