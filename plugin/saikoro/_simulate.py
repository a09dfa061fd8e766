"""``saikoro simulate``: play scenarios' encounters many times and print how hard they are.

The battles, the exact solution and the figures are :mod:`saikoro.balance`'s
(:func:`~saikoro.balance.simulate`); this module reads the command line and prints them.

Exit status: 0 ok, 1 an invalid scenario or party file, 2 usage, 130 stopped by Ctrl-C
(the battles finished are printed first, marked 中断; nothing after a second Ctrl-C, while
the result is being put together).

Every option is bounded (:data:`MAX_BATTLES`, :data:`~saikoro.balance.MAX_SEED`,
:data:`MAX_PLAYERS`, :data:`~saikoro.balance.MAX_JOBS`, :data:`MAX_TACTIC`; ``--help``
gives them) and refused beyond its bound with a usage error; the party file is read as the
scenario files are (a regular file of at most ``MAX_BYTES``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress

from .balance import (
    MAX_JOBS,
    MAX_SEED,
    BalanceResult,
    TacticsError,
    default_jobs,
    encounter,
    parse_party,
    simulate,
    simulator_for,
    tactics_for,
    verdict,
)
from .scenario import (
    MAX_BYTES,
    CommandParser,
    LoadResult,
    Msg,
    add_files_argument,
    bounded_int,
    default_lang,
    files_or_book,
    load_party_file,
    load_scenario,
    load_scenarios,
    render,
)

__all__ = ["format_text", "main"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

MAX_BATTLES = 10_000_000
"""``--battles`` at most (tens of minutes on a 2-core machine, with a progress bar and
Ctrl-C; the tally is a few counters per battle, so memory does not grow with it)."""
MAX_PLAYERS = 20
"""``--players`` at most: as many as a scenario's ``players:`` and ``party:`` allow."""
MAX_TACTIC = 200
"""Characters of ``--tactics`` / ``--enemy-tactics`` at most."""

Progress = Callable[[int, int], None]
"""Told ``(battles done, battles in all)`` as a run goes (:func:`saikoro.balance.simulate`)."""


def _tactic(text: str) -> str:
    """An ``argparse`` type: tactics text of a readable length (checked when it is used)."""
    if len(text) > MAX_TACTIC:
        raise argparse.ArgumentTypeError(
            f"{MAX_TACTIC} 文字までにしてください（{len(text)} 文字あります）"
        )
    return text


@contextmanager
def _progress(label: str, stream: TextIO, *, shown: bool) -> Iterator[Progress | None]:
    """A progress bar (rich) on a terminal's stderr while the block runs (``None``: not
    ``shown``): the battles played of the total, battles per second and the time left;
    cleared when the block ends, so the report starts on a clean line."""
    if not shown:
        yield None
        return
    start = time.monotonic()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("戦"),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
    )
    console = Console(file=stream, stderr=True)
    with RichProgress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=None, rate="")

        def update(done: int, total: int) -> None:
            rate = done / max(1e-9, time.monotonic() - start)
            bar.update(task, completed=done, total=total, rate=f"{rate:,.0f}戦/秒")

        yield update


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def party_label(label: str, size: int) -> str:
    """The party as a person reads it: ``reference-3`` -> 標準パーティ（3人）.

    >>> party_label("reference-3", 3), party_label("scenario", 4), party_label("pcs.yaml", 2)
    ('標準パーティ（3人）', 'シナリオの party（4人）', 'pcs.yaml（2人）')
    """
    if label.startswith("reference-"):
        return f"標準パーティ（{size}人）"
    if label == "scenario":
        return f"シナリオの party（{size}人）"
    return f"{label}（{size}人）"


def _mean(label: str, mean: float) -> str:
    """A per-battle mean; a share of battles (its label says 割合) in percent, like the
    win rate, a count or an amount as a number."""
    return _pct(mean) if label.endswith("割合") else f"{mean:.3f}"


