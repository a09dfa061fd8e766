"""Random and mutated YAML never crashes validation: only problems, exit 0 or 1."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from saikoro.scenario import validate_main, validate_text

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [p.read_text("utf-8") for p in sorted((ROOT / "scenarios").glob("*.yaml"))]
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

YAML_BITS = st.sampled_from(
    [
        ":",
        "- ",
        "[",
        "]",
        "{",
        "}",
        ",",
        "&a ",
        "*a",
        "<<: ",
        "!!python/object ",
        "!x ",
        "'",
        '"',
        "|",
        ">",
        "#",
        "\n",
        "  ",
        "\t",
        "---\n",
        "...\n",
        "? ",
        "~",
        "0x1F",
        "1e9",
        "system: getb\n",
        "title: x\n",
        "entries:\n",
        "1-3: ",
        "\ufeff",
        "\x00",
        "日本",
    ]
)


def check(text: str) -> None:
    result = validate_text(text, "f.yaml")
    for p in result.problems:
        assert p.file == "f.yaml" and p.line >= 1 and p.column >= 1
        assert p.format("en") and p.format("ja")
    assert (result.scenario is None) == bool(result.errors)


@FUZZ
@given(st.text(max_size=300))
def test_random_text(text: str) -> None:
    check(text)


@FUZZ
@given(st.lists(YAML_BITS, max_size=40).map("".join))
def test_random_yaml_fragments(text: str) -> None:
    check(text)


@FUZZ
@given(
    st.sampled_from(SAMPLES),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 20), YAML_BITS), max_size=6),
)
def test_mutated_samples(sample: str, edits: list[tuple[int, int, str]]) -> None:
    text = sample
    for where, cut, insert in edits:
        pos = where % (len(text) + 1)
        text = text[:pos] + insert + text[pos + cut :]
    check(text)


@settings(max_examples=25, deadline=None)
@given(st.binary(max_size=200))
def test_cli_on_random_bytes(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.yaml"
        path.write_bytes(data)
        out = io.StringIO()
        assert validate_main(["--strict", str(path)], out) in (0, 1)
        lines = out.getvalue().splitlines()
        assert lines[-1].endswith("warning(s)")
