"""Plan applier figures: apply_plan latency over our template library, and plan_fixes.

Scenarios, each run over all 41 templates:

* first apply: the template text was never seen (parse + a dump of the unedited
  document for the merge base, then the edit).
* base template: the text was applied to before, so its parse is cached (the common
  case: planners start from a library template).
* follow-up turn: applying to the previous turn's output (seeded by that apply).
* huge plans (``--huge``): 1,000 to 40,000 operations of one kind in one plan, to show
  that applying grows linearly (a model's plan is capped at 100 operations per turn,
  ``ai.generation.max_operations``; the Python API takes any plan).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from _common import ROOT, share_percentile

if __name__ == "__main__":
    from oic_ai.tools.applier import apply_plan, sections
    from oic_ai.tools.edit_plan import AddPackages, EditPlan, SetDiskSize, SetHostname, SetKernel
    from oic_ai.tools.fix_errors import plan_fixes
    from oic_ai.tools.validate_template import validate_text

    texts = [p.read_text() for p in sorted((ROOT / "image-templates").glob("*.yml"))]
    plan = EditPlan(
        summary="typical generate turn",
        operations=[
            AddPackages(packages=["docker.io", "containerd"]),
            SetHostname(hostname="edge-01"),
            SetDiskSize(size="16GiB"),
            SetKernel(append_cmdline=["quiet"]),
        ],
    )
    follow = EditPlan(summary="second turn", operations=[AddPackages(packages=["htop"])])
    apply_plan(texts[0], plan)  # imports and first-use costs

    rounds = 5
    rows: dict[str, tuple[list[float], list[float]]] = {
        "cold": ([], []),
        "warm": ([], []),
        "second": ([], []),
        "fixes": ([], []),
    }

    def timed(row: str, call: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        out = call()
        rows[row][0].append((time.perf_counter() - wall) * 1000)
        rows[row][1].append((time.process_time() - cpu) * 1000)
        return out

    for _ in range(rounds):
        for text in texts:
            sections._cache.clear()
            timed("cold", lambda t=text: apply_plan(t, plan))
            result = timed("warm", lambda t=text: apply_plan(t, plan))
            timed("second", lambda r=result: apply_plan(r.text, follow))

    broken = []
    for text in texts:
        bad = text.replace("  packages:\n", "  packages:\n    - nginx=1.24\n", 1)
        broken.append((bad, validate_text(bad).errors))
    for _ in range(rounds):
        for bad, errors in broken:
            timed("fixes", lambda b=bad, e=errors: plan_fixes(b, e))

    print("| figure | wall p50 | wall p95 | CPU p50 | CPU p95 |\n|---|---|---|---|---|")
    for row, label in (
        ("cold", "apply_plan, first apply to a text (4 ops)"),
        ("warm", "apply_plan, base template seen before (4 ops)"),
        ("second", "apply_plan, follow-up turn on the previous output (1 op)"),
        ("fixes", "plan_fixes, one versioned package"),
    ):
        wall, cpu = rows[row]
        print(
            f"| {label} | {share_percentile(wall, 0.5):.2f} ms "
            f"| {share_percentile(wall, 0.95):.2f} ms "
            f"| {share_percentile(cpu, 0.5):.2f} ms | {share_percentile(cpu, 0.95):.2f} ms |"
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\n{len(texts)} templates x {rounds} rounds per row; {os.cpu_count()} cores, "
        f"load average {load:.1f} while measuring"
    )
    if "--huge" in sys.argv:
        from oic_ai.tools.edit_plan import SetValue

        base = (ROOT / "image-templates" / "ubuntu24-x86_64-minimal-raw.yml").read_text()
        kinds: dict[str, Any] = {
            "add_packages, one new package each": lambda i: AddPackages(packages=[f"pkg{i}"]),
            "set, one new key each": lambda i: SetValue(path=f"image.label{i}", value=i),
            "set_hostname": lambda i: SetHostname(hostname=f"edge-{i}"),
        }
        sizes = (1_000, 10_000, 40_000)
        print("\n| huge plan | " + " | ".join(f"{n:,} ops" for n in sizes) + " |")
        print("|---" * (len(sizes) + 1) + "|")
        for label, make in kinds.items():
            cells = []
            for n in sizes:
                huge = EditPlan(summary="huge", operations=[make(i) for i in range(n)])
                started = time.perf_counter()
                apply_plan(base, huge)
                cells.append(f"{time.perf_counter() - started:.2f} s")
            print(f"| {label} | " + " | ".join(cells) + " |")
