"""Hostile input at every door: nothing silent, nothing unbounded.

Oversized exact odds (CLI, JSON, fences),
the dice= argument of the API, reserved ids, text that XML cannot carry, bounded CLI
options and file reads, meaningless settings, messages. ``test_hostile_corpus.py`` runs
the corpus of hostile scenario files through every stage.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import markdown
import pytest
from pymdownx.superfences import SuperFencesException

import saikoro
from saikoro._cli import main as cli_main
from saikoro.dice import GivenDiceError, SaikoroError, digit_count, fraction_text
from saikoro.dice._digits import decimal_text
from saikoro.site import _fences
from saikoro.site._fences import FenceContext, add_custom_fences, fence_lines


@pytest.fixture
def unlimited_digits() -> Iterator[None]:
    """Python's int-to-text limit lifted for the test's own reference conversions."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


# -- item 1: odds whose exact fractions have more than 4300 digits ----------------------------


@pytest.mark.usefixtures("unlimited_digits")
@pytest.mark.parametrize("bits", [1, 13_000, 13_001, 14_351, 100_003, 207_953])
def test_decimal_text_is_str_at_any_length(bits: int) -> None:
    for n in (2**bits - 1, 2**bits, 10 ** (bits // 4), 3**bits // 7):
        assert decimal_text(n) == str(n)
        assert digit_count(n) == len(str(n))
    assert decimal_text(-(10**5000)) == "-" + "1" + "0" * 5000


def test_fraction_text_keeps_python_s_limit() -> None:
    assert sys.get_int_max_str_digits() not in (0,)  # the test runs under the default guard
    p = Fraction(1, 10**5000 + 1)
    assert fraction_text(p) == "1/1" + "0" * 4999 + "1"


@pytest.mark.parametrize("command", ["15R10[2]", "25R10[2]", "200R6[2]", "x99 200R10[2]"])
@pytest.mark.usefixtures("unlimited_digits")  # for reading the JSON back (printing has the guard)
def test_saikoro_odds_prints_a_result_of_thousands_of_digits(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        assert cli_main(["odds", command]) == 0
        out, err = capsys.readouterr()
        assert cli_main(["odds", command, "--format", "json"]) == 0
        text = capsys.readouterr().out
    finally:
        sys.set_int_max_str_digits(before)
    assert err == ""
    assert "桁" in out and "--format json" in out
    assert max(len(line) for line in out.splitlines()) < 200  # rounded, not 4000 digits
    data = json.loads(text)
    values = [Fraction(v) for v in data["distribution"].values()]
    assert sum(values) + Fraction(data["truncated"]) == 1  # every digit, exactly
    assert digit_count(Fraction(data["truncated"]).denominator) > 4300


def test_short_fractions_stay_exact_in_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["odds", "2D6>=7"]) == 0
    assert "成功: 58.3333% (7/12)" in capsys.readouterr().out


def test_the_slow_reroll_without_a_target_is_one_power() -> None:
    # a reroll whose rerolled faces score nothing: (s**r - c**r)**dice, not 200 terms
    from saikoro.dice import chain_power, faces_poly

    up, stop = faces_poly([0] * 9), faces_poly([0])
    fast = chain_power(up, stop, 30, 7)
    # the binomial expansion the general path takes, written out
    s, r = 10, 31
    assert fast.weights == [(s**r - 9**r) ** 7 // 1**7]
    assert fast.denominator == s ** (r * 7)


def _md(ctx: FenceContext) -> markdown.Markdown:
    names: list[str] = []
    configs: dict[str, dict[str, object]] = {}
    add_custom_fences(names, configs, ctx)
    return markdown.Markdown(extensions=names, extension_configs=configs)


def test_a_dice_fence_shows_odds_of_thousands_of_digits() -> None:
    ctx = FenceContext(page="index.md")
    html = _md(ctx).convert("```dice\n15R10[2]\n```\n")
    assert 'data-command="15R10[2]"' in html and "saikoro-error" not in html


def test_a_fence_that_fails_is_an_error_at_its_line_never_plain_code(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(ctx: FenceContext, body: list[str]) -> str:
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")

    monkeypatch.setitem(_fences._RENDERERS, "dice", broken)
    source = "# t\n\ntext\n\n```dice\n2D6\n```\n"
    ctx = FenceContext(page="rules.md")
    ctx.lines = fence_lines(source)
    with caplog.at_level(logging.ERROR), pytest.raises(SuperFencesException):
        _md(ctx).convert(source)
    messages = [r.getMessage() for r in caplog.records]
    assert any("rules.md:6: dice fence: internal error: ValueError" in m for m in messages)


# -- item 8: the API's dice= argument -----------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "words"),
    [
        ([(6, 3, 1)], "組ではありません: (6, 3, 1)"),
        (["6:3"], "組ではありません: '6:3'"),
        ([(6, 10**5000)], "5001桁の整数"),
        ([(10**5000, 1)], "面数は1〜10000"),
        ([(6, float("nan"))], "出目が整数ではありません: nan"),
        ([(6.0, 3)], "面数が整数ではありません: 6.0"),
        ([(6, True)], "出目が整数ではありません: True"),
        (5, "組の列が必要です: 5"),
        ("6:3", "組の列が必要です"),
        ([(6, 0)], "出目は1〜6"),
        ([None], "組ではありません: None"),
    ],
)
def test_dice_that_are_not_pairs_of_integers_are_saikoro_s_error(dice: object, words: str) -> None:
    with pytest.raises(GivenDiceError) as caught:
        saikoro.roll("1D6", dice=dice)  # type: ignore[arg-type]
    assert words in str(caught.value)
    assert isinstance(caught.value, SaikoroError) and len(str(caught.value)) < 120


def test_good_dice_still_roll() -> None:
    roll = saikoro.roll("2D6", dice=[(6, 3), [6, 4]])  # type: ignore[list-item]
    assert roll is not None and roll.text == "(2D6) ＞ 7[3,4] ＞ 7"


@pytest.mark.parametrize("command", [None, 12, b"2D6", ["2D6"]])
def test_a_command_that_is_not_text_is_saikoro_s_error(command: object) -> None:
    for call in (saikoro.roll, saikoro.odds):
        with pytest.raises(SaikoroError, match="文字列"):
            call(command)  # type: ignore[arg-type]


@pytest.mark.parametrize("given", ["6:" + "9" * 5000, "６:3", "6:²", "6:-1", "6:3:1"])
def test_cli_dice_refuses_what_is_not_a_short_pair(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["roll", "1D6", "--dice", given]) == 2
    err = capsys.readouterr().err
    assert "--dice: 面数:出目 の組を" in err and len(err) < 300


# -- item 1, one gate: reserved ids are refused by validate, as by the build ------------------


@pytest.mark.parametrize(
    ("name", "extra", "where"),
    [
        ("book.yaml", "", "1:1"),
        ("book-2.yaml", "", "1:1"),
        ("index.yaml", "", "1:1"),
        ("s.yaml", "id: book-7\n", "3:5"),
        ("s.yaml", "id: index\n", "3:5"),
        ("s.yaml", "id: book\n", "3:5"),
    ],
)
def test_validate_refuses_the_ids_of_generated_pages(
    tmp_path: Path, name: str, extra: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(f"system: getb\ntitle: x\n{extra}", "utf-8")
    assert cli_main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{name}:{where}: error: scenario.id: the scenario id" in out
    assert "hint:" in out


def test_the_site_and_validate_share_one_definition() -> None:
    from saikoro.scenario import is_reserved
    from saikoro.site._pages.book import volumes

    assert all(is_reserved(stem) for stem, _, _ in volumes(100 * 12 + 1))
    assert is_reserved("index") and not is_reserved("booklet")


def test_a_broken_index_yaml_does_not_take_the_index_page() -> None:
    from saikoro.site._structure import _page_name

    assert _page_name("index") not in {"index", "book"}
    assert _page_name("book-3").startswith("broken-")
    assert _page_name("Boss Fight") == "boss-fight"


# -- items 1 and 6: text XML cannot carry, and line breaks in one-line fields ----------------


def _problems(text: str) -> list[str]:
    from saikoro.scenario import validate_text

    return [p.format("en") for p in validate_text(text, "s.yaml").problems]


@pytest.mark.parametrize("char", ["\\uFFFE", "\\uFFFF"])
@pytest.mark.parametrize(
    ("template", "where"),
    [
        ('system: getb\ntitle: "a{c}"\n', "s.yaml:2:8: error: scenario.title:"),
        ('system: getb\ntitle: x\nsummary: "a{c}"\n', "s.yaml:3:10: error: scenario.summary:"),
        (
            'system: kegare\ntitle: x\nenemies:\n  - id: o\n    name: "鬼{c}"\n    hp: 9\n'
            "    attack: 1\n    defence: 1\n    initiative: 1\n",
            "s.yaml:5:11: error: scenario.enemies[0].name:",
        ),
    ],
)
def test_characters_xml_cannot_carry_are_refused_at_their_place(
    char: str, template: str, where: str
) -> None:
    found = _problems(template.format(c=char))
    assert len(found) == 1 and found[0].startswith(where), found
    assert "XML cannot carry it" in found[0]


@pytest.mark.parametrize(
    ("escape", "words"),
    [
        ("\\t", "a tab (U+0009"),
        ("\\u2028", "a line separator (U+2028"),
        ("\\u2029", "a paragraph separator (U+2029"),
        ("\\n", "a line break (U+000A"),
    ],
)
def test_a_one_line_field_refuses_tabs_and_line_breaks(escape: str, words: str) -> None:
    for text in (f'system: getb\ntitle: "a{escape}b"\n', f'system: getb\ntitle: ["a{escape}b"]\n'):
        found = _problems(text)
        if text.count("[") == 1:  # not a string at all: said so, not the character
            assert len(found) == 1 and "expected a string" in found[0]
            continue
        assert len(found) == 1 and words in found[0] and "one-line field" in found[0]
        assert "hint: write this field on one line" in found[0]
    # a multi-line field takes them
    assert _problems(f'system: getb\ntitle: x\nsummary: "a{escape}b"\n') == []


def test_a_literal_tab_in_a_title_is_refused() -> None:
    found = _problems("system: getb\ntitle: 'a\tb'\n")
    assert len(found) == 1 and "a tab (U+0009, at character 2)" in found[0]


def test_the_xml_export_refuses_text_it_cannot_carry() -> None:
    from saikoro.export import Character, ExportError, udonarium_xml

    for bad in ("\ufffe", "\x01", "\uffff"):
        with pytest.raises(ExportError, match="XML cannot carry"):
            udonarium_xml(Character(f"a{bad}"))
    udonarium_xml(Character("a\tb\u2028"))  # XML carries these


# -- item 3: settings that mean nothing are refused with the reason and the fix ---------------

KEGARE = """\
system: kegare
title: 港
enemies:
  - id: oni
    name: 鬼
    hp: 60
    attack: 2
    defence: 1
    initiative: 3
  - id: ao
    name: 青鬼
    hp: 60
    attack: 2
    defence: 1
    initiative: 3
"""
PC = "{name: A, hp: 30, attack: 2, defence: 1, initiative: 3}"
TABLE = "  - name: T\n    die: 1D6\n    entries: {1-6: {title: a, effect: b}}\n"


def _side(check: str, defeat: str = "") -> str:
    balance = f"balance:\n  defeat: {defeat}\n" if defeat else ""
    return (
        KEGARE
        + balance
        + f"missions:\n  main: {{success: 倒す}}\n  side:\n    - success: x\n      check: {check}\n"
    )


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        (
            KEGARE + "balance:\n  defeat: []\n",
            "s.yaml:17:11: error: scenario.balance.defeat:",
            "hint: remove 'defeat:' to mean every enemy",
        ),
        (
            KEGARE + "balance:\n  defeat: [oni, ao, oni]\n",
            "s.yaml:17:21: error: scenario.balance.defeat[2]:",
            "enemy 'oni' is listed twice (first on line 17) (hint: list it once)",
        ),
        (
            KEGARE + f"party:\n  - {PC}\n  - {PC}\n",
            "s.yaml:18:12: error: scenario.party[1].name:",
            "two PCs are named 'A' (the first on line 17)",
        ),
        (
            KEGARE + "chase_tables:\n" + TABLE + TABLE,
            "s.yaml:20:11: error: scenario.chase_tables[1].name:",
            "two tables are named 'T'",
        ),
        (
            _side("{win: false, all_defeated: true}"),
            "s.yaml:20:20: error: scenario.missions.side[0].check.win:",
            "win: false cannot hold with all_defeated: true",
        ),
        (
            _side("{win: false, defeated: [oni]}", "[oni]"),
            "s.yaml:22:20: error: scenario.missions.side[0].check.win:",
            "win: false cannot hold with defeated: oni",
        ),
        (
            _side("{win: true, spared: [oni]}", "[oni]"),
            "s.yaml:22:20: error: scenario.missions.side[0].check.win:",
            "win: true cannot hold with spared: oni",
        ),
        (
            _side("{win: true, all_defeated: false}"),
            "s.yaml:20:20: error: scenario.missions.side[0].check.win:",
            "win: true cannot hold with all_defeated: false",
        ),
        (
            KEGARE + "balance:\n  tactics: guard,no_guard\n",
            "s.yaml:17:12: error: scenario.balance.tactics:",
            "tactics 'guard' and 'no_guard' contradict each other (both choose guard); keep one",
        ),
    ],
)
def test_meaningless_settings_are_refused_with_the_fix(text: str, where: str, words: str) -> None:
    found = _problems(text)
    assert len(found) == 1, found
    assert found[0].startswith(where) and words in found[0], found[0]


@pytest.mark.parametrize(
    "check",
    [
        "{win: false, defeated: [ao]}",  # the boss escapes with its minion down
        "{win: true, all_defeated: false}",  # only the boss had to fall
        "{win: true, spared: [ao]}",
        "{win: false, all_defeated: false}",
    ],
)
def test_conditions_that_can_hold_together_pass(check: str) -> None:
    assert _problems(_side(check, "[oni]")) == []


def test_a_chase_lets_all_defeated_go_with_a_lost_main_mission() -> None:
    from saikoro.scenario import validate_text

    text = (Path(__file__).parents[1] / "scenarios" / "cutaction-sokou.yaml").read_text("utf-8")
    assert "kind: chase" in text and "  side:\n" in text
    side = (
        "  side:\n    - success: 全員倒したが逃げ切れない\n"
        "      check: {win: false, all_defeated: true}\n"
    )
    changed = text.replace("  side:\n", side, 1)
    assert changed != text
    result = validate_text(changed, "c.yaml")
    assert result.ok, [p.format() for p in result.problems]


def test_two_nations_in_a_kokuryoku_party_are_refused() -> None:
    sample = Path(saikoro.__file__).parent / "systems" / "_kokuryoku" / "sample.yaml"
    party = (
        "party:\n  - {name: 甲, kind: nation, power: 30}\n  - {name: 乙, kind: nation, power: 30}\n"
    )
    found = _problems(sample.read_text("utf-8") + party)
    assert len(found) == 1 and "error: scenario.party[1].kind:" in found[0], found
    assert "two nations, '甲' and '乙'" in found[0] and "kind: character" in found[0]


# -- item 6: tactics messages name the real mistake ------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("focus,focus", "tactic 'focus' is written twice; write it once"),
        ("random,random", "tactic 'random' is written twice"),
        ("focus,hunt", "'hunt' is a preset: only the first name may be one"),
        ("lowest_hp,random", "'lowest_hp' and 'random' contradict each other (both choose the"),
        ("keep_range,close_in", "contradict each other (both choose range)"),
        ("spend_cards,keep_cards", "contradict each other (both choose cards)"),
    ],
)
def test_tactics_messages_name_the_mistake(text: str, message: str) -> None:
    from saikoro.scenario import TacticsError, parse_policy

    with pytest.raises(TacticsError) as caught:
        parse_policy(text)
    assert message in str(caught.value)


