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

from saikoro.scenario import (
    CommandParser,
    Scenario,
    bounded_int,
    default_lang,
    load_scenario,
    scan_files,
)

from ._apply import apply_changes
from ._cli import default_jobs
from ._errors import BalanceError
from ._tune import CONFIRM_MAX, SCREEN, Suggestion, TuneResult, tune

__all__ = ["format_tune", "main"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

MAX_BATTLES = 1_000_000
"""The most battles a measurement may be asked for (``--screen``, ``--confirm-max``)."""


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _figure(win: float, low: float, high: float, battles: int, exact: Any) -> str:
    if exact is not None:
        return f"{float(exact) * 100:.1f}%（厳密な値 {exact}）"
    return f"{_pct(win)}（95%区間 {_pct(low)}〜{_pct(high)}、{battles}戦）"


def _suggestion(n: int, s: Suggestion, file: str) -> list[str]:
    m = s.measure
    state = "確認済み" if s.confirmed else "確認できず（区間が範囲からはみ出す）"
    figure = _figure(m.win, m.low, m.high, m.battles, m.exact)
    lines = [f"    {n}. 勝率 {figure} → {s.verdict}（{state}）"]
    lines += [
        f"       {file}:{c.line}:{c.column}  {c.yaml_text()}  （{c.label}）" for c in s.changes
    ]
    return lines


def format_tune(r: TuneResult, file: str, title: str) -> str:
    """One scenario's tuning as a person reads it in a terminal."""
    b = r.baseline
    head = [
        f"{title} ({r.scenario}) — 目標の勝率 {r.target_text}",
        f"  いまの勝率: {_figure(b.win, b.low, b.high, b.battles, b.exact)}（シード {r.seed}）",
    ]
    if r.reason and not r.suggestions:
        head.append(f"  {r.reason}")
    head.extend(f"  {line}" for line in r.decisive)
    if r.sensitivities:
        head.append("  勝率を動かす数値（1段階動かしたときの変化）:")
        head.extend(
            f"    {s.label} = {s.value}（{s.step}ずつ）: {s.per_step * 100:+.1f} ポイント"
            for s in r.sensitivities[:5]
        )
    if r.suggestions:
        head.append("  提案（小さい変更から）:")
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
        description="Find the smallest edits of a scenario's own numbers (enemy HP, attack, "
        "damage, targets, round limit, enemy count...) that bring its simulated win rate "
        "into its balance.win range; --apply writes the first confirmed one back.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders")
    parser.add_argument(
        "--seed", type=bounded_int(0, 2**64 - 1), default=0, help="seed of every measurement (0)"
    )
    jobs = default_jobs()
    parser.add_argument(
        "--jobs", type=bounded_int(1, 256), default=jobs, help=f"processes (default {jobs})"
    )
    parser.add_argument(
        "--screen",
        type=bounded_int(1, MAX_BATTLES),
        default=SCREEN,
        help=f"battles of a first measurement (default {SCREEN}, at most {MAX_BATTLES})",
    )
    parser.add_argument(
        "--confirm-max",
        type=bounded_int(1, MAX_BATTLES),
        default=CONFIRM_MAX,
        help=f"most battles to confirm a suggestion (default {CONFIRM_MAX})",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--apply", action="store_true", help="write the first confirmed suggestion into the file"
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return EXIT_OK if e.code in (0, None) else EXIT_USAGE
    lang = default_lang()
    paths: list[Path] = []
    for f in args.files:
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
            stderr.write(f"{f}:1:1: error: scenario: file not found\n")
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
                    f"{path}:1:1: error: balance.win: no target range to tune towards "
                    "(add e.g. `balance: {win: 60%-80%}`)\n"
                )
                return EXIT_FAIL
            continue
        try:
            r = _tune_one(sc, args, console if live else None)
        except KeyboardInterrupt:
            stderr.write("saikoro tune: interrupted\n")
            return 130
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
                entry["applied"] = 0 if chosen is r.suggestions[0] else r.suggestions.index(chosen)
        payload.append(entry)
        texts.append(text)
    if args.format == "json":
        data: Any = payload[0] if len(payload) == 1 else payload
        stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        stdout.write("\n\n".join(texts) + "\n")
    return status


def _tune_one(sc: Scenario, args: argparse.Namespace, console: Console | None) -> TuneResult:
    """Tune one scenario, with a status line on a terminal (``console``)."""
    options = {
        "seed": args.seed,
        "jobs": args.jobs,
        "screen": args.screen,
        "confirm_max": args.confirm_max,
    }
    if console is None:
        return tune(sc, **options)
    with console.status(f"{sc.id}: 調整を探しています", spinner="dots") as status:

        def progress(message: str) -> None:
            status.update(f"{sc.id}: {message}")

        return tune(sc, progress=progress, **options)
