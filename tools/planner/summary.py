"""The plan's one-paragraph summary, one clause per operation.

:func:`describe_operation` is the one place that words an operation for the summary.
"""

from __future__ import annotations

from collections.abc import Sequence

from oic_ai.tools import edit_plan
from oic_ai.tools.planner.rules.artifacts import artifact_words
from oic_ai.tools.planner.state import PlanState


def join_words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def with_article(word: str) -> str:
    """``a raw disk image``, ``an ISO installer``."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def describe_operation(op: edit_plan.Operation) -> str:
    """One short clause per operation, for the summary."""
    match op:
        case edit_plan.SetTarget():
            fields = {"os": op.os, "dist": op.dist, "arch": op.arch, "image type": op.image_type}
            return "retarget to " + ", ".join(f"{k} {v}" for k, v in fields.items() if v)
        case edit_plan.SetImage():
            parts = [f"name it {op.name}" if op.name else ""]
            parts.append(f"set version {op.version}" if op.version else "")
            return " and ".join(p for p in parts if p)
        case edit_plan.SetDiskSize():
            return f"set the disk to {op.size}"
        case edit_plan.AddPartition():
            size = op.size or "rest of disk"
            return f"add {with_article(op.fs_type)} {op.mount_point} partition ({size})"
        case edit_plan.ResizePartition():
            return f"resize partition {op.partition} to {op.size}"
        case edit_plan.RemovePartition():
            return f"remove partition {op.partition}"
        case edit_plan.SetArtifacts():
            return "write " + artifact_words(op.artifacts)
        case edit_plan.SetBootloader():
            parts = [f"boot with {op.provider}" if op.provider else ""]
            parts.append(f"{op.boot_type} boot" if op.boot_type else "")
            return ", ".join(p for p in parts if p)
        case edit_plan.SetImmutability():
            words = ["immutability " + ("on" if op.enabled else "off")]
            if op.secure_boot is not None:
                words.append("secure boot " + ("on" if op.secure_boot else "off"))
            return "turn " + ", ".join(words)
        case edit_plan.SetKernel():
            parts = [f"use kernel {op.version}" if op.version else ""]
            if op.cmdline is not None:
                parts.append(f"set the kernel cmdline to '{op.cmdline}'")
            if op.append_cmdline:
                parts.append("append " + " ".join(op.append_cmdline) + " to the kernel cmdline")
            return ", ".join(p for p in parts if p)
        case edit_plan.SetHostname():
            return f"set the hostname to {op.hostname}"
        case edit_plan.AddUser():
            extra = [
                f"groups {', '.join(op.groups)}" if op.groups else "",
                "sudo" if op.sudo else "",
            ]
            detail = ", ".join(e for e in extra if e)
            return f"add user {op.name}" + (f" ({detail})" if detail else "")
        case edit_plan.SetValue():
            return f"set {op.path} to {op.value}"
        case edit_plan.AddRepository():
            return f"add repository {op.url}"
        case edit_plan.RemovePackages():
            return "remove " + ", ".join(op.packages)
        case edit_plan.AddPackages():
            return ("add kernel packages " if op.kernel else "add ") + ", ".join(op.packages)
        case _:
            return op.op


def summarize(
    state: PlanState, ops: Sequence[edit_plan.Operation], suggestions: Sequence[str]
) -> str:
    """The summary: what the operations do, then what was present, absent or noted."""
    described = join_words(
        [describe_operation(op) for op in ops if not isinstance(op, edit_plan.SetMetadata)]
    )
    summary = f"{described[:1].upper()}{described[1:]}." if described else "No changes."
    present = list(dict.fromkeys(state.present))
    if present:
        summary += f" Already present: {', '.join(present)}."
    absent = list(dict.fromkeys(state.absent))
    if absent:
        summary += f" Not in the template, nothing to remove: {', '.join(absent)}."
    notes = list(dict.fromkeys(state.notes))
    if notes:
        summary += " " + "; ".join(n[:1].upper() + n[1:] for n in notes) + "."
    if suggestions:
        summary += f" Worth considering for this use case (not added): {', '.join(suggestions)}."
    return summary
