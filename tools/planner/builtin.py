"""The orchestrator: run the rules over a request and assemble the plan (:func:`plan_request`).

The rules run in a fixed order, each marking the spans it used; package words come
last, then whatever is left is reported. Create mode also names and describes the image.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Literal

from oic_ai.stores.capability_catalog import load_catalog
from oic_ai.stores.targets import load_targets
from oic_ai.stores.template_model import Template, template_from_text
from oic_ai.tools import edit_plan
from oic_ai.tools.planner.accounting import account
from oic_ai.tools.planner.configs import read_configs
from oic_ai.tools.planner.pasted import read_pasted_all
from oic_ai.tools.planner.redact import redact_passwords
from oic_ai.tools.planner.rules.artifacts import artifact_words, rule_artifacts
from oic_ai.tools.planner.rules.asides import rule_asides
from oic_ai.tools.planner.rules.beyond import rule_beyond_template
from oic_ai.tools.planner.rules.boot import (
    rule_bootloader,
    rule_immutability,
    rule_partition_table,
)
from oic_ai.tools.planner.rules.capability_words import for_use_case
from oic_ai.tools.planner.rules.console import rule_console, settle_arch_consoles
from oic_ai.tools.planner.rules.corrections import rule_framing, rule_take_back
from oic_ai.tools.planner.rules.disk import rule_disk_size
from oic_ai.tools.planner.rules.hostname import rule_hostname
from oic_ai.tools.planner.rules.image import rule_image_name, rule_image_version
from oic_ai.tools.planner.rules.kernel import option_word, rule_bare_kernel_args, rule_kernel
from oic_ai.tools.planner.rules.kernel_images import settle_kernel_images
from oic_ai.tools.planner.rules.kernel_refs import add_them, rule_options_said_to_go
from oic_ai.tools.planner.rules.kernel_words import rule_kernel_described, rule_kernel_words
from oic_ai.tools.planner.rules.package_apply import prefer_vendor_spellings
from oic_ai.tools.planner.rules.package_items import PART_WORDS
from oic_ai.tools.planner.rules.package_names import known as knows_package
from oic_ai.tools.planner.rules.packages import rule_packages
from oic_ai.tools.planner.rules.partitions import rule_partitions
from oic_ai.tools.planner.rules.renames import rule_renames
from oic_ai.tools.planner.rules.repositories import rule_repositories
from oic_ai.tools.planner.rules.revisions import rule_revisions
from oic_ai.tools.planner.rules.storage import rule_bare_sizes, rule_storage_clauses
from oic_ai.tools.planner.rules.target import rule_target, translate_for_target
from oic_ai.tools.planner.rules.user_absent import rule_user_keys
from oic_ai.tools.planner.rules.user_forms import rule_user_forms
from oic_ai.tools.planner.rules.users import rule_users
from oic_ai.tools.planner.run_ons import mark_run_ons, needs_as_removals
from oic_ai.tools.planner.state import Mode, PlanState, PlanTarget
from oic_ai.tools.planner.summary import join_words, plan_notes, summarize, with_article
from oic_ai.tools.planner.tables import read_tables
from oic_ai.tools.planner.text import UNREADABLE, RequestText, unreadable_chunks
from oic_ai.tools.planner.vendor_repos import read_vendor_repositories
from oic_ai.tools.planner.words import FILLER, PACKAGE_TOKEN
from oic_ai.tools.retrieval.spelling import PackageNames

# Requests are sentences; a longer text (a pasted file) is read up to here.
_MAX_REQUEST_CHARS = 2000

# The span rules, in the order they read the request, with the operation family each
# one's words count for: each marks what it used, so an earlier rule's words are not read
# again ("hostname gw1" is not a package, nor is "6.12" a version of the image). Package
# words and the clause accounting come after these.
_RULES: tuple[tuple[Callable[[PlanState], None], str], ...] = (
    (rule_revisions, "context"),
    (rule_take_back, "context"),
    (rule_framing, "context"),
    (rule_asides, "context"),  # "Reviewer: @dpatel   Sprint 41", "linux noob", "pi-ish"
    (rule_beyond_template, "rejected"),
    # "add user ops with the ssh key at https://...": the key, before repositories read it
    (rule_user_keys, "rejected"),
    (rule_repositories, "repository"),
    # an entry renamed before the rules that would read its new name as a new entry
    (rule_renames, "user"),
    # users before the image's name: "the runner user, call it 'runner'" names the user
    (rule_user_forms, "user"),
    (rule_users, "user"),
    (rule_image_name, "image name"),
    (rule_hostname, "hostname"),
    # "lockdown isn't needed": before the rules that read a flag's word as asking for it
    (rule_options_said_to_go, "kernel"),
    (rule_console, "kernel"),
    (rule_kernel_described, "kernel"),
    (rule_kernel, "kernel"),
    (rule_kernel_words, "kernel"),
    (rule_image_version, "image version"),
    (rule_disk_size, "disk size"),
    # "mbr partition table" before the partitions: a kind of table, not a partition
    (rule_partition_table, "partition"),
    (rule_partitions, "partition"),
    (rule_storage_clauses, "partition"),
    (rule_artifacts, "artifacts"),
    (rule_bootloader, "bootloader"),
    (rule_immutability, "immutability"),
    (rule_target, "target"),
    (rule_bare_kernel_args, "kernel"),
    # "iommu=pt and intel_iommu=on. put them in too": after the bare options are read
    (add_them, "context"),
    (rule_bare_sizes, "disk size"),
)


def _slug(parts: Iterable[str], limit: int = 60) -> str:
    words: list[str] = []
    for part in parts:
        for word in re.sub(r"[^a-z0-9_]+", "-", part.lower()).strip("-_").split("-"):
            if word and word not in words:
                words.append(word)
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > limit:
            break
        slug = candidate
    return slug or "image"


def _name_and_describe(state: PlanState) -> edit_plan.SetMetadata:
    """Create mode: name the image after the request (unless it was named) and describe it."""
    target = state.target
    targets = load_targets()
    use_cases = list(dict.fromkeys(word for _, word in sorted(state.use_case_words)))
    features = list(dict.fromkeys(label for _, label in sorted(state.features)))
    if state.image_name is None:
        kind = targets.image_types.get(target.image_type)
        type_word = kind.name_word if kind else ""
        arch = _arch_word(state.facts.image.name, state.facts.target.arch, target.arch)
        name = _slug([target.dist or "image", arch, *use_cases, *features, type_word])
        if name != state.facts.image.name:
            state.image_name = name
    title = targets.title(target.dist) if target.dist else "Linux"
    kind_title = targets.image_type_title(target.image_type, "image")
    description = f"{title} {target.arch or ''} {kind_title}"
    description = " ".join(description.split())
    if use_cases:
        description += f" ({', '.join(use_cases)})"
    if features:
        description += f" with {join_words(features)}"
    return edit_plan.SetMetadata(description=description + ".")


def _arch_word(base_name: str, base_arch: str, arch: str) -> str:
    """How a new image name spells ``arch``: as the base's name spells its own arch.

    A base named ``ubuntu24-x86_64-minimal-raw`` gives ``x86_64`` (and ``aarch64`` on an
    arch change, the same column of ``name_words``); one named ``...-amd64`` gives
    ``amd64``/``arm64``. A base whose name has no arch word gets the registry's
    ``name_word``.
    """
    arches = load_targets().arches
    new = arches.get(arch)
    if new is None:
        return arch
    old = arches.get(base_arch)
    words = re.split(r"[^a-z0-9_]+", base_name.lower())
    for column, word in enumerate(old.name_words if old else ()):
        if word in words and column < len(new.name_words):
            return new.name_words[column]
    return new.name_word


def _suggestions(state: PlanState) -> list[str]:
    """Capabilities the request's use case usually wants and the plan does not have yet."""
    if state.mode != "create" or not state.target.known:
        return []
    # only the use-case and feature words: matching the whole request costs milliseconds
    use_case = " ".join(word for _, word in sorted([*state.use_case_words, *state.features]))
    if not use_case:
        return []
    have = {*state.facts.packages, *state.add} - set(state.remove)
    names: list[str] = []
    for capability in for_use_case(state.catalog, use_case):
        packages = capability.packages_for(state.target.os, state.target.dist, state.target.arch)
        if packages and not set(packages) <= have:
            names.append(capability.name)
    return names[:5]


