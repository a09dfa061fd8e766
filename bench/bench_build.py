"""Build benchmark: a 1,000-scenario book against plain mkdocs-material, and a serve rebuild.

Prints:

* the build time of a generated 1,000-scenario book (``plugins: [saikoro]``) and of a
  plain mkdocs-material site of 1,000 hand-written pages of similar content (the same
  headings, stat tables, odds tables and chase tables written as Markdown), and their
  ratio (goal: at most 1.3x). The book is built twice: with an empty balance cache
  (cold: every distinct fight is simulated for its バランス section) and again with the
  cache the first build left (warm); both ratios are printed, with the number of distinct
  fights the cold build simulated and what one fight cost. The builds run in rounds of
  (cold, warm, plain) back to back (``--repeat``, default 3) and the ratios printed are
  the medians over the rounds: on a shared machine one build in a few runs much slower;
* the real serve path: a ``mkdocs serve --dirty`` process on that book; for an edit of
  one scenario's title, an edit that changes only an enemy's stat block, and a deleted
  scenario, the time from the file write to the updated page (or the 404) served over
  HTTP (goal: at most 1.5 s each; the acceptance bound is 5 s);
* with ``--full-rebuild`` also the in-process rebuild times (``--dirty`` and full), for
  reference (a full rebuild re-renders every page, so it grows with the book);
* the output of books of 1,000 and 4,000 scenarios (``--sizes``): the site's bytes, its
  bytes per page (and the largest page), bytes and seconds (wall and CPU) per scenario,
  and how the per-scenario figures grow from the smaller book to the larger (goal: about
  1x, a book's output grows linearly; every page carrying the whole book in its
  navigation made 500 scenarios 102 MB and 2,000 scenarios 1.1 GB). The first size is the
  book of the build rounds above (its first warm build) when the counts agree; the seconds
  are those of builds with a warm balance cache (the simulated fights are counted above).

Run: ``.venv/bin/python bench/bench_build.py [--count N] [--battles N] [--full-rebuild]
[--no-serve] [--repeat N] [--sizes 1000,4000]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from saikoro.site._config import BATTLES

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
CONFIG = """\
site_name: bench
theme:
  name: material
  language: ja
  font: false
"""


def _samples() -> list[dict[str, Any]]:
    return [
        yaml.safe_load(p.read_text("utf-8")) for p in sorted((REPO / "scenarios").glob("*.yaml"))
    ]


def _without_images(data: dict[str, Any]) -> None:
    """Drop the sample's images (the generated book has no image files beside it)."""
    data.pop("images", None)
    for key in ("handouts", "scenes", "npcs"):
        data[key] = [{k: v for k, v in item.items() if k != "image"} for item in data.get(key, [])]


def generate(folder: Path, count: int) -> list[dict[str, Any]]:
    """``count`` scenarios made from the sample book, with varied ids, titles and targets."""
    folder.mkdir(parents=True)
    samples = _samples()
    out = []
    for i in range(count):
        data = dict(samples[i % len(samples)])
        data["id"] = f"s{i:04d}"
        _without_images(data)
        data["title"] = f"{data['title']} その{i + 1}"
        targets = []
        for original in data.get("difficulty_targets") or ():
            target = dict(original)
            if isinstance(target.get("target"), int):
                target["target"] = max(1, target["target"] + (i % 3) - 1)
            targets.append(target)
        if targets:
            data["difficulty_targets"] = targets
        (folder / f"s{i:04d}.yaml").write_text(
            yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8"
        )
        out.append(data)
    return out


def _table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n\n"


