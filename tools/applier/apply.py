"""Apply an edit plan: run each operation's handler, then write the text back.

Every operation either changes the document and says so in one plain line, or lands in
``not_applied`` with the reason. Only text that is not a YAML mapping raises.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import oic_ai.tools.applier.ops_disk as ops_disk
import oic_ai.tools.applier.ops_packages as ops_packages
import oic_ai.tools.applier.ops_system as ops_system
import oic_ai.tools.applier.ops_target as ops_target
import oic_ai.tools.applier.ops_values as ops_values
from oic_ai.tools.applier.comments import settle, tidy
from oic_ai.tools.applier.editor import AlreadySo, Editor, Skip
from oic_ai.tools.applier.sections import Parsed, parse, remember, render
from oic_ai.tools.applier.yaml_io import clone, loads, normalise, unified_diff
from oic_ai.tools.edit_plan import EditPlan, SetDiskSize
from oic_ai.tools.package_dependencies import PackageNeeds

# The handler of each operation, by its ``op`` name.
HANDLERS: dict[str, Callable[[Editor, Any], None]] = {
    "set_target": ops_target.set_target,
    "set_image": ops_target.set_image,
    "add_packages": ops_packages.add_packages,
    "remove_packages": ops_packages.remove_packages,
    "add_repository": ops_packages.add_repository,
    "set_disk_size": ops_disk.set_disk_size,
    "add_partition": ops_disk.add_partition,
    "resize_partition": ops_disk.resize_partition,
    "remove_partition": ops_disk.remove_partition,
    "set_artifacts": ops_disk.set_artifacts,
    "set_hostname": ops_system.set_hostname,
    "set_kernel": ops_system.set_kernel,
    "set_bootloader": ops_system.set_bootloader,
    "set_immutability": ops_system.set_immutability,
    "add_user": ops_system.add_user,
    "set_metadata": ops_values.set_metadata,
    "set": ops_values.set_value,
    "delete": ops_values.delete_value,
}


@dataclass(frozen=True)
class AppliedPlan:
    """The outcome of applying a plan.

    Attributes:
        text: the new YAML text.
        diff: unified diff from the old text to the new one; ``""`` when unchanged.
        applied: one plain-language line per operation that changed something.
        not_applied: the plan's own ``not_applied`` plus every operation that could not
            be applied, each with the reason.
        warnings: the plan's warnings plus the applier's (placeholders to fill in, keys
            to provide).
        already: one line per operation whose result the template already had (no change,
            no refusal).
    """

    text: str
    diff: str
    applied: list[str] = field(default_factory=list)
    not_applied: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether the text changed."""
        return bool(self.diff)


def apply_op(editor: Editor, op: Any) -> None:
    """Apply one operation to the editor's document; a refusal lands in ``not_applied``."""
    handler = HANDLERS[op.op]
    if op.op != "add_packages":
        editor.forget_names()
    try:
        handler(editor, op)
    except AlreadySo as already:
        editor.already.append(f"{op.label()}: {already}")
    except Skip as skip:
        editor.not_applied.append(f"not applied: {op.label()}: {skip}")
    finally:
        settle(editor.pending)


def apply_plan(
    text: str,
    plan: EditPlan,
    *,
    label: str = "template.yml",
    needs: PackageNeeds | None = None,
    sized: frozenset[str] = frozenset(),
) -> AppliedPlan:
    """Apply ``plan`` to the template ``text``.

    An empty plan returns ``text`` untouched without parsing it. Operations apply in
    order; one that cannot apply is reported in ``not_applied`` and the rest go on.

    Args:
        text: the template YAML.
        plan: the operations to apply.
        label: the file name the diff shows.
        needs: which packages need which (a synced index's dependencies); a removal also
            removes the packages that need what it removes. Default: the curated table.
        sized: what the user gave a size ("disk", partitions by mount point or id). With
            "disk" in it, or a plan that sets the disk size, a new partition that does not
            fit takes room from a fixed-size root before the disk grows; a root in it never
            gives room.

    Returns:
        The new text, its diff and what was and was not done.

    Raises:
        UserInputError: ``text`` is not YAML, or not a mapping.
    """
    not_applied = list(plan.not_applied)
    warnings = list(plan.warnings)
    if not plan.operations:
        return AppliedPlan(text, "", [], not_applied, warnings)
    body, restore = normalise(text)
    parsed = parse(body)
    if any(isinstance(op, SetDiskSize) for op in plan.operations):
        sized = sized | {"disk"}
    editor = Editor(clone(parsed.doc), parsed.style, needs, sized=sized)
    for op in plan.operations:
        apply_op(editor, op)
    merged = render(parsed, tidy(editor.doc))
    if merged != body and not loads(merged):
        editor, merged = _apply_one_by_one(parsed, plan.operations, needs, sized)
    if merged != body:
        # ruamel dumps the edited document as exactly the merged text when it dumped the
        # original exactly: the merge then had nothing of the original's to keep.
        remember(merged, (parsed.style, editor.doc, parsed.exact))
    new_text = restore(merged)
    return AppliedPlan(
        new_text,
        unified_diff(text, new_text, label),
        editor.applied,
        not_applied + editor.not_applied,
        warnings + editor.warnings,
        editor.already,
    )


def _apply_one_by_one(
    parsed: Parsed,
    operations: Sequence[Any],
    needs: PackageNeeds | None,
    sized: frozenset[str],
) -> tuple[Editor, str]:
    """Apply operations one at a time, dropping any whose result does not load back.

    The slow path, taken only when ruamel wrote something it cannot read (it has bugs
    around comments on emptied collections); each dropped operation is reported.
    """
    editor = Editor(clone(parsed.doc), parsed.style, needs, sized=sized)
    merged = parsed.text
    for op in operations:
        before = clone(editor.doc)
        counts = (len(editor.applied), len(editor.warnings), len(editor.not_applied))
        apply_op(editor, op)
        attempt = render(parsed, tidy(editor.doc))
        if loads(attempt):
            merged = attempt
            continue
        editor.doc = before
        del editor.applied[counts[0] :], editor.warnings[counts[1] :]
        del editor.not_applied[counts[2] :]
        editor.not_applied.append(
            f"not applied: {op.label()}: the YAML writer could not write the result"
        )
    return editor, merged
