"""Changes of mind about kernel options inside one request: the last value said wins.

- "add isolcpus=2-3 to the kernel command line, actually 2-5", "hugepages=512, no, 1024":
  a bare value after a word that takes back ("no", "actually", "I mean", "make it")
  replaces the value of the option read just before it, when it has the same shape (a
  CPU list, a count, a size). What was read just before must be the kernel's: "disk 8
  gigs, actually 6" is the disk's.
- "set loglevel=3, no, loglevel=5": one key said twice with two values keeps the value
  said last, whatever order the rules read them in. Keys a command line may hold more
  than once (``console``, a huge page size and its count) are left as they are.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.rules.kernel_params import kernel_size
from oic_ai.tools.planner.state import PlanState

_TAKE_BACK = re.compile(
    r"(?:^|(?<=[\s,;:(\x1f—–-]))(?:no|nope|nah|actually|no\s+wait|wait|sorry|i\s+mean|"
    r"or\s+rather|rather|make\s+(?:it|that))(?:\s*[,:—–-]\s*|\s+)"
    r"(?:(?:actually|make\s+(?:it|that)|use|let'?s\s+say)\s+)?"
    r"(?P<value>\d[0-9a-z,.-]*?)[.,]?(?=\s*(?:$|[,;!?\x1f)]|\.(?:\s|$)|\s+(?:instead|then|"
    r"is\s+(?:enough|fine|better|right)|please|pls)\b))"
)
# the shapes of a value: a CPU list, a count, a size the kernel writes with K, M or G
_SHAPES = (
    re.compile(r"\d{1,4}(?:-\d{1,4})?(?:,\d{1,4}(?:-\d{1,4})?)*"),
    re.compile(r"\d+"),
    re.compile(r"\d+[kmg]", re.I),
)
# keys a command line holds more than once: consoles, and huge page pools (size, count)
_REPEATED = frozenset(("console", "hugepagesz", "hugepages"))


def _shape(value: str) -> int | None:
    value = re.sub(r"(?<=\d)([kmg])i?b$", r"\1", value, flags=re.I)  # "1GiB" is 1G
    # a count is a CPU list too: the narrowest shape that fits comes last
    fitting = [i for i, shape in enumerate(_SHAPES) if shape.fullmatch(value)]
    return fitting[-1] if fitting else None


def _last_claim(state: PlanState, before: int) -> str | None:
    """The owner of what a rule read last before ``before`` (context aside)."""
    read = [(e, o) for s, e, o in state.text.claims if e <= before and o != "context"]
    return max(read)[1] if read else None


def settle_changes_of_mind(state: PlanState) -> None:
    """Keep the value said last for a kernel option the request changed its mind about."""
    text = state.text
    said = text.original.lower()
    for match in text.matches(_TAKE_BACK):
        if _last_claim(state, match.start()) != "kernel":
            continue
        new = match.group("value")
        # the option read last before the take-back: the one whose text is nearest
        found = [
            (said.rfind(arg.lower(), 0, match.start()), index)
            for index, arg in enumerate(state.append_cmdline)
            if "=" in arg
        ]
        found = [f for f in found if f[0] >= 0]
        if not found:
            continue
        index = max(found)[1]
        key, _, old = state.append_cmdline[index].partition("=")
        if key == "console" or _shape(old) is None or _shape(old) != _shape(new):
            continue
        state.append_cmdline[index] = f"{key}={kernel_size(new)}"  # "2MiB" as read is 2M
        text.consume(*match.span())
    _keep_the_last(state)


def _keep_the_last(state: PlanState) -> None:
    said = state.text.original.lower()
    keys: dict[str, list[int]] = {}
    for index, arg in enumerate(state.append_cmdline):
        key = arg.split("=", 1)[0]
        if "=" in arg and key not in _REPEATED:
            keys.setdefault(key, []).append(index)
    dropped: set[int] = set()
    for indexes in keys.values():
        if len(indexes) < 2:
            continue
        at = {i: _said_at(said, state.append_cmdline[i].lower()) for i in indexes}
        last = max(indexes, key=lambda i: (at[i], i))
        dropped |= {i for i in indexes if i != last}
    if dropped:
        kept = [a for i, a in enumerate(state.append_cmdline) if i not in dropped]
        state.append_cmdline[:] = kept


def _said_at(said: str, arg: str) -> int:
    """Where ``arg`` was said last: as written, or its key said in words ("loglevel 3").

    "the pasted cmdline has loglevel=7 ... quiet loglevel down to 3": the value said in
    words after the pasted one is the later one.
    """
    at = said.rfind(arg)
    if at >= 0:
        return at
    key = arg.split("=", 1)[0]
    worded = [m.start() for m in re.finditer(rf"(?<![\w.-]){re.escape(key)}(?![\w.=-])", said)]
    return worded[-1] if worded else -1
