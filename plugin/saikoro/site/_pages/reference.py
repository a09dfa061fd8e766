"""Markdown of the generated reference pages (see :mod:`saikoro.site._reference`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from saikoro.balance import tactics_rulings
from saikoro.scenario import field_reference
from saikoro.site._rulelinks import Topic, marker
from saikoro.site._safe import md_escape
from saikoro.systems import SYSTEM_IDS, System
from saikoro.systems import get as get_system

__all__ = [
    "GENERIC_COMMANDS",
    "commands_page",
    "fields_page",
    "rule_topics",
    "rulings_page",
    "schema_text",
]

GENERIC_COMMANDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "加算ロール xDy",
        "ダイスを振って合計します。四則演算、括弧、比較（>= など）で成否判定。",
        ("2D6", "2D6>=7", "1D100<=65", "(2+1)D6", "1D6+1D8"),
    ),
    (
        "端数処理 /nU /nR",
        "割り算の端数を切り上げ（U）・四捨五入（R）にします。既定は切り捨てです。",
        ("(2D6+1)/2U", "6D6/2R"),
    ),
    (
        "キープ／ドロップ KH KL DH DL",
        "高い（低い）出目だけを残して合計します。",
        ("4D6KH3", "4D6DL1", "2D20KL1"),
    ),
    (
        "バラバラロール xBy",
        "ダイスを合計せずに並べ、目標値を満たした個数を数えます。",
        ("5B6>=5", "9B10>=7"),
    ),
    (
        "個数振り足し xRy",
        "振り足し条件を満たした出目の数だけ振り足し、目標値を満たした個数を数えます。",
        ("3R6[6]>=5",),
    ),
    (
        "上方無限 xUy",
        "条件を満たした出目のダイスを振り足して、出目を足し続けます。",
        ("3U10[10]", "2U6[6]>=10"),
    ),
    (
        "D66",
        "2個のd6を十の位と一の位として読む表ロールです。S は小さい目を十の位にします。",
        ("D66", "D66S"),
    ),
    ("集計 xTYy", "出目ごとの個数を数えます。確率は最も多く出た目の個数です。", ("3TY6",)),
    ("計算 C()", "ダイスを振らずに式を計算します。", ("C(10/3)",)),
    ("choice", "並べた候補から1つを選びます。", ("choice[赤,青,緑]",)),
    ("繰り返し x3", "同じコマンドを続けて振ります。確率は1回分です。", ("x3 2D6",)),
)
"""(family, summary in our words, examples) of BCDice's generic commands."""


def _systems() -> list[type[System]]:
    """Every system class, in the site's order of systems (:data:`SYSTEM_IDS`; one that
    cannot load is a bug: it fails the build)."""
    return [type(get_system(system_id)) for system_id in SYSTEM_IDS]


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rulings_page() -> str:
    """Every ruling of every system, with its option (if any)."""
    out = [
        # search ranks the rules themselves above this list of rulings about them
        "---\ntitle: 裁定一覧\nsearch:\n  boost: 0.5\n---\n\n# 裁定一覧\n\n",
        "ルールの記述があいまいな箇所や書かれていない箇所で、saikoro がどう処理するかの一覧です。"
        "オプションのある裁定は、卓の判断で切り替えられます"
        "（シナリオ YAML の `rulings:` に「オプション名: 値」を書きます）。\n\n",
    ]
    for cls in _systems():
        # the system's id is an anchor the rules pages link to (#getb), whatever its name
        out.append(f'<div class="saikoro-anchor" id="{cls.id}"></div>\n\n')
        out.append(f"## {md_escape(cls.name or cls.id)}\n\n")
        if not cls.rulings:
            out.append("裁定はまだありません。\n\n")
            continue
        for ruling in (*cls.rulings, *tactics_rulings(cls.id)):  # tactics: saikoro.balance
            # the ruling's key is its anchor (pages link to it), not reader-facing text
            anchor = ruling.key.replace(".", "-")
            out.append(f'<div class="saikoro-anchor" id="{anchor}"></div>\n\n')
            out.append(f"### {md_escape(ruling.title)}\n\n")
            out.append(f"- ルールの記述: {md_escape(ruling.seed)}\n")
            out.append(f"- saikoro の処理: {md_escape(ruling.decision)}\n")
            out.append(f"- 理由: {md_escape(ruling.reasoning)}\n")
            if ruling.option:
                choices = " / ".join(f"`{c}`" for c in ruling.choices)
                out.append(
                    f"- シナリオでの指定: `rulings: {{{ruling.option_name}: …}}`"
                    f"（既定値 `{_value(ruling.default)}`"
                    + (f"、選択肢 {choices}" if choices else "")
                    + "）\n"
                )
            out.append("\n")
            out.append(marker("ruling", ruling.key))  # links to the rules it concerns
    return "".join(out)


def _command_key(system_id: str, syntax: str) -> str:
    return f"{system_id}:{syntax}"