def format_text(r: BalanceResult, title: str, names: tuple[str, ...]) -> str:
    """A result as a person reads it in a terminal."""
    sim = simulator_for(r.system)
    unit = sim.round_unit
    head = [
        f"{title} ({r.scenario}) — {r.system}",
        f"  パーティ: {party_label(r.party, len(names))} — {'、'.join(names)}   方針: {r.tactics}",
    ]
    if r.battles == 0:  # stopped before the first chunk: no figure at all
        return "\n".join([*head, "  (中断: 終わった戦闘がないので数字はありません)"])
    lines = [
        *head,
        f"  勝率: {_pct(r.win)}  (95%区間 {_pct(r.win_low)}〜{_pct(r.win_high)}, "
        f"{r.battles}戦, シード {r.seed})  → {verdict(r.win)}",
    ]
    if r.interrupted:
        lines.append("  (中断: ここまでの戦闘の集計)")
    if r.exact is not None:
        lines.append(f"  厳密解: {float(r.exact) * 100:.3f}%  ({r.exact})")
    elif r.exact_reason:
        lines.append(f"  厳密解なし: {r.exact_reason}")
    if r.ends:
        lines.append(f"  {sim.play_word}の結末:")
        lines.extend(
            f"    {e.label}: {_pct(e.rate)} (95%区間 {_pct(e.low)}〜{_pct(e.high)})" for e in r.ends
        )
    if r.round_limit is not None:
        where = "シナリオの指定" if r.round_limit_written else "システムの既定値"
        lines.append(f"  上限: {r.round_limit}{unit} ({where})")
    for key, value in r.exact_figures.items():
        shown = f"{float(value) * 100:.2f}%" if key.startswith("P(") else f"{float(value):.2f}"
        lines.append(f"    {key} = {shown}")
    if r.rounds:
        lines.append(f"  {sim.rounds_caption}:")
        top = max(r.rounds.values())
        for k, v in r.rounds.items():
            bar = "#" * max(1, round(30 * v / top)) if v else ""
            lines.append(f"    {k:>3} {v / r.battles * 100:6.1f}% {bar}")
    if not sim.pcs_go_down:
        lines.append(f"  {sim.downed_caption}: なし(PC 個人は倒れない)")
    elif r.pcs:
        lines.append("  PCごとの戦闘不能(失敗)率:")
        lines.extend(
            f"    {p.name}: {_pct(p.downed)} (95%区間 {_pct(p.downed_low)}〜{_pct(p.downed_high)})"
            for p in r.pcs
        )
    if r.dealt_per_round or r.taken_per_round:
        lines.append(
            f"  1{unit}あたり: 与ダメージ {r.dealt_per_round:.1f} "
            f"/ 被ダメージ {r.taken_per_round:.1f}"
        )
    if r.dangerous:
        action = r.dangerous[0].rpartition(":")[2]
        who = f"{r.dangerous_enemy}の" if r.dangerous_enemy else ""
        lines.append(f"  最も危険な敵の行動: {who}{action} (1戦あたり {r.dangerous[1]:.1f})")
    for key, mean in r.means.items():
        label = sim.mean_labels.get(key, key)
        lines.append(f"  {label}: {_mean(label, mean)}")
    lines.extend(_side_lines(r))
    if r.rulings:
        lines.append("  使った裁定:")
        for u in r.rulings:
            shown = "" if u.value is None else f" = {u.value}"
            if u.value is not None and not u.default:
                shown += " (既定から変更)"
            lines.append(f"    {u.title}{shown} [{u.key}]")
    lines.extend(f"  ※ {n.text}" for n in r.notes)
    return "\n".join(lines)


def _side_lines(r: BalanceResult) -> list[str]:
    """The side missions: each one's rate and interval, or why it is not simulated."""
    if not r.side:
        return []
    lines = ["  サイドミッション:"]
    for s in r.side:
        head = f"    {s.index + 1}. {s.text}: "
        if not s.modelled or s.rate is None or s.low is None or s.high is None:
            lines.append(f"{head}シミュレーションしない({s.reason})")
            continue
        text = f"{head}{_pct(s.rate)} (95%区間 {_pct(s.low)}〜{_pct(s.high)})"
        if s.exact is not None:
            text += f"  厳密解 {float(s.exact) * 100:.3f}%"
        lines.append(text)
    return lines


def _files(paths: list[str]) -> tuple[list[LoadResult], list[str]]:
    results: list[LoadResult] = []
    missing: list[str] = []
    for given in paths:
        p = Path(given)
        if os.path.isdir(p):  # noqa: PTH112 - os.path: a name too long is no folder, not an exception
            results.extend(load_scenarios(p))  # with what could not be read
        elif os.path.lexists(p):
            results.append(load_scenario(p))
        else:
            missing.append(given)
    return results, missing


