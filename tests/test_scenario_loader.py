"""Safe, bounded YAML loading: positions, limits and hostile input."""

from __future__ import annotations

from pathlib import Path

import pytest

from saikoro.scenario import MAX_BYTES, LoadError, load_scenario, validate_text
from saikoro.scenario._loader import MAX_NODES, load_yaml


def first(text: str | bytes) -> str:
    problems = validate_text(text, "t.yaml").problems if isinstance(text, str) else None
    if problems is None:
        try:
            load_yaml(text, "t.yaml")
        except LoadError as e:
            problems = e.problems
    assert problems, "expected a problem"
    return problems[0].format()


def test_positions_are_one_based() -> None:
    root = load_yaml("system: getb\nenemies:\n  - hp: 40\n", "t.yaml")
    enemies = root.get("enemies")
    assert enemies is not None
    hp = enemies.value[0].get("hp")
    assert (hp.line, hp.column, hp.value) == (3, 9, 40)


def test_scalar_types() -> None:
    root = load_yaml("a: yes\nb: 0x10\nc: 2024-01-02\nd: '7'\ne: ~\nf: 1.5\n", "t.yaml")
    assert root.to_python() == {
        "a": "yes",  # YAML 1.2 core: yes is text
        "b": 16,
        "c": "2024-01-02",
        "d": "7",
        "e": None,
        "f": 1.5,
    }


def test_merge_keys_and_anchors() -> None:
    text = "base: &b {hp: 1, ap: 2}\nx:\n  <<: *b\n  hp: 5\n"
    assert load_yaml(text, "t.yaml").to_python()["x"] == {"hp": 5, "ap": 2}
    assert first("a: {<<: 1}\n") == (
        "t.yaml:1:9: error: scenario.a.<<: a merge key (<<) needs a mapping or a list of mappings"
    )


def test_duplicate_keys_are_all_reported() -> None:
    result = validate_text("system: getb\ntitle: a\ntitle: b\nplayers: 1\nplayers: 2\n", "t.yaml")
    assert [p.format() for p in result.problems] == [
        "t.yaml:3:1: error: scenario.title: duplicate key 'title' (first defined on line 2)",
        "t.yaml:5:1: error: scenario.players: duplicate key 'players' (first defined on line 4)",
    ]


def test_bad_utf8_position_counts_characters() -> None:
    data = "system: getb\ntitle: 日本語".encode() + b"\xc3\x28\n"
    assert first(data) == "t.yaml:2:11: error: scenario: the file is not valid UTF-8 (byte 0xc3)"


def test_control_character_position_after_multibyte_text() -> None:
    assert first("system: getb\ntitle: 日本語\x07\n") == (
        "t.yaml:2:11: error: scenario: character U+0007 is not allowed in YAML"
    )


def test_surrogate_in_text_input() -> None:
    assert first("system: getb\ntitle: a\ud800\n") == (
        "t.yaml:2:9: error: scenario: the file is not valid UTF-8 (byte U+D800)"
    )


def test_bom_is_accepted() -> None:
    root = load_yaml("\ufeffsystem: getb\n".encode(), "t.yaml")
    assert root.to_python() == {"system": "getb"}


def test_empty_and_comment_only_files() -> None:
    for text in ("", "\n\n", "# only a comment\n", "---\n", "~\n"):
        assert first(text).startswith("t.yaml:1:1: error: scenario: the file is empty")


def test_non_mapping_roots() -> None:
    assert first("42\n") == (
        "t.yaml:1:1: error: scenario: a scenario must be a mapping of keys to values, got 42"
    )
    assert first("- a\n").endswith("got a list")


def test_complex_and_null_keys() -> None:
    assert first("? [a]\n: 1\n") == (
        "t.yaml:1:3: error: scenario: a key must be a string or an integer, got a mapping or a list"
    )
    assert first("~: 1\n") == (
        "t.yaml:1:1: error: scenario: a key must be a string or an integer, got null"
    )


def test_alias_bomb_is_refused_by_budget() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    message = first("\n".join(lines) + "\n")
    assert f"holds more than {MAX_NODES} values" in message


def test_aliases_within_budget_are_fine() -> None:
    text = "a: &a {x: 1}\nb: [*a, *a, *a]\n"
    assert load_yaml(text, "t.yaml").to_python()["b"] == [{"x": 1}] * 3