def plain_page(data: dict[str, Any]) -> str:
    """A hand-written page with the same content as the scenario page, in Markdown."""
    from saikoro.scenario import validate_text
    from saikoro.site._profiles import profile

    prof = profile(str(data["system"]))
    scenario = validate_text(json.dumps(data, ensure_ascii=False), "plain.yaml").scenario
    assert scenario is not None, "the generated scenarios validate"
    model = scenario.model
    out = [f"# {data['title']}\n\n", f"{data.get('summary', '')}\n\n"]
    missions = data.get("missions") or {}
    if missions:
        out.append("## ミッション\n\n")
        main = missions.get("main") or {}
        out.append(_table(["項目", "内容"], [[str(k), str(v)] for k, v in main.items()]))
    for target in model.difficulty_targets:
        out.append(f"### {target.name}\n\n{prof.target_label(target)}\n\n")
        grid = prof.target_grid(target)
        if grid:
            out.append(
                _table(
                    ["", *grid.columns],
                    [
                        [r, *("40.0% (2/5)<br>C 10.0% (1/10)<br>F 10.0% (1/10)" for _ in c)]
                        for r, c in grid.rows
                    ],
                )
            )
    for enemy in model.enemies:
        out.append(f"### {enemy.name}\n\n")
        out.append(_table([k for k, _ in prof.stats(enemy)], [[v for _, v in prof.stats(enemy)]]))
        for attack in prof.attacks(enemy):
            out.append(f"**{attack.name}** {prof.attack_label(enemy, attack)}\n\n")
            out.extend(
                _table(
                    ["", *grid.columns],
                    [
                        [
                            r,
                            *(
                                "期待値 9.44 (4127/437)<br>≥1 80.1% (801/1000)<br>"
                                "≥5 64.5% (129/200)<br>≥10 44.4% (111/250)<br>"
                                "≥20 12.8% (16/125)<br>C 27.1% (271/1000)<br>F 0.1% (1/1000)"
                                for _ in c
                            ),
                        ]
                        for r, c in grid.rows
                    ],
                )
                for grid in prof.attack_grids(enemy, attack)
            )
    for table in data.get("chase_tables") or ():
        out.append(f"### {table['name']}\n\n")
        out.append(
            _table(
                ["出目", "名前", "効果", "確率"],
                [
                    [str(k), str(v.get("title", "")), str(v.get("effect", "")), "10.0% (1/10)"]
                    for k, v in (table.get("entries") or {}).items()
                ],
            )
        )
    return "".join(out)


