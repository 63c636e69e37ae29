"""A kernel image asked for is the template's kernel: it goes to ``kernel.packages``.

"the PREEMPT_RT kernel that Debian ships (linux-image-rt-amd64) instead of the stock one",
"switch to the realtime kernel", "use kernel-rt": whatever read the words (a capability, a
package name), the kernel image they give replaces the one the template boots, in its
kernel's package list, so an architecture switch later carries it (the applier swaps
amd64 for arm64 there). Packages that only go with a kernel (rt-tests, kernel headers,
kernel-rt-drivers-gpu) stay in the system's list. A template without a kernel package
list keeps the image where it was asked.
"""

from __future__ import annotations

import re

from oic_ai.stores.capability_catalog import Capability
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item

# the packages that are a kernel to boot, in the families the library has
_IMAGE = re.compile(
    # (Ubuntu's metapackages "linux-realtime", "linux-generic" pull an image and its headers
    # in: they stay system packages)
    r"linux-image-(?!extra\b|extra-)[a-z0-9][\w.+-]*|kernel(?:-rt|-lts|-hwe|-uki)?"
)
# "instead of the stock one", "rather than the default kernel": the kernel it replaces
_INSTEAD = re.compile(
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|replacing)\s+(?:the\s+)?"
    r"(?:stock|default|standard|generic|regular|normal|usual|current|distro(?:'s)?|vanilla|"
    r"plain|existing|old)\s+(?:one|kernel|image)\b"
)


def is_kernel_image(name: str) -> bool:
    """True for a package that is a kernel to boot ("linux-image-rt-amd64", "kernel-rt")."""
    return _IMAGE.fullmatch(name) is not None


# a kernel package's name ("linux-azure", "linux-image-rt-amd64", "kernel-rt"), not what
# goes with a kernel (headers, tools, firmware, modules, its source)
KERNEL_NAME = (
    r"(?:linux|kernel)-(?!(?:headers|tools|firmware|modules|source|doc|libc|base|cloud-tools|"
    r"devel|hwe-tools|crashdump)\b)[a-z0-9][a-z0-9.+-]*[a-z0-9]"
)
# the request says the name is the kernel: "the linux-azure kernel", "linux-aws as the
# kernel", "kernel package linux-kvm", "kernel: linux-gcp"
_SAID_AS_KERNEL = re.compile(
    rf"(?<![\w.+-])(?P<a>{KERNEL_NAME})\s+(?:as\s+(?:the|its|our|a)\s+)?kernel\b"
    r"(?!\s*(?:module|modules|param|parameters?|options?|args|arguments|command|cmdline|"
    r"headers|source|config|tree|version)\b)"
    rf"|\bkernel(?:\s+(?:package|pkg|image))?\s*(?::|=|\bis\b)?\s*(?P<b>{KERNEL_NAME})(?![\w.+-])"
)


def said_as_kernel(state: PlanState) -> set[str]:
    """The names the request calls the kernel ("the linux-azure kernel")."""
    said = state.text.original.lower()
    return {m.group("a") or m.group("b") for m in _SAID_AS_KERNEL.finditer(said)}


def settle_kernel_images(state: PlanState) -> None:
    """Move kernel images asked for to the kernel's list, replacing the template's."""
    stock = [p for p in state.facts.kernel.packages if is_kernel_image(p)]
    named = said_as_kernel(state) | set(state.kernel_named)
    images = [p for p in state.add if (is_kernel_image(p) or p in named) and p not in stock]
    if not stock:
        # a template without a kernel list: only a name said to be the kernel goes to one
        # ("the 64k page kernel (kernel-64k)"); a package that is a kernel stays asked-for
        images = [p for p in images if p in named]
    if not images:
        return
    state.add[:] = [p for p in state.add if p not in images]
    for image in images:
        if image not in state.add_kernel:
            state.add_kernel.append(image)
    for old in stock:
        if old not in state.remove:
            state.remove.append(old)
    for match in state.text.matches(_INSTEAD):
        state.text.consume(*match.span())
    if stock:
        state.notes.append(f"the kernel {', '.join(images)} replaces {', '.join(stock)}")


