"""Clause accounting on sentences an independent writer wrote: remarks and requests.

A writer who saw no code and no conversation of ours wrote, for two sets of personas
(a: IT admins and DevOps, terse; b: embedded engineers, students, second-language
writers, chatty), 150 remarks that ask for no change ("Change control board meets
Fridays.") and 150 requests that do ("Need curl and jq in there.") each. Set a is in
``tests/data/clauses/`` (it may be read and tuned on); set b in ``bench/heldout/clauses/``
is for measuring only.

A third writer wrote set c in session 19 for other personas (platform engineers pasting
from tickets, security officers, a robotics start-up, second-language writers, a home-server
hobbyist); it is held out with set b.

Each sentence is planned by the builtin planner on the minimal Debian template, alone
and (a remark) after "add htop.". A remark is *quiet* when it changes nothing and
reports nothing (one that changes the template is the worst case, counted); a request is
*applied* (an operation, or a note such as "already" or "nothing to remove"), *reported*
(not applied, with a reason) or *silently dropped* (no change, no report and nothing
said of it: the worst case). A request that changes a field of another kind than it asks
for (a disk size for "journald capped at 200M") is counted too.

Usage: python bench/clauses.py [--set a|b|c|all] [--details]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml
from _common import ROOT

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request

SETS = {
    "a": ROOT / "tests" / "data" / "clauses",
    "b": ROOT / "bench" / "heldout" / "clauses",
    "c": ROOT / "bench" / "heldout" / "clauses",
}
TEMPLATE = ROOT / "image-templates" / "debian13-x86_64-minimal-raw.yml"


# the operations that belong to one kind of request only: one made for a request of another
# kind changed a field the request was not about ("journald capped at 200M" setting the
# disk size, "lock the root account completely" adding a user called completely)
_ONLY_FOR = {
    "set_hostname": {"hostname"},
    "set_disk_size": {"disk", "partitions", "target"},
    "add_user": {"users"},
    "add_repository": {"repository", "packages"},
    "add_packages": {"packages", "kernel", "target", "other", "repository"},
}


def _off_kind(plan: EditPlan, wants: str) -> bool:
    return any(wants not in _ONLY_FOR.get(o.op, {wants}) for o in plan.operations)


def _quiet(plan: EditPlan, before: int = 0) -> bool:
    return len(plan.operations) == before and not plan.not_applied


def measure(name: str, details: bool) -> None:
    """Print one set's figures."""
    folder: Path = SETS[name]
    template = TEMPLATE.read_text(encoding="utf-8")
    remarks = yaml.safe_load((folder / f"remarks_{name}.yaml").read_text(encoding="utf-8"))
    requests = yaml.safe_load((folder / f"requests_{name}.yaml").read_text(encoding="utf-8"))
    alone = after = changed = 0
    for remark in remarks:
        plan = plan_request(remark, template, mode="refine")
        with_change = plan_request(f"add htop. {remark}", template, mode="refine")
        alone += _quiet(plan)
        changed += bool(plan.operations)
        after += _quiet(with_change, before=1)
        if details and not (_quiet(plan) and _quiet(with_change, before=1)):
            print(
                f"    remark {remark!r}: {[o.op for o in plan.operations]} {plan.not_applied[:1]}"
            )
    kinds = {"applied": 0, "reported": 0, "silently dropped": 0}
    off = 0
    for request in requests:
        plan = plan_request(request["say"], template, mode="refine")
        if _off_kind(plan, request["wants"]):
            off += 1
            if details:
                print(f"    request ({request['wants']}) {request['say']!r}: changed another field")
        if plan.not_applied:
            kinds["reported"] += 1
        elif plan.operations or plan.warnings or plan.summary.strip() != "No changes.":
            # a change, or an answer without one: "already ...", "nothing to remove: X"
            kinds["applied"] += 1
        else:
            kinds["silently dropped"] += 1
            if details:
                print(f"    request ({request['wants']}) {request['say']!r}: silently dropped")
    n = len(remarks)
    print(
        f"- set {name}: remarks quiet {alone}/{n} alone, {after}/{n} after a change; "
        f"{changed} changed the template"
    )
    print(
        f"- set {name}: requests {kinds['applied']} applied, {kinds['reported']} reported, "
        f"{kinds['silently dropped']} silently dropped of {len(requests)}; "
        f"{off} changed a field of another kind"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=["a", "b", "c", "all"], default="all")
    parser.add_argument("--details", action="store_true", help="list the misses (set a only)")
    args = parser.parse_args()
    for name in ("a", "b", "c") if args.set == "all" else (args.set,):
        measure(name, details=args.details and name == "a")


if __name__ == "__main__":
    main()
