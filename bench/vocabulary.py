"""Understanding of the domain's own words: every name, phrase and target, said several ways.

The labelled conversations measure understanding on what their writers happened to say;
this measures it on the domain itself, so that it does not depend on anyone's wording:

* names: every package name of the catalog and the library made of two to four words
  ("open-vm-tools"), said as words ("please add open vm tools"), and removed the same way
  where the template has it; right when that name (or the target's spelling of it) is
  added or removed, nothing else is, and nothing is reported;
* phrases: every capability name and synonym of the catalog ("system stats"), said with
  "please add", on the first family it has packages for; right when its packages are
  there afterwards and nothing is reported;
* targets: every combination the composer builds, said four ways with a few of its
  names, arch words and image-type words; right when the first turn's target is it;
* forms: a grammar of everyday edits (18 ways to remove, 20 to add, 12 to size the disk
  with 10 ways to say a size, 14 to name the host, 17 to ask for an account, 10 to ask for
  a partition, 10 to add a kernel option), each with its values; right when the plan does
  exactly that.

Plans are made by the builtin planner on the bundled library's templates (targets through
the whole graph). Prints each sweep's share right; ``--details`` lists the misses.

Usage: python bench/vocabulary.py [--details]
"""

from __future__ import annotations

import argparse
import itertools
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml
from _common import ROOT  # noqa: F401  (puts the repository root on sys.path)

from oic_ai.stores.capability_catalog import load_catalog  # noqa: E402
from oic_ai.stores.targets import load_targets  # noqa: E402
from oic_ai.stores.template_library import bundled_templates_dir, iter_template_files  # noqa: E402
from oic_ai.tools.edit_plan import EditPlan  # noqa: E402
from oic_ai.tools.planner import plan_request  # noqa: E402
from oic_ai.tools.verify_packages import known_package_names  # noqa: E402

MINIMAL = "debian13-x86_64-minimal-raw.yml"
Miss = tuple[str, str]


def _ops(plan: EditPlan, kind: str) -> list[str]:
    return [n for op in plan.operations if op.op == kind for n in getattr(op, "packages", [])]


def _library() -> dict[str, str]:
    return {
        p.name: p.read_text(encoding="utf-8") for p in iter_template_files(bundled_templates_dir())
    }


def _facts(text: str) -> tuple[dict[str, str], list[str]]:
    doc = yaml.safe_load(text)
    return doc["target"], list((doc.get("systemConfig") or {}).get("packages") or [])


def sweep_names(library: dict[str, str]) -> tuple[int, list[Miss]]:
    """Each multi-word known name, said as words: added (or removed where it is there)."""
    catalog = load_catalog()
    home: dict[str, str] = {}
    for name, text in sorted(library.items()):
        for package in _facts(text)[1]:
            home.setdefault(package, name)
    names = sorted(
        n for n in known_package_names() if 1 <= n.count("-") <= 3 and n.replace("-", "").isalpha()
    )
    misses: list[Miss] = []
    for name in names:
        template = library[home.get(name, MINIMAL)]
        target, packages = _facts(template)
        verb, kind = ("remove", "remove_packages") if name in packages else ("add", "add_packages")
        said = f"please {verb} {name.replace('-', ' ')}"
        plan = plan_request(said, template, mode="refine")
        spellings = {name, *catalog.aliases(name, target["os"], target["dist"], target["arch"])}
        changed = _ops(plan, kind)
        if not changed or not set(changed) <= spellings or plan.not_applied:
            misses.append((said, f"{changed} {plan.not_applied[:1]}"))
    return len(names), misses


def sweep_phrases(library: dict[str, str]) -> tuple[int, list[Miss]]:
    """Each capability phrase with "please add", on the first family it has packages for."""
    bases = [
        library[n]
        for n in (MINIMAL, "azl3-x86_64-minimal-raw.yml", "ubuntu24-x86_64-minimal-raw.yml")
    ]
    known = known_package_names()
    total = 0
    misses: list[Miss] = []
    for capability in load_catalog().capabilities.values():
        for template in bases:
            target, packages = _facts(template)
            wanted = capability.packages_for(target["os"], target["dist"], target["arch"])
            if wanted:
                break
        else:
            continue
        for phrase in dict.fromkeys((capability.name.replace("-", " "), *capability.synonyms)):
            if phrase in known:
                continue  # "rsyslog" is that package: the names sweep and the tests read it
            total += 1
            said = f"please add {phrase}"
            plan = plan_request(said, template, mode="refine")
            have = set(packages) | set(_ops(plan, "add_packages"))
            if not set(wanted) <= have or plan.not_applied:
                misses.append((said, f"{sorted(set(wanted) - have)} {plan.not_applied[:1]}"))
    return total, misses


