"""A player's handout page: a standalone HTML file holding only what that player may read.

A static site cannot hide text: whatever a page holds, its reader can see. So the page a
GM hands to a player is its own file, ``<scenario>/handout-<id>.html``, written here
whole (its stylesheet inline): no theme, no navigation, no search index, no script and
no JSON it loads, nothing of the scenario but the trailer, every handout's public part,
the secrets of that PC's handouts, the facts of the scenario (title, system, players,
play time, author) and its credits and rights notices. It prints on its own (``saikoro
pdf`` takes it, or the browser's print) and reads on a phone.

>>> from saikoro.scenario import validate_text
>>> sc = validate_text('''system: kegare
... title: 試し
... handouts:
...   - {id: a, pc: PC1, text: 公開A, secret: 秘密A}
...   - {id: b, pc: PC2, text: 公開B, secret: 秘密B}
... ''', "t.yaml").scenario
>>> page = player_page(sc, sc.model.handouts[0])
>>> "秘密A" in page, "秘密B" in page, "公開B" in page
(True, False, True)
"""

from __future__ import annotations

from saikoro.scenario import Scenario
from saikoro.scenario.model import Handout
from saikoro.site._safe import esc, render_markdown

from . import story

__all__ = ["player_files", "player_page"]

_STYLE = """
:root { color-scheme: light dark; --fg: #1d1d1f; --muted: #5c5c66; --line: #c9c9d1;
  --bg: #fff; --secret: #fff4e5; --accent: #7a3b00; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e8ee; --muted: #b0b0ba; --line: #4a4a55; --bg: #1e1e24;
    --secret: #3a2a14; --accent: #ffc98a; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.75;
  font-family: "Noto Sans CJK JP", "Noto Sans JP", "Hiragino Sans", "Yu Gothic UI",
    "Meiryo", sans-serif; font-size: 16px; }
main { max-width: 42rem; margin: 0 auto; padding: 1rem 1rem 3rem; }
h1 { font-size: 1.5rem; line-height: 1.4; margin: 0.5rem 0 0.25rem; }
h2 { font-size: 1.2rem; border-bottom: 1px solid var(--line); margin: 2rem 0 0.75rem;
  padding-bottom: 0.2rem; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 0.5rem; }
.meta, .for { color: var(--muted); margin: 0; font-size: 0.9rem; }
.for { font-weight: 700; color: var(--accent); margin-top: 0.25rem; }
article { border: 1px solid var(--line); border-radius: 6px; padding: 0.25rem 1rem 0.5rem;
  margin: 0.75rem 0; break-inside: avoid; }
article.mine { border-width: 2px; border-color: var(--accent); }
.secret { background: var(--secret); border-left: 4px solid var(--accent);
  padding: 0.25rem 0.75rem; margin: 0.75rem 0; border-radius: 4px; }
.secret-label { font-weight: 700; margin: 0.25rem 0; color: var(--accent); }
figure { margin: 0.75rem 0; }
img { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 0.85rem; color: var(--muted); }
.saikoro-print-only { display: none; }
.rights { font-size: 0.8rem; color: var(--muted); border-top: 1px solid var(--line);
  margin-top: 2.5rem; padding-top: 0.5rem; }
@media print {
  :root { --fg: #000; --muted: #333; --bg: #fff; --secret: #f3f3f3; --accent: #000; }
  body { font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  h2, h3 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
  .saikoro-print-only { display: block; }
}
@page { margin: 15mm 14mm 17mm;
  @bottom-center { content: counter(page) " / " counter(pages); font-size: 8pt; color: #444; } }
"""


def _handout(scenario: Scenario, handout: Handout, *, secret: bool) -> str:
    parts = [
        f'<article class="{"mine" if secret else "other"}">'
        f"<h3>{esc(story.handout_title(handout))}</h3>",
        story.image_html(scenario, handout.image, ""),
        render_markdown(handout.text),
    ]
    if secret and handout.secret:
        parts.append(
            '<div class="secret"><p class="secret-label">'
            f"秘匿（{esc(handout.pc)}のプレイヤーだけが読む）</p>"
            f"{render_markdown(handout.secret)}</div>"
        )
    parts.append("</article>")
    return "".join(parts)


def player_page(scenario: Scenario, handout: Handout) -> str:
    """The whole HTML page of ``handout``'s player (images are siblings: ``images/…``)."""
    model = scenario.model
    mine = [h for h in model.handouts if h.pc == handout.pc]
    title = f"{scenario.title}：{handout.pc}のハンドアウト"
    body = [
        f"<h1>{esc(scenario.title)}</h1>",
        f'<p class="meta">{esc(" ／ ".join(story.meta_line(scenario)))}</p>',
        f'<p class="for">{esc(handout.pc)}のプレイヤー用（GM用の情報は載っていません）</p>',
    ]
    if model.trailer:
        body.append(f"<h2>トレーラー</h2>{render_markdown(model.trailer)}")
    body.append("<h2>あなたのハンドアウト</h2>")
    body.extend(_handout(scenario, h, secret=True) for h in mine)
    others = [h for h in model.handouts if h.pc != handout.pc]
    if others:
        body.append("<h2>ほかのPCのハンドアウト（公開部分）</h2>")
        body.extend(_handout(scenario, h, secret=False) for h in others)
    body.append(f'<div class="rights">{story.credits_html(scenario)}</div>')
    return (
        '<!doctype html>\n<html lang="ja"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex">'
        f"<title>{esc(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main>{''.join(body)}</main></body></html>\n"
    )


def player_files(scenario: Scenario) -> list[story.SiteFile]:
    """Every player's page and its text edition (``handout-<id>.html`` / ``.txt``)."""
    from saikoro.site._text import handout_text, site_text

    out = []
    for handout in scenario.model.handouts:
        page = player_page(scenario, handout)
        out.append(story.SiteFile(story.handout_file(handout.id), page.encode("utf-8")))
        text = site_text(handout_text(scenario, handout))
        out.append(story.SiteFile(story.handout_file(handout.id, ".txt"), text))
    return out