def test_unknown_tactics_list_each_known_name_once() -> None:
    from saikoro.scenario import ATOMS, PRESETS, TacticsError, parse_policy

    with pytest.raises(TacticsError) as caught:
        parse_policy("focus,nonsense")
    text = str(caught.value)
    assert text.startswith("unknown tactic 'nonsense'; known: ")
    names = text.split("known: ", 1)[1].split(", ")
    assert len(names) == len(set(names)) and set(names) == set(PRESETS) | set(ATOMS)


@pytest.mark.parametrize("text", ["hunt,random", "reckless,guard", "focus,keep_range", "random"])
def test_a_preset_then_atoms_still_reads(text: str) -> None:
    from saikoro.scenario import parse_policy

    assert parse_policy(text).name == text


# -- item 2: every CLI option bounded, files read with size limits ---------------------------

SAMPLE = Path(__file__).parents[1] / "scenarios" / "getb-haito.yaml"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--battles", "1010101010101010101"], "--battles: 1 から 10000000 までの整数"),
        (
            ["--battles", "0"],
            "--battles: 1 から 10000000 までの整数を指定してください（指定された値: 0）",
        ),
        (
            ["--players", "100000"],
            "--players: 1 から 20 までの整数を指定してください（指定された値: 100000）",
        ),
        (["--jobs", "100000"], "--jobs: 1 から 256 までの整数"),
        (["--seed", "9" * 5000], "--seed: 0 から 18446744073709551615 までの整数"),
        (["--seed", "-1"], "--seed: 0 から"),
        (["--tactics", "focus," * 100], "--tactics: 200 文字までにしてください"),
    ],
)
def test_simulate_refuses_options_beyond_their_bounds(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["simulate", str(SAMPLE), *args]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err) < 2000