_NAMES = {
    "azl3": ["Azure Linux 3", "azure linux 3.0", "AZL3"],
    "emt3": ["Edge Microvisor Toolkit 3", "EMT 3", "emt3"],
    "elxr12": ["eLxr 12", "Wind River eLxr 12", "elxr12"],
    "ubuntu24": ["Ubuntu 24.04", "ubuntu noble", "Ubuntu 24.04 LTS"],
    "ubuntu26": ["Ubuntu 26.04", "ubuntu 26.04 LTS", "Resolute Raccoon"],
    "debian13": ["Debian 13", "debian trixie", "Debian Trixie"],
    "el10": ["RHEL 10 compatible", "Rocky Linux 10", "AlmaLinux 10"],
}
_ARCH = {
    "x86_64": ["x86_64", "amd64", "x86-64", "x64"],
    "aarch64": ["arm64", "aarch64", "64-bit ARM"],
}
_TYPE = {
    "raw": ["raw disk image", "raw image"],
    "iso": ["installer ISO", "install iso"],
    "img": ["netboot initrd", "PXE initrd image"],
}
_TARGET_FORMS = [
    "{name} {arch} {type}",
    "I need a {type} of {name} for {arch}",
    "{name}, {arch}, {type} please",
    "can you make me a {name} {type} ({arch})",
]


def sweep_targets(data: Path) -> tuple[int, list[Miss]]:
    """Each buildable combination said four ways: the first turn's target."""
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.settings import load_settings

    targets = load_targets()
    pick = random.Random(3)
    total = 0
    misses: list[Miss] = []
    with TemplateAgent(load_settings(data_dir=data, env={}, provider="builtin")) as agent:
        for os_name, dist, arch, image_type in targets.combinations():
            if not targets.buildable(dist, arch, image_type) or image_type not in _TYPE:
                continue
            for form in _TARGET_FORMS:
                total += 1
                said = form.format(
                    name=pick.choice(_NAMES[dist]),
                    arch=pick.choice(_ARCH[arch]),
                    type=pick.choice(_TYPE[image_type]),
                )
                result = agent.generate(said)
                got = (yaml.safe_load(result.template or "") or {}).get("target") or {}
                wanted = {"os": os_name, "dist": dist, "arch": arch, "imageType": image_type}
                if any(got.get(k) != v for k, v in wanted.items()) or result.not_applied:
                    misses.append((said, f"{got} {result.not_applied[:1]}"))
    return total, misses


_REMOVE = (
    "remove {v}",
    "drop {v}",
    "get rid of {v}",
    "no {v}",
    "we don't need {v}",
    "{v} can go",
    "ditch {v}",
    "take out {v}",
    "lose the {v} package",
    "{v} isn't needed",
    "strip {v} out",
    "uninstall {v}",
    "delete {v}",
    "kill {v}",
    "skip {v}",
    "without {v} please",
    "we can do without {v}",
    "no need for {v}",
)
_ADD = (
    "add {v}",
    "install {v}",
    "include {v}",
    "we need {v}",
    "put {v} on it",
    "{v} too",
    "also {v}",
    "throw in {v}",
    "can you add {v}",
    "I'd like {v}",
    "{v} is needed",
    "make sure {v} is installed",
    "bring in {v}",
    "pull in {v}",
    "plus {v}",
    "and {v}",
    "with {v}",
    "ship it with {v}",
    "bake in {v}",
    "preinstall {v}",
)
_SIZE = (
    "make the disk {v}",
    "disk size {v}",
    "grow the disk to {v}",
    "{v} disk",
    "bump the disk to {v}",
    "resize the image to {v}",
    "I want a {v} disk",
    "the disk should be {v}",
    "give it {v} of disk",
    "set the image size to {v}",
    "{v} of storage",
    "storage: {v}",
)
_SIZES = [
    "8GiB",
    "8 GiB",
    "8G",
    "8 gigs",
    "8 GB",
    "eight gigabytes",
    "12 GiB",
    "1.5 TB",
    "half a terabyte",
    "20 gig",
]
_HOST = (
    "call the machine {v}",
    "name the machine {v}",
    "hostname {v}",
    "the hostname should be {v}",
    "set the host name to {v}",
    "rename the host to {v}",
    "use {v} as the hostname",
    "the box is called {v}",
    "its name should be {v}",
    "hostname: {v}",
    "change hostname to {v}",
    "make the hostname {v}",
    "the device name is {v}",
    "the host will be known as {v}",
)


