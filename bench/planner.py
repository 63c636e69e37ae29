"""Builtin planner figures: plan_request latency over ~50 requests x our templates.

"cold" clears the planner's caches (template facts, catalog look-ups, the operation
bank's clause vectors) before every call, which is what the first turn on a new template
costs; "warm" keeps them, as a conversation on one template does. Both run after one
warm-up call per process, so module import and regex compilation are not counted; the
one-off cost of that first call (loading the bundled MiniLM and the bank's vectors) is
printed on its own. The second table plans the 151 requests of the labelled development
conversations (tests/data/conversations/dev.yaml) on one template, each cold, and shows
how much of it the operation bank (MiniLM on the clauses no rule read) takes.
"""

from __future__ import annotations

import gc
import statistics
import time
from typing import Any

from _common import ROOT, share_percentile

REQUESTS = [
    "add docker and monitoring packages",
    "change disk size to 8GiB",
    "Change the disk size to 8GiB and add a separate /data partition",
    "add htop and tmux",
    "install nginx",
    "with docker and node monitoring",
    "without vim",
    "remove the GUI",
    "drop fail2ban",
    "make the disk 16GiB",
    "16 GB disk",
    "a separate /data partition of 2GiB, ext4",
    "grow /var/log to 2GiB",
    "remove the /data partition",
    "qcow2",
    "vhdx",
    "zstd",
    "as a compressed raw and a qcow2",
    "hostname edge-01",
    "call the host gw1",
    "kernel 6.12",
    "add isolcpus=2-3 to the kernel cmdline",
    "quiet boot",
    "use grub",
    "systemd-boot",
    "legacy bios",
    "make it immutable",
    "with secure boot",
    "read-only root",
    "add a user ops with sudo in the docker group",
    "add user bob with password hunter2 in the video group",
    "call the image factory-gw",
    "version 1.2.0",
    "make it faster",
    "a minimal Ubuntu edge image for arm64 with docker",
    "cloud elxr raw image",
    "image with nginx and docker-ce",
    "edge IoT minimal raw",
    "minimal without docker",
    "for arm64",
    "ubuntu 24.04",
    "debian 13",
    "azure linux 3",
    "rhel 10",
    "as an installer iso",
    "network boot image",
    "industrial IoT gateway with watchdog and mqtt",
    "grow the disk by 4GiB and add a 1GiB xfs /var/lib/app partition",
    "add docker, make the disk 16GiB, hostname edge-01 and kernel 6.12",
    "without vim and with tmux, htop and a web server",
]


def _clear(template_from_text: Any, packages: Any) -> None:
    from oic_ai.tools.planner import bank

    template_from_text.cache_clear()
    packages.find_capabilities_cached.cache_clear()
    packages.for_use_case.cache_clear()
    loaded = bank.load_bank()
    if loaded is not None:
        loaded._embed._seen.clear()  # every clause is embedded again


def _dev_requests() -> list[str]:
    import yaml

    data = yaml.safe_load((ROOT / "tests/data/conversations/dev.yaml").read_text())
    return [str(t["say"]) for c in data["conversations"] for t in c["turns"]]


def _measure_dev(text: str) -> None:
    from oic_ai.stores.template_model import template_from_text
    from oic_ai.tools.planner import bank, plan_request
    from oic_ai.tools.planner.rules import capability_words as packages

    loaded = bank.load_bank()
    spent: list[float] = []
    if loaded is not None:
        real = loaded.match

        def timed(texts: Any) -> Any:
            start = time.perf_counter()
            try:
                return real(texts)
            finally:
                spent.append((time.perf_counter() - start) * 1000)

        loaded.match = timed  # type: ignore[method-assign]
    timings: list[float] = []
    for request in _dev_requests():
        _clear(template_from_text, packages)
        start = time.perf_counter()
        plan_request(request, text, mode="refine")
        timings.append((time.perf_counter() - start) * 1000)
    total = sum(timings)
    print(
        f"| dev requests, cold | {len(timings)} | {share_percentile(timings, 0.5):.1f} "
        f"| {share_percentile(timings, 0.95):.1f} | {max(timings):.1f} "
        f"| {sum(spent) / total:.0%} of the time in the bank ({len(spent)} matches) |"
    )


def _measure(texts: list[str], *, cold: bool) -> tuple[list[float], list[float]]:
    from oic_ai.stores.template_model import template_from_text
    from oic_ai.tools.planner import plan_request
    from oic_ai.tools.planner.rules import capability_words as packages

    timings: list[float] = []
    cpu: list[float] = []
    for text in texts:
        for mode in ("refine", "create"):
            for request in REQUESTS:
                if cold:
                    _clear(template_from_text, packages)
                start, start_cpu = time.perf_counter(), time.process_time()
                plan_request(request, text, mode=mode)
                timings.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
    return timings, cpu


if __name__ == "__main__":
    from oic_ai.tools.planner import plan_request

    texts = [p.read_text() for p in sorted((ROOT / "image-templates").glob("*.yml"))]
    started = time.perf_counter()
    plan_request("add htop, thanks!", texts[0], mode="refine")  # loads MiniLM and the bank
    first = (time.perf_counter() - started) * 1000
    for request in REQUESTS:  # warm-up: imports, regex compilation, catalog load
        plan_request(request, texts[0], mode="create")
    gc.collect()
    print(f"first call in the process (MiniLM and the bank's vectors load): {first:.0f} ms\n")
    print(f"{len(REQUESTS)} requests x {len(texts)} templates x 2 modes\n")
    # CPU time is what the planner itself costs; wall time adds whatever else the machine
    # is doing (on a shared two-core box, that is most of the p95 tail).
    print("| caches | plans | p50 ms | p95 ms | max ms | mean ms | CPU p50 ms | CPU p95 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for cold in (True, False):
        timings, cpu = _measure(texts, cold=cold)
        print(
            f"| {'cold' if cold else 'warm'} | {len(timings)} "
            f"| {share_percentile(timings, 0.5):.2f} | {share_percentile(timings, 0.95):.2f} "
            f"| {max(timings):.2f} | {statistics.fmean(timings):.2f} "
            f"| {share_percentile(cpu, 0.5):.2f} | {share_percentile(cpu, 0.95):.2f} |"
        )
    print("\n| set | plans | p50 ms | p95 ms | max ms | bank share |")
    print("|---|---|---|---|---|---|")
    _measure_dev(texts[0])
