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

from oic_ai.tools.planner.state import PlanState

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


def settle_kernel_images(state: PlanState) -> None:
    """Move kernel images asked for to the kernel's list, replacing the template's."""
    stock = [p for p in state.facts.kernel.packages if is_kernel_image(p)]
    images = [p for p in state.add if is_kernel_image(p) and p not in stock]
    if not images or not stock:
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
    state.notes.append(f"the kernel {', '.join(images)} replaces {', '.join(stock)}")