_USER = (
    "add a user {v}|create an account {v}|I need a login for {v}|user {v} with sudo|"
    "{v} should have sudo|add {v} as an admin|make an admin account called {v}|"
    "a user named {v}, no sudo|create user {v} without sudo rights|add a regular user {v}|"
    "{v} needs an account|set up a {v} account with sudo|new user: {v}|"
    "add user {v} to groups docker and video|give {v} admin rights|{v} must not have sudo|"
    "an unprivileged account for {v}"
).split("|")
_ADMIN = ("with sudo", "should have sudo", "as an admin", "admin account", "admin rights")
_PLAIN = ("no sudo", "without sudo", "regular", "must not have sudo", "unprivileged")
_PARTITION = (
    "add a /data partition of 10GiB|give /var its own 8 GiB partition|"
    "a separate /home partition, 5 gigs|put /var/log on its own 2GiB partition|"
    "create a 20GB partition mounted at /srv|I want /opt on a separate 4 GiB partition|"
    "make a 1GiB swap partition|add 2 GiB of swap|partition for /data, 10 GiB, xfs|"
    "mount a 6GiB ext4 partition at /var/lib/docker"
).split("|")
_KERNEL = (
    "add {v} to the kernel command line|kernel arg {v}|boot with {v}|append {v} to the cmdline|"
    "set {v} on the kernel cmdline|I need {v} on the kernel line|pass {v} to the kernel|"
    "kernel parameter {v}|cmdline: add {v}|the kernel should get {v}"
).split("|")


Right = Callable[[EditPlan, str, str], bool]  # (the plan, the value, what was said)


def _user_right(plan: EditPlan, value: str, said: str) -> bool:
    found = {op.name: op for op in plan.operations if op.op == "add_user"}
    if value not in found:
        return False
    sudo = bool(getattr(found[value], "sudo", False))
    groups = getattr(found[value], "groups", None) or []
    if any(k in said for k in _ADMIN) and not sudo:
        return False
    if any(k in said for k in _PLAIN) and sudo:
        return False
    return "docker" not in said or "docker" in groups


def _packages(kind: str) -> Right:
    return lambda plan, value, said: _ops(plan, kind) == [value]


def _once(kind: str) -> Right:
    return lambda plan, value, said: sum(op.op == kind for op in plan.operations) == 1


def _has(kind: str) -> Right:
    return lambda plan, value, said: any(op.op == kind for op in plan.operations)


def _named(plan: EditPlan, value: str, said: str) -> bool:
    return [getattr(op, "hostname", None) for op in plan.operations] == [value]


def _in_a_plan(plan: EditPlan, value: str, said: str) -> bool:
    return value in str([op.model_dump() for op in plan.operations])


def sweep_forms(library: dict[str, str]) -> tuple[int, list[Miss]]:
    """A grammar of everyday edits on the minimal Debian template."""
    template = library[MINIMAL]
    grammar: list[tuple[Sequence[str], Sequence[str], Right]] = [
        (_REMOVE, ["systemd-resolved", "sudo"], _packages("remove_packages")),
        (_ADD, ["htop", "jq"], _packages("add_packages")),
        (_SIZE, _SIZES, _once("set_disk_size")),
        (_HOST, ["edge-gw-7", "kiosk01"], _named),
        (_USER, ["ops", "jdoe"], _user_right),
        (_PARTITION, [""], _has("add_partition")),
        (_KERNEL, ["isolcpus=2-3", "quiet", "intel_iommu=on"], _in_a_plan),
    ]
    total = 0
    misses: list[Miss] = []
    for forms, values, right in grammar:
        for form, value in itertools.product(forms, values):
            total += 1
            said = form.format(v=value)
            plan = plan_request(said, template, mode="refine")
            if not right(plan, value, said) or plan.not_applied:
                misses.append((said, f"{[op.op for op in plan.operations]} {plan.not_applied[:1]}"))
    return total, misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--details", action="store_true", help="list every miss")
    args = parser.parse_args()
    library = _library()
    with tempfile.TemporaryDirectory() as tmp:
        sweeps: list[tuple[str, Callable[[], tuple[int, list[Miss]]]]] = [
            ("names said as words", lambda: sweep_names(library)),
            ("capability phrases", lambda: sweep_phrases(library)),
            ("targets said four ways", lambda: sweep_targets(Path(tmp))),
            ("everyday forms", lambda: sweep_forms(library)),
        ]
        for label, sweep in sweeps:
            started = time.perf_counter()
            total, misses = sweep()
            seconds = time.perf_counter() - started
            right = total - len(misses)
            print(f"- {label}: {right}/{total} = {right / total:.1%} right ({seconds:.0f} s)")
            if args.details:
                for said, why in misses:
                    print(f"    {said!r}: {why}")


if __name__ == "__main__":
    main()
