"""Package knowledge figures: import the machine's Debian 12 index (``apt-cache dumpavail``),
database size, lookup latency (exact, glob, provides), and ``packages check`` of a
300-package template in-process and as a fresh process. Prints a Markdown table.

Usage: python bench/packages.py [--rounds N]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, percentile

EXACT = ["openssh-server", "nginx-core", "cloud-init", "docker.io", "python3", "no-such-pkg"]
GLOBS = ["python3-yaml*", "libva-*[0-9]", "nginx-*", "linux-image-[0-9]*-amd64"]
PROVIDES = ["qemu-kvm", "httpd", "mail-transport-agent", "x-terminal-emulator"]


def timed(fn: object, args: list[str], rounds: int) -> list[float]:
    latencies = []
    for _ in range(rounds):
        for arg in args:
            t = time.perf_counter()
            fn(arg)  # type: ignore[operator]
            latencies.append((time.perf_counter() - t) * 1000)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    if shutil.which("apt-cache") is None:
        print("apt-cache not available: no Debian index to measure on this machine")
        return

    from oic_ai.stores.package_index import PackageIndex
    from oic_ai.stores.package_sources import import_local
    from oic_ai.tools.verify_packages import verify_template_packages

    work = Path(tempfile.mkdtemp(prefix="oic-bench-packages-"))
    try:
        dump = work / "bookworm.Packages"
        t = time.perf_counter()
        dump.write_bytes(subprocess.run(["apt-cache", "dumpavail"], capture_output=True).stdout)
        dump_s = time.perf_counter() - t
        data = work / "data"
        index = PackageIndex.for_data_dir(data)
        t = time.perf_counter()
        (result,) = import_local(index, dump, os="wind-river-elxr", dist="elxr12", arch="x86_64")
        import_s = time.perf_counter() - t
        index.close()
        db = data / "packages.sqlite"
        size = sum(p.stat().st_size for p in data.glob("packages.sqlite*"))

        index = PackageIndex.for_data_dir(data)
        view = index.view("elxr12", "x86_64")
        view.exact("warm-up")
        exact = timed(view.exact, EXACT, args.rounds)
        glob = timed(view.glob, GLOBS, args.rounds // 4)
        provides = timed(view.providers, PROVIDES, args.rounds)
        wide = timed(view.glob, ["python3-*"], args.rounds // 4)
        wide_count = len(view.glob("python3-*"))

        names = list(view.names())
        rng = random.Random(4)
        wanted = rng.sample(names, 290) + ["docker-ce", "kubernetes", "python", "node_exporter"]
        wanted += ["qemu-kvm", "httpd", "python3-*", "libva-*", "nginx-ful", "prometheus-node"]
        template = {
            "image": {"name": "bench", "version": "1"},
            "target": {"os": "wind-river-elxr", "dist": "elxr12", "arch": "x86_64"},
            "systemConfig": {"name": "bench", "packages": wanted},
        }
        t = time.perf_counter()
        verify_template_packages(template, index=index)
        first_ms = (time.perf_counter() - t) * 1000
        warm = []
        for _ in range(10):
            t = time.perf_counter()
            report = verify_template_packages(template, index=index)
            warm.append((time.perf_counter() - t) * 1000)
        no_suggest = []
        for _ in range(10):
            t = time.perf_counter()
            verify_template_packages(template, index=index, suggest=False)
            no_suggest.append((time.perf_counter() - t) * 1000)
        index.close()

        yml = work / "bench-300.yml"
        import yaml

        yml.write_text(yaml.safe_dump(template, sort_keys=False), encoding="utf-8")
        fresh = []
        for _ in range(5):
            t = time.perf_counter()
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "oic_ai",
                    "packages",
                    "check",
                    str(yml),
                    "--json",
                    "--data-dir",
                    str(data),
                ],
                capture_output=True,
                cwd=ROOT,
            )
            fresh.append(time.perf_counter() - t)
            assert proc.returncode == 1, proc.stderr  # some names are missing on purpose

        print("| figure | value |")
        print("|---|---|")
        print(
            f"| `apt-cache dumpavail` (bookworm) | {result.packages} packages, "
            f"{dump.stat().st_size / 1e6:.1f} MB, {dump_s:.2f} s |"
        )
        print(f"| import into SQLite (parse + one transaction) | {import_s:.2f} s |")
        print(f"| database size ({db.name} + WAL) | {size / 1024 / 1024:.1f} MiB |")
        for label, values in (("exact", exact), ("glob", glob), ("provides", provides)):
            print(
                f"| lookup {label}, p50 / p95 | {percentile(values, 50):.3f} / "
                f"{percentile(values, 95):.3f} ms |"
            )
        print(
            f"| glob matching {wide_count} names (`python3-*`), p50 / p95 | "
            f"{percentile(wide, 50):.2f} / {percentile(wide, 95):.2f} ms |"
        )
        print(f"| check 300-package template, first call (loads names) | {first_ms:.0f} ms |")
        print(
            f"| check 300-package template, warm, median ({len(report.missing)} missing, "
            f"suggestions on) | {statistics.median(warm):.0f} ms |"
        )
        print(
            f"| check 300-package template, warm, no suggestions, median | "
            f"{statistics.median(no_suggest):.1f} ms |"
        )
        print(
            f"| `oic-ai packages check` 300 packages, fresh process median | "
            f"{statistics.median(fresh):.2f} s |"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
