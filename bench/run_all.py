"""Run every benchmark and print its figures (``make bench``)."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    print(
        f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
        f"python {platform.python_version()}, {__import__('os').cpu_count()} cores\n"
    )
    for script in ("validate.py", "retrieval.py", "packages.py"):
        print(f"## {script}")
        sys.stdout.flush()
        subprocess.run([sys.executable, str(HERE / script), *sys.argv[1:]], check=True)
        print()