def test_undefined_alias_is_a_syntax_error() -> None:
    assert first("a: *nope\n").startswith("t.yaml:1:4: error: scenario: YAML syntax error: ")


def test_deep_nesting_is_refused() -> None:
    for text in ("a: " + "[" * 5000 + "]" * 5000, "a: " + "{b: " * 100 + "1" + "}" * 100):
        message = first(text + "\n")
        assert "nesting" in message


def test_huge_and_odd_numbers() -> None:
    assert first("a: " + "1" * 61 + "\n").endswith(
        "number too large (10^60 or more in absolute value, in any notation)"
    )
    assert load_yaml("a: 1" + "0" * 59 + "\n", "t.yaml").to_python()["a"] == 10**59
    assert load_yaml("a: .inf\n", "t.yaml").to_python()["a"] == float("inf")


@pytest.mark.parametrize(
    "text",
    [
        "0x" + "f" * 4000,
        "0x" + "F" * 50,
        "0o" + "7" * 5000,
        "1" + "0" * 60,
        '!!int "0x' + "f" * 4000 + '"',
        "!!int '" + "9" * 5000 + "'",
        '!!int "0o' + "7" * 70 + '"',
    ],
)
def test_number_limits_count_the_value_not_its_digits(text: str) -> None:
    """Hexadecimal, octal and tagged numbers are bounded by value: a problem at the value's
    position, never Python's 4,300-digit ValueError."""
    assert first("hp: " + text + "\n") == (
        "t.yaml:1:5: error: scenario.hp: "
        "number too large (10^60 or more in absolute value, in any notation)"
    )


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0" * 5000 + "7", 7),
        ("0x" + "0" * 4000 + "1f", 31),
        ("0o" + "0" * 100 + "17", 15),
        ("9" * 59, 10**59 - 1),
        ('!!int "0x' + "f" * 49 + '"', 16**49 - 1),
    ],
)
def test_small_values_in_long_notation_are_read(text: str, value: int) -> None:
    assert load_yaml("hp: " + text + "\n", "t.yaml").to_python()["hp"] == value


def test_a_tagged_text_that_is_no_integer_is_a_problem() -> None:
    for text in ('!!int "1_000"', '!!int "0xg"', '!!int "٣"', '!!int ""'):
        assert "cannot read" in first("hp: " + text + "\n"), text


def test_long_scalar_is_refused() -> None:
    assert "value too long" in first("a: " + "x" * 100_001 + "\n")


def test_big_file_is_refused_at_line_one(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as f:
        f.write(b"system: getb\ntitle: x\n")
        f.write(b"# padding\n" * 1_200_000)  # 12 MB
    result = load_scenario(path)
    assert [p.format() for p in result.problems] == [
        f"{path}:1:1: error: scenario: the file is too large ({path.stat().st_size} bytes; "
        f"the limit is {MAX_BYTES} bytes)"
    ]


def test_unreadable_path(tmp_path: Path) -> None:
    result = load_scenario(tmp_path / "missing.yaml")
    assert result.errors[0].msg.code == "load.unreadable"
    assert result.errors[0].line == 1


@pytest.mark.parametrize("text", ["a: [1, 2\n", "a: 'x\n", "a:\n\t- 1\n", "a: b: c\n", "{\n"])
def test_syntax_errors_have_positions(text: str) -> None:
    message = first(text)
    assert message.startswith("t.yaml:") and ": error: scenario: YAML syntax error: " in message


def test_pure_python_fallback_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    import yaml

    from saikoro.scenario import _loader as loader

    monkeypatch.setattr(loader, "_Loader", yaml.SafeLoader)
    assert load_yaml("a: [1, {b: c}]\n", "t.yaml").to_python() == {"a": [1, {"b": "c"}]}
    with pytest.raises(LoadError) as info:
        load_yaml("a: " + "[" * 900 + "]" * 900 + "\n", "t.yaml")
    assert "nesting" in info.value.problems[0].format()


def test_big_file_of_tiny_values_is_refused_by_count() -> None:
    text = "system: getb\ntitle: x\nsummary: [" + ",".join(["1"] * 200_000) + "]\n"
    message = first(text)
    assert message.startswith("t.yaml:3:")
    assert message.endswith(f"holds more than {MAX_NODES} values (an alias counts as a full copy)")