def _operations(state: PlanState) -> list[edit_plan.Operation]:
    """The plan's operations, in the order the applier needs them.

    The target comes first (an arch change fixes the root partition type), the disk size
    before partitions (they are carved from the end of the disk), removals before
    additions.
    """
    ops: list[edit_plan.Operation] = []
    if state.set_target:
        wanted = state.set_target
        ops.append(
            edit_plan.SetTarget(
                os=wanted.get("os"),
                dist=wanted.get("dist"),
                arch=_arch_literal(wanted.get("arch")),
                image_type=_image_type_literal(wanted.get("image_type")),
            )
        )
    metadata = _name_and_describe(state) if state.mode == "create" else None
    if state.image_name is not None or state.image_version is not None:
        ops.append(edit_plan.SetImage(name=state.image_name, version=state.image_version))
    if metadata is not None:
        ops.append(metadata)
    if state.disk_size is not None:
        ops.append(edit_plan.SetDiskSize(size=state.disk_size))
    order = {"remove_partition": 0, "resize_partition": 1, "add_partition": 2}
    ops += sorted(state.partition_ops, key=lambda op: order[op.op])
    if state.artifacts is not None:
        ops.append(edit_plan.SetArtifacts(artifacts=state.artifacts))
    if state.bootloader:
        provider = state.bootloader.get("provider")
        boot_type = state.bootloader.get("boot_type")
        ops.append(
            edit_plan.SetBootloader(
                provider="grub" if provider == "grub" else "systemd-boot" if provider else None,
                boot_type="legacy" if boot_type == "legacy" else "efi" if boot_type else None,
            )
        )
    if state.immutable is not None or state.secure_boot is not None:
        enabled = state.immutable
        if enabled is None:
            enabled = state.facts.immutability_enabled is True or bool(state.secure_boot)
        ops.append(edit_plan.SetImmutability(enabled=enabled, secure_boot=state.secure_boot))
    if state.kernel_version is not None or state.cmdline is not None or state.append_cmdline:
        ops.append(
            edit_plan.SetKernel(
                version=state.kernel_version,
                cmdline=state.cmdline,
                append_cmdline=list(state.append_cmdline),
            )
        )
    if state.hostname is not None:
        ops.append(edit_plan.SetHostname(hostname=state.hostname))
    ops += state.users
    ops += state.values
    ops += state.repositories
    ops += state.repository_values
    if state.remove:
        ops.append(edit_plan.RemovePackages(packages=list(state.remove)))
    if state.add:
        ops.append(edit_plan.AddPackages(packages=list(state.add)))
    if state.add_kernel:
        ops.append(edit_plan.AddPackages(packages=list(state.add_kernel), kernel=True))
    return ops