# "switch the kernel package to the rt one", "set the kernel to linux-azure", "the kernel
# should be the cloud flavour", "kernel: linux-gcp", "use the rt flavour of the kernel":
# the kernel said to become another, by its name or by a word for its flavour
_WHAT = (
    rf"(?:(?P<name>{KERNEL_NAME})(?![\w.+-])|(?:the|a|an)\s+(?P<flavour>[a-z][\w+-]*(?:\s+[a-z][\w+-]*)?)"
    r"\s+(?:one|flavou?r|variant|build|edition|kernel|version)\b)"
)
_KERNEL_NOUN = r"kernel(?:\s+(?:package|pkg|image|flavou?r|variant|build))?"
_SET_TO = re.compile(
    r"\b(?:(?:set|switch|change|make|move|swap|replace|turn|flip)\s+(?:the\s+|our\s+|its\s+)?"
    rf"{_KERNEL_NOUN}\s+(?:over\s+|back\s+)?(?:to|for|with|into)\s+"
    rf"|(?:the\s+)?{_KERNEL_NOUN}\s+(?:should|must|needs\s+to|has\s+to|will|shall)\s+be\s+"
    rf"|(?:^|(?<=[\n.;,]\s)|(?<=\n))(?:the\s+)?{_KERNEL_NOUN}\s*[:=]\s*){_WHAT}"
    r"|\b(?:use|want|take|pick|choose)\s+the\s+(?P<flavour2>[a-z][\w+-]*)\s+(?:one|flavou?r|variant|"
    r"build)\s+(?:of|for)\s+the\s+kernel\b"
)


# "the 64k page kernel (kernel-64k)", "the lowlatency kernel (linux-image-lowlatency-hwe-24.04)":
# the kernel's package in parentheses (read in the request as written: a size reader may
# have taken the "64k" of "kernel-64k" as a model's suffix)
_IN_PARENTHESES = re.compile(rf"\bkernel\s*\(\s*(?P<name>{KERNEL_NAME})\s*\)")


def _parenthesized(state: PlanState) -> list[tuple[int, int, str]]:
    said = state.text.original.lower()
    found = []
    for match in _IN_PARENTHESES.finditer(said):
        opening = said.index("(", match.start())
        if state.text.work[match.start() : opening + 1] == said[match.start() : opening + 1]:
            found.append((match.start(), match.end(), match.group("name")))
    return found


def _set_item(state: PlanState, start: int, end: int) -> Item:
    """The words of ``start:end`` as an item that sets the kernel."""
    from oic_ai.tools.planner.text import tokenize

    words = [t for t in tokenize(state.text.work) if t.kind == "word" and start <= t.start < end]
    return Item("add", words, "set")


def kernel_set_to(state: PlanState) -> list[tuple[Item, list[Capability]]]:
    """The kernel the request sets by a flavour's word, as items and the capabilities read.

    A name ("set the kernel to linux-azure") is added here and settles into the kernel's
    list with :func:`settle_kernel_images`. A flavour ("the rt one") is the catalog's
    phrase "<flavour> kernel" ("rt kernel": the real-time capability), for the caller to
    apply, when it gives the target a kernel image; otherwise the clause is reported.
    """
    from oic_ai.tools.planner.rules.capability_words import find_capabilities
    from oic_ai.tools.planner.rules.package_apply import add_packages

    found: list[tuple[Item, list[Capability]]] = []
    target = state.target
    for start, end, name in _parenthesized(state):
        add_packages(state, _set_item(state, start, end), [name], name)
        state.text.consume(start, end)
        state.kernel_named.append(name)
    for match in state.text.matches(_SET_TO):
        item = _set_item(state, *match.span())
        if match.group("name"):
            name = match.group("name")
            add_packages(state, item, [name], name)
            state.text.consume(*match.span())
            state.kernel_named.append(name)
            continue
        flavour = match.group("flavour") or match.group("flavour2")
        capabilities = list(find_capabilities(state.catalog, f"{flavour} kernel"))
        images = [
            p
            for c in capabilities
            for p in (c.packages_for(target.os, target.dist, target.arch) if target.known else ())
            if is_kernel_image(p)
        ]
        if images:
            found.append((item, capabilities))
        elif target.known:
            state.reject(
                *match.span(),
                f"no {flavour} kernel is known for {target.dist}; name its package "
                "(for example 'set the kernel to linux-image-NAME')",
            )
    return found
