"""A model's plan checked against the builtin planner's reading of the same request.

An LLM planner returns operations; this holds them to the same two rules the builtin
planner follows (issue 21):

* **The package rule.** A package the model adds stays only when the synced index, the
  catalog, the library or the template itself knows it, or when the builtin reading of
  the request read it as a package (the request marked it: "install X", "the package X",
  `X`, "add X" for a lower-case word that is no ordinary word). A name the request used
  for an account or a host, or a capitalised product name, never stays. A dropped name is
  reported in ``not_applied``.
* **Clause accounting.** The request's clauses, as the builtin planner split and read them,
  become the plan's ``clauses``: context, base and references stay as read; a clause whose
  operation family the model's plan has is applied; a clause the builtin planner applied
  but the model left out is reported ("the model did not act on it"), so no clause is
  silently dropped. A clause neither read keeps the builtin reason.
"""

from __future__ import annotations

from oic_ai.tools.edit_plan import (
    AddPackages,
    AddUser,
    ClauseOutcome,
    EditPlan,
    Operation,
    SetHostname,
)
from oic_ai.tools.planner.builtin import plan_request
from oic_ai.tools.planner.state import Mode
from oic_ai.tools.retrieval.spelling import PackageNames

# the builtin planner's operation families, by the operations that carry them
_FAMILIES: dict[str, tuple[str, ...]] = {
    "packages": ("add_packages", "remove_packages"),
    "hostname": ("set_hostname",),
    "user": ("add_user", "set", "delete"),
    "kernel": ("set_kernel",),
    "disk size": ("set_disk_size",),
    "partition": ("add_partition", "resize_partition", "remove_partition", "set"),
    "repository": ("add_repository",),
    "target": ("set_target",),
    "artifacts": ("set_artifacts",),
    "bootloader": ("set_bootloader",),
    "immutability": ("set_immutability",),
    "image name": ("set_image",),
    "image version": ("set_image",),
}
LEFT_OUT = "the model's plan did not act on it; ask again, or use the builtin planner"


def check_model_plan(
    plan: EditPlan,
    request: str,
    template_text: str,
    *,
    mode: Mode,
    packages: PackageNames | None = None,
    known: frozenset[str] | None = None,
) -> EditPlan:
    """``plan`` with the package rule applied and the request's clauses accounted for.

    Args:
        plan: The model's plan.
        request: The request it answers.
        template_text: The template it applies to.
        mode: ``create`` or ``refine``, as for the builtin planner.
        packages: The synced package index, when there is one.
        known: The catalog's and library's package names (the bundled ones when None).
    """
    reading = plan_request(request, template_text, mode=mode, packages=packages, known=known)
    accepted = _read_as_packages(reading)
    roles = {op.name for op in reading.operations if isinstance(op, AddUser)}
    roles |= {op.hostname for op in reading.operations if isinstance(op, SetHostname)}
    from oic_ai.tools.planner.rules.capability_words import is_known_name

    operations: list[Operation] = []
    dropped: list[str] = []
    for op in plan.operations:
        if isinstance(op, AddPackages):
            keep = [
                name
                for name in op.packages
                if name not in roles
                and (name in accepted or is_known_name(name, template_text, packages, known))
            ]
            dropped += [name for name in op.packages if name not in keep]
            if keep:
                operations.append(op.model_copy(update={"packages": keep}))
            continue
        operations.append(op)
    not_applied = list(plan.not_applied)
    for name in dropped:
        not_applied.append(
            f"'{name}' — not added: no package index, the catalog or the library knows it, "
            "and the request does not ask for it as a package (say 'install the package "
            f"{name}' if it is one)"
        )
    clauses = _account(reading.clauses, operations, not_applied)
    return plan.model_copy(
        update={"operations": operations, "not_applied": not_applied, "clauses": clauses}
    )


def _read_as_packages(reading: EditPlan) -> set[str]:
    return {
        name for op in reading.operations if isinstance(op, AddPackages) for name in op.packages
    }


def _account(
    clauses: list[ClauseOutcome], operations: list[Operation], not_applied: list[str]
) -> list[ClauseOutcome]:
    done = {op.op for op in operations}
    result: list[ClauseOutcome] = []
    for clause in clauses:
        if clause.outcome in ("context", "base", "reference"):
            result.append(clause)
            continue
        families = clause.operations or []
        acted = [f for f in families if set(_FAMILIES.get(f, ())) & done]
        if acted:
            result.append(ClauseOutcome(text=clause.text, outcome="applied", operations=acted))
            continue
        if clause.outcome == "applied":
            entry = f"'{clause.text}' — {LEFT_OUT}"
            if entry not in not_applied:
                not_applied.append(entry)
            result.append(ClauseOutcome(text=clause.text, outcome="not_applied", reason=LEFT_OUT))
            continue
        reason = clause.reason or "not applied"
        mentioned = [e for e in not_applied if clause.text.lower() in e.lower()]
        if not mentioned and done - {"set_metadata"}:
            # the model may have read what the rules could not: say so, do not count it
            reason = f"{reason} (the builtin planner's reading; the model's plan may cover it)"
        result.append(ClauseOutcome(text=clause.text, outcome="not_applied", reason=reason))
    return result