def test_the_bounds_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["simulate", "--help"]) == 0
    out = "".join(capsys.readouterr().out.split())  # lines wrap anywhere in Japanese
    for words in ("10,000,000", "0から2**64-1", "1から20", "最大256", "1,048,576バイト"):
        assert words in out


def test_the_players_bound_is_the_schema_s() -> None:
    from saikoro._simulate import MAX_PLAYERS
    from saikoro.scenario import json_schema

    schema = json.dumps(json_schema("getb"))
    assert f'"maxItems": {MAX_PLAYERS}' in schema  # party:
    assert f"(?:[1-9]|1[0-9]|{MAX_PLAYERS})" in schema or f'"maximum": {MAX_PLAYERS}' in schema


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/null", "fifo", "folder"])
def test_simulate_refuses_a_party_that_is_no_file(
    special: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    path = tmp_path / special
    if special == "fifo":
        os.mkfifo(path)
    elif special == "folder":
        path.mkdir()
    else:
        path = Path(special)
    assert cli_main(["simulate", str(SAMPLE), "--party", str(path), "--battles", "10"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:1:1: error: party: not a file of text but a" in err


def test_a_big_party_file_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "party.yaml"
    with path.open("wb") as f:
        f.truncate(5 * 1024 * 1024)  # sparse: 5 MiB of zeros
    assert cli_main(["simulate", str(SAMPLE), "--party", str(path), "--battles", "10"]) == 1
    assert "the file is too large (5242880 bytes; the limit is 1048576 bytes)" in (
        capsys.readouterr().err
    )


def test_validate_refuses_fifos_devices_and_broken_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nowhere")
    (tmp_path / "real.yaml").symlink_to(SAMPLE)
    assert cli_main(["validate", str(tmp_path)]) == 1  # and no hang on the FIFO
    out = capsys.readouterr().out
    assert "pipe.yaml:1:1: error: scenario: not a file of text but a FIFO" in out
    assert "zero.yaml:1:1: error: scenario: not a file of text but a character device" in out
    assert "gone.yaml:1:1: error: scenario: cannot read the file" in out
    assert "real.yaml" not in out and "4 file(s) checked: 3 error(s)" in out
    assert cli_main(["validate", str(tmp_path / "pipe.yaml")]) == 1


def test_read_bounded_reads_at_most_the_limit(tmp_path: Path) -> None:
    from saikoro.scenario._inputs import FileTooLargeError, read_bounded

    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert read_bounded(path, 10) == b"x" * 10
    with pytest.raises(FileTooLargeError):
        read_bounded(path, 9)


def test_roll_seed_of_thousands_of_digits_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_main(["roll", "1D6", "--seed", "9" * 5000]) == 2
    err = capsys.readouterr().err
    assert "30 桁までの整数" in err and len(err) < 2000
