"""What a phone shows, measured in headless Chromium: how long a rules page is against the
wiki page of the same rules (the seed texts of ``../shared/seeds``, set in the same page),
what overflows a 340 px screen, controls smaller than a thumb, probabilities in exponent
form and line breaks inside a word.

Used by ``tests/browser/test_site_phone.py`` and ``bench/bench_browser.py``
(:func:`rules_page_screens`). The seed texts are read at run time, never copied.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

__all__ = [
    "BROKEN_WORDS",
    "EXPONENTS",
    "OVERFLOW",
    "PHONE",
    "SCREEN_HEIGHT",
    "SMALL_CONTROLS",
    "rules_page_screens",
    "seed_html",
    "seed_systems",
]

SCREEN_HEIGHT = 844
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": SCREEN_HEIGHT},
    "is_mobile": True,
    "has_touch": True,
    "service_workers": "block",
}
"""A phone's profile (390 x 844, touch)."""


def seed_systems(seeds: Path) -> dict[str, Path]:
    """Each system id and its seed text, as the seeds' README maps them."""
    readme = (seeds / "README.md").read_text("utf-8")
    found = re.findall(r"^\|\s*(\S+\.txt)\s*\|\s*`([a-z]+)`\s*\|", readme, re.M)
    return {system: seeds / name for name, system in found}


def seed_html(text: str) -> str:
    """A seed text as the wiki shows it: a paragraph per line, a table per run of
    tab-separated lines."""
    out: list[str] = []
    table: list[list[str]] = []

    def flush() -> None:
        if table:
            rows = "".join(
                "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                for row in table
            )
            out.append(f"<table><tbody>{rows}</tbody></table>")
            table.clear()

    for line in text.splitlines():
        if "\t" in line:
            table.append(line.split("\t"))
            continue
        flush()
        if line.strip():
            out.append(f"<p>{html.escape(line.strip())}</p>")
    flush()
    return "".join(out)


_ARTICLE = "() => document.querySelector('article').getBoundingClientRect().height"


def rules_page_screens(page: Any, url: str, seed_text: str) -> tuple[float, float]:
    """(phone screens of the rules page at ``url``, of the seed text set in the same page)
    on ``page`` (a phone's): the article's height over the screen's, as a reader sees it
    (folds closed, charts not drawn)."""
    page.goto(url)
    page.wait_for_load_state("load")
    ours = float(page.evaluate(_ARTICLE))
    wiki = seed_html(seed_text)
    page.evaluate("(h) => { document.querySelector('article').innerHTML = h; }", wiki)
    theirs = float(page.evaluate(_ARTICLE))
    return ours / SCREEN_HEIGHT, theirs / SCREEN_HEIGHT


# A visible element: rendered, not in a closed <details> (but its summary), not hidden.
_VISIBLE = """const visible = (el) => el.getClientRects().length > 0
  && !el.closest('details:not([open]) > :not(summary)')
  && getComputedStyle(el).visibility !== 'hidden';"""

OVERFLOW = (
    """() => {
  """
    + _VISIBLE
    + """
  const article = document.querySelector('article');
  const style = getComputedStyle(article);
  const box = article.getBoundingClientRect();
  const left = box.left + parseFloat(style.paddingLeft) - 1;
  const right = box.right - parseFloat(style.paddingRight) + 1;
  const name = (el) => el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0]
    + ' ' + (el.textContent || '').trim().slice(0, 20);
  const wide = [];
  const blocks = 'table, pre, figure, dl, details, .admonition, .highlight, '
    + '.md-typeset__scrollwrap, .saikoro-grid, .saikoro-chase, .saikoro-balance, .saikoro-roller';
  for (const el of article.querySelectorAll(blocks)) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.left < left || r.right > right) wide.push(name(el) + ' ' + Math.round(r.width));
  }
  for (const el of article.querySelectorAll('*')) {
    if (!visible(el) || !/(auto|scroll)/.test(getComputedStyle(el).overflowX)) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      wide.push(name(el) + ' scrolls ' + el.scrollWidth + '/' + el.clientWidth);
    }
  }
  return {page: document.documentElement.scrollWidth - window.innerWidth, wide};
}"""
)
"""Tables and blocks wider than the article's column, and boxes that scroll sideways."""

SMALL_CONTROLS = (
    """() => {
  """
    + _VISIBLE
    + """
  const all = [...document.querySelectorAll(
    'article button, article input, article select, article summary, article [role=button], '
    + 'article a.md-button')].filter(visible);
  const small = all.filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width < 43.5 || r.height < 43.5;
  }).map((el) => {
    const r = el.getBoundingClientRect();
    const name = el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0];
    return name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height);
  });
  return {count: all.length, small};
}"""
)
"""Controls in the article narrower or shorter than 44 px (WCAG 2.5.5)."""

EXPONENTS = r"""() => (document.body.innerText.match(/\d(?:\.\d+)?e[-+]\d+%?/g) || [])"""
"""Numbers in exponent form in the page's text (「2.2e-11%」)."""

BROKEN_WORDS = (
    """() => {
  // a line break between two characters of one word (the browser's dictionary segmenter,
  // ICU's Japanese words: クリティカ|ル, メインミッシ|ョン)
  """
    + _VISIBLE
    + """
  const segmenter = new Intl.Segmenter('ja', {granularity: 'word'});
  const range = document.createRange();
  const top = (node, i) => {
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    return rects.length ? rects[0].top : null;
  };
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('article'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !visible(parent)) continue;
    const skipped = 'code, pre, svg, .mermaid, .saikoro-vh, .saikoro-output, .saikoro-history';
    if (parent.closest(skipped)) continue;
    if (getComputedStyle(parent).writingMode !== 'horizontal-tb') continue;
    const text = node.textContent;
    if (!/[\\u3040-\\u30ff\\u3400-\\u9fff]/.test(text)) continue;
    for (const s of segmenter.segment(text)) {
      if (!s.isWordLike || s.segment.length < 2 || /^[\\x00-\\x7f]+$/.test(s.segment)) continue;
      let previous = top(node, s.index);
      for (let i = s.index + 1; i < s.index + s.segment.length; i++) {
        const now = top(node, i);
        if (now !== null && previous !== null && now > previous + 2) {
          const end = s.index + s.segment.length + 4;
          out.push(text.slice(Math.max(0, s.index - 4), i) + '／' + text.slice(i, end));
          break;
        }
        if (now !== null) previous = now;
      }
    }
  }
  return out;
}"""
)
"""Words of the article cut at a line end (the text around each, 「クリティカ／ル」)."""
