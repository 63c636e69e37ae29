"""Package sentences with a condition or a remark: "if X is in there, remove it".

Split from :mod:`packages` (which walks the request's items) to keep both short.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from oic_ai.stores.capability_catalog import Capability, words
from oic_ai.tools.edit_plan import DeleteValue
from oic_ai.tools.planner.lexicon import is_english
from oic_ai.tools.planner.rules.capability_words import covered_words, find_capabilities
from oic_ai.tools.planner.rules.package_apply import apply_capabilities
from oic_ai.tools.planner.rules.package_items import only_known
from oic_ai.tools.planner.rules.package_names import REFLEXIVE, known
from oic_ai.tools.planner.rules.package_sentences import NAME
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, Token, split_items, tokenize
from oic_ai.tools.planner.words import ADD_VERBS, FILLER, TAKE_OUT

# "if tcpdump, socat or reportbug are in there, remove them", "if qemu-kvm is in the package
# list, take it out" (read as "remove it"): a removal of whichever of the names is there
_IF_THERE = re.compile(
    rf"\bif\s+(?:the\s+)?(?P<names>(?:{NAME})(?:\s*(?:,|\band\b|\bor\b|&)\s*(?:{NAME}))*)"
    r"\s+(?:is|are|'s)\s+(?:still\s+|already\s+)?"
    r"(?:in\s+(?:there|it|the\s+(?:image|template|package\s+list|packages?|list|build))"
    r"|installed|included|present|there)"
    r"\s*,?\s*(?:then\s+)?(?:please\s+)?"
    r"(?:remove|drop|delete|purge|uninstall|get\s+rid\s+of)\s+(?:it|them|those|that)\b"
    r"(?:\s+(?:please|too|as\s+well))?"
)

Resolve = Callable[[PlanState, Item], None]


def conditional_removals(state: PlanState, resolve: Resolve) -> None:
    """Remove the packages a condition on their presence names ("if X is in there, drop it").

    Each name is removed when the template has it; one it does not have is noted as absent,
    as "remove X" would note it. ``resolve`` reads one item (the package rule's reading).
    """
    for match in state.text.matches(_IF_THERE):
        start, end = match.span("names")
        tokens = [t for t in tokenize(state.text.work) if start <= t.start < end]
        before = len(state.text.claims)
        for item in split_items(_or_as_comma(tokens)):
            if any(w not in FILLER for w in item.words):
                resolve(state, Item("remove", item.tokens, "remove"))
        if len(state.text.claims) > before:
            state.text.consume(*match.span())


# "if htop isn't there, add it", "if jq and yq are missing, install them", "if there's no
# htop, add it": an addition of the names (one already there is noted as present, as "add X"
# notes it); said the other way round ("add htop if it's missing"), the item reading takes it
_NAMES_OR = rf"(?:{NAME})(?:\s*(?:,|\band\b|\bor\b|&|/)\s*(?:{NAME}))*"
_WHERE = (
    r"(?:(?:in\s+)?there|installed|included|present"
    r"|in(?:\s+(?:it|the\s+(?:image|template|package\s+list|packages?|list|build)))?)"
)
_IF_MISSING = re.compile(
    r"\b(?:if|in\s+case)\s+(?:"
    rf"(?:the\s+)?(?P<names>{_NAMES_OR})\s+(?:"
    r"(?:is|are|['\u2019]s)\s+(?:still\s+)?"
    rf"(?:missing|absent|not\s+(?:(?:already|yet)\s+)?{_WHERE})"
    rf"|(?:isn['\u2019]?t|aren['\u2019]?t)\s+(?:(?:already|yet)\s+)?{_WHERE})"
    rf"|there(?:\s+is|['\u2019]s|s)\s+no\s+(?P<after_no>{_NAMES_OR}))"
    r"\s*,?\s*(?:then\s+)?(?:please\s+|pls\s+|just\s+)?"
    r"(?:add|install|include|put\s+in|throw\s+in)\s+(?:it|them|those|that)\b"
    r"(?:\s+(?:please|too|as\s+well))?"
)


def conditional_additions(state: PlanState, resolve: Resolve) -> None:
    """Add the packages a condition on their absence names ("if X isn't there, add it").

    Each name is added (the template's own are noted as already present); ``resolve``
    reads one item (the package rule's reading).
    """
    for match in state.text.matches(_IF_MISSING):
        group = "names" if match.group("names") else "after_no"
        start, end = match.span(group)
        tokens = [t for t in tokenize(state.text.work) if start <= t.start < end]
        before = len(state.text.claims)
        for item in split_items(_or_as_comma(_plus_as_comma(tokens))):
            if any(w not in FILLER for w in item.words):
                resolve(state, Item("add", item.tokens, "add"))
        if len(state.text.claims) > before:
            state.text.consume(*match.span())


def _or_as_comma(tokens: Sequence[Token]) -> list[Token]:
    """``tokens`` with each "or" between names read as a comma."""
    return [
        Token("sep", ",", t.start, t.end) if t.kind == "word" and t.text == "or" else t
        for t in tokens
    ]


def done_by_themselves(state: PlanState, items: Sequence[Item], index: int) -> bool:
    """Read "(the app X) we install ourselves" as a remark: who installs it, not a package.

    The item is a verb's reflexive pronoun alone; the item right before it, when it has
    no verb, is the verb's object said first ("the charger app 'x' we install ourselves").
    """
    item = items[index]
    if not item.verb or not all(w in REFLEXIVE or w in FILLER for w in item.words):
        return False
    if not any(w in REFLEXIVE for w in item.words):
        return False
    state.text.consume(*item.span, "context")
    if index and items[index - 1].mode in ("none", "aside") and not items[index - 1].verb:
        before = items[index - 1]
        if "." not in state.text.work[before.span[1] : item.span[0]]:
            state.text.consume(*before.span, "context")
    return True


# what may follow "to" after names without making it a purpose: where the names go
_WHERE_TO = frozenset("the a an our their its your my this that these those it them".split())


def without_purpose(state: PlanState, item: Item) -> Item:
    """``item`` without the purpose said after its names ("chrony to discipline the clock").

    An infinitive after known names says what they are for: the names are the item, the
    purpose is context. "add tcpdump to it", "nginx to the image": where, kept whole.
    """
    words = item.words
    if item.mode not in ("add", "remove") or "to" not in words[1:]:
        return item
    at = words.index("to", 1)
    head = Item(item.mode, item.tokens[:at], item.verb, item.aside_by)
    after = words[at + 1] if at + 1 < len(words) else ""
    if not after or after in _WHERE_TO or not only_known(state, head):
        return item
    state.text.consume(item.tokens[at].start, item.span[1], "context")
    return head


def capability_in_parentheses(state: PlanState, head: Item, item: Item) -> bool:
    """Read a description whose parenthesis names its capability ("printer support (CUPS)").

    The description ("receipt printer support") holds a word the capability does not
    cover ("receipt"), so alone it is unclear; the parenthesis right after it is nothing
    but a phrase of a capability the description also names: that capability is meant.
    A statement of what the machine does ("it drives the receipt printers (CUPS)") is
    read the same way when it shares a word with what the catalog says of that one
    capability.
    """
    between = state.text.original[head.span[1] : item.span[0]]
    if head.mode not in ("add", "remove", "none") or not between.strip().startswith("("):
        return False
    content = [w for w in item.words if w not in FILLER]
    if not content or ")" in between:
        return False
    inner = find_capabilities(state.catalog, " ".join(content))
    if not inner or not all(covered_words(inner, content)):
        return False
    if head.mode == "none":
        # "it drives the receipt printers (CUPS)": what the machine does, and the software
        # for it named in the parenthesis; the description shares a word with what the
        # catalog says of that software (its note or its phrases)
        shared = [c for c in inner if _describes(head, c)]
        head = Item("add", head.tokens, "(")
    else:
        named = {c.name for c in find_capabilities(state.catalog, " ".join(head.words))}
        shared = [c for c in inner if c.name in named]
    if len(shared) != 1:
        return False
    apply_capabilities(state, head, shared)
    state.text.consume(*item.span)
    return True


def _describes(head: Item, capability: Capability) -> bool:
    """Whether a content word of ``head`` is a word of the capability's note or phrases."""
    said = {
        w.removesuffix("s")
        for text in (capability.note, capability.name, *capability.synonyms)
        for w in re.findall(r"[a-z][a-z0-9-]+", text.lower())
    }
    content = [w for w in head.words if w not in FILLER and len(w) > 3 and w.isalpha()]
    return any(w.removesuffix("s") in said for w in content)


# a verb that states what its subject has or does: "mkosi also has Hostname=...", "our old
# builder uses squashfs"
_STATED = re.compile(
    r"\s+(?:(?:also|still|just|already|only|even|currently|then)\s+)?"
    r"(?:has|had|uses|used|does|did|says|said|supports|ships|shipped|sets|builds|built|makes"
    r"|made|writes|wrote|produces|produced|creates|created|generates|generated|reads|calls"
    r"|puts|lets|gives|gave)\b"
)


# what things do, after a plural subject: "logs ship to splunk", "images get pushed out"
_DO = re.compile(
    r"\s+(?:(?:also|still|just|already|only|even|currently|then|usually|all)\s+)?"
    r"(?:ship|go|get|land|come|live|sit|run|use|have|end|stay|flow|arrive|sync)\b"
)


def stated_subject(state: PlanState, item: Item) -> bool:
    """Whether ``item`` is the subject of a verb that states something of it (context).

    "mkosi also has Hostname=ci-runner": mkosi is what is talked about, not asked for. Only
    an item without a verb of its own; "add mkosi, it has ..." adds it.
    """
    if item.mode != "none" or item.verb not in ("", ","):
        return _own_thing_said_of(state, item)
    said = state.text.original.lower()
    plural = item.words[-1].endswith("s") and is_english(item.words[-1])
    if not (_STATED.match(said, item.span[1]) or (plural and _DO.match(said, item.span[1]))):
        return False
    state.text.consume(*item.span, "context")
    return True


# what one's own thing, named after a comma, is said to do ("..., our sync service 'x'
# runs in a container"): a clause of its own, whose subject the list's verb never reached
_SAID_TO_DO = re.compile(
    r"['\"`]?\s+(?:(?:also|still|just|already|only|currently)\s+)?"
    r"(?:runs|ran|serves|served|lives|sits|talks|listens|handles|syncs|connects|needs"
    r"|requires|depends|comes|ships|uses|is|was|has|does)\b"
)
_POSSESSIVES = frozenset("our my their his her your its".split())


def _own_thing_said_of(state: PlanState, item: Item) -> bool:
    """Whether ``item`` is one's own thing a new clause after a comma says something of.

    "needs nginx, our POS sync service 'storelink' runs in a container": the verb before
    the comma does not reach past it to a possessive description with a verb of its own;
    'storelink' is the user's service, not a package. "add nginx, our agent 'x'" still
    adds.
    """
    if item.mode not in ("add", "remove") or item.words[0] not in _POSSESSIVES:
        return False
    before = state.text.original[: item.span[0]].rstrip()
    if not before.endswith(","):
        return False
    after = state.text.original.lower()[item.span[1] :]
    if not _SAID_TO_DO.match(after) and not any(
        # "... 'storelink' runs in a container" was read as a paraphrase ("docker"): the
        # predicate the paraphrase replaced is the clause's own verb
        correction.kind == "paraphrase"
        and _SAID_TO_DO.match(f" {correction.written.lower()}")
        and re.match(rf"['\"`]?\s*;?\s*{re.escape(correction.read_as.lower())}\b", after)
        for correction in state.text.corrections
    ):
        return False
    state.text.consume(*item.span, "context")
    return True


def joined_to_a_phrase(state: PlanState, items: Sequence[Item], index: int, took: bool) -> bool:
    """Whether a "+" item only continues the phrase before it: the "+" joins, asks nothing.

    "we boot into a hand-rolled mkinitramfs + squashfs" says what is used now. The item
    right before the "+" took nothing and is a phrase of several words without a verb of
    its own; "htop + tmux", "+jq" still add.
    """
    item = items[index]
    if item.verb != "+" or index == 0 or took:
        return False
    before = items[index - 1]
    between = state.text.work[before.span[1] : item.span[0]]
    if between.strip() != "+" or before.verb not in ("", ","):
        return False
    if len(before.words) < 2 or only_known(state, before):
        return False  # "htop + tmux": names joined by the sign
    state.text.consume(*item.span, "context")
    return True


# "we're switching to the vendor's ipsec stack (strongswan)", "moving over to chrony": what
# is switched to is wanted; the name in parentheses when one follows the description
_SWITCHING_TO = re.compile(
    r"\b(?:switch(?:ing)?|mov(?:e|ing)|migrat(?:e|ing)|go(?:ing)?)\s+(?:over\s+|back\s+)?to\s+"
    r"(?P<what>[^.;:,()\n\x1f]{1,60}?)\s*(?:\((?P<aside>[^()\n\x1f]{1,40})\))?"
    r"(?=\s*(?:$|[.;,!\n]))"
)


# words after which the rest says what for or where ("chrony for time")
_WHAT_FOR = frozenset("for on in at as because since from with".split())


def switched_to(state: PlanState, resolve: Resolve) -> None:
    """Add the known names a request says it switches to ("switching to X (strongswan)").

    Only names the index, catalog or library knows are read (the parenthesis first, else
    the words after "to"); a description ("a 4-core part") or a target's name asks nothing
    here.
    """
    tokens = tokenize(state.text.work)
    for match in state.text.matches(_SWITCHING_TO):
        group = "aside" if match.group("aside") else "what"
        start, end = match.span(group)
        words = [t for t in tokens if t.kind == "word" and start <= t.start < end]
        cut = next((k for k, t in enumerate(words) if t.text in _WHAT_FOR), len(words))
        content = [t for t in words[:cut] if t.text not in FILLER and t.text not in _WHERE_TO]
        if not content or not only_known(state, Item("add", content)):
            continue
        if group == "what" and (len(content) > 1 or is_english(content[0].text)):
            continue  # "switch to tmux and screen": a list the item reading takes as one
        took = 0
        for token in content:
            before = len(state.text.claims)
            resolve(state, Item("add", [token], "switch"))
            took += len(state.text.claims) > before
        if took == len(content):  # up to the names: "... and remove X" is its own
            state.text.consume(match.start(), match.end() if group == "aside" else content[-1].end)


# whose place it is, and the nouns of places and groups of machines an image runs in
_OWNERS = frozenset("our their my your the customer's client's company's".split())
_PLACES = frozenset(
    "lab labs cluster clusters hosts farm farms fleet fleets servers datacenter datacenters "
    "environment environments estate site sites rack racks cloud tenancy infrastructure "
    "hypervisors nodes".split()
)


def runs_there(item: Item) -> bool:
    """True for "for our KVM lab", "for the customer's Proxmox cluster": where it runs.

    A purpose whose owner is people and whose noun is a place or a group of machines
    names where the image goes, not what it holds (a VM for a KVM lab is a guest).
    """
    words = item.words
    return len(words) >= 3 and words[0] == "for" and words[1] in _OWNERS and words[-1] in _PLACES


# "... with it", "... along with them": what goes together with the thing just removed
_WITH_IT = frozenset("it them that those this".split())
_GOES = frozenset("goes go can go along as well".split())
_ASIDES_AFTER = frozenset("obviously too also naturally of course then please".split())


def carried_removal(state: PlanState, items: Sequence[Item], index: int) -> Item | None:
    """The item a removal before it reaches through "with it" ("and the X with it").

    "drop the tools repo. and the testrunner with it", "remove nginx, the certbot plugin
    goes with it": an item without a verb of its own, followed by "with it", after an
    item the request removes, is removed as well. None when ``items[index]`` is not one.
    """
    item = items[index]
    if item.mode != "none" or index + 1 >= len(items):
        return None
    after = items[index + 1]
    rest = [w for w in after.words if w not in _ASIDES_AFTER]
    if after.verb != "with" or not rest or any(w not in _WITH_IT for w in rest):
        return None
    if not (
        state.remove
        or any(earlier.mode == "remove" for earlier in items[:index])
        or any(
            isinstance(v, DeleteValue) and v.path.startswith("packageRepositories")
            for v in state.values
        )
    ):
        return None  # nothing removed before it: "with it" says what it comes with
    tokens = list(item.tokens)
    while len(tokens) > 1 and tokens[-1].text in _GOES:
        tokens.pop()  # "the certbot plugin goes [with it]"
    return Item("remove", tokens, "with")


# what may stand between a removal another rule read and the item it reaches ("drop
# isolcpus and htop", "remove the ops user, plus tcpdump")
_JOINING = re.compile(r"[\s,&]*(?:(?:and|plus|also|as\s+well\s+as)\b[\s,]*)*", re.IGNORECASE)
# the verbs every field's removal shares, and the package manager's own
_TAKE_OUT = re.compile(rf"(?:{TAKE_OUT}|purge|uninstall)\b")


def removal_across(state: PlanState, item: Item) -> Item | None:
    """The item a removal that another rule read reaches over a conjunction, or None.

    "drop isolcpus and htop": the kernel rule took "drop isolcpus", so "htop" stands
    without a verb; the removal verb before the conjunction is its verb too. Only a verb
    of taking out heads that clause (after "and", "then" ...), so "add quiet and htop"
    still adds, and a list after a read change of another kind ("hostname box1, htop")
    keeps its own reading.
    """
    if (item.mode, item.verb) not in _VERBLESS and item.mode != "add":
        return None  # a verb of its own
    # an adding verb carried from before the read removal ("wants grafana ..., so take out
    # the grafana repo and the grafana package"): the removal's verb is the nearer one
    start = item.span[0]
    original = state.text.original
    for claim_start, claim_end, owner in state.text.claims:
        if owner == "packages" or claim_end > start:
            continue
        if _JOINING.fullmatch(original[claim_end:start]) is None:
            continue
        lead = re.split(r"[.;:!?\n]", original[:claim_end])[-1]
        if claim_start < claim_end - len(lead):
            continue  # the read span began in an earlier sentence
        # the sentence, or the clause of it the read span is in ("management wants grafana
        # in a container, so take out the grafana repo and the grafana package")
        for said in (lead, lead.rsplit(",", 1)[-1]):
            opening = said.lower().split()
            while opening and opening[0].strip(",") in _LEADS:
                opening.pop(0)
            if _TAKE_OUT.match(" ".join(opening)) and not set(opening) & ADD_VERBS:
                return Item("remove", item.tokens, opening[0])
    return None


# an item without a verb of its own: none, a list comma, a sentence of names ("listed"),
# and the joining words the item splitter reads as adding ("and also less", "plus less")
_VERBLESS = frozenset(
    (("none", ""), ("none", ","), ("add", "listed"), ("add", "also"), ("add", "plus"))
)
_LEADS = frozenset("and then also now ok okay pls please so".split())


def names_pointed_at(state: PlanState, item: Item) -> list[Token]:
    """The names earlier in the sentence that "those two packages" points back at.

    "(I read that cage plus chromium is a good way to do a kiosk, I just need those two
    packages in there)": the names were said as a remark, and the request for them comes
    after, pointing back. Only an item asked for, made of a demonstrative, a count (when
    said, it must match) and a word for packages; the names are the known package names
    of the same sentence before it, each said once.
    """
    said = [w for w in item.words if w not in ("just", "only", "also", "all", "of")]
    if item.mode != "add" or item.verb not in ADD_VERBS or not said:
        return []
    if said[0] not in ("those", "these", "both") or said[-1] not in _PACKAGE_WORDS:
        return []
    counts = [_COUNTS[w] for w in said[1:-1] if w in _COUNTS]
    if len(said) - 2 != len(counts) or len(counts) > 1:
        return []  # "those two packages", "those packages", "both packages": nothing else
    original = state.text.original
    begin = max((m.end() for m in _SENTENCE.finditer(original, 0, item.span[0])), default=0)
    names: dict[str, Token] = {}
    for token in tokenize(original[: item.span[0]].lower()):
        written = original[token.start : token.end]
        if token.start >= begin and token.kind == "word" and known(state, written):
            names.setdefault(token.text, token)
    wanted = counts[0] if counts else (2 if said[0] == "both" else len(names))
    return list(names.values()) if names and len(names) == wanted else []


_PACKAGE_WORDS = frozenset("packages ones tools programs apps two both them".split())
_COUNTS = {"two": 2, "three": 3, "four": 4, "both": 2, "2": 2, "3": 3, "4": 4}
_SENTENCE = re.compile(r"[.!?](?=\s)|\n")


def by_means_of(state: PlanState, item: Item) -> Item:
    """The name a task is said to be done through ("print receipts through CUPS").

    "..., print receipts through CUPS, and have a user": what is done comes first, the
    software that does it last, after "through" or "via". Only a name the catalog, the
    library or an index knows (or a capability's name) stands for the item; anything else
    ("send logs via the vpn") stays whole for the other readings.
    """
    tokens = item.tokens
    if (linked := _over_a_link(state, item)) is not None:
        return linked
    if item.mode != "add" or len(tokens) < 3 or tokens[-2].text not in ("through", "via"):
        return item
    last = tokens[-1]
    written = state.text.raw(last.start, last.end)
    if not (
        known(state, written)
        or known(state, last.text)
        or any(
            words(c.name) == (last.text,) or last.text in c.synonyms
            for c in find_capabilities(state.catalog, last.text)
        )
    ):
        return item
    return Item(item.mode, [last], item.verb, item.aside_by)


# the links a device is attached by: "a gps over usb serial", "a modem over usb"
_LINKS = frozenset(
    "usb serial uart i2c spi gpio rs485 rs-485 rs232 rs-232 ttl bluetooth ble can canbus "
    "ethernet pcie m.2 mpcie nmea".split()
)


def _over_a_link(state: PlanState, item: Item) -> Item | None:
    """The device an item names, without the link it is attached by ("a gps over usb").

    "a gps over usb serial": what is asked for is the capability the words before "over"
    name; the words after it are the bus or port (usb, serial, i2c ...), nothing to
    install by themselves. Only when those words are all links and the words before name
    a capability of the catalog and nothing else.
    """
    words_ = item.words
    if item.mode != "add" or "over" not in words_:
        return None
    at = words_.index("over")
    device, link = item.tokens[:at], words_[at + 1 :]
    if not link or not all(w in _LINKS for w in link):
        return None
    said = [t for t in device if t.text not in FILLER]
    if not said or len(said) > 3:
        return None
    said_words = words(" ".join(t.text for t in said))
    found = find_capabilities(state.catalog, " ".join(said_words))
    if not found or not all(covered_words(found, said_words)):
        return None  # "a sensor over i2c": no capability is the whole of what is named
    return Item(item.mode, device, item.verb, item.aside_by)


# "..., ptp4l + phc2sys handle the clock", "..., linuxptp does the timing now": names joined
# by "+", "and", "&" or "/" that a verb of their own says do a job
_DOING_A_JOB = re.compile(
    rf"(?P<names>(?:{NAME})(?:\s*(?:\+|\band\b|&|/)\s*(?:{NAME}))*)"
    r"\s+(?:(?:now|will|already|can|should|then|just)\s+)*"
    r"(?:handles?|does|do|covers?|manages?|takes?\s+care\s+of|provides?|keeps?|syncs?"
    r"|disciplines?|deals?\s+with|serves?|replaces?|is\s+doing|are\s+doing)\s+\w",
    re.IGNORECASE,
)


def doing_a_job_after_removal(
    state: PlanState, items: Sequence[Item], resolve: Resolve
) -> set[int]:
    """The items a removal's list reaches that are the subject of a clause of their own.

    "drop chrony, ptp4l + phc2sys handle the clock": after the comma, the names are said
    to do a job (what replaces the removed one); the removal before the comma does not
    reach them: they stay, and are added when every one is a known name (``resolve``
    reads them). An item with a removal verb of its own ("drop chrony, drop ptp4l") or a
    list without such a verb ("drop chrony, ptp4l and phc2sys") is still removed. The
    indexes of the items to read as context.
    """
    found: set[int] = set()
    original = state.text.original
    for index, item in enumerate(items):
        if item.mode != "remove" or index == 0 or items[index - 1].mode != "remove":
            continue
        if item.verb != items[index - 1].verb:
            continue  # a verb of its own
        if not original[: item.span[0]].rstrip().endswith(","):
            continue  # no comma before it
        if re.match(rf"\s*{re.escape(item.verb)}\b", original[item.span[0] :], re.IGNORECASE):
            continue  # "drop chrony, drop ptp4l": the verb said again
        match = _DOING_A_JOB.match(original, item.span[0])
        if match is None or re.search(r"[,.;:!?\n]", match.group()):
            continue
        found |= {k for k, other in enumerate(items) if item.span[0] <= other.span[0] < match.end()}
        start, end = match.span("names")
        tokens = [t for t in tokenize(state.text.work) if start <= t.start < end]
        names = [i for i in split_items(_or_as_comma(_plus_as_comma(tokens))) if i.words]
        removed = items[index - 1]
        if not (only_known(state, removed) or _a_capability_s_word(state, removed)):
            continue  # "no core isolation, slurm handles binding": no package it replaces
        if names and all(only_known(state, i) or _a_capability_s_word(state, i) for i in names):
            for name in names:
                resolve(state, Item("add", name.tokens, "said"))
    return found


def _a_capability_s_word(state: PlanState, item: Item) -> bool:
    """True when ``item`` is exactly a capability's name or synonym ("ptp4l", "phc2sys")."""
    said = " ".join(item.words)
    return any(
        said == capability.name or said in capability.synonyms
        for capability in state.catalog.capabilities.values()
    )


def _plus_as_comma(tokens: Sequence[Token]) -> list[Token]:
    """``tokens`` with each "+" or "/" between names read as a comma."""
    return [Token("sep", ",", t.start, t.end) if t.text in ("+", "/") else t for t in tokens]


# a hedge before a naming ("I think that's samba?"), and the copula that points back
_HEDGES = (("i", "think"), ("i", "guess"), ("i", "believe"), ("i", "suppose"), ("probably",))
# ("it's too chatty", "it's slow": "it's" mostly says how a thing is, so it names nothing)
_POINTING_BACK = (("that's",), ("thats",), ("that", "is"), ("that", "would", "be"))
_AFTER_NAMING = frozenset("right i guess think probably then".split())


def named_tentatively(state: PlanState, item: Item) -> Item | None:
    """The name a clause gives the job just described, as an item to add, or None.

    "Its job is to share a folder with the Windows PCs (I think that's samba?)": a
    copula pointing back at what was described ("that's"), after a hedge or not,
    and nothing but known names after it: the user names the software they mean. "that's
    all", "that's samba's job on the old box" name nothing to add.
    """
    said = list(item.tokens)
    words = [t.text for t in said]
    for hedge in _HEDGES:
        if tuple(words[: len(hedge)]) == hedge:
            said, words = said[len(hedge) :], words[len(hedge) :]
            break
    back = next((p for p in _POINTING_BACK if tuple(words[: len(p)]) == p), None)
    if back is None:
        return None
    said = said[len(back) :]
    if said and said[0].text in ("called", "probably", "just"):
        said = said[1:]
    while said and said[-1].text in _AFTER_NAMING:
        said = said[:-1]
    if not said or len(said) > 2 or any(t.text in FILLER for t in said):
        return None  # "that's too chatty": a word of degree, no name
    named = Item("add", said, "said")
    return named if only_known(state, named) else None
