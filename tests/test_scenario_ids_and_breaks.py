"""Issue 28, item 13: ids Windows cannot hold as file names, and line breaks editors do not show.

Ids become file names (``<id>/index.html``, ``<enemy id>.zip``); ``con``, ``nul``, ``aux``,
``com1``... are devices on Windows, whatever their case or extension, so a site holding
them cannot be unzipped or checked out there. YAML 1.1 breaks lines at NEL, LS and PS, which
editors show as no break: in a comment, what follows is read as settings the editor shows as
comment.
"""

from __future__ import annotations

from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # no types-jsonschema in the dev tools
import pytest

from saikoro.scenario import json_schema, load_scenario, validate_text, windows_reserved
from test_site_support import KEGARE


def _errors(text: str, name: str = "s.yaml") -> list[str]:
    result = validate_text(text, name)
    return [p.format("ja") for p in result.problems if p.severity == "error"]


@pytest.mark.parametrize("name", ["con", "prn", "aux", "nul", "com1", "com9", "lpt0", "lpt3"])
def test_a_windows_device_name_as_scenario_id_is_refused_at_the_id(name: str) -> None:
    errors = _errors(KEGARE.replace("title: 港\n", f"title: 港\nid: {name}\n"))
    assert len(errors) == 1, errors
    assert errors[0].startswith("s.yaml:3:5: error: scenario.id:"), errors
    assert "Windows でファイル名に使えない名前" in errors[0]
    assert f"'id: {name}-1'" in errors[0]  # the fix


def test_a_windows_device_name_as_enemy_id_is_refused_at_the_id() -> None:
    errors = _errors(KEGARE.replace("id: oni", "id: aux"))
    assert len(errors) == 1 and errors[0].startswith("s.yaml:4:9: error: scenario.enemies[0].id:")


@pytest.mark.parametrize("stem", ["nul", "aux"])
def test_a_file_named_after_a_device_without_an_id_is_refused(tmp_path: Path, stem: str) -> None:
    path = tmp_path / f"{stem}.yaml"
    path.write_text(KEGARE, "utf-8")
    problems = load_scenario(path, f"{stem}.yaml").problems
    assert [p.format("ja") for p in problems] == [
        f"{stem}.yaml:1:1: error: scenario.id: '{stem}' は Windows でファイル名に使えない名前です"
        "（CON・PRN・AUX・NUL・COM0〜COM9・LPT0〜LPT9 は大文字小文字も拡張子も問わず使えません）。"
        "ID はページとファイルの名前になるので、Windows で開けないサイトになります(ヒント: "
        "ファイル名を変えるか、Windows で使える 'id:' を書いてください（例: 'id: my-scenario'）)"
    ]
    (tmp_path / "fine.yaml").write_text(KEGARE.replace("title: 港", f"title: 港\nid: {stem}-1"))
    assert load_scenario(tmp_path / "fine.yaml").scenario is not None


def test_an_upper_case_device_file_name_suggests_an_id_that_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "COM1.yaml"
    path.write_text(KEGARE, "utf-8")
    (problem,) = load_scenario(path, "COM1.yaml").problems
    assert "'id: com1-1'" in problem.format("ja")


def test_names_that_only_look_like_devices_are_ids() -> None:
    for name in ("con1", "cons", "com10", "nulls", "auxiliary", "lpt", "con-1", "my-nul"):
        assert not windows_reserved(name), name
        assert not _errors(KEGARE.replace("title: 港\n", f"title: 港\nid: {name}\n")), name
    for name in ("CON", "Nul.txt", "aux.tar.gz", "com1 ", "LPT9.zip", "com\u00b9", "conin$"):
        assert windows_reserved(name), name


def test_the_editors_schema_refuses_the_device_names_too() -> None:
    schema = json_schema()
    base = {
        "system": "kegare",
        "title": "港",
        "enemies": [
            {
                "id": "oni",
                "name": "鬼",
                "hp": 60,
                "attack": 2,
                "defence": 1,
                "initiative": 3,
                "skills": [{"name": "爪", "kind": "attack", "damage": 3}],
            }
        ],
    }
    jsonschema.validate(base, schema)
    for name in ("con", "nul", "com1", "lpt9"):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**base, "id": name}, schema)
    jsonschema.validate({**base, "id": "con-1"}, schema)


# -- NEL / LS / PS ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("char", "name"),
    [("\u2028", "行区切り文字"), ("\u2029", "段落区切り文字"), ("\x85", "次行文字 NEL")],
)
def test_a_line_break_editors_do_not_show_in_a_comment_is_refused_at_its_place(
    char: str, name: str
) -> None:
    text = KEGARE.replace("title: 港\n", f"title: 港  # メモ{char}players: 99\n")
    errors = _errors(text)
    code = f"U+{ord(char):04X}"
    assert errors == [
        f"s.yaml:2:15: error: scenario: {name}（{code}）があります。saikoro の YAML はここを"
        "改行として読みますが、エディタは改行を表示しないので、見えているのとちがう内容として"
        "読まれます（コメントの続きに見える文字が設定として読まれるなど）"
        "(ヒント: この文字を消すか、ふつうの改行にしてください)"
    ], errors


def test_every_hidden_line_break_is_reported() -> None:
    text = f"# 冒頭\u2028system: getb\n{KEGARE}# 末尾\x85x: 1\n"
    errors = _errors(text)
    assert [e.split(": error")[0] for e in errors] == ["s.yaml:1:5", "s.yaml:13:5"], errors


def test_a_hidden_line_break_between_values_is_refused() -> None:
    errors = _errors(KEGARE.replace("title: 港\n", "title: 港\u2028"))
    assert len(errors) == 1 and errors[0].startswith("s.yaml:2:9: error: scenario: "), errors


def test_inside_quoted_text_the_character_is_text_and_lines_are_counted_as_editors_do() -> None:
    # a Markdown field keeps it; what comes after is found at the line the editor shows
    text = KEGARE.replace("title: 港\n", 'title: 港\nsummary: "一\u2028二"\n').replace(
        "hp: 60", "hp: x"
    )
    errors = _errors(text)
    assert len(errors) == 1, errors
    assert errors[0].startswith("s.yaml:7:9: error: scenario.enemies[0].hp:"), errors
    # in a one-line field it is refused as before, at the field
    errors = _errors(KEGARE.replace("name: 鬼", 'name: "鬼\u2028"'))
    assert len(errors) == 1 and errors[0].startswith("s.yaml:5:11: error:"), errors
