"""Rule: the hostname ("hostname edge-01", "call the host gw1")."""

from __future__ import annotations

import re

from oic_ai.stores.targets import load_targets
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import BE_VALUE, CLAUSE_END, QUOTED_NAME, value_then_label

_MACHINE = r"(?:host|machine|system|device|box|server|node|computer|gateway)"
_HOSTNAME = re.compile(
    # a label qualified by what it is for, then its value: "Hostname for the golden
    # image: gw-factory", "the host name of these boxes should be: edge-07"
    r"\b(?:(?:host\s*name|host-name)\s+(?:for|of|on|across)\s+(?:[\w'-]+\s+){0,5}?[\w'-]+"
    r"(?:\s+(?:should|will|must)\s+be|\s+is)?(?=\s*[:=])"
    r"|(?:host\s*name|host-name)(?:\s+from\s+[\w.-]+)?"  # "from kiosk to plc-7": the new one
    r"(?:\s+(?:" + BE_VALUE + r"|of))?"
    r"\s*[:=]?"
    # a field label: "host: kiosk-1" (not the build machine: "live on the build host: /opt")
    r"|(?<![\w-])(?<!build\s)(?<!build-)host(?=\s*[:=])"
    # "the device name is kiosk-3", "machine-name: gw7": the machine's name is its hostname
    r"|(?:device|machine|box|computer|node|server)[\s-]?name"
    r"(?:\s+" + BE_VALUE + r")?\s*[:=]?"
    rf"|(?:call|name|rename|re-name)\s+(?:the\s+|this\s+|each\s+|every\s+)?{_MACHINE}(?:e?s)?"
    r"(?:\s+(?:to|as))?"
    rf"|(?:the\s+|this\s+|each\s+|every\s+|our\s+)?{_MACHINE}(?:e?s)?\s+(?:should|will|must|shall|is\s+to)"
    r"\s+be\s+(?:called|named|known\s+as)"
    r"|(?:its|their|the\s+(?:machine|box|host|device)'?s?)\s+(?:host\s*)?name\s+(?:should|will|must)\s+be"
    rf"|(?:(?:the\s+)?{_MACHINE}e?s?\s+)?(?:will\s+|should\s+)?(?:come|comes|boot|boots)\s+up\s+as)"
    r"(?:\s*[:=\u2013\u2014]\s*|\s+-\s+|\s+)"
    # "the hostname should come from the serial number": a way to derive a name per
    # device, which a template cannot hold, not a name
     + r"(?!(?:from|should|would|could|must|will|be|come|comes|derived|based|depends?|"
    r"generated|set|unique|different|per|each|every|same|"
    # "the hostname was wrong", "the hostname looks odd": a verb of a statement, not a name
    r"was|were|is|are|isn't|wasn't|has|had|have|does|did|doesn't|didn't|looks|seems|"
    r"stays|remains|can|cannot|can't|may|might|needs|gets|got)(?![\w-]))"
    + r"(?![\"'`]?[/~])"  # a path is no name: "keys on the host: /opt/sb/db.key"
    + QUOTED_NAME
    + CLAUSE_END
    # "make the hostname match the site code": a verb, not a name
    + r"(?!\s+(?:the|a|an|to|of|with|our|its)\b)"
)


# the value before its label: "use kiosk-3 as the hostname", "gw7 for the host name"
_HOSTNAME_AFTER = value_then_label(rf"host\s*name|host-name|{_MACHINE}[\s-]?name")


# "name: vend-ctrl. image name vendco-arm": a bare "name:" opening a sentence, beside the
# image's name said with its own label, is the machine's
_BARE_NAME = re.compile(r"(?:^|(?<=[.;\n])\s*)name\s*[:=]\s*" + QUOTED_NAME + CLAUSE_END)
_IMAGE_NAME_LABEL = re.compile(r"\b(?:image|template)[\s_-]?name\b")


def rule_hostname(state: PlanState) -> None:
    """Set the hostname; a name that is not a valid hostname is reported."""
    bare = (_BARE_NAME,) if _IMAGE_NAME_LABEL.search(state.text.original.lower()) else ()
    name = state.new_value(
        (_HOSTNAME, _HOSTNAME_AFTER, _HOST_SHORT, *bare),
        "hostname",
        _invalid,
        current=state.facts.hostname,
        already="the hostname is already",
        keep_case=True,
    )
    if name is not None:
        state.hostname = name


# terse notes: "host" opening a clause, then one host-shaped word (a digit, '-' or '.' in it)
# that ends it: "..., host elx-edge", "host ipc-el10" ("host it on our mirror", "host nginx
# there" name no host)
_HOST_SHORT = re.compile(
    r"(?:^|(?<=[,;(\x1f+])|(?<=[,;.!?]\s))\s*host\s+"
    r"(?P<value>(?=[\w.-]*[\d.-])[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9])" + CLAUSE_END
)


def _invalid(name: str) -> str:
    return f"{name!r} is not a valid hostname (letters, digits and '-' in dot-separated labels)"


# a sentence about how devices are named, then "call it X": "it" is the device, and X its
# hostname ("Store IT names devices per store, but for the golden image just call it cam-0",
# "Hostname doesn't really matter, call it retail-box")
_NAMED_LIKE_DEVICES = re.compile(
    rf"\b(?:(?:names?|naming|calls?|labels?)\s+(?:the\s+|its\s+|their\s+|our\s+|all\s+|each\s+|every\s+)?"
    rf"{_MACHINE}(?:e?s)?|(?:device|machine|host)\s*-?names?)\b"
    r"(?P<gap>[^.;!?\x1f]{0,80}?)"
    r"\b(?P<call>(?:call|name)\s+it\s+" + QUOTED_NAME + CLAUSE_END + ")"
)


