"""A plugin's system rolls in the browser: the toy (``examples/saikoro-toy``), installed as
a plugin author's users install it, in a book ``saikoro new --system toy`` makes, built
with ``mkdocs build`` and opened in headless Chromium. Its roll buttons answer with the
toy's own command (the engine archive holds its package and the generated registry), the
same text the CLI gives for the same dice.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the toy's installer

from harness import serve
from widgets import roll

from toy_package import install_toy, toy_env

pytestmark = pytest.mark.browser

TOY7 = ".saikoro-roller[data-command='TOY7'][data-system='toy']"
LINE_TOY7 = re.compile(r"^\(2D6>=7\) ＞ (\d+)\[(\d),(\d)\] ＞ (\d+) ＞ (成功|失敗)$")


@pytest.fixture(scope="module")
def toy_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The toy's sample book, built with the toy installed (not with saikoro's tests' path)
    and served under a sub-path."""
    toy = install_toy(tmp_path_factory.mktemp("toy-source"), tmp_path_factory.mktemp("toy"))
    work = tmp_path_factory.mktemp("toy-book")
    environ = toy_env(toy)
    book = work / "book"
    subprocess.run(
        [sys.executable, "-m", "saikoro", "new", str(book), "--system", "toy"],
        check=True,
        env=environ,
        cwd=work,
        capture_output=True,
        timeout=300,
    )
    with serve(book / "site") as url:
        environ["SITE_URL"] = url  # the book's mkdocs.yml reads it
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
            check=True,
            env=environ,
            cwd=book,
            capture_output=True,
            timeout=600,
        )
        yield url


def test_the_toys_buttons_roll_its_own_commands(browser: Any, toy_url: str) -> None:
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(toy_url + "scenarios/toy-sample/")
        seen = set()
        for _ in range(30):  # both outcomes (all alike: under 1e-7)
            text, classes = roll(page, TOY7)
            match = LINE_TOY7.match(text)
            assert match, text  # not 「システム「toy」はありません」
            total, a, b, again, word = match.groups()
            assert int(a) + int(b) == int(total) == int(again)
            assert word == ("成功" if int(total) >= 7 else "失敗")
            assert ("saikoro-success" in classes) == (word == "成功")
            seen.add(word)
        assert seen == {"成功", "失敗"}
        assert errors == []
    finally:
        context.close()
