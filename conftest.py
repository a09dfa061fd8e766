"""The whole suite's environment.

saikoro speaks Japanese unless the locale asks for English
(:func:`saikoro.scenario.default_lang`); most tests assert the English messages (they read
as the code's own words), so the suite runs with an English locale, and the commands it
starts inherit it. Tests of the Japanese default set the locale themselves.
"""

from __future__ import annotations

import os

for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "en_US.UTF-8"
