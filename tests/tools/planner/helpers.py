"""What the planner tests read from a plan: one copy for every planner test module."""

from __future__ import annotations

from typing import Any

import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import AddRepository, EditPlan, SetValue
from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.state import Mode
from tests.conftest import OUR_TEMPLATES


def template_text(name: str) -> str:
    """The text of the library template named ``name``."""
    return (OUR_TEMPLATES / name).read_text(encoding="utf-8")


def plan_on(template: str, request: str, earlier: str = "", mode: Mode = "refine") -> EditPlan:
    """Plan ``request`` against the library template named ``template`` in ``mode``.

    ``earlier`` is what the conversation said before the request, as the planner gets it.
    """
    return plan_request(request, template_text(template), mode=mode, earlier=earlier)


def plan_after(template: str, first: str, request: str, earlier: str = "") -> EditPlan:
    """Plan ``request`` on the library template ``template`` after ``first`` was applied.

    ``earlier`` is what the conversation said before ``request`` (see :func:`plan_on`).
    """
    base = template_text(template)
    text = apply_plan(base, plan_request(first, base, mode="refine")).text
    return plan_request(request, text, mode="refine", earlier=earlier)


UBUNTU_MINIMAL = (
    "ubuntu24-x86_64-minimal-raw.yml"  # cmdline console=tty0 console=ttyS0,115200 loglevel=4
)


def with_cmdline(template: str = UBUNTU_MINIMAL, extra: str = "") -> str:
    """The library template ``template`` with ``extra`` options at the end of its kernel line."""
    text = (OUR_TEMPLATES / template).read_text(encoding="utf-8")
    if not extra:
        return text
    data = yaml.safe_load(text)
    data["systemConfig"]["kernel"]["cmdline"] += " " + extra
    return yaml.safe_dump(data, sort_keys=False)


def with_packages(*names: str) -> str:
    """The Ubuntu minimal template with ``names`` installed too (after systemd-timesyncd)."""
    text = template_text(UBUNTU_MINIMAL)
    extra = "".join(f"    - {n}\n" for n in names)
    return text.replace("    - systemd-timesyncd\n", "    - systemd-timesyncd\n" + extra)


def cmdline_of(text: str) -> list[str]:
    """The options on a template's kernel command line."""
    return str(yaml.safe_load(text)["systemConfig"]["kernel"]["cmdline"]).split()


def planned_cmdline(request: str, text: str) -> tuple[list[str], list[str]]:
    """Plan and apply ``request`` on ``text``: the kernel line's options and the not-applied."""
    plan = plan_request(request, text, mode="refine")
    return cmdline_of(apply_plan(text, plan).text), plan.not_applied


def cmdline_applied(request: str, text: str) -> list[str]:
    """:func:`planned_cmdline`'s options, asserting every part of ``request`` was applied."""
    line, not_applied = planned_cmdline(request, text)
    assert not_applied == [], not_applied
    return line


def kernel_after(
    request: str, extra: str = "", template: str = UBUNTU_MINIMAL, first: str = ""
) -> tuple[list[str], list[str]]:
    """:func:`planned_cmdline` on ``template`` with ``extra`` options on its kernel line.

    With ``first``, that request is planned and applied before ``request``.
    """
    text = with_cmdline(template, extra)
    if first:
        text = apply_plan(text, plan_request(first, text, mode="refine")).text
    return planned_cmdline(request, text)


def set_values(result: EditPlan) -> dict[str, Any]:
    """The values a plan sets, by path."""
    return {op.path: op.value for op in result.operations if isinstance(op, SetValue)}


def ops_by_key(
    result: EditPlan, keyed: tuple[str, ...] = ("add_user",)
) -> dict[str, dict[str, Any]]:
    """A plan's operations by op; those in ``keyed`` by op and name (or mount point)."""
    ops: dict[str, dict[str, Any]] = {}
    for op in result.operations:
        dumped = op.model_dump(exclude_defaults=True)
        named = dumped.get("name") or dumped.get("mount_point")
        ops[f"{op.op}:{named}" if op.op in keyed else op.op] = dumped
    return ops


def ops_of(result: EditPlan, kind: str) -> list[dict[str, Any]]:
    """The plan's operations of one kind ("set_disk_size"), as their set fields."""
    return [o.model_dump(exclude_defaults=True) for o in result.operations if o.op == kind]


def users(result: EditPlan) -> dict[str, dict[str, Any]]:
    """The users the plan adds, by name, with the fields it sets."""
    return {
        op.name: op.model_dump(exclude_defaults=True)
        for op in result.operations
        if op.op == "add_user"
    }


def added(result: EditPlan) -> list[str]:
    """The packages the plan adds, in order."""
    return [n for op in result.operations if op.op == "add_packages" for n in op.packages]


def removed(result: EditPlan) -> list[str]:
    """The packages the plan removes, in order."""
    return [n for op in result.operations if op.op == "remove_packages" for n in op.packages]


def assert_user(
    result: EditPlan, name: str, fields: dict[str, Any], said: str
) -> dict[str, dict[str, Any]]:
    """Assert the plan adds user ``name`` with ``fields``; return every user it adds."""
    found = users(result)
    assert name in found, (said, found, result.not_applied)
    for key, value in fields.items():
        assert found[name].get(key) == value, (said, found[name])
    return found


def artifact_types(result: EditPlan) -> list[str] | None:
    """The artifact types the plan sets, or None when it sets none."""
    for op in result.operations:
        if op.op == "set_artifacts":
            return [a.type for a in op.artifacts]
    return None


def repository_ops(
    said: str, template: str, repository: dict[str, object] | None = None
) -> tuple[list[dict[str, object]], list[str]]:
    """Plan ``said`` on a library template (with ``repository`` listed in it when given).

    Returns the plan's operations as dicts (their ``op`` and the fields they set) and its
    ``not_applied`` list.
    """
    text = (OUR_TEMPLATES / template).read_text(encoding="utf-8")
    if repository is not None:
        data = yaml.safe_load(text)
        data["packageRepositories"] = [repository]
        text = yaml.safe_dump(data, sort_keys=False)
    plan = plan_request(said, text, mode="refine")
    ops = [{"op": op.op, **op.model_dump(exclude_defaults=True)} for op in plan.operations]
    return ops, plan.not_applied


def one_repository_op(
    said: str,
    template: str,
    listed: dict[str, object] | None = None,
    wanted: dict[str, object] | None = None,
) -> dict[str, object]:
    """The one repository ``said`` adds on a library template (see :func:`repository_ops`).

    With ``wanted``, also asserts the repository has those fields and nothing of ``said``
    was left unapplied.
    """
    ops, not_applied = repository_ops(said, template, listed)
    repos = [op for op in ops if op["op"] == "add_repository"]
    assert len(repos) == 1, (ops, not_applied)
    for key, value in (wanted or {}).items():
        assert repos[0].get(key) == value, (key, said, repos[0])
    if wanted is not None:
        assert not_applied == [], not_applied
    return repos[0]


def the_repository(result: EditPlan) -> tuple[str, str | None, str | None, str | None]:
    """The one repository a plan adds, as its url, codename, component and key."""
    (repo,) = [op for op in result.operations if isinstance(op, AddRepository)]
    return repo.url, repo.codename, repo.component, repo.pkey