def rule_topics() -> dict[tuple[str, str], Topic]:
    """What each marker of the rulings and commands pages stands for (see
    :mod:`saikoro.site._rulelinks`): a ruling by its anchor, option name and title, a
    command by its examples."""
    topics: dict[tuple[str, str], Topic] = {}
    for cls in _systems():
        for ruling in (*cls.rulings, *tactics_rulings(cls.id)):
            topics["ruling", ruling.key] = Topic(
                cls.id,
                anchor=ruling.key.replace(".", "-"),
                names=(ruling.option_name,) if ruling.option else (),
                title=ruling.title,
            )
        for doc in cls.commands:
            topics["command", _command_key(cls.id, doc.syntax)] = Topic(
                cls.id, commands=tuple(doc.examples)
            )
    return topics


def _dice_fence(commands: Sequence[str], system: str | None = None) -> str:
    head = f"system: {system}\n" if system else ""
    return "```dice\n" + head + "".join(f"{c}\n" for c in commands) + "```\n\n"


def commands_page() -> str:
    """Generic command families and every system command, each example with its odds."""
    out = [
        "---\ntitle: コマンドリファレンス\nsearch:\n  boost: 0.5\n---\n\n",
        "# コマンドリファレンス\n\n",
        "BCDice と同じ書式のコマンドです。"
        "例にはすべて正確な確率がつき、ボタンでそのまま振れます。\n\n",
        "## 汎用コマンド\n\n",
    ]
    for family, summary, examples in GENERIC_COMMANDS:
        out.append(f"### {md_escape(family)}\n\n{md_escape(summary)}\n\n")
        out.append(_dice_fence(examples))
    for cls in _systems():
        out.append(f"## {md_escape(cls.name or cls.id)}\n\n")
        out.append(f"シナリオでの指定: `system: {cls.id}`\n\n")
        if not cls.commands:
            out.append("コマンドはまだありません。\n\n")
        for doc in cls.commands:
            out.append(f"### `{doc.syntax}`\n\n{md_escape(doc.summary)}\n\n")
            out.append(marker("command", _command_key(cls.id, doc.syntax)))
            for name, meaning in doc.parameters:
                out.append(f"- `{name}`: {md_escape(meaning)}\n")
            if doc.parameters:
                out.append("\n")
            if doc.examples:
                out.append(_dice_fence(doc.examples, cls.id))
    return "".join(out)


def _mapping(value: object) -> Mapping[str, object]:
    """``value`` if it is a mapping (a node of ``field_reference``), else an empty one."""
    return value if isinstance(value, Mapping) else {}


def _mappings(value: object) -> list[Mapping[str, object]]:
    """The mappings of a list of ``field_reference`` nodes (``fields``, ``choices``)."""
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list | tuple) else []


def _expected(node: Mapping[str, object]) -> str:
    expected = node.get("expected")
    if isinstance(expected, Mapping):
        return str(expected.get("ja") or expected.get("en") or "")
    return str(expected or node.get("type") or "")


def _field_rows(node: Mapping[str, object], prefix: str, out: list[str]) -> None:
    """One table row per field of ``node`` (a ``field_reference`` mapping), recursively."""
    for field in _mappings(node.get("fields")):
        path = f"{prefix}.{field['name']}" if prefix else str(field["name"])
        required = "必須" if field.get("required") else ""
        notes = [str(field.get("ja") or field.get("en") or "")]
        if field.get("default") is not None:
            notes.append(f"既定値: {_value(field['default'])}")  # YAML's words, not Python's
        # an enum's choices, or those of a list of enum values (kegare's `immune:`)
        choices = _mappings(field.get("choices")) or _mappings(
            _mapping(field.get("item")).get("choices")
        )
        if choices:
            notes.append(
                "選択肢: "
                + ", ".join(
                    f"{c.get('value')}（{c.get('ja')}）"
                    if c.get("ja") != c.get("value")
                    else str(c.get("value"))
                    for c in choices
                )
            )
        text = " / ".join(md_escape(n) for n in notes if n)
        out.append(f"| `{path}` | {required} | {md_escape(_expected(field))} | {text} |\n")
        if field.get("fields"):
            _field_rows(field, path, out)
        item = _mapping(field.get("item"))
        if item.get("fields"):
            _field_rows(item, f"{path}[]", out)
        for sub in ("key", "value"):
            part = _mapping(field.get(sub))
            if part.get("fields"):
                _field_rows(part, f"{path}.<{sub}>", out)


def fields_page(schema_path: str, href: str | None = None) -> str:
    """The scenario field reference, per system, and where the JSON Schema is (``href``:
    the link to it from the page; default: from ``authoring/`` at the site's root)."""
    link = href if href is not None else f"../{schema_path}"
    out = [
        "---\ntitle: フィールドリファレンス\n---\n\n# フィールドリファレンス\n\n",
        "シナリオ YAML に書けるフィールドの一覧です（検証器と同じ定義から生成）。"
        f"エディタ用の JSON Schema は [`{schema_path}`]({link}) にあります"
        "（`# yaml-language-server: $schema=...` で指定できます）。\n\n",
    ]
    for system in SYSTEM_IDS:
        out.append(f"## {md_escape(system)}\n\n")
        out.append("| フィールド | 必須 | 値 | 説明 |\n|---|---|---|---|\n")
        _field_rows(field_reference(system), "", out)
        out.append("\n")
    return "".join(out)


def schema_text(url: str | None = None) -> str:
    """The scenario JSON Schema as published (pretty-printed), ``$id`` set to ``url``."""
    from saikoro.scenario import schema_text as text

    return text(url)
