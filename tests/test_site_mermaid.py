"""Every engine flow, as the site draws it, parses with the pinned Mermaid (headless Chromium)."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import saikoro
from saikoro.site._mermaid import flow_to_mermaid
from saikoro.systems import SYSTEM_IDS

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
MERMAID = REPO / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _require() -> None:
    missing = [str(p) for p in (Path(CHROMIUM), MERMAID) if not p.exists()]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"missing in CI: {missing}")
        pytest.skip(f"missing: {missing}")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def mermaid_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    _require()
    from playwright.sync_api import sync_playwright

    root = tmp_path_factory.mktemp("mermaid")
    shutil.copy(MERMAID, root / "mermaid.min.js")
    (root / "index.html").write_text(
        '<!doctype html><meta charset="utf-8"><script src="mermaid.min.js"></script>', "utf-8"
    )
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        page.wait_for_function("typeof window.mermaid !== 'undefined'")
        yield page
        browser.close()
    server.shutdown()


PARSE = """async (text) => {
  try { await window.mermaid.parse(text); return "ok"; }
  catch (e) { return String((e && e.message) || e); }
}"""


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_flows_parse_with_mermaid(mermaid_page: object, system_id: str) -> None:
    flows = saikoro.get_system(system_id).flows()
    assert flows, system_id
    for flow_id, flow in flows.items():
        result = mermaid_page.evaluate(PARSE, flow_to_mermaid(flow))  # type: ignore[attr-defined]
        assert result == "ok", f"{flow_id}: {result}"


def test_hostile_labels_parse(mermaid_page: object) -> None:
    from saikoro.systems import Edge, Flow, Step, StepKind

    nasty = 'a "b" [c] {d} (e) |f| <g> #h; `i` end style class'
    flow = Flow(
        "x.y",
        "t",
        (
            Step("start", nasty, StepKind.START, next=(Edge("end", nasty),)),
            Step("end", nasty, StepKind.END),
        ),
    )
    result = mermaid_page.evaluate(PARSE, flow_to_mermaid(flow))  # type: ignore[attr-defined]
    assert result == "ok", result