def _arch_literal(value: str | None) -> Literal["x86_64", "aarch64"] | None:
    return "x86_64" if value == "x86_64" else "aarch64" if value == "aarch64" else None


def _image_type_literal(value: str | None) -> Literal["raw", "iso", "img"] | None:
    kinds: dict[str | None, Literal["raw", "iso", "img"]] = {
        "raw": "raw",
        "iso": "iso",
        "img": "img",
    }
    return kinds.get(value)


def _check_disk_layout(state: PlanState) -> None:
    """Artifacts make the image raw; disk sizes and partitions need a raw image."""
    kind = state.target.image_type
    if state.artifacts and kind in ("iso", "img") and "image_type" not in state.set_target:
        state.warn(
            f"disk artifacts exist only for raw disk images, so the image type changes from "
            f"{kind} to raw"
        )
        state.set_target["image_type"] = state.target.image_type = "raw"
        return
    if kind not in ("iso", "img"):
        return
    title = load_targets().image_types[kind].title
    reason = f"{with_article(title)} has no disk layout; ask for a raw image to set one"
    if kind == "iso":
        # its layout is that of the disk it installs on, whatever that disk's size
        reason = (
            f"{with_article(title)} has no disk size or disk artifacts (it installs on any "
            "disk); ask for a raw image to set them"
        )
    if state.disk_size is not None:
        state.not_applied.append(f"'disk size {state.disk_size}' — {reason}")
        state.disk_size = None
        state.text.disown("disk size")
    if kind == "iso" and state.partition_ops:
        # an installer lays out the disk it installs on (the composer's ISO defaults have
        # partitions, "optional for ISO"): partitions are that layout's
        state.warn(
            "an installer ISO's partitions lay out the disk it installs on; that disk must "
            "hold the fixed partitions and room for the root filesystem"
        )
    else:
        for op in state.partition_ops:
            state.not_applied.append(f"'{op.describe()}' — {reason}")
        if state.partition_ops:
            state.text.disown("partition")
        state.partition_ops.clear()
    if state.artifacts:
        state.not_applied.append(f"'{artifact_words(state.artifacts)}' — {reason}")
        state.artifacts = None
        state.text.disown("artifacts")


def _said_for(state: PlanState, word: str) -> bool:
    """A short name for a package ("wg", "alertmanager", "ninja").

    An alias the catalog knows, or a part of a template package's name that is no generic
    part ("alertmanager" of prometheus-alertmanager; not "tools" or "server").
    """
    low = word.lower()
    if len(low) < 3 or low in PART_WORDS or not PACKAGE_TOKEN.fullmatch(low):
        return False
    target = state.target
    if target.known and state.catalog.aliases(low, target.os, target.dist, target.arch):
        return True
    installed = (*state.facts.packages, *state.facts.kernel.packages)
    return any(low != name and low in name.split("-") for name in installed)


