"""Places in a sentence where an unknown word is never a package, whatever verb is near.

Split from :mod:`.package_names`. The package rule takes an unknown, non-English word after
"add", "with" or "need" as a name of the user's own; these are the places where such a word
is something else:

* a device: a network, CAN or serial interface or a disk ("bring up can0", "eth0",
  "ttyUSB1", "nvme0n1"): the kernel's names for devices, never packages;
* a measure right after a quantity ("at 500k bitrate", "4 cores", "2 nics"): what is
  counted;
* the source of a "from" phrase that ends the clause ("from the normal ubuntu repos",
  "from their mirror"): where packages come from, not one of them;
* the subject of a verb of saying ("their docs say", "the wiki recommends"): who says it.

A name the index, the catalog or the library knows is read before these checks, so "from
the proxy, install squid" and "switch from chrony" keep their packages.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Token
from oic_ai.tools.planner.words import ADD_VERBS, REMOVE_VERBS

# the kernel's device names: interfaces (classic and predictable), CAN, serial, disks
_DEVICE = re.compile(
    r"(?:eth|wlan|wwan|can|vcan|slcan|bond|br|veth|vlan|usb|tun|tap|wg|ib|lo"
    r"|en[opsx]\w*?|wl[opsx]\w*?|ww[opsx]\w*?"
    r"|tty|ttys|ttyusb|ttyacm|ttyama|hvc|sd[a-z]|vd[a-z]|xvd[a-z]|nvme\d+n|mmcblk|loop|md)"
    r"\d+(?:p\d+)?"
)
# a quantity right before the word: "500k", "500KiB", "4", "2.5G", "100 mbit"
_QUANTITY_BEFORE = re.compile(r"(?<![\w.-])\d+(?:[.,]\d+)?\s*(?:[kmgt]i?b?|[kmg]bit)?\s+$", re.I)
# "from the normal ubuntu repos": a source phrase of up to four words ending the clause
_SOURCE_BEFORE = re.compile(r"\bfrom\s+(?:[\w'.-]+\s+){0,3}$", re.I)
_CLAUSE_END = re.compile(r"\s*(?:$|[.,;:!?)\n]|\s(?:and|but|so|then)\b)")
_SAYING_AFTER = re.compile(
    r"\s+(?:say|says|said|recommend|recommends|suggest|suggests|state|states|show|shows"
    r"|mention|mentions|explain|explains)\b",
    re.I,
)


def no_package_here(state: PlanState, found: Token | None, token: str) -> bool:
    """Whether ``token`` (the word ``found``) stands where no package name stands."""
    if _DEVICE.fullmatch(token):
        return True  # "bring up can0 at boot", "a static ip on eth0"
    if found is None:
        return False
    text = state.text.original
    before = text[max(0, found.start - 40) : found.start]
    if _QUANTITY_BEFORE.search(before):
        return True  # "at 500k bitrate", "with 4 cores": what the number counts
    source = _SOURCE_BEFORE.search(before)
    if (
        source is not None
        and _CLAUSE_END.match(text, found.end)
        and not set(source.group().lower().split()) & (ADD_VERBS | REMOVE_VERBS)
    ):
        return True  # "from the normal ubuntu repos" ("from that repo install X" installs)
    return bool(_SAYING_AFTER.match(text, found.end))  # "their docs say": who says it
