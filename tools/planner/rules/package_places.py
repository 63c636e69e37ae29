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
* the subject of a verb of saying ("their docs say", "the wiki recommends"): who says it;
* an adverb made with "-wise" or "-ish" ("pkg-wise", "security-wise", "small-ish");
* a label that opens a line before a colon ("tkaplan: ssh-ed25519 AAAA...", "lane 3: ..."):
  what the rest of the line is about;
* what a machine reaches over the network: the object of "register with", "connect to",
  "report to", "enroll in", "phone home to" ("register with our orchestrator on first
  boot"): a service somewhere else, not software in the image;
* a library's upstream name on a Debian target ("plus libmodbus", "install libcurl"):
  Debian ships a library under its name and soversion and its headers in a -dev package,
  never under the bare name, so the name is reported, not guessed ("install the package
  libfoo" still adds one's own).

One place holds even for a known name (:func:`worked_on`): the tool a team does a job
with ("the fstab we do with ansible", "we manage the hosts with puppet") and the thing
they do with it ("the fstab" there): how the job is done elsewhere, not what to install.

A name the index, the catalog or the library knows is read before the other checks, so "from
the proxy, install squid" and "switch from chrony" keep their packages.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState, family_of
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


_ADVERB = re.compile(r"[a-z0-9]+-(?:wise|ish)")
# a word opening a line (after a bullet) right before a colon and more on that line
_LINE_LABEL_BEFORE = re.compile(r"(?:^|\n)[ \t]*(?:[-*\u2022][ \t]*)?$")
_LINE_LABEL_AFTER = re.compile(r"[ \t]*:[ \t]+\S")
# "register with our orchestrator", "connect to the broker", "report to the fleet server"
_REACHED_BEFORE = re.compile(
    r"\b(?:register|registers|registered|registering|connect|connects|connecting|report"
    r"|reports|reporting|enrol|enroll|enrolls|enrolled|enrolling|phone\s+home|check\s+in"
    r"|talk|talks|sync|syncs|join|joins)\s+(?:with|to|in|into|at|against)?\s*"
    r"(?:the\s+|our\s+|their\s+|my\s+|your\s+|a\s+|an\s+)?(?:[\w.-]+\s+)?$",
    re.I,
)


def no_package_here(state: PlanState, found: Token | None, token: str) -> bool:
    """Whether ``token`` (the word ``found``) stands where no package name stands."""
    if _DEVICE.fullmatch(token):
        return True  # "bring up can0 at boot", "a static ip on eth0"
    if _ADVERB.fullmatch(token):
        return True  # "what did i ask for pkg-wise": an adverb
    if found is None:
        return False
    text = state.text.original
    before = text[max(0, found.start - 40) : found.start]
    if _LINE_LABEL_BEFORE.search(before) and _LINE_LABEL_AFTER.match(text, found.end):
        return True  # "tkaplan: ssh-ed25519 AAAA...": the label of what the line says
    if _REACHED_BEFORE.search(before):
        return True  # "register with our orchestrator": a service the machine reaches
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


# "libmodbus", "libcurl", "libusb": a library's name with no soversion and no suffix
_UPSTREAM_LIBRARY = re.compile(r"lib[a-z][a-z+]*[a-z+]")


def upstream_library(state: PlanState, found: Token, written: str) -> bool:
    """Report an unknown library's upstream name on a Debian target ("plus libmodbus")."""
    target = state.target
    if not _UPSTREAM_LIBRARY.fullmatch(written) or family_of(target.os, target.dist) != "deb":
        return False
    state.reject(
        found.start,
        found.end,
        f"{written!r} is a library's name; Debian packages a library under its name and "
        f"soversion ({written}<N>) and its headers in a -dev package: name the one the image "
        f"needs, or 'install the package {written}' if your own repository has it",
    )
    return True


# a team's verb of doing a job: "we do", "they manage", "ops will handle", "I configure"
_DOER = (
    r"(?:we|they|i|you|ops|it|our\s+\w+|the\s+\w+\s+team)\s+"
    r"(?:(?:usually|already|always|normally|will|would|can|just|then|also|still|do|'ll)\s+)*"
    r"(?:do|does|did|manage|manages|handle|handles|configure|configures|deploy|deploys"
    r"|provision|provisions|automate|automates|mount|mounts|orchestrate|orchestrates"
    r"|maintain|maintains|template|templates|push|pushes|roll\s+out|rolls\s+out|set\s+up"
    r"|sets\s+up|write|writes|generate|generates|take\s+care\s+of|takes\s+care\s+of"
    # "we make the rules later with Ansible": a job made afterwards, once the image runs
    # ("we build the firmware with cmake" says what the build host needs: no job elsewhere)
    r"|(?:make|makes|build|builds|create|creates|apply|applies)(?=[^.;:,\n]{0,30}?\b"
    r"(?:later|afterwards|after\s+(?:that|deployment|the\s+install)|ourselves|themselves)\b))\b"
)
# "... we do with ansible", "we manage the hosts with puppet": the tool the job is done with
_TOOL_BEFORE = re.compile(
    rf"\b(?P<job>{_DOER}[^.;:,\n]{{0,40}}?)\b(?:with|via|using|through)\s+(?:the\s+|our\s+)?$",
    re.I,
)
# "the fstab we do with ansible", "the mounts they handle": what the job is done on
_JOB_AFTER = re.compile(rf"\s+{_DOER}", re.I)


def worked_on(state: PlanState, found: Token | None) -> bool:
    """Whether the word ``found`` is a job a team does elsewhere, or the tool it does it with.

    "the fstab we do with ansible", "we manage the hosts with puppet": neither is asked
    for in the image, even where a package index knows the tool's name.
    """
    if found is None:
        return False
    text = state.text.original
    line_start = max(text.rfind("\n", 0, found.start) + 1, found.start - 80)
    before = text[line_start : found.start]
    tool = _TOOL_BEFORE.search(before)
    if tool is not None and not set(tool.group("job").lower().split()) & ADD_VERBS:
        return True
    if _ELSEWHERE_AFTER.match(text, found.end) or _OTHER_MACHINE_BEFORE.search(before):
        return True  # "python on their laptops", "the build server has docker"
    if _LEFT_BEFORE.search(before) or (
        _TRIED_BEFORE.search(before) and _GAVE_UP_AFTER.match(text, found.end)
    ):
        return True  # "we tried podman but went back", "we compared it with yocto"
    return bool(_JOB_AFTER.match(text, found.end))


# machines that are not the image: the user's own, the build host, a server elsewhere
_OTHER_MACHINE = (
    r"(?:(?:own\s+)?(?:laptops?|desktops?|notebooks?|workstations?|macs?|pcs?)"
    r"|build\s+(?:servers?|hosts?|machines?|boxes)|ci\s+(?:servers?|runners?|hosts?)"
    r"|(?:central|separate|dedicated|remote|management|monitoring)\s+(?:servers?|hosts?|boxes)"
    r"|other\s+(?:boards?|machines?|servers?|boxes|hosts?))"
)
# "python on their laptops", "htop is what I use on my desktop": in the same clause
_ELSEWHERE_AFTER = re.compile(
    rf"[^.;,\n]{{0,40}}?\b(?:on|in|at)\s+(?:my|our|their|his|her|your|the)\s+{_OTHER_MACHINE}\b",
    re.I,
)
# "the build server has docker", "our laptops run htop": another machine is the subject
_OTHER_MACHINE_BEFORE = re.compile(
    rf"\b(?:the|our|their|my|your)\s+{_OTHER_MACHINE}\s+(?:(?:already|also|all)\s+)?"
    r"(?:has|have|had|uses?|used|runs?|ran)\s+(?:(?:the|a|an)\s+)?$",
    re.I,
)
# a name left behind or only weighed: "we tried podman but went back", "we compared it with
# yocto", "we moved away from snap", "they hate systemd"
_LEFT_BEFORE = re.compile(
    r"\b(?:used\s+to\s+(?:use|run|have)|moved\s+(?:away\s+)?from|migrat\w*\s+(?:away\s+)?from"
    r"|compared\s+(?:it\s+|this\s+|them\s+)?(?:with|to|against)|hates?|dislikes?"
    r"|can'?t\s+stand)\s+(?:the\s+)?$",
    re.I,
)
_TRIED_BEFORE = re.compile(r"\b(?:tried|tested|evaluated)\s+(?:out\s+)?(?:the\s+)?$", re.I)
_GAVE_UP_AFTER = re.compile(
    r"[^.;\n]{0,40}?\b(?:but|went\s+back|didn'?t|did\s+not|failed|dropped|gave\s+up)\b", re.I
)
