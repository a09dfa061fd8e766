"""Every VTT export of every sample and template scenario's enemies, as one text (re-runnable).

``python tests/export_snapshot.py > out.txt`` at two commits and compare: the exports must
be byte-identical before and after a refactoring (issue 11). It uses only the public
API that has existed since before the typed model (``enemy_character``, ``ccfolia_json``,
``udonarium_xml``, the validated data: ``scenario.data`` before the typed model,
``to_data(scenario.model)`` after it), so it runs at the base commit too.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from saikoro.export import ccfolia_json, enemy_character, udonarium_xml
from saikoro.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = (
    "scenarios/*.yaml",
    "plugin/saikoro/systems/_*/sample.yaml",
    "tests/data/scenarios/*.yaml",
)


def snapshot() -> str:
    """One line per enemy: file, id, sha256 of its ココフォリア JSON and ユドナリウム XML."""
    out: list[str] = []
    for pattern in FOLDERS:
        for path in sorted(ROOT.glob(pattern)):
            sc = load_scenario(path).scenario
            if sc is None:
                continue
            # The typed model where there is one (issue 11), the validated dicts before it
            # (``Scenario.data``, gone since the site reads the model).
            model = getattr(sc, "model", None)
            if model is not None:
                from saikoro.scenario.model import to_data

                data = to_data(model)
            else:
                data = getattr(sc, "data")  # noqa: B009 - gone from the type since
            assert isinstance(data, dict)
            enemies = model.enemies if model is not None else data["enemies"]
            ids = [e["id"] for e in data["enemies"]]
            for enemy_id, enemy in zip(ids, enemies, strict=True):
                c = enemy_character(
                    sc.system, enemy, options=data["rulings"], url=f"https://x/{sc.id}"
                )
                body = json.dumps(ccfolia_json(c), ensure_ascii=False, sort_keys=True)
                xml = udonarium_xml(c)
                text = xml if isinstance(xml, str) else xml.decode("utf-8")
                digest = hashlib.sha256((body + "\n" + text).encode("utf-8")).hexdigest()
                out.append(f"{path.relative_to(ROOT).as_posix()} {enemy_id} {digest}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(snapshot())