def _template_names(facts: Template) -> frozenset[str]:
    """The users, kernel option keys and mount points the template has."""
    options = {arg.split("=", 1)[0] for arg in facts.kernel.cmdline.split()}
    mounts = {p.mount_point for p in facts.disk.partitions} if facts.disk else set()
    return frozenset({u.name for u in facts.users} | options | mounts)


def plan_request(
    request: str,
    template_text: str,
    *,
    mode: Mode,
    packages: PackageNames | None = None,
    known: frozenset[str] | None = None,
    earlier: str = "",
) -> edit_plan.EditPlan:
    """Turn a request into an edit plan for ``template_text``, by rules alone.

    Args:
        request: What the user asked for, in plain words.
        template_text: The current template (refine) or the retrieved base (create).
        mode: ``"create"`` also names and describes the new image; ``"refine"`` changes
            only what was asked.
        packages: The synced package index, when there is one: misspellings are read
            against it too, and a real package name is never read as another word.
        known: The package names the catalog and the library use (the bundled library's
            when None); with the index, they decide what may be a package.
        earlier: What was said just before the request (the turn before, a question cut
            from it): "take it out" alone removes the one package of the template it names.

    Returns:
        The plan. Parts of the request it cannot express are listed in ``not_applied``;
        a password in the request is dropped and a warning says so.
    """
    redacted, password_warning = redact_passwords(request)
    redacted, tables = read_tables(redacted)  # "| 4 | Hostname | gw-01 | infra |"
    redacted, pasted, skipped = read_pasted_all(redacted)  # "users:\n - name: ops"
    pasted = tables + pasted
    # a vendor's "curl key | tee keyring; echo deb [signed-by=keyring] URL ..." steps
    redacted, vendor, unread = read_vendor_repositories(redacted)
    redacted, configs, unmapped = read_configs(redacted)  # "%packages", "apt-get install -y"
    configs = vendor + configs
    unmapped = unread + unmapped
    if len(redacted) > _MAX_REQUEST_CHARS:
        cut = redacted.rfind(" ", 0, _MAX_REQUEST_CHARS)
        redacted = redacted[: cut if cut > 0 else _MAX_REQUEST_CHARS]
        too_long = (
            f"the request is longer than {_MAX_REQUEST_CHARS} characters; only its beginning "
            "was read — send the rest as a follow-up"
        )
    else:
        too_long = ""
    facts = template_from_text(template_text)
    state = PlanState(
        mode=mode,
        facts=facts,
        text=RequestText(redacted, packages=packages),
        catalog=load_catalog(),
        target=PlanTarget(
            facts.target.os, facts.target.dist, facts.target.arch, facts.target.image_type
        ),
        packages=packages,
        known=known,
        earlier=earlier,
    )
    # "drop rsyslog journald forwarding is enough": the comma shorthand left out
    names = _template_names(facts)

    def in_template(word: str) -> bool:  # a user, kernel option (by key) or mount point
        return word in names or word.split("=", 1)[0] in names

    marked = mark_run_ons(
        redacted,
        lambda word: (
            in_template(word)
            or option_word(word)
            or (word not in FILLER and (knows_package(state, word) or _said_for(state, word)))
        ),
    )
    # "we don't need bob, he left": the template's bob is to go
    marked = needs_as_removals(marked, lambda word: word in facts.packages or in_template(word))
    if marked != redacted:
        state.text = RequestText(marked, packages=packages)
    if password_warning:
        state.warn(password_warning)
    state.notes.extend(pasted + configs)
    state.not_applied.extend(skipped + unmapped)
    if too_long:
        state.not_applied.append(too_long)
    for chunk in unreadable_chunks(state.text):
        state.not_applied.append(f"'{chunk}' — {UNREADABLE}")
    if not facts.readable:
        state.warn(f"the base template could not be read ({facts.error}); planned without it")
    for rule, owner in _RULES:
        state.text.owner = owner
        rule(state)
    _check_disk_layout(state)
    if state.target.known:
        translate_for_target(state)
    settle_arch_consoles(state)
    state.text.owner = "packages"
    rule_packages(state)
    prefer_vendor_spellings(state)  # docker-ce from the repository added: no docker.io
    settle_kernel_images(state)  # "the PREEMPT_RT kernel": the kernel's own list
    clauses = account(state)
    suggestions = _suggestions(state)
    ops = _operations(state)
    notes = plan_notes(state)
    return edit_plan.EditPlan(
        summary=summarize(state, ops, suggestions, notes),
        operations=ops,
        not_applied=state.not_applied,
        warnings=state.warnings,
        notes=notes,
        clauses=clauses,
    )
