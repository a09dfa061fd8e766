"""Benchmark of the in-browser roller in headless Chromium (fresh profile per measurement).

Builds the roller test site (``tests/browser/harness.py``) or takes a built one
(``--site DIR``, any site with the roller installed, a page path given by ``--page``),
serves it on 127.0.0.1 and prints:

- bare ``loadMicroPython`` time from the same files (a bench worker that only loads the
  MicroPython runtime the roller runs on);
- cold click-to-result (the engine has not started when the button is clicked), and the
  same minus the runtime's load time measured inside that very run: the paired figure is
  the one checked against the goal, since separate runs vary on a busy machine;
- click-to-result after the roller has been visible for 8 s;
- median roll latency after warm-up (50 rolls, click to result on screen);
- bytes fetched by a page without a roller (and whether any engine file was among them).

Goals: cold <= bare + 300 ms; after 8 s visible <= 150 ms; median latency <= 5 ms; the page
without rollers fetches no engine file.

Then, at the table (issue 20), on the project's own site (built here, or ``--project-site
DIR``) served gzipped like a web host, in a phone profile (390 x 844, touch):

- bytes (gzip) fetched before the first tap, on every rules and scenario page (goal <= 300
  kB; every byte, Mermaid's too when a chart is near the first screen);
- first roll, tap on an odds row to its result, on a cold visit (nothing kept: the engine
  downloads), on a warm one (a later visit: the service worker keeps the engine), tapped
  at once and 10 s after the page opened, and warm with the network off, for DevTools'
  slow and fast 4G. The network is throttled at the server (one shared link: bandwidth,
  and the round trip before each response): the DevTools protocol's emulation
  (``Network.emulateNetworkConditions`` on the page) does not reach the requests the
  service worker makes for the page's module worker, which are the engine's files.

And the first roll as fast as real dice (issue 31), on the project's site with the network
throttled *at the server* (one shared link: every request of the page, its module worker
and its service worker): a phone (390 x 844, touch) on 1.44 Mbit/s with 150 ms before each
response:

- cold first roll: nothing kept, the reader taps an odds row as soon as the page has
  loaded; the time from the tap to the result, and every byte from the page's request to
  the result (the page itself included), and any file fetched twice;
- warm: a later visit (the engine kept), tapped at once; offline: the network off;
- an idle desktop page (1280 x 800): the bytes after its load event during 60 s.

Goals: cold <= 3 s and <= 600 kB; no file fetched twice; the idle page fetches nothing
after load but its service worker's script.

And the length of each rules page on a phone (issue 31): the article's height in phone
screens (390 x 844, folds closed) against the wiki page of the same rules (the seed text of
``../shared/seeds``, set in the same page with the same styles); goal <= 1.2 times.

Run: ``.venv/bin/python bench/bench_browser.py [--runs 3] [--skip-plain] [--skip-table]
[--first-roll-only] [--skip-length] [--project-site DIR]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from harness import Network, build_site, serve  # noqa: E402

BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare loadMicroPython</title>
<script>
// started by the benchmark after the load event, like the cold click
window.bare = () => new Promise((resolve, reject) => {
  const t0 = performance.now();
  const worker = new Worker(new URL("bare-worker.js", location.href), { type: "module" });
  worker.onmessage = (e) => resolve({ total: performance.now() - t0, inWorker: e.data });
  worker.onerror = (e) => reject(String(e.message || e));
});
</script>"""

BARE_WORKER = """const t0 = performance.now();
const base = new URL("../assets/saikoro/micropython/", import.meta.url).href;
const { loadMicroPython } = await import(base + "micropython.mjs");
await loadMicroPython({ url: base + "micropython.wasm", heapsize: 8 * 1024 * 1024 });
self.postMessage(performance.now() - t0);
"""

# Click the page's first roll button from inside the page and time it to the result.
CLICK_JS = """async (selector) => {
  const widget = document.querySelector(selector);
  const done = new Promise((resolve) =>
    widget.addEventListener("saikoro:result", (e) => resolve(e.detail), { once: true }));
  const t0 = performance.now();
  widget.querySelector(".saikoro-roll").click();
  const detail = await done;
  return { ms: performance.now() - t0, text: detail.text || detail.message, ok: detail.ok };
}"""


def bare(browser: Any, base: str) -> float:
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + "bench-bare/")
    result = page.evaluate("window.bare()")
    context.close()
    return float(result["total"])