def main(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``saikoro simulate``; returns the exit status."""
    stdout = out or sys.stdout
    stderr = err or sys.stderr
    parser = CommandParser(
        prog="saikoro simulate",
        description="シナリオの戦闘を模擬する（小さな戦闘は厳密に解く）: 勝率と 95% の "
        "Wilson 区間、かかったラウンド数、PCごとの危険、サイドミッションごとの達成率。"
        "Ctrl-C で止めると、そこまでの戦闘の結果を出す。",
    )
    add_files_argument(parser)
    parser.add_argument(
        "--battles",
        type=bounded_int(1, MAX_BATTLES),
        default=10000,
        help=f"戦闘の回数（既定 10000、最大 {MAX_BATTLES:,}）",
    )
    parser.add_argument(
        "--seed",
        type=bounded_int(0, MAX_SEED),
        default=0,
        help="乱数の種（既定 0。0 から 2**64-1）",
    )
    parser.add_argument(
        "--party",
        type=Path,
        metavar="FILE",
        help=f"パーティのファイル（party: のリストを書いた {MAX_BYTES:,} バイトまでの YAML）",
    )
    parser.add_argument(
        "--players",
        type=bounded_int(1, MAX_PLAYERS),
        help=f"この人数の基準パーティで模擬する（1 から {MAX_PLAYERS}。players: の範囲内）",
    )
    parser.add_argument(
        "--tactics", metavar="NAME", type=_tactic, help="PCの作戦（focus、hunt など）"
    )
    parser.add_argument("--enemy-tactics", metavar="NAME", type=_tactic, help="エネミーの作戦")
    jobs = default_jobs()
    parser.add_argument(
        "--jobs",
        type=bounded_int(1, MAX_JOBS),
        default=min(jobs, MAX_JOBS),
        help=f"プロセスの数（既定: 使えるコアすべて、ここでは {jobs}。最大 {MAX_JOBS}）。"
        "いくつにしても同じ種なら同じ結果になる",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text は人が読む形式（端末では進み具合を表示）、json はスクリプト用"
        "（ファイル一つでもフォルダでも、シナリオごとに一つのオブジェクトを並べたリスト）",
    )
    parser.add_argument("--no-exact", action="store_true", help="厳密な解を求めない")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return EXIT_OK if e.code in (0, None) else EXIT_USAGE
    lang = default_lang()
    given = files_or_book(args.files, "saikoro simulate", lang, stderr)
    if given is None:
        return EXIT_USAGE
    results, missing = _files(given)
    for m in missing:
        stderr.write(f"{m}:1:1: error: scenario: {render(Msg('cli.not_found'), lang)}\n")
    problems = [p for r in results for p in r.problems if p.severity == "error"]
    for p in problems:
        stderr.write(p.format(lang) + "\n")
    if not results and not missing:
        message = render(Msg("cli.no_files", (", ".join(given),)), lang)
        stderr.write(f"saikoro simulate: {message}\n")
    if missing or problems or not results:
        return EXIT_FAIL
    payload: list[dict[str, Any]] = []
    texts: list[str] = []
    status = EXIT_OK
    for res in results:
        sc = res.scenario
        if sc is None:  # pragma: no cover - errors were reported above
            continue
        party = None
        if args.party is not None:  # YAML with a party: list (or the list itself), validated
            value, party_problems = load_party_file(args.party, sc.system)
            for p in party_problems:
                stderr.write(p.format(lang) + "\n")
            if value is None:
                return EXIT_FAIL
            party = parse_party(sc.system, value, args.party.name)
        enc = encounter(sc, party=party, players=args.players)
        spec = enc.balance
        try:
            tactics = tactics_for(
                enc.system,
                args.tactics or (spec.tactics if spec else None),
                args.enemy_tactics or (spec.enemy_tactics if spec else None),
            )
        except TacticsError as e:
            named = (("--tactics", args.tactics), ("--enemy-tactics", args.enemy_tactics))
            where = " / ".join(name for name, value in named if value) or "balance.tactics"
            stderr.write(f"saikoro simulate: {where}: {e}\n")
            return EXIT_USAGE
        live = args.format == "text" and stderr.isatty()
        try:
            with _progress(sc.id, stderr, shown=live) as progress:
                r = simulate(
                    enc,
                    battles=args.battles,
                    seed=args.seed,
                    tactics=tactics,
                    jobs=args.jobs,
                    progress=progress,
                    solve=not args.no_exact,
                    keep_partial=True,
                )
        except KeyboardInterrupt:  # a second Ctrl-C, while the result is put together
            stderr.write("saikoro simulate: Ctrl-C で中断しました\n")
            return EXIT_INTERRUPTED
        payload.append(r.to_json())
        texts.append(format_text(r, sc.title, enc.party.names))
        if r.interrupted:  # printed, marked 中断; the status says it is no full result
            stderr.write("saikoro simulate: Ctrl-C で中断しました（終えた戦闘の分を示します）\n")
            status = EXIT_INTERRUPTED
            break
    if args.format == "json":
        stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    else:
        stdout.write("\n\n".join(texts) + "\n")
    return status
