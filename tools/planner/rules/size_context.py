"""The sizes a request only says something about: turned down, or a device's own capacity.

"50 gig would eat my thin pool, 20 gig pls": the size turned down is context. "The machines
have 4GB ram and a 64GB ssd. Make the image 20 gigabytes": the device's capacity is context.
Alone, either is still read (the box's eMMC size is the disk's); the disk rule asks here.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.clauses import split_clauses
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import SIZE_VERDICT

# a size the request turns down: "50 gig would eat my thin pool", "64GB is overkill"
_DECLINED = re.compile(
    r"\s*(?:would|will|'d|is|was|'s|seems?|sounds?|feels?)\s+(?:\w+\s+)?"
    r"(?:eat|fill|hog|blow|exceed|swamp|kill|too\s+(?:big|much|large|small|little)|"
    r"overkill|way\s+too|not\s+fit|too\s+(?:big|much))\b"
    # a verdict with no verb: "4 gig too small", "8G not enough"
    rf"|{SIZE_VERDICT}"
)
# the device's own capacity, not the image's: "the drives are 256GB", "PCs have 256 GB SSDs"
_CAPACITY_BEFORE = re.compile(
    r"\b(?:drives?|disks?|ssds?|hdds?|nvmes?|emmcs?|cards?|pcs?|machines?|boxes|box|devices?|"
    r"laptops?|servers?|nodes?|hosts?)"
    # where the device is: "the eMMC on these modules is 64 gig"
    r"(?:\s+(?:on|in|of)\s+(?:the|these|those|our|this|that|each|every)\s+[\w-]+)?"
    r"\s+(?:are|is|have|has|come\s+with)\s+"
    r"(?:a\s+|an\s+|only\s+|just\s+|about\s+)?$"
)
_CAPACITY_AFTER = re.compile(
    r"\s*(?:ssds?|hdds?|nvmes?|emmcs?|(?:hard\s+)?drives?|sd\s+cards?|disks?|flash)\b"
)
# "have a 64GB ssd", "have 4GB ram and a 64GB ssd": the last of what a device has
_HAS_BEFORE = re.compile(
    r"\b(?:has|have|with|got|come\s+with)\s+(?:[^.;!?\n\x1f]{0,40}?(?:,|\band)\s+)?"
    r"(?:a\s+|an\s+)?$"
)


_DECLINED_ONLY = "says which size is wrong, not which to use; try 'make the disk 16GiB'"


def asked_sizes(state: PlanState, left: list[re.Match[str]]) -> list[re.Match[str]]:
    """The sizes left that ask for something, when one of several is only said about.

    "50 gig would eat my thin pool, 20 gig pls": the size turned down is context. "The hard
    drives are 256GB, can the image use about 100 gigabytes of that?": the device's
    capacity is context. Alone, either is still read (the box's eMMC size is the disk's).
    """
    text = state.text
    said_about = []
    for match in left:
        start, end = match.span("size")
        if start in state.revised:
            continue  # "4 gig too small, make it 12": the revised value is asked for
        before = text.work[max(0, start - 40) : start]
        if (
            _DECLINED.match(text.work, end)
            or _CAPACITY_BEFORE.search(before)
            or (_HAS_BEFORE.search(before) and _CAPACITY_AFTER.match(text.work, end))
        ):
            said_about.append(match)
    if not said_about:
        return left
    clauses = split_clauses(text.original)
    read = state.disk_size is not None or any(o == "disk size" for *_, o in text.claims)
    if len(said_about) == len(left) and not read:
        # alone, a device's capacity is the disk's; a size turned down asks for none
        declined = [m for m in said_about if _DECLINED.match(text.work, m.end("size"))]
        for match in declined:
            start, end = match.span("size")
            end = next((c.end for c in clauses if c.start <= start < c.end), end)
            state.reject(start, end, _DECLINED_ONLY)
        return [m for m in left if m not in declined]
    for match in said_about:
        start, end = match.span("size")
        if _DECLINED.match(text.work, end):  # why it is turned down: the rest of its clause
            end = next((c.end for c in clauses if c.start <= start < c.end), end)
        elif device := _CAPACITY_AFTER.match(text.work, end):
            end = device.end()  # "a 128GB nvme": the device is context with its size
        text.consume(start, end, "context")
    return [m for m in left if m not in said_about]
