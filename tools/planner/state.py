"""The planner's working state: what one planning run collects before it becomes a plan."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from oic_ai.stores.capability_catalog import CapabilityCatalog
from oic_ai.stores.targets import load_targets
from oic_ai.stores.template_model import Template
from oic_ai.tools.edit_plan import (
    AddRepository,
    AddUser,
    Artifact,
    DeleteValue,
    Operation,
    SetValue,
)
from oic_ai.tools.planner.text import RequestText
from oic_ai.tools.retrieval.spelling import PackageNames

Mode = Literal["create", "refine"]


@dataclass
class PlanTarget:
    """The target being planned for: the base template's, changed by the target rule."""

    os: str
    dist: str
    arch: str
    image_type: str

    @property
    def known(self) -> bool:
        """True when the catalog can name packages for this target."""
        return bool(family_of(self.os, self.dist))


def family_of(os: str, dist: str) -> str:
    """The package family of ``os``/``dist`` (deb, rpm ...), or "" when it is not a target."""
    targets = load_targets()
    return targets.family_of(dist) or targets.os_family(os) or ""


@dataclass
class PlanState:
    """Everything one planning run collects before it becomes an EditPlan."""

    mode: Mode
    facts: Template  # the base template, as read
    text: RequestText
    catalog: CapabilityCatalog
    target: PlanTarget
    packages: PackageNames | None = None  # the synced index, when there is one
    known: frozenset[str] | None = None  # the catalog's and the library's package names
    # what was said just before this request (the turn before, a question cut from this
    # one): where "take it out" finds its package when the request names none
    earlier: str = ""
    set_target: dict[str, str] = field(default_factory=dict)
    image_name: str | None = None
    image_version: str | None = None
    disk_size: str | None = None
    sizes: list[tuple[int, int]] = field(default_factory=list)  # (where, bytes) of sizes read
    # a value revised in the same breath ("8 gigs, actually 6"): where the first value
    # starts -> the value that replaces it there (rules.revisions)
    revised: dict[int, str] = field(default_factory=dict)
    partition_ops: list[Operation] = field(default_factory=list)
    artifacts: list[Artifact] | None = None
    hostname: str | None = None
    kernel_version: str | None = None
    cmdline: str | None = None
    append_cmdline: list[str] = field(default_factory=list)
    bootloader: dict[str, str] = field(default_factory=dict)
    partition_table: str | None = None  # "mbr" or "gpt" when the request names one
    immutable: bool | None = None
    secure_boot: bool | None = None
    users: list[AddUser] = field(default_factory=list)
    user_names: list[str] = field(default_factory=list)  # every user name the request used
    values: list[SetValue | DeleteValue] = field(default_factory=list)
    repositories: list[AddRepository] = field(default_factory=list)
    repository_values: list[SetValue] = field(default_factory=list)  # set after they exist
    add: list[str] = field(default_factory=list)
    add_kernel: list[str] = field(default_factory=list)
    kernel_named: list[str] = field(default_factory=list)  # "set the kernel to linux-azure"
    remove: list[str] = field(default_factory=list)
    features: list[tuple[int, str]] = field(default_factory=list)
    use_case_words: list[tuple[int, str]] = field(default_factory=list)
    present: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    not_applied: list[str] = field(default_factory=list)
    # a product's name asked for in a list of packages that nothing knows ("firefox and
    # Slack"): (start, end, as written), reported unless a later clause adds its package
    products: list[tuple[int, int, str]] = field(default_factory=list)

    def known_names(self) -> frozenset[str]:
        """Every package name the catalog or the library uses (read once)."""
        if self.known is None:
            from oic_ai.tools.verify_packages import known_package_names

            self.known = known_package_names()
        return self.known

    def warn(self, message: str) -> None:
        """Add a warning once."""
        if message not in self.warnings:
            self.warnings.append(message)

    def reject(self, start: int, end: int, reason: str) -> None:
        """Report a span the plan cannot express, and mark it used."""
        quoted = " ".join(self.text.raw(start, end).split()).strip(" ,;.")
        entry = f"'{quoted}' — {reason}"
        if entry not in self.not_applied:
            self.not_applied.append(entry)
        self.text.consume(start, end, "rejected")

    def valid_values(
        self,
        pattern: re.Pattern[str],
        valid: re.Pattern[str],
        invalid: Callable[[str], str],
        *,
        keep_case: bool = True,
    ) -> Iterator[str]:
        """Each value ``pattern`` finds (its ``value`` group) that ``valid`` accepts.

        The match's span is marked used; an invalid value is rejected instead, with
        ``invalid(value)`` as the reason.

        Args:
            pattern: Finds a phrase naming a value ("hostname gw1"); several are read in
                turn ("use gw1 as the hostname" too).
            valid: The value's own syntax.
            invalid: Words the reason for a value that does not fit it.
            keep_case: Read the value as written (else lower-cased).
        """
        for match in self.text.matches(pattern):
            value = self.text.raw(*match.span("value")) if keep_case else match.group("value")
            if not valid.match(value):
                self.reject(*match.span(), invalid(value))
                continue
            self.text.consume(*match.span())
            yield value

    def new_value(
        self,
        pattern: re.Pattern[str] | tuple[re.Pattern[str], ...],
        field: str,
        invalid: Callable[[str], str],
        *,
        current: str,
        already: str,
        keep_case: bool = True,
    ) -> str | None:
        """The last value ``pattern`` names that differs from ``current``, or None.

        A value the registry's ``field`` pattern refuses is rejected (see
        :meth:`valid_values`); a value equal to ``current`` adds the note
        ``"{already} {value}"``.

        Args:
            pattern: Finds a phrase naming a value ("hostname gw1"); several are read in
                turn ("use gw1 as the hostname" too).
            field: The template field whose pattern the value must match (``hostname``).
            invalid: Words the reason for a value that does not fit it.
            current: The base template's value.
            already: The note's opening words ("the hostname is already").
            keep_case: Read the value as written (else lower-cased).
        """
        chosen: str | None = None
        valid = load_targets().pattern(field)
        for each in pattern if isinstance(pattern, tuple) else (pattern,):
            for value in self.valid_values(each, valid, invalid, keep_case=keep_case):
                if value == current:
                    self.notes.append(f"{already} {value}")
                else:
                    chosen = value
        return chosen

    @property
    def current_cmdline(self) -> str:
        """The kernel command line as planned so far."""
        return self.cmdline if self.cmdline is not None else self.facts.kernel.cmdline