# "whats a hostname? ok whatever, name it flaskpi", "hostname: make it kiosk-12": the
# hostname asked about or spoken of just before, then "call it X", "name it X" or "make it
# X" names it
_HOST_TOPIC = re.compile(r"\bhost[\s-]?names?\b")
_CALL_IT = re.compile(r"\b(?:call|name|make|set)\s+it\s+(?:to\s+)?" + QUOTED_NAME + CLAUSE_END)
# the label alone before it, asked or opened: "hostname? make it X", "hostname - call it X"
_LABEL_ALONE = re.compile(r"\b(?:the\s+)?host[\s-]?name\s*(?:[?:\u2013\u2014-]|\x1f)\s*$")
# "rename store-3 to store-4", "change it from pos-1 to pos-2", "pos-1 -> pos-2": the old
# name is the template's hostname, so the new one is the new hostname
_RENAMED = re.compile(
    r"\b(?:rename|re-name|change|switch|move)\s+(?:it\s+|the\s+host(?:\s*name)?\s+)?"
    r"(?:from\s+)?[\"'`]?(?P<old>[A-Za-z0-9][A-Za-z0-9.-]*)[\"'`]?\s+(?:to|into|as)\s+"
    + QUOTED_NAME
    + CLAUSE_END
    + r"|(?<![\w.-])[\"'`]?(?P<old2>[A-Za-z0-9][A-Za-z0-9.-]*)[\"'`]?\s*(?:->|=>|\u2192)\s*"
    + QUOTED_NAME.replace("(?P<value>", "(?P<value2>")
    + CLAUSE_END
)


def _label_alone(state: PlanState, at: int) -> re.Match[str] | None:
    """The hostname's label alone right before ``at`` ("hostname? make it X")."""
    return _LABEL_ALONE.search(state.text.original.lower(), max(0, at - 40), at)


def _renamed(state: PlanState) -> None:
    """Read "rename OLD to NEW" when OLD is the template's hostname."""
    current = (state.facts.hostname or "").lower()
    if not current:
        return
    valid = load_targets().pattern("hostname")
    for match in state.text.matches(_RENAMED):
        old = match.group("old") or match.group("old2")
        value = match.group("value") or match.group("value2")
        if old.lower() != current or not valid.match(value) or state.hostname:
            continue
        state.text.consume(*match.span(), "hostname")
        state.hostname = value


def _hostname_topic(state: PlanState, at: int) -> bool:
    """True when the hostname was just asked about before ``at``, and no image name is said.

    A question of the request before ``at``, or what was said just before the request
    (the last line of ``state.earlier``: the question cut from it, or the turn before),
    mentions the hostname and gives it no value ("hostname gw-01, and call it edge-img"
    gave the hostname its value: "call it" names the image).
    """
    said = state.text.original.lower()
    if _IMAGE_NAME_LABEL.search(said):
        return False
    last = state.earlier.strip().splitlines()[-1:] if state.earlier.strip() else []
    asked = [*_QUESTION.findall(said[:at]), *(line.lower() for line in last)]
    return any(_HOST_TOPIC.search(line) and not _HOSTNAME.search(line) for line in asked)


_QUESTION = re.compile(r"[^.!?\n]*\?")
# what "it" may stand for: one machine ("the new box", "the file server"), or the image
_ONE_MACHINE = re.compile(
    rf"\b(?:{_MACHINE}|nas|pc|workstation|appliance|router|tower|file\s+server)\b(?![\s-]*name)"
)
_THE_IMAGE = re.compile(r"\b(?:image|template|iso|img|build|artifact|os)\b")


def _a_machine_before(state: PlanState, at: int) -> bool:
    """True when the last thing "it" may stand for before ``at`` is one machine.

    "...an Ubuntu image I can put on the new box. Its job is to share a folder ... Could
    you call it frontdesk-nas?": the box was named last, so "it" is the box and the name
    its hostname. "a server image for the lab, call it lab-img" names the image; so does
    a request that names neither ("name it evc-ctrl"), or one with an image name's label.
    """
    said = state.text.original.lower()
    if _IMAGE_NAME_LABEL.search(said):
        return False
    machines = [m.start() for m in _ONE_MACHINE.finditer(said, 0, at)]
    images = [m.start() for m in _THE_IMAGE.finditer(said, 0, at)]
    return bool(machines) and max(machines) > max(images, default=-1)


def rule_hostname_of_named_devices(state: PlanState) -> None:
    """Set the hostname from "call it X" in a sentence about naming the devices.

    Also when the hostname was asked about or spoken of just before ("whats a hostname?
    ok, name it flaskpi"). Runs before the image name's rule, which reads "call it X"
    everywhere else.
    """
    _renamed(state)
    valid = load_targets().pattern("hostname")
    calls = [(match, match.span("call")) for match in state.text.matches(_NAMED_LIKE_DEVICES)]
    calls += [
        (match, match.span())
        for match in state.text.matches(_CALL_IT)
        if _label_alone(state, match.start())
        or (
            match.group().startswith(("call", "name"))
            and (_hostname_topic(state, match.start()) or _a_machine_before(state, match.start()))
        )
    ]
    for match, span in calls:
        value = match.group("value")
        if not valid.match(value) or value == state.facts.hostname or state.hostname:
            continue
        state.text.consume(*span, "hostname")
        state.hostname = value
        if label := _label_alone(state, span[0]):
            state.text.consume(*label.span(), "hostname")  # the label it answers
