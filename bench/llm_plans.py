"""LLM plan parsing figures: 34 labelled requests, each answered like a typical 8B model.

Every request has a scripted reply in a shape that llama3.1:8b / qwen2.5:7b class models
really produce (clean JSON, fences, prose, ``<think>`` blocks, invented op names, extra
keys, type slips, a cut-off reply, a refusal, the template echoed back) and a label: the
operations a correct plan contains. Each turn runs through the real planner path
(:func:`oic_ai.tools.llm_planner.plan_turn`: parse, one retry with the error) and the real
applier. Reported: the share of turns where the model's plan is used (goal >= 90%),
operations kept and dropped, turns that needed the retry, and label matches.

Run: ``python bench/llm_plans.py [--json]``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BASE = "ubuntu24-x86_64-minimal-raw.yml"


@dataclass(frozen=True)
class Item:
    """One labelled request: the replies the model gives (first, retry) and the expected ops."""

    request: str
    replies: tuple[str, ...]
    expect: tuple[str, ...]
    length: bool = False  # the first reply was cut off at max_tokens


def _plan(*ops: dict[str, Any], summary: str = "done", **extra: Any) -> str:
    return json.dumps({"summary": summary, "operations": list(ops), **extra})


def _fence(text: str) -> str:
    return f"Here is the edit plan:\n```json\n{text}\n```\nLet me know if you need changes."


def _think(text: str) -> str:
    return f"<think>The user wants a change. The template has {{packages}}.</think>\n{text}"


ADD = {"op": "add_packages", "packages": ["htop"]}
ITEMS: tuple[Item, ...] = (
    Item("add htop", (_plan(ADD),), ("add_packages",)),
    Item("add htop and tmux", (_plan({"op": "install", "packages": ["htop", "tmux"]}),),
         ("add_packages",)),
    Item("install nginx", (_fence(_plan({"op": "add_package", "packages": ["nginx"]})),),
         ("add_packages",)),
    Item("without vim", (_plan({"op": "remove_packages", "packages": "vim"}),),
         ("remove_packages",)),
    Item("drop fail2ban", (_plan({"op": "remove_packages", "packages": ["fail2ban"],
                                  "reason": "not needed"}),), ("remove_packages",)),
    Item("make the disk 16GiB", (_plan({"op": "set_disk_size", "size": "16GiB"}),),
         ("set_disk_size",)),
    Item("16 GB disk", (_plan({"op": "set_disk_size", "size": 16}),), ("set_disk_size",)),
    Item("change disk size to 8GiB", (_think(_plan({"op": "resize_disk", "size": "8GiB"})),),
         ("set_disk_size",)),
    Item("a separate /data partition of 2GiB, ext4",
         (_plan({"op": "add_partition", "id": "data", "mount_point": "/data", "size": "2GiB",
                 "fs_type": "ext4"}),), ("add_partition",)),
    Item("grow the rootfs to 6GiB",
         (_plan({"op": "resize_partition", "partition": "rootfs", "size": "6GiB"}),),
         ("resize_partition",)),
    Item("qcow2", (_plan({"op": "set_artifacts", "artifacts": [{"type": "qcow2"}]}),),
         ("set_artifacts",)),
    Item("as a compressed raw and a qcow2",
         (_plan({"op": "set_artifacts", "artifacts": [
             {"type": "raw", "compression": "gz"}, {"type": "qcow2", "compression": None}]}),),
         ("set_artifacts",)),
    Item("hostname edge-01", (_plan({"op": "set_hostname", "hostname": "edge-01"}),),
         ("set_hostname",)),
    Item("kernel 6.12", (_plan({"op": "set_kernel", "version": 6.12}),), ("set_kernel",)),
    Item("add isolcpus=2-3 to the kernel cmdline",
         (_plan({"op": "set_kernel", "append_cmdline": "isolcpus=2-3"}),), ("set_kernel",)),
    Item("use grub", (_plan({"op": "set_bootloader", "provider": "grub"}),),
         ("set_bootloader",)),
    Item("make it immutable with secure boot",
         (_plan({"op": "set_immutability", "enabled": "true", "secure_boot": True}),),
         ("set_immutability",)),
    Item("add a user ops with sudo in the docker group",
         (_plan({"op": "add_user", "name": "ops", "groups": ["docker"], "sudo": True,
                 "password": None}),), ("add_user",)),
    Item("call the image factory-gw",
         (_plan({"op": "set_image", "name": "factory-gw", "version": None}),), ("set_image",)),
    Item("for arm64", (_plan({"op": "set_target", "arch": "aarch64"}),), ("set_target",)),
    Item("describe it as an edge gateway",
         (_plan({"op": "set_metadata", "description": "edge gateway",
                 "keywords": "edge, gateway"}),), ("set_metadata",)),
    Item("set the root filesystem to xfs",
         (_plan({"op": "set", "path": "disk.partitions[id=rootfs].fsType", "value": "xfs"}),),
         ("set",)),
    Item("remove the kernel cmdline",
         (_plan({"op": "delete", "path": "systemConfig.kernel.cmdline"}),), ("delete",)),
    Item("add docker and monitoring packages",
         (_fence(_plan({"op": "add_packages",
                        "packages": ["docker.io", "prometheus-node-exporter"]},
                       explanation="docker and node exporter")),), ("add_packages",)),
    Item("add curl, 8GiB disk and hostname gw1",
         (_plan({"op": "add_packages", "packages": ["curl"]},
                {"op": "set_disk_size", "size": "8GiB"},
                {"op": "set_hostname", "hostname": "gw1"}),),
         ("add_packages", "set_disk_size", "set_hostname")),
    Item("add htop and make it boot faster",
         (_plan(ADD, {"op": "optimize_boot", "target": "fast"}),), ("add_packages",)),
    Item("add a repository for docker",
         (_plan({"op": "add_repository", "url": "https://download.docker.com/linux/ubuntu",
                 "codename": "noble", "component": "stable", "pkey": None}),),
         ("add_repository",)),
    Item("add htop", ("Sure! I'll add htop to the package list.", _plan(ADD)), ("add_packages",)),
    Item("add htop, vim, curl, jq, tmux and git",
         ('{"summary": "add tools", "operations": [{"op": "add_packages", "packages": ["htop", '
          '"vim"]}, {"op": "add_pack',
          _plan({"op": "add_packages", "packages": ["htop", "vim", "curl", "jq", "tmux", "git"]})),
         ("add_packages",), length=True),
    Item("remove nano", ("```json\n" + _plan({"op": "remove_packages", "packages": ["nano"]})
                          + "\n```",), ("remove_packages",)),
    Item("legacy bios", (_plan({"op": "set_bootloader", "boot_type": "legacy",
                                "provider": None}),), ("set_bootloader",)),
    Item("2GiB /var/log partition",
         ('[{"op": "add_partition", "id": "log", "mount_point": "/var/log", "size": "2GiB"}]',),
         ("add_partition",)),
    Item("make it faster", (_plan(summary="cannot", not_applied=["faster: no operation"]),), ()),
    Item("write me a poem about kernels",
         ("I'm sorry, but I can't help with that.", "I'm sorry, but I can't help with that."),
         ()),
    Item("add htop", ("```yaml\n{TEMPLATE}\n```", "```yaml\n{TEMPLATE}\n```"),
         ("add_packages",)),
)  # fmt: skip


@dataclass
class Turn:
    """The outcome of one labelled request."""

    request: str
    used: bool
    kept: int
    dropped: int
    requests: int
    label_ok: bool
    applied: int
    cause: str


def _scripted(replies: Sequence[str], template: str, length: bool) -> Any:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    def script() -> Iterator[AIMessage]:
        for number, text in enumerate(replies):
            finish = "length" if length and number == 0 else "stop"
            content = text.replace("{TEMPLATE}", template)
            yield AIMessage(content=content, response_metadata={"finish_reason": finish})

    return GenericFakeChatModel(messages=script())


def run(items: Sequence[Item] = ITEMS) -> dict[str, Any]:
    """Run every labelled request; return the figures and the per-turn outcomes."""
    from oic_ai.stores.template_library import bundled_templates_dir
    from oic_ai.tools.applier import apply_plan
    from oic_ai.tools.llm_planner import PlanError, plan_turn

    template = (Path(bundled_templates_dir()) / BASE).read_text("utf-8")
    turns: list[Turn] = []
    for item in items:
        model = _scripted(item.replies, template, item.length)
        try:
            outcome = plan_turn(model, item.request, template, method="json_schema")
        except PlanError as exc:
            turns.append(Turn(item.request, False, 0, 0, len(item.replies), not item.expect, 0,
                              str(exc)))  # fmt: skip
            continue
        ops = [op.op for op in outcome.plan.operations]
        applied = apply_plan(template, outcome.plan, label="template.yml")
        turns.append(
            Turn(
                item.request,
                True,
                outcome.parsed.kept,
                len(outcome.parsed.dropped),
                outcome.requests,
                set(item.expect) <= set(ops) and (bool(ops) or not item.expect),
                len(applied.applied),
                "; ".join([*outcome.notes, *outcome.parsed.notes]),
            )
        )
    used = sum(t.used for t in turns)
    return {
        "n": len(turns),
        "used": used,
        "used_share": round(used / len(turns), 3),
        "ops_kept": sum(t.kept for t in turns),
        "ops_dropped": sum(t.dropped for t in turns),
        "retried": sum(t.requests > 1 for t in turns),
        "label_matches": sum(t.label_ok for t in turns),
        "turns": [t.__dict__ for t in turns],
    }


def main(argv: Sequence[str] = ()) -> int:
    """Print the figures (``--json`` for the full record); exit 1 below the 90% goal."""
    figures = run()
    if "--json" in argv:
        print(json.dumps(figures, indent=1))
    else:
        for turn in figures["turns"]:
            mark = "used" if turn["used"] else "fallback"
            print(
                f"{mark:8} kept {turn['kept']} dropped {turn['dropped']} requests "
                f"{turn['requests']}  {turn['request'][:48]:48} {turn['cause'][:60]}"
            )
        print(
            f"\nplans used: {figures['used']}/{figures['n']} ({figures['used_share']:.0%}, "
            f"goal >= 90%); operations kept {figures['ops_kept']}, dropped "
            f"{figures['ops_dropped']}; retried {figures['retried']}; labels matched "
            f"{figures['label_matches']}/{figures['n']}"
        )
    return 0 if figures["used_share"] >= 0.9 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
