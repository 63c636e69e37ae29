"""Run every benchmark and print its figures (``make bench``).

``--quick`` skips the synthetic 1,000 and 10,000 template libraries (about 25 minutes).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

SCRIPTS: list[tuple[str, list[str]]] = [
    ("validate.py", []),
    ("retrieval.py", []),
    ("quality.py", []),
    ("packages.py", []),
    ("package_trust.py", ["--rounds", "3"]),
    ("planner.py", []),
    ("applier.py", []),
    ("llm_plans.py", []),
    ("generate.py", []),
    ("first_turn.py", []),
    ("sessions.py", []),
    ("startup.py", []),
    ("serve.py", []),
    ("web_ui.py", []),
    ("verify.py", []),
    ("build_disk.py", []),
]

if __name__ == "__main__":
    quick = "--quick" in sys.argv[1:]
    print(
        f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
        f"python {platform.python_version()}, {os.cpu_count()} cores\n"
    )
    for script, extra in SCRIPTS:
        if not (HERE / script).exists():
            continue
        if quick and script == "retrieval.py":
            extra = [*extra, "--skip-synthetic"]
        print(f"## {script}")
        sys.stdout.flush()
        subprocess.run([sys.executable, str(HERE / script), *extra], check=True)
        print()
