"""What the planner knows of kernel boot parameters: their keys, by the kind of value.

The keys come from the kernel's own list of boot parameters
(Documentation/admin-guide/kernel-parameters.txt), grouped by the kind of value they take:
a CPU list ("2-7", "2,3", "0-3,8"), a size ("1G", "256M") or a count. The kernel rules
read a key of this list followed by a value of its kind as ``key=value`` ("isolcpus 2-7",
:mod:`oic_ai.tools.planner.rules.kernel_words`), and a key removed without its value
("remove i915.force_probe") as an option, never a package.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState

# keys whose value is a CPU list (kernel-parameters.txt, "cpu lists")
CPU_LIST_KEYS = frozenset("isolcpus nohz_full rcu_nocbs irqaffinity kthread_cpus".split())
# one CPU list as the kernel writes it: "2-7", "2,3", "0-3,8"
CPUS = r"\d{1,4}(?:-\d{1,4})?(?:,\d{1,4}(?:-\d{1,4})?)*"
# a range as people say or dictate it: "2-7", "2 to 7", "2 through 7", "2 thru 7"
_RANGE = r"\d{1,4}(?:\s*(?:-|–|\bto\b|\bthrough\b|\bthru\b|\buntil\b|\btill\b)\s*\d{1,4})?"
CPUS_SAID = rf"{_RANGE}(?:\s*,\s*{_RANGE})*"


def kernel_size(said: str) -> str:
    """A size as the kernel writes it: "2MiB", "256 mb", "1g" are ``2M``, ``256M``, ``1G``."""
    size = re.fullmatch(r"(\d+)\s*([kmg])(?:i?b)?", said, re.I)
    return f"{size[1]}{size[2].upper()}" if size else said


def cpu_list(said: str) -> str:
    """The CPU list ``said`` as the kernel writes it: "2 to 7, 9" is ``2-7,9``."""
    said = re.sub(r"\s*(?:-|–|\bto\b|\bthrough\b|\bthru\b|\buntil\b|\btill\b)\s*", "-", said)
    return re.sub(r"\s*,\s*", ",", said.strip())


# keys whose value is a size with a K, M or G suffix ("mem" is left out: "mem 16G" in a
# machine's spec is its memory, never a limit on it)
SIZE_KEYS = frozenset("hugepagesz default_hugepagesz crashkernel cma".split())
# keys whose value is a number (besides those the kernel rule knows: loglevel, panic ...)
COUNT_KEYS = frozenset(
    "hugepages maxcpus nr_cpus loglevel panic consoleblank processor.max_cstate "
    "intel_idle.max_cstate nmi_watchdog".split()
)

# flags the kernel takes without a value (others are read only with a key=value)
FLAGS = frozenset(
    "quiet splash nomodeset ro rw single debug noapic nolapic nosmp noacpi nosplash "
    "earlyprintk ignore_loglevel nokaslr nopti noibrs nosmt nosmap nosmep".split()
)

# a noun for programs after a flag's word: "the debug stuff", "debug tools" (no option)
TOOLS_AFTER = re.compile(
    r"\s+(?:tools?|tooling|utilities|utils|packages?|pkgs|symbols|stuff|things|bits|binaries"
    r"|programs|helpers)\b"
)


def cpu_list_said(state: PlanState, named: str | None) -> str | None:
    """The CPU list "the same cpus" means: the named key's, or the one list there is.

    The options this request adds come first, then the command line's. Several different
    lists (and none named) mean nothing sure: None.
    """
    args = [*state.append_cmdline, *state.current_cmdline.split()]
    values: list[str] = []
    for arg in args:
        key, _, value = arg.partition("=")
        if key not in CPU_LIST_KEYS or not value:
            continue
        cpus = value.split(",")
        # "isolcpus=managed_irq,domain,2,3": the flags before the list are no CPUs
        cpus = [c for c in cpus if re.fullmatch(r"\d{1,4}(?:-\d{1,4})?", c)]
        if not cpus:
            continue
        if named is not None and key == named:
            return ",".join(cpus)
        values.append(",".join(cpus))
    if named is not None:
        return None
    distinct = list(dict.fromkeys(values))
    return distinct[0] if len(distinct) == 1 else None


def is_kernel_key(state: PlanState, word: str) -> bool:
    """A word that can only be a kernel option's key: a known one, or one with "_".

    Debian package names never hold "_" and module parameters are written
    ``module.param`` ("i915.force_probe"); a name the catalog or the library knows stays
    a package.
    """
    word = word.split("=", 1)[0]
    if word in CPU_LIST_KEYS or word in SIZE_KEYS or word in COUNT_KEYS:
        return True
    return "_" in word.strip("_") and word not in state.known_names()


def spoken_keys(keys: frozenset[str]) -> str:
    """A regex of ``keys`` as people say or dictate them: "nohz full", "huge pages".

    A "_" may be said as a space, and "hugepages" as "huge pages" or "huge-pages"; the
    longest keys come first. :func:`key_said` gives the key back.
    """
    forms = []
    for key in sorted(keys, key=len, reverse=True):
        form = re.escape(key).replace("_", r"[\s_]")
        forms.append(form.replace("hugepages", r"huge[\s-]?pages"))
    return "|".join(forms)


def key_said(said: str, keys: frozenset[str]) -> str | None:
    """The key of ``keys`` that ``said`` names ("nohz full" is nohz_full), or None."""
    flat = re.sub(r"[\s_-]+", "", said.lower())
    return next((k for k in keys if k.replace("_", "") == flat), None)