def cold_click(browser: Any, page_url: str, selector: str) -> tuple[float, float, str]:
    """Click-to-result with the engine not started; also that run's own runtime load time."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(page_url)
    assert page.evaluate("window.saikoroRoller.state") == "idle", "engine started before click"
    result = page.evaluate(CLICK_JS, selector)
    phases = page.evaluate("window.saikoroRoller.timings.phases")
    print(
        f"  cold click {result['ms']:.0f} ms: in the worker, loadMicroPython "
        f"{phases['runtime']:.0f} ms then engine {phases['engine']:.0f} ms"
    )
    context.close()
    return float(result["ms"]), float(phases["runtime"]), str(result["text"])


def visible_then_click(
    browser: Any, page_url: str, selector: str, wait_s: float
) -> tuple[float, list[float]]:
    context = browser.new_context()
    page = context.new_page()
    page.goto(page_url)
    page.locator(selector).scroll_into_view_if_needed()
    page.wait_for_timeout(wait_s * 1000)
    timings = page.evaluate("window.saikoroRoller.timings")
    if timings["ready"] is None:
        print(f"  after {wait_s:.0f} s visible the engine was still loading")
    else:
        ready_s = (timings["ready"] - timings["loadStarted"]) / 1000
        print(f"  engine ready {ready_s:.1f} s after it started loading")
    first = float(page.evaluate(CLICK_JS, selector)["ms"])
    latencies = [float(page.evaluate(CLICK_JS, selector)["ms"]) for _ in range(50)]
    context.close()
    return first, latencies


def idle_page_bytes(browser: Any, page_url: str) -> tuple[int, int, list[str]]:
    context = browser.new_context()
    page = context.new_page()
    finished: list[Any] = []
    page.on("requestfinished", lambda request: finished.append(request))  # noqa: PLW0108
    page.goto(page_url)
    page.wait_for_load_state("networkidle")
    total = roller = 0
    for request in finished:
        sizes = request.sizes()
        size = int(sizes["responseBodySize"]) + int(sizes["responseHeadersSize"])
        total += size
        if "/assets/saikoro/" in request.url:
            roller += size
    urls = [r.url for r in finished]
    context.close()
    return total, roller, urls


# ---- at the table: the project's site on a throttled phone ---------------------------------

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NETWORKS = (
    # (name, download bytes/s, round trip ms): DevTools' presets
    ("slow 4G", 1.6e6 / 8, 150),
    ("fast 4G", 9e6 / 8, 60),
)
ROW = ".saikoro-target .saikoro-grid tbody tr:not(.saikoro-row-result) .saikoro-pick"
TAP_JS = """async (selector) => {
  const pick = document.querySelector(selector);
  const grid = pick.closest('.saikoro-grid');
  const t0 = performance.now();
  pick.click();
  const output = grid.querySelector('.saikoro-row-result .saikoro-output');
  await new Promise((resolve) => {
    const done = () => output.textContent && !output.classList.contains('saikoro-loading');
    if (done()) return resolve();
    new MutationObserver((_, o) => { if (done()) { o.disconnect(); resolve(); } })
      .observe(output, { childList: true, characterData: true, subtree: true, attributes: true });
  });
  return { ms: performance.now() - t0, text: output.textContent };
}"""


def _build_project(out: Path) -> Path:
    import os
    import subprocess

    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)],
        check=True,
        cwd=ROOT,
        env=env,
    )
    return out


def _table_pages(site: Path) -> list[str]:
    rules = [f"systems/{p.name}/" for p in sorted((site / "systems").iterdir())]
    scenarios = [
        f"scenarios/{p.name}/" for p in sorted((site / "scenarios").iterdir()) if p.is_dir()
    ]
    return ["commands/", "rulings/", *rules, "scenarios/", *scenarios]


def before_first_tap(
    browser: Any, base: str, site: Path, network: Network
) -> list[tuple[str, int]]:
    figures = []
    for path in _table_pages(site):
        context = browser.new_context(**PHONE)
        page = context.new_page()
        start = len(network.log)
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(1500)  # the service worker registers and installs
        figures.append((path, network.sent(since=start)))
        context.close()
    return figures


def first_rolls(
    browser: Any, base: str, page_path: str, network: Network, profile: tuple[str, float, int]
) -> dict[str, float]:
    """Tap on an odds row to its result, ms: cold, warm (at once, after 10 s), offline."""
    _, rate, rtt = profile
    network.throttle(rate, rtt / 1000)
    out: dict[str, float] = {}
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(base + page_path)
        page.wait_for_load_state("networkidle")
        page.wait_for_function("window.saikoroRoller.offline.state === 'active'", timeout=60_000)
        out["cold"] = float(page.evaluate(TAP_JS, ROW)["ms"])
        page.wait_for_function("window.saikoroRoller.offline.engine === true", timeout=900_000)
        page.close()
        for name, pause in (("warm, tap at once", 0), ("warm, tap after 10 s", 10_000)):
            later = context.new_page()
            later.goto(base + page_path)
            later.wait_for_load_state("load")
            later.wait_for_timeout(pause)
            out[name] = float(later.evaluate(TAP_JS, ROW)["ms"])
            later.close()
        network.down = True
        context.set_offline(True)
        offline = context.new_page()
        offline.goto(base + page_path)
        offline.wait_for_load_state("load")
        offline.wait_for_timeout(10_000)
        out["network off, tap after 10 s"] = float(offline.evaluate(TAP_JS, ROW)["ms"])
    finally:
        network.down = False
        network.throttle(None)
        context.close()
    return out


def at_the_table(browser: Any, site: Path, workdir: Path) -> bool:
    network = Network()
    ok = True
    with serve(site, workdir / "served-table", network) as base:
        figures = before_first_tap(browser, base, site, network)
        print("\nat the table: bytes before the first tap (phone, gzip, every byte)")
        for path, sent in figures:
            verdict = "PASS" if sent <= 300 * 1024 else "FAIL"
            ok = ok and verdict == "PASS"
            print(f"  {path:30} {sent / 1024:7.1f} kB  goal <= 300 {verdict}")
        print("\nat the table: first roll, tap on an odds row to its result (getb-kyuuchi)")
        for profile in NETWORKS:
            times = first_rolls(browser, base, "scenarios/getb-kyuuchi/", network, profile)
            figures_text = "   ".join(f"{k} {v / 1000:5.2f} s" for k, v in times.items())
            print(f"  {profile[0]:8} {figures_text}")
    return ok


# ---- issue 31: the first roll on a throttled phone ----------------------------------------

PHONE_LINK = (1.44e6 / 8, 0.150)
"""1.44 Mbit/s and 150 ms: the issue's phone profile, applied by the server."""


