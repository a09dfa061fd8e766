"""Time ``saikoro validate`` on 1,000 generated scenarios (budget: 3 s on the reference machine).

Run: ``.venv/bin/python bench/bench_validate.py [COUNT]``. The scenarios are copies of the
sample book (``scenarios/*.yaml``) with distinct ids, written to a temporary directory;
the CLI runs in a fresh interpreter so start-up time is included.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def generate(folder: Path, count: int) -> None:
    """Write ``count`` valid scenarios into ``folder``."""
    samples = sorted((ROOT / "scenarios").glob("*.yaml"))
    texts = [p.read_text("utf-8") for p in samples]
    shutil.copytree(ROOT / "scenarios" / "images", folder / "images")  # the images they show
    for i in range(count):
        text = texts[i % len(texts)]
        text = re.sub(r"^id: .*$", "", text, flags=re.MULTILINE)
        (folder / f"scenario-{i:04d}.yaml").write_text(text, "utf-8")


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        generate(folder, count)
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "saikoro.scenario", "validate", "--quiet", str(folder)],
            capture_output=True,
            text=True,
            check=False,
        )
        elapsed = time.perf_counter() - start
    print(f"validated {count} scenarios in {elapsed:.2f} s (exit {proc.returncode})")
    if proc.returncode != 0:
        print(proc.stdout[-2000:], proc.stderr[-2000:])
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