def _build(root: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a fresh ``mkdocs build`` process.

    CPU time is reported too because wall time on a busy machine mostly measures the
    other processes; the ratio is computed on both.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root, env=ENV, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu


Times = tuple[float, float]
"""(wall seconds, CPU seconds)."""


def _book(base: Path, count: int, battles: int | None) -> list[dict[str, Any]]:
    """Write the generated book and the plain site of the same content; the scenarios."""
    book = base / "book"
    (book / "docs").mkdir(parents=True)
    (book / "docs" / "index.md").write_text("# book\n", "utf-8")
    balance = f"      balance:\n        battles: {battles}\n" if battles else ""
    (book / "mkdocs.yml").write_text(
        CONFIG + "plugins:\n  - saikoro:\n      roller:\n        enabled: false\n" + balance,
        "utf-8",
    )
    scenarios = generate(book / "scenarios", count)
    plain = base / "plain"
    (plain / "docs").mkdir(parents=True)
    (plain / "docs" / "index.md").write_text("# book\n", "utf-8")
    (plain / "mkdocs.yml").write_text(
        CONFIG + "plugins: []\nmarkdown_extensions:\n  - tables\n", "utf-8"
    )
    for data in scenarios:
        (plain / "docs" / f"{data['id']}.md").write_text(plain_page(data), "utf-8")
    return scenarios


def bench_builds(
    base: Path, count: int, battles: int | None = None, repeat: int = 1
) -> tuple[list[tuple[Times, Times, Times]], list[dict[str, Any]], dict[str, Any]]:
    """Per round (cold saikoro build, warm saikoro build, plain build); the scenarios; the
    size of the book's site after the first warm build (:func:`site_size`).

    The three builds of a round run back to back, so a machine that slows down for a
    while slows all three; each round starts from an empty balance cache.
    """
    scenarios = _book(base, count, battles)
    rounds = []
    size: dict[str, Any] = {}
    for _ in range(repeat):
        shutil.rmtree(base / "book" / ".cache", ignore_errors=True)
        cold = _build(base / "book")
        warm = _build(base / "book")
        if not size:  # the same site either way; the warm build's seconds (see bench_size)
            size = site_size(base / "book" / "site", count, warm)
        rounds.append((cold, warm, _build(base / "plain")))
    return rounds, scenarios, size


def site_size(site: Path, count: int, times: Times) -> dict[str, Any]:
    """What a built book weighs: site bytes, pages, bytes per page and per scenario."""
    files = [p for p in site.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files)
    pages = [p for p in files if p.suffix == ".html"]
    largest = max(pages, key=lambda p: p.stat().st_size)
    scenario = site / "scenarios" / "s0001" / "index.html"
    return {
        "count": count,
        "bytes": total,
        "pages": len(pages),
        "page_bytes": sum(p.stat().st_size for p in pages) / len(pages),
        "largest": (largest.relative_to(site).as_posix(), largest.stat().st_size),
        "scenario_page": scenario.stat().st_size if scenario.is_file() else 0,
        "per_scenario": total / count,
        "wall": times[0] / count,
        "cpu": times[1] / count,
    }


def bench_size(base: Path, count: int, battles: int | None) -> dict[str, Any]:
    """Build a book of ``count`` scenarios once and weigh its site.

    The balance cache is the one the build rounds' book left (the generated scenarios
    repeat the same few fights, whatever their number): the seconds are those of a warm
    build, as the first book's are, so they compare the books' pages, not the simulator.
    """
    book = base / f"size-{count}"
    (book / "docs").mkdir(parents=True)
    (book / "docs" / "index.md").write_text("# book\n", "utf-8")
    cache = base / "book" / ".cache" / "plugin" / "saikoro" / "balance"
    balance = f"      balance:\n        cache_dir: {json.dumps(str(cache))}\n"
    if battles:
        balance += f"        battles: {battles}\n"
    (book / "mkdocs.yml").write_text(
        CONFIG + "plugins:\n  - saikoro:\n      roller:\n        enabled: false\n" + balance,
        "utf-8",
    )
    generate(book / "scenarios", count)
    times = _build(book)
    size = site_size(book / "site", count, times)
    shutil.rmtree(book)  # a 4,000-scenario site is half a gigabyte
    return size


def print_sizes(sizes: list[dict[str, Any]]) -> None:
    """One line per book, then how the per-scenario figures grew between the first and last."""
    for s in sizes:
        name, largest = s["largest"]
        print(
            f"output, {s['count']} scenarios: {s['bytes'] / 1e6:.1f} MB in {s['pages']} pages, "
            f"{s['page_bytes'] / 1e3:.1f} kB per page (largest {name} {largest / 1e6:.2f} MB, "
            f"a scenario page {s['scenario_page'] / 1e3:.1f} kB); per scenario "
            f"{s['per_scenario'] / 1e3:.1f} kB, {s['wall'] * 1000:.0f} ms wall / "
            f"{s['cpu'] * 1000:.0f} ms CPU (warm balance cache)"
        )
    if len(sizes) > 1:
        first, last = sizes[0], sizes[-1]
        grow = last["per_scenario"] / first["per_scenario"]
        page = last["page_bytes"] / first["page_bytes"]
        cpu = last["cpu"] / first["cpu"]
        verdict = "OK" if grow <= 1.2 and page <= 1.2 else "MISSED"
        print(
            f"output growth {first['count']} -> {last['count']} scenarios: bytes per scenario "
            f"x{grow:.2f}, bytes per page x{page:.2f}, CPU per scenario x{cpu:.2f} "
            f"(goal: about 1x, linear) {verdict}"
        )


def cached_fights(base: Path) -> int:
    """How many distinct fights the cold build simulated (one cache file each)."""
    return len(list((base / "book" / ".cache" / "plugin" / "saikoro" / "balance").glob("*.json")))


def bench_rebuild(base: Path, dirty: bool) -> float:
    """Edit one scenario and rebuild as ``mkdocs serve`` does; seconds to the new page."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    book = base / "book"

    def config() -> Any:
        return load_config(config_file=str(book / "mkdocs.yml"), site_dir=str(book / "site"))

    first = config()
    first.plugins.on_startup(command="serve", dirty=dirty)
    build(first, dirty=dirty)
    target = book / "scenarios" / "s0007.yaml"
    page = book / "site" / "scenarios" / "s0007" / "index.html"
    text = target.read_text("utf-8")
    marker = f"改訂{time.time_ns()}"
    start = time.perf_counter()
    target.write_text(text.replace("その8", f"その8 {marker}"), "utf-8")
    build(config(), dirty=dirty)
    elapsed = time.perf_counter() - start
    assert marker in page.read_text("utf-8")
    config().plugins.on_shutdown()
    return elapsed


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - localhost
            return int(response.status), response.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, ""


def _until(url: str, ok: Any, deadline: float) -> float:
    """Seconds until ``ok(status, text)`` holds for ``url`` (polled every 20 ms)."""
    start = time.perf_counter()
    while time.perf_counter() - start < deadline:
        status, text = _get(url)
        if ok(status, text):
            return time.perf_counter() - start
        time.sleep(0.02)
    raise SystemExit(f"{url}: no update within {deadline} s")


def bench_serve(base: Path) -> list[tuple[str, float]]:
    """File written -> updated page served, through a real ``mkdocs serve --dirty``."""
    book = base / "book"
    port = _free_port()
    url = f"http://127.0.0.1:{port}/scenarios/"
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dirty", "-a", f"127.0.0.1:{port}"],
        cwd=book,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out: list[tuple[str, float]] = []
    try:
        start = time.perf_counter()
        _until(url + "s0007/", lambda status, _: status == 200, 900)
        out.append(("first build, until served", time.perf_counter() - start))
        time.sleep(1.1)  # later mtimes than the first build's output
        target = book / "scenarios" / "s0007.yaml"
        text = target.read_text("utf-8")
        marker = f"改訂{time.time_ns()}"
        start = time.perf_counter()
        target.write_text(text.replace("その8", f"その8 {marker}"), "utf-8")
        _until(url + "s0007/", lambda status, page: status == 200 and marker in page, 60)
        out.append(("edit a title", time.perf_counter() - start))
        data = yaml.safe_load(target.read_text("utf-8"))
        data["enemies"][0]["hp"] = 4321
        start = time.perf_counter()
        target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
        _until(url + "s0007/", lambda _, page: "<dd>4321</dd>" in page, 60)
        out.append(("edit an enemy's hp only", time.perf_counter() - start))
        start = time.perf_counter()
        (book / "scenarios" / "s0008.yaml").unlink()
        _until(url + "s0008/", lambda status, _: status == 404, 60)
        out.append(("delete a scenario (until 404)", time.perf_counter() - start))
    finally:
        process.terminate()
        process.wait(timeout=30)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument(
        "--battles", type=int, default=None, help="the plugin's balance.battles (default: its own)"
    )
    parser.add_argument("--no-serve", action="store_true", help="only the two build benchmarks")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="rounds of (cold, warm, plain) builds; the ratios printed are their medians",
    )
    parser.add_argument(
        "--full-rebuild",
        action="store_true",
        help="also time a full (non-dirty) serve rebuild, for reference",
    )
    parser.add_argument(
        "--sizes",
        default="1000,4000",
        help="books whose output is weighed, comma-separated scenario counts ('' for none)",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.sizes.split(",") if n.strip()]
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    with tempfile.TemporaryDirectory(prefix="saikoro-bench-") as tmp:
        base = Path(tmp)
        rounds, _, first = bench_builds(base, args.count, args.battles, args.repeat)
        fights = cached_fights(base)
        battles = args.battles or BATTLES
        for i, (cold, warm, plain) in enumerate(rounds, 1):
            print(
                f"round {i}: {args.count} scenarios cold {cold[0]:.2f} s wall / {cold[1]:.2f} s"
                f" CPU, warm {warm[0]:.2f} / {warm[1]:.2f}; plain material {plain[0]:.2f} /"
                f" {plain[1]:.2f}"
            )
        for label, at in (("cold balance cache", 0), ("warm balance cache", 1)):
            for name, kind in (("wall", 0), ("CPU", 1)):
                ratios = [r[at][kind] / r[2][kind] for r in rounds]
                ratio = statistics.median(ratios)
                verdict = "OK" if ratio <= 1.3 else "MISSED"
                each = ", ".join(f"{x:.2f}" for x in ratios)
                print(
                    f"ratio ({label}, {name}): median {ratio:.2f}x of rounds {each}"
                    f" (goal <= 1.3x) {verdict}"
                )
        cold_cpu = statistics.median(r[0][1] for r in rounds)
        warm_cpu = statistics.median(r[1][1] for r in rounds)
        plain_cpu = statistics.median(r[2][1] for r in rounds)
        extra = max(0.0, cold_cpu - warm_cpu)
        per_fight = extra / max(1, fights)
        print(
            f"balance: {fights} distinct fights simulated cold ({battles} battles each, "
            f"seed 0): {extra:.2f} s CPU more than warm, {per_fight * 1000:.0f} ms per fight; "
            f"were all {args.count} fights distinct, a cold build would take about "
            f"{per_fight * args.count:.0f} s CPU more "
            f"(cold ratio about {(warm_cpu + per_fight * args.count) / plain_cpu:.2f}x CPU)"
        )
        sizes = [
            first if count == args.count else bench_size(base, count, args.battles)
            for count in counts
        ]
        print_sizes(sizes)
        if args.no_serve:
            return 0
        for name, seconds in bench_serve(base):
            if name.startswith("first"):
                print(f"mkdocs serve --dirty, {name}: {seconds:.2f} s")
                continue
            verdict = "OK" if seconds <= 1.5 else "MISSED"
            print(
                f"mkdocs serve --dirty, {name}: change on disk -> served over HTTP in "
                f"{seconds:.2f} s (goal <= 1.5 s) {verdict}"
            )
        if args.full_rebuild:
            import logging

            logging.getLogger("mkdocs").setLevel(logging.ERROR)
            dirty = bench_rebuild(base, dirty=True)
            print(f"in-process --dirty rebuild after one edit: {dirty:.2f} s (reference)")
            full = bench_rebuild(base, dirty=False)
            print(f"in-process full rebuild after one edit: {full:.2f} s (reference)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