def _duplicates(paths: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    for path in paths:
        seen[path] = seen.get(path, 0) + 1
    return sorted(p for p, n in seen.items() if n > 1)


def first_roll(browser: Any, base: str, page_path: str, network: Network) -> dict[str, Any]:
    """Cold, warm and offline first rolls on the throttled phone (see the module doc)."""
    rate, latency = PHONE_LINK
    out: dict[str, Any] = {}
    context = browser.new_context(**PHONE)
    context.set_default_timeout(300_000)  # a page may wait behind a big download
    try:
        network.throttle(rate, latency)
        page = context.new_page()
        start = len(network.log)
        page.goto(base + page_path)
        page.wait_for_load_state("load")
        cold = page.evaluate(TAP_JS, ROW)
        paths = [p for p, _ in network.log[start:]]
        out["cold s"] = cold["ms"] / 1000
        out["cold kB"] = network.sent(since=start) / 1000
        out["cold requests"] = len(paths)
        out["fetched twice"] = _duplicates(paths)
        out["cold text"] = cold["text"]
        print(f"  cold {out['cold s']:.2f} s, {out['cold kB']:.1f} kB", flush=True)
        page.wait_for_timeout(3000)  # the service worker keeps the engine
        start = len(network.log)
        page.wait_for_timeout(20_000)
        out["after roll kB"] = network.sent(since=start) / 1000  # what follows unasked
        page.close()
        later = context.new_page()
        start = len(network.log)
        later.goto(base + page_path)
        later.wait_for_load_state("load")
        out["warm s"] = later.evaluate(TAP_JS, ROW)["ms"] / 1000
        out["warm kB"] = network.sent(since=start) / 1000
        later.close()
        network.down = True
        context.set_offline(True)
        offline = context.new_page()
        offline.goto(base + page_path)
        offline.wait_for_load_state("load")
        result = offline.evaluate(TAP_JS, ROW)
        out["offline s"] = result["ms"] / 1000
        out["offline text"] = result["text"]
    finally:
        network.down = False
        network.throttle(None)
        context.close()
    return out


def idle_desktop(browser: Any, base: str, page_path: str, network: Network) -> dict[str, Any]:
    """Bytes an untouched desktop page fetches after its load event, in 60 s."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        start = len(network.log)
        page.goto(base + page_path)
        page.wait_for_load_state("load")
        loaded = len(network.log)
        page.wait_for_timeout(60_000)
        after = network.log[loaded:]
        return {
            "page kB": network.sent(since=start) / 1000,
            "after load kB": sum(n for _, n in after) / 1000,
            "after load": [p for p, _ in after],
        }
    finally:
        context.close()


def first_roll_figures(browser: Any, site: Path, workdir: Path) -> bool:
    network = Network()
    page_path = "scenarios/getb-kyuuchi/"
    with serve(site, workdir / "served-first-roll", network) as base:
        rolls = first_roll(browser, base, page_path, network)
        idle = idle_desktop(browser, base, page_path, network)
    cold_ok = rolls["cold s"] <= 3.0 and rolls["cold kB"] <= 600
    twice_ok = not rolls["fetched twice"]
    # the service worker's script and the tab's icon, nothing else
    idle_ok = all(p.endswith(("saikoro-sw.js", "favicon.png")) for p in idle["after load"])
    print(f"\nfirst roll on a phone, 1.44 Mbit/s and 150 ms at the server ({page_path})")
    print(
        f"  cold: {rolls['cold s']:6.2f} s, {rolls['cold kB']:7.1f} kB from the page's request"
        f" ({rolls['cold requests']} requests)  goal <= 3 s, <= 600 kB "
        f"{'PASS' if cold_ok else 'FAIL'}"
    )
    print(f"  fetched twice: {rolls['fetched twice'] or 'none'} {'PASS' if twice_ok else 'FAIL'}")
    print(f"  fetched unasked 3-23 s after the roll: {rolls['after roll kB']:.1f} kB")
    print(f"  warm (engine kept), tap at once: {rolls['warm s']:6.2f} s, {rolls['warm kB']:.1f} kB")
    print(f"  offline: {rolls['offline s']:6.2f} s: {rolls['offline text'][:60]}")
    print(f"  cold result: {rolls['cold text'][:60]}")
    print(
        f"idle desktop page (1280 x 800, 60 s): page {idle['page kB']:.1f} kB, then "
        f"{idle['after load kB']:.1f} kB after load {'PASS' if idle_ok else 'FAIL'}"
    )
    for path in idle["after load"]:
        print(f"    {path}")
    return cold_ok and twice_ok and idle_ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh-profile runs per cold figure")
    parser.add_argument("--site", type=Path, help="a built site with the roller installed")
    parser.add_argument("--page", default="bench/", help="site-relative page with a roller")
    parser.add_argument("--idle-page", default="", help="site-relative page without rollers")
    parser.add_argument("--selector", default=".saikoro-roller", help="the widget to click")
    parser.add_argument("--project-site", type=Path, help="the project's site, built")
    parser.add_argument("--skip-plain", action="store_true", help="only the table figures")
    parser.add_argument("--skip-table", action="store_true", help="only the plain-site figures")
    parser.add_argument(
        "--first-roll-only", action="store_true", help="only the first-roll figures (issue 31)"
    )
    parser.add_argument("--skip-length", action="store_true", help="no rules-page lengths")
    args = parser.parse_args()

    import os

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    ok = True
    if args.first_roll_only:
        args.skip_plain = args.skip_table = args.skip_length = True
    if not args.skip_plain:
        ok = plain(args)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        workdir = Path(tmp)
        site = args.project_site or _build_project(workdir / "project-site")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        ok = first_roll_figures(browser, site.resolve(), workdir) and ok
        browser.close()
    if not args.skip_table:
        from playwright.sync_api import sync_playwright

        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
            workdir = Path(tmp)
            site = args.project_site or _build_project(workdir / "project-site")
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            ok = at_the_table(browser, site.resolve(), workdir) and ok
            browser.close()
    if not args.skip_length:
        ok = rules_page_length(args.project_site) and ok
    return 0 if ok else 1


def rules_page_length(project_site: Path | None) -> bool:
    """Phone screens per rules page against the wiki's (the seed text in the same page);
    whether every page is at most 1.2 times as long."""
    from phone import PHONE as PHONE_PROFILE
    from phone import rules_page_screens, seed_systems
    from playwright.sync_api import sync_playwright

    seeds = ROOT.parent / "shared" / "seeds"
    if not seeds.is_dir():
        print(f"\nrules pages: {seeds} is missing (../shared beside the checkout)")
        return False
    ok = True
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        workdir = Path(tmp)
        site = project_site or _build_project(workdir / "project-site")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        with serve(site.resolve(), workdir / "served-length") as base:
            context = browser.new_context(**PHONE_PROFILE)
            page = context.new_page()
            print("\nrules pages on a phone (390 x 844): screens, against the wiki's")
            for system, text in sorted(seed_systems(seeds).items()):
                url = f"{base}systems/{system}/"
                ours, wiki = rules_page_screens(page, url, text.read_text("utf-8"))
                verdict = "PASS" if ours <= 1.2 * wiki else "FAIL"
                ok = ok and verdict == "PASS"
                print(
                    f"  {system:10} {ours:5.1f} screens  wiki {wiki:5.1f}  "
                    f"ratio {ours / wiki:4.2f}  goal <= 1.20 {verdict}"
                )
            context.close()
        browser.close()
    return ok


def plain(args: argparse.Namespace) -> bool:
    """The plain roller site's figures (see the module docstring); whether goals are met."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        site = args.site.resolve() if args.site else workdir / "site"
        served = workdir / "served"
        with serve(site, served) as base:
            if not args.site:
                build_site(workdir, base)
            bench_dir = served / "sub" / "bench-bare"
            bench_dir.mkdir(parents=True)
            (bench_dir / "index.html").write_text(BARE_HTML, encoding="utf-8")
            # the bare worker reaches the site's MicroPython copy through the served tree
            (bench_dir / "bare-worker.js").write_text(
                BARE_WORKER.replace("../assets/", "../path/assets/"), encoding="utf-8"
            )
            bare_base = base.rsplit("/path/", 1)[0] + "/"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page_url = base + args.page
                bares, colds, extras = [], [], []
                for run in range(args.runs):  # alternate the order: load varies over time
                    if run % 2:
                        bares.append(bare(browser, bare_base))
                    ms, own_load, text = cold_click(browser, page_url, args.selector)
                    colds.append(ms)
                    extras.append(ms - own_load)
                    if not run % 2:
                        bares.append(bare(browser, bare_base))
                first, latencies = visible_then_click(browser, page_url, args.selector, 8.0)
                total, roller, urls = idle_page_bytes(browser, base + args.idle_page)
                browser.close()

    bare_ms = statistics.median(bares)
    cold_ms = statistics.median(colds)
    extra = statistics.median(extras)
    latency = statistics.median(latencies)
    engine_fetched = [
        u for u in urls if "/micropython/" in u or "worker.js" in u or "/saikoro/engine/" in u
    ]
    rows = [
        (f"bare loadMicroPython (median of {args.runs})", f"{bare_ms:8.0f} ms", ""),
        ("cold click-to-result", f"{cold_ms:8.0f} ms", f"{cold_ms - bare_ms:+.0f} ms vs bare"),
        (
            "  cold minus its own runtime load",
            f"{extra:8.0f} ms",
            "goal <= 300 (paired per run: robust to machine load)",
            extra <= 300,
        ),
        ("click after 8 s visible", f"{first:8.1f} ms", "goal <= 150", first <= 150),
        ("median roll latency (50, warm)", f"{latency:8.2f} ms", "goal <= 5", latency <= 5),
        (
            "page without rollers: bytes",
            f"{total:8d} B",
            f"roller files {roller} B; engine files fetched: {len(engine_fetched)}",
            not engine_fetched,
        ),
    ]
    print(f"last cold result: {text}")
    print(
        f"cold runs: {', '.join(f'{c:.0f}' for c in colds)} ms; bare runs: "
        f"{', '.join(f'{b:.0f}' for b in bares)} ms"
    )
    ok = True
    for row in rows:
        verdict = "" if len(row) < 4 else ("PASS" if row[3] else "FAIL")
        ok = ok and (len(row) < 4 or bool(row[3]))
        print(f"{row[0]:34} {row[1]:>12}  {row[2]} {verdict}")
    return ok


if __name__ == "__main__":
    raise SystemExit(main())
