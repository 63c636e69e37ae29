"""Items named, then taken away with a pronoun: "why is qemu-kvm in there?" ... "Take it out".

A question (or a remark) names items of the template: its packages ("why is rsyslog in the
image?") or kernel options written out ("why are console=ttyS0,115200 and loglevel=7 on
the cmdline?"). The words that follow, in the same request or the next turn, take them
away with a pronoun: "drop both of those then", "Take it out please", "drop those two".
:func:`resolve_pointed` writes the names in the pronoun's place ("remove console=ttyS0,115200
and loglevel=7"), so every rule reads the removal as if the names were said.

The pronoun must fit what was named: "it" / "that one" one item, "both" / "those two" two,
"those three" three; "them" / "those" any number. Words that name an item themselves
between the question and the pronoun leave the pronoun to the planner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# a removal of what a pronoun stands for; "take", "rip", "pull" need their "out"
_POINTED = re.compile(
    r"\b(?:(?P<verb>drop|remove|delete|ditch|nuke|scrap|strip|lose|get\s+rid\s+of|rip|pull|yank|"
    r"take)\s+)"
    r"(?P<it>both(?:\s+of\s+(?:them|those|these))?|(?:those|these|the)\s+(?P<n>two|three|four)"
    r"|them(?:\s+(?:both|all))?|all\s+of\s+(?:them|those|these)|those|these"
    r"|(?:it|that|this)(?:\s+one)?)"
    r"(?P<out>\s+(?:back\s+)?(?:out|off|away))?(?![\w=-])",
    re.IGNORECASE,
)
_NEEDS_OUT = frozenset(("rip", "pull", "yank", "take"))
_COUNTS = {"two": 2, "three": 3, "four": 4}
_OPTION = re.compile(
    r"(?<![\w.=/-])[a-z_][a-z0-9_.-]*=[^\s,;?!()'\"`]+(?:,[^\s,;?!()'\"`=]+)*", re.I
)


def named_items(texts: Sequence[str], template: str, *, asked: bool = False) -> list[str]:
    """The packages and kernel options the last piece of the texts that names any names.

    A piece ends at a sentence's end or a colon: in "Audit finding AF-12: why is rsyslog
    in the image?" the question names rsyslog, and the heading's "Audit" is no package.
    With ``asked``, only a piece that asks about them counts ("why is X there?", "I don't
    see why X belongs"): "mosquitto not needed, remove it" is the planner's to read.
    """
    from oic_ai.stores.template_model import template_from_text
    from oic_ai.tools.verify_packages import known_package_names

    packages = set(template_from_text(template).all_packages)
    known = known_package_names()
    last: list[str] = []
    for text in texts:
        for piece in _PIECE.split(text):
            if asked and not _ASKED.search(piece):
                continue
            found: list[tuple[int, str]] = []
            for match in _OPTION.finditer(piece):
                found.append((match.start(), match.group().rstrip(".")))
            for word in re.finditer(r"[a-z0-9][a-z0-9.+-]*[a-z0-9+]", piece.lower()):
                # a package the template has, or a known one spelled like no English word
                # ("qemu-kvm"): the question may ask about one that is not there
                name = word.group()
                if any(s <= word.start() < s + len(o) for s, o in found):
                    continue  # a part of an option ("console=ttyS0,115200")
                if name in packages or name in known and "-" in name or _package_like(name):
                    found.append((word.start(), name))
            if found:
                last = list(dict.fromkeys(name for _, name in sorted(found)))
    return last


# where a piece of a request ends (a sentence's end, a colon, a semicolon); a question
# mark stays with its piece, which it marks as asking
_PIECE = re.compile(r"(?<=\?)\s+|[.!;:](?:\s+|$)")
_ASKED = re.compile(
    r"\?\s*$|\b(?:why|what|how\s+come|what\s+for)\b|\b(?:do|does)\s+(?:we|i|it|you)\s+(?:really\s+)?need\b",
    re.IGNORECASE,
)


def _names_a_package(text: str, template: str) -> bool:
    """True when ``text`` names a package anyone knows, or a kernel option."""
    from oic_ai.tools.verify_packages import known_package_names

    known = known_package_names()
    words = re.findall(r"[a-z0-9][a-z0-9.+-]*[a-z0-9+]", text.lower())
    return bool(named_items([text], template)) or any(w in known and not _english(w) for w in words)


def _english(word: str) -> bool:
    from oic_ai.tools.planner.lexicon import is_english

    return is_english(word)


def _package_like(word: str) -> bool:
    """A hyphenated name no English compound is ("setools-console", not "read-only").

    Only a removal reads it, and removing a name the template lacks changes nothing, so a
    name nobody knows is no invention here.
    """
    from oic_ai.tools.planner.lexicon import is_english

    parts = word.split("-")
    if len(parts) < 2 or not all(p[:1].isalpha() for p in parts):
        return False
    return not all(is_english(p) for p in parts)


def _fits(match: re.Match[str], count: int) -> bool:
    said = match.group("it").lower()
    if match.group("verb").lower() in _NEEDS_OUT and not match.group("out"):
        return False  # "take it" is no removal
    if said.startswith("both"):
        return count == 2
    if match.group("n"):
        return count == _COUNTS[match.group("n").lower()]
    if said.split()[0] in ("it", "that", "this"):
        return count == 1
    return count >= 1


def resolve_pointed(reply: str, named: Sequence[str], template: str) -> str:
    """``reply`` with its pronoun removal naming what was named before it, or as is.

    ``named`` is what the turn before named; items the reply names before the pronoun
    (a question or remark of its own) come first.
    """
    match = _POINTED.search(reply)
    if match is None:
        return reply
    before = reply[: match.start()]
    own = named_items([before], template, asked=True)
    if not own and _names_a_package(before, template):
        return reply  # "mosquitto is not needed, remove it": the planner reads that one
    items = own or list(named)
    if not items or not _fits(match, len(items)):
        return reply
    said = "remove " + " and ".join(items)
    return reply[: match.start()] + said + reply[match.end() :]
