"""Rule: package and capability words ("docker", "node monitoring", "without vim")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from oic_ai.stores.capability_catalog import Capability, words
from oic_ai.stores.vocabulary import (
    CAPABILITY_SYNONYMS,
    PACKAGE_CAPABILITIES,
    REMOVAL_GROUPS,
    REMOVAL_SYNONYMS,
)
from oic_ai.tools.planner.asking import IMPERATIVES
from oic_ai.tools.planner.lexicon import is_english
from oic_ai.tools.planner.rules.capability_words import (
    covered_words as _covered,
)
from oic_ai.tools.planner.rules.capability_words import (
    find_capabilities as _find_capabilities,
)
from oic_ai.tools.planner.rules.capability_words import (
    names_capability as _names_capability,
)
from oic_ai.tools.planner.rules.capability_words import object_first
from oic_ai.tools.planner.rules.described import read_described
from oic_ai.tools.planner.rules.kernel_images import KERNEL_NAME, kernel_set_to
from oic_ai.tools.planner.rules.name_parts import apply_head_parts, parts_of_a_head, read_name_parts
from oic_ai.tools.planner.rules.package_apply import (
    COUNTS,
    add_packages,
    apply_capabilities,
    apply_names,
    named_before,
    remove_by_patterns,
    remove_packages,
    vendor_served,
)
from oic_ai.tools.planner.rules.package_bindings import apply_module, one_letter_language
from oic_ai.tools.planner.rules.package_conditions import (
    by_means_of,
    capability_in_parentheses,
    carried_removal,
    conditional_additions,
    conditional_removals,
    doing_a_job_after_removal,
    done_by_themselves,
    joined_to_a_phrase,
    named_tentatively,
    names_pointed_at,
    removal_across,
    runs_there,
    stated_subject,
    switched_to,
    without_purpose,
)
from oic_ai.tools.planner.rules.package_except import all_but, as_except
from oic_ai.tools.planner.rules.package_items import (
    FENCE,
    FIELD_KEY,
    apply_shared_noun_siblings,
    companion,
    described_before,
    described_removal,
    field_keys,
    instead_of_the_last,
    join_split_names,
    minus_signs,
    negation_scope,
    only_known,
    purpose_of_a_partition,
    read_joined,
    shared_noun_siblings,
    shorthand_updates,
    slip,
    spelled_out,
    split_slashed,
    suffix_sibling,
)
from oic_ai.tools.planner.rules.package_moves import JOINING_WORD, moved_on, part_of_named
from oic_ai.tools.planner.rules.package_names import (
    HEAD_NOUNS,
    SOFTWARE_NOUNS,
    exact_name,
    may_be_package,
    names_software,
    never_a_name,
    prefer_picks,
    qualifies,
    removal_aliases,
)
from oic_ai.tools.planner.rules.package_names import (
    ambiguous_in_list as _ambiguous_in_list,
)
from oic_ai.tools.planner.rules.package_names import (
    known as _known,
)
from oic_ai.tools.planner.rules.package_names import (
    listed_ambiguous as _listed_ambiguous,
)
from oic_ai.tools.planner.rules.package_names import (
    real as _real,
)
from oic_ai.tools.planner.rules.package_places import worked_on
from oic_ai.tools.planner.rules.package_products import (
    listed_product,
    products_of_added,
    report_products,
)
from oic_ai.tools.planner.rules.package_said import points_back, said_of
from oic_ai.tools.planner.rules.package_sentences import NAME as _NAME
from oic_ai.tools.planner.rules.package_sentences import (
    final_intent,
    from_repository,
    in_path,
    joining_words,
    keep,
    keeps,
    name_sentences,
    questions,
    said_from_a_repository,
)
from oic_ai.tools.planner.rules.package_statements import (
    fetched_from_a_repository,
    from_a_repository,
    server_side,
    with_what,
)
from oic_ai.tools.planner.rules.package_swaps import (
    corrected,
    made_sure,
    replace_pointing,
    replacements,
    written_languages,
)
from oic_ai.tools.planner.rules.package_tables import table_packages
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, Token, line_breaks, split_items, tokenize
from oic_ai.tools.planner.words import (
    ADVERB_PAIRS,
    ADVERBS,
    FILLER,
    NOT_PACKAGES,
    PACKAGE_TOKEN,
    REMOVE_VERBS,
    RETRIEVAL_WORDS,
    TOOL_NOUNS,
)


def rule_packages(state: PlanState) -> None:
    """Read the words no other rule used as packages and capabilities to add or remove.

    "replace X with Y" and "Y instead of X" come first; then each list item. What
    follows a package it describes ("chrony for time", "cryptsetup in the live
    environment") is context; "drop it" after a named package refers back to it.
    """
    for fence in FENCE.finditer(state.text.original):
        state.text.consume(*fence.span("lang"), "context")  # "```yaml": the block's format
    for key in FIELD_KEY.finditer(state.text.original):
        end = state.text.original.find("\n", key.end())
        rest = state.text.work[key.end() : None if end < 0 else end]
        if key.group("key").lower() in field_keys() and not rest.strip(" \t" + state.text.BLANK):
            # "dist: ubuntu24" once the target is read, "kernel:" heading its keys: a field
            state.text.consume(*key.span("key"), "context")
    replacements(state, _resolve_item)
    table_packages(state, _resolve_item)  # "| extra rpms | podman, tmux, git |"
    excepted = all_but(state)  # "keep everything but gnupg", before "X can stay" is read
    for set_to, capabilities in kernel_set_to(state):  # "switch the kernel to the rt one"
        apply_capabilities(state, set_to, capabilities)
    for fetched, written in fetched_from_a_repository(state):  # "take docker-ce from there"
        apply_names(state, fetched, written, [written])
    shorthand_updates(state, _resolve_item)  # "pkgs += jq,curl", "s/nano/vim/"
    conditional_removals(state, _resolve_item)  # "if X is in there, remove it"
    conditional_additions(state, _resolve_item)  # "if X isn't there, add it"
    switched_to(state, _resolve_item)  # "we're switching to the ipsec stack (strongswan)"
    moved_on(state, _resolve_item)  # "zenith dropped apache, they're on nginx now"
    _described(state)
    read_name_parts(state)  # "the nginx plugin for certbot": python3-certbot-nginx
    said_of(state, _resolve_item)
    replace_pointing(state)
    made_sure(state)  # "does it have docker?" then "make sure it does"
    written_languages(state)  # "students write Python and a bit of C"
    picks = _picked(state)
    siblings = shared_noun_siblings(state)  # "X plus the good and bad plugins"
    parts = parts_of_a_head(state)  # "nginx with the rtmp module": libnginx-mod-rtmp
    kept = keeps(state)
    previous_took = False
    took_any = False
    asked = questions(state)
    head: Item | None = None  # the item a parenthesis may name ("the SCAP tooling (a, b)")
    head_took = False
    tokens = minus_signs(state.text.work, tokenize(state.text.work))
    tokens = as_except(tokens, excepted)  # "keep everything but gnupg": gnupg goes
    joined = join_split_names(state, tokens)  # "tcp dump", "h top": one name each
    items = read_joined(state, list(split_items(joined, line_breaks(state.text.work))), tokens)
    items = [part for item in items for part in split_slashed(state, item)]
    items = corrected(state, name_sentences(state, negation_scope(items)))
    purposes = 0
    # "drop chrony, ptp4l handles the clock": what does the job stays
    doing = doing_a_job_after_removal(state, items, _resolve_item)
    for index, item in enumerate(items):
        if index in doing:
            state.text.consume(*item.span, "context")
            continue
        item = instead_of_the_last(state, items, index)  # "rm X, Y instead": Y is added
        item = carried_removal(state, items, index) or item  # "drop X. and Y with it"
        item = removal_across(state, item) or item  # "drop isolcpus and htop"
        purposes = max(purposes - 1, purpose_of_a_partition(state, items, index))
        if purposes:  # "a /data partition, for logs and rosbags": what it holds
            state.text.consume(*item.span, "context")
            continue
        if any(start <= item.span[0] < end for start, end in asked):
            continue  # "what does the live environment install?" asks, it adds nothing
        if any(start <= item.span[0] < end for start, end, _ in kept):
            keep(state, item)
            continue
        said = [k for k in kept if any(k[0] <= t.start < k[1] for t in item.tokens)]
        if said:  # "..., so ipmitool stays": what is said of it goes with it
            for start, end, whole in said:
                before = len(state.text.claims)
                keep(state, Item("none", [t for t in item.tokens if start <= t.start < end]))
                if len(state.text.claims) > before:
                    state.text.consume(*whole, "context")
            continue
        if suffix_sibling(state, items, index):  # "gstreamer1.0-plugins-bad and -ugly"
            previous_took = took_any = True
            continue
        if _ambiguous_in_list(state, items, index, previous_took):
            apply_names(state, item, item.words[0], [state.text.raw(*item.span)])
            previous_took = took_any = True
            head, head_took = item, True
            continue
        if item.mode == "aside" and item.aside_by == ":":
            state.text.consume(*item.span, "context")  # "Required packages:" heads the list
            continue
        if (named := named_tentatively(state, item)) is not None:
            state.text.consume(*item.span, "context")  # "(I think that's samba?)"
            item = named
        elif item.mode == "aside" and item.aside_by == "so" and only_known(state, item):
            # "it's a gateway so mosquitto": what follows "so" is nothing but a known name
            item = Item("add", item.tokens, "so")
        if item.mode == "aside":
            if (
                item.aside_by == "("
                and head is not None
                and (
                    _names_in_parentheses(state, head, item)
                    or (not head_took and capability_in_parentheses(state, head, item))
                )
            ):
                if not head_took:
                    state.text.consume(*head.span)  # the description the names spell out
                for sibling in described_before(state, items, items.index(head)):
                    state.text.consume(*sibling.span)  # "nav2 bringup and slam toolbox (a, b)"
                head_took = previous_took = took_any = True
                continue
            if (tail := with_what(state, item)) is not None:
                _resolve_item(state, tail)  # "it will be a home server with samba"
                previous_took = took_any = True
                continue
            if previous_took and item.aside_by in _DESCRIBING:
                state.text.consume(*item.span, "context")  # what the package is for
            previous_took = False
            if item.aside_by != "(":
                head = None
            continue  # "our boxes are offline": the accounting reads it
        objects = set(item.words) - ADVERBS  # "remove it please"
        pointing = (
            bool(objects)
            and objects <= _PRONOUNS | COUNTS.keys()
            and (bool(objects & _PRONOUNS) or objects == {"both"})
        )
        if item.mode == "remove" and pointing and named_before(state, item):
            continue  # "xterm is an X11 thing. remove it": the one package the request named
        if (
            item.verb in _POINTING_VERBS
            and pointing
            and took_any
            and (item.mode != "remove" or state.remove or state.absent)
        ):
            state.text.consume(*item.span)  # "we don't need podman, drop it"
            continue
        if (
            item.verb in ("with", "using")
            and len(item.words) == 2
            and item.words[0] in _DEMONSTRATIVES
            and item.words[1].removesuffix("s") in SOFTWARE_NOUNS
        ):
            state.text.consume(*item.span, "context")  # "built with this tool": the one used
            continue
        if runs_there(item):
            state.text.consume(*item.span, "context")  # "for our KVM lab": where it runs
            continue
        if item.mode != "none" and item.words[0] in _WHERE and (state.add or state.remove):
            state.text.consume(*item.span, "context")  # "(something to X) from the office"
            continue
        if (
            done_by_themselves(state, items, index)
            or stated_subject(state, item)
            or joined_to_a_phrase(state, items, index, previous_took)
        ):
            previous_took = False
            continue
        if pointed := names_pointed_at(state, item):  # "I just need those two packages"
            for token in pointed:
                _resolve_item(state, Item("add", [token], item.verb))
            state.text.consume(*item.span)
            previous_took = took_any = True
            continue
        if any(w not in FILLER for w in item.words):
            before = len(state.text.claims)
            if head is not None and head_took and companion(state, head, item):
                previous_took = took_any = True
                continue
            _resolve_whole(state, item)
            previous_took = len(state.text.claims) > before
            took_any = took_any or previous_took
            if head is not None and previous_took and not head_took:
                if spelled_out(state, head, item):
                    state.text.consume(*head.span, "context")  # "a vpn, wireguard"
            head, head_took = item, previous_took
        else:
            previous_took = False
    apply_shared_noun_siblings(state, siblings)
    apply_head_parts(state, parts)
    prefer_picks(state, picks)
    final_intent(state)
    products_of_added(state)  # "want InfluxDB ... install influxdb2": read by the package
    report_products(state)  # "and firefox and Slack": nothing knows it, nor added its package


_DETERMINERS = frozenset("the a an our some their its your my this that these those".split())


# words said after a change of mind's object ("drop tmux actually"), and the sentence
# adverbs said after a name ("also git and build-essential obviously")
_AFTERTHOUGHTS = frozenset(
    "actually altogether entirely completely obviously naturally definitely certainly "
    "surely ofc".split()
)
# the state a thing added is to be in, said after its name ("chrony configured")
_IN_PLACE = frozenset("installed configured included preinstalled enabled present".split())
_TAKING_OUT = REMOVE_VERBS | frozenset("scratch kill nuke ditch toss bin cut".split())


def _trim(item: Item) -> Item | None:
    """``item`` without the adverbs at its ends ("nano back", "chrony after all").

    None when nothing but filler is left ("install it later": a pronoun and a time).
    """
    tokens = list(item.tokens)
    # "add to it tcpdump and ethtool": where it goes, said between the verb and the names
    while (
        len(tokens) > 2
        and tokens[0].text in ("to", "into", "onto")
        and (tokens[1].text in _PRONOUNS)
    ):
        del tokens[:2]
    # "no, scratch engine x": a verb of taking out after the negation says it again
    while item.mode == "remove" and len(tokens) > 1 and tokens[0].text in _TAKING_OUT:
        del tokens[0]
    while tokens:
        if tokens[-1].text in ADVERBS or tokens[-1].text in _AFTERTHOUGHTS:
            tokens.pop()
        elif item.mode == "add" and len(tokens) > 1 and tokens[-1].text in _IN_PLACE:
            tokens.pop()  # "and chrony configured": a name and the state it is to be in
        elif len(tokens) >= 2 and (tokens[-2].text, tokens[-1].text) in ADVERB_PAIRS:
            del tokens[-2:]
        else:
            break
    if all(t.text in FILLER for t in tokens):
        return None
    return Item(item.mode, tokens, item.verb, item.aside_by)


def _candidate(state: PlanState, item: Item, token: Token) -> bool:
    """Whether one word of a several-word item is a package name by itself."""
    word = token.text
    written = state.text.raw(token.start, token.end)
    if (
        in_path(state, token)
        or word in SOFTWARE_NOUNS  # "the acme sdk": the kind of what is named
        or (
            not PACKAGE_TOKEN.match(word)
            or word in NOT_PACKAGES
            or word in RETRIEVAL_WORDS
            or word.replace(".", "").isdigit()
        )
    ):
        return False
    target = state.target
    if _known(state, written) or word in state.catalog.capabilities:
        return True
    if target.known and state.catalog.aliases(word, target.os, target.dist, target.arch):
        return True
    if item.mode not in ("add", "remove") or not item.verb or is_english(word):
        return False  # "install guide says": ordinary words listed are no names
    return may_be_package(state, Item(item.mode, [token], item.verb), word, written)


def _pieces(state: PlanState, item: Item) -> list[Item]:
    """``item`` as the items it lists without commas ("add htop iperf3 tcpdump").

    Every word must be a name by itself (known, or marked and package-shaped), one of
    them known, and no capability phrase may span them ("node monitoring"). A
    description heading a name is read as that name ("the usual prerequisites socat").
    """
    listed = _listed_ambiguous(state, item)
    joining = _joining_tokens(state, item)
    content = [t for t in _listed_words(state, item) if t not in joining]
    if len(content) < 2 or len(content) > _MAX_ITEM_WORDS:
        return [item]
    item_words = words(" ".join(item.words))
    # which token each word comes from: a phrase inside one name ("intel-gpu-tools") is
    # that name, not a phrase across the list
    owner = [k for k, t in enumerate(item.tokens) for _ in words(t.text)]
    for capability in _find_capabilities(state.catalog, " ".join(item.words)):
        for phrase in (capability.name, *capability.synonyms):
            phrase_words = words(phrase)
            if len(phrase_words) >= 2 and any(
                item_words[k : k + len(phrase_words)] == phrase_words
                and len(set(owner[k : k + len(phrase_words)])) > 1
                for k in range(len(item_words))
            ):
                return [item]  # "node monitoring", "docker compose": one capability
    verb = item.verb or ","
    # at least one name is known: two unknown words side by side are a phrase, not a list;
    # "codename internal-extras" is a field and its value
    fields = any(t.text in NOT_PACKAGES and t not in listed for t in content)
    # "the usual kubelet prerequisites socat": a description heads the name, no list
    described = any(t.text in SOFTWARE_NOUNS for t in content[:-1])
    if (
        not fields
        and not described
        and all(t in listed or _candidate(state, item, t) for t in content)
        and (
            item.verb == "listed"  # its sentence has a known name (_name_sentences)
            or any(_known(state, state.text.raw(t.start, t.end)) for t in content)
        )
    ):
        return [Item(item.mode, [t], verb, item.aside_by) for t in content]
    last = content[-1]
    if (
        item.mode in ("add", "remove")
        and item.words[0] in _DETERMINERS
        and exact_name(state, item) is None  # "the actual prometheus": that very package
        and _candidate(state, item, last)
        and (_known(state, state.text.raw(last.start, last.end)) or names_software(content[:-1]))
    ):
        return [Item(item.mode, [last], verb, item.aside_by)]
    return [item]


def _resolve_whole(state: PlanState, item: Item) -> None:
    """Resolve ``item``: trimmed of adverbs, split into the names it lists."""
    if item.mode != "remove" and points_back(item):
        state.text.consume(*item.span, "context")  # "could you set up the equivalent?"
        return
    trimmed = _trim(item)
    if trimmed is None:
        if item.verb and any(w in _PRONOUNS for w in item.words):
            state.text.consume(*item.span, "context")  # "our team installs it later"
        return
    if server := server_side(state, trimmed):
        remove_packages(state, trimmed, server, " ".join(trimmed.words))  # "no broker"
        return
    if described_removal(state, trimmed):
        return
    trimmed = without_purpose(state, trimmed)  # "chrony to discipline the clock"
    trimmed = by_means_of(state, trimmed)  # "print receipts through CUPS"
    pieces = _pieces(state, trimmed)
    listed = _listed_ambiguous(state, trimmed) if len(pieces) > 1 else []
    took = 0
    added = len(state.add)
    for piece in pieces:
        before = len(state.text.claims)
        if part_of_named(state, piece, state.add[added:]):  # "kea dhcp4": kea-dhcp4-server
            took += 1
            continue
        if len(piece.tokens) == 1 and piece.tokens[0] in listed:
            apply_names(state, piece, piece.words[0], [piece.words[0]])
        else:
            _resolve_item(state, piece)
        took += len(state.text.claims) > before
    if took == len(pieces) and (len(pieces) > 1 or pieces[0].span != item.span):
        # the adverbs and the description go with it; a foreign joining word is reported
        start = item.span[0]
        for token in _joining_tokens(state, trimmed) if len(pieces) > 1 else []:
            state.text.consume(start, token.start)
            state.reject(token.start, token.end, JOINING_WORD)
            start = token.end
        state.text.consume(start, item.span[1])


def _listed_words(state: PlanState, item: Item) -> list[Token]:
    """The words of ``item`` that may each be a name of the list it makes."""
    listed = _listed_ambiguous(state, item)
    content = [t for t in item.tokens if t.text not in FILLER or t in listed]
    # "install -y git jq": a flag or a target's name between the names is no name
    return [t for t in content if _known(state, t.text) or not never_a_name(state, t.text, t.text)]


def _joining_tokens(state: PlanState, item: Item) -> list[Token]:
    """The words of ``item`` joining its names in another language ("nginx aur podman")."""
    content = _listed_words(state, item)
    return [content[k] for k in sorted(joining_words(state, content))]


def _names_in_parentheses(state: PlanState, head: Item, item: Item) -> bool:
    """Names in parentheses that spell out the item before them ("the SCAP tools (a, b)")."""
    between = state.text.original[head.span[1] : item.span[0]]
    if head.mode not in ("add", "remove") or not between.lstrip().startswith("(") or ")" in between:
        return False  # only right after the description they spell out
    content = [t for t in item.tokens if t.text not in FILLER]
    inner = Item(head.mode, item.tokens, head.verb or ",")
    if not content or not all(_candidate(state, inner, t) for t in content):
        return False
    if head.words[0] not in _DETERMINERS and not all(
        _known(state, state.text.raw(t.start, t.end)) for t in content
    ):
        return False  # "nav2 bringup and slam toolbox (ros-jazzy-...)": known names only
    if not names_software([t for t in head.tokens if t.text not in FILLER]) and not all(
        _known(state, state.text.raw(t.start, t.end)) for t in content
    ):
        return False  # "a small image (debian-based)": a remark, not names of software
    for token in content:
        _resolve_item(state, Item(head.mode, [token], head.verb or ","))
    state.text.consume(*item.span)
    return True


_DESCRIBING = frozenset("for in on from inside via at if unless when".split())
# an item these start says where from, not what ("from the office", "via the vpn")
_WHERE = frozenset("from via inside".split())
_PRONOUNS = frozenset("it them that this those these one ones".split())
_DEMONSTRATIVES = frozenset("this that these those".split())
_POINTING_VERBS = frozenset(
    "add install remove drop delete uninstall purge skip exclude include".split()
)

# "chromium is what the team used", "xfce is what they are used to": the pick among kinds
_PICKED = re.compile(rf"\b(?P<name>{_NAME})\s+(?:is|are|was|were)\s+what\b")


def _picked(state: PlanState) -> list[Capability]:
    """A known name someone picked ("chromium is what the team used"): the one to add.

    Returns the capabilities picked, for :func:`_prefer_picks`.
    """
    tokens = tokenize(state.text.work)
    picks: list[Capability] = []
    for match in state.text.matches(_PICKED):
        start, end = match.span("name")
        part = [t for t in tokens if t.kind == "word" and start <= t.start < end]
        if not part:
            continue
        token = part[0].text
        claims = len(state.text.claims)
        _resolve_item(state, Item("add", part, "said"))
        if len(state.text.claims) == claims:
            continue
        state.text.consume(*match.span(), "context")
        picked = state.catalog.capabilities.get(token) or next(
            iter(_find_capabilities(state.catalog, token)), None
        )
        if picked is not None:
            picks.append(picked)
    return picks


def _described(state: PlanState) -> None:
    """Add the capability each "something to X" phrase describes, or report the phrase."""
    tokens = tokenize(state.text.work)
    target = state.target
    for found in read_described(state):
        start, end, capability = found.start, found.end, found.capability
        if capability is None:
            state.reject(start, end, found.advice)
            continue
        packages = capability.packages_for(target.os, target.dist, target.arch)
        if not packages:
            state.reject(
                start, end, f"{capability.name} has no packages on {target.dist}: {capability.note}"
            )
            continue
        part = [t for t in tokens if t.kind == "word" and start <= t.start < end]
        add_packages(state, Item("add", part, "described"), packages, capability.name)
        state.text.consume(start, end)  # with its aside: "(SMART)"
        state.warn(
            f"read '{' '.join(state.text.raw(start, end).split())}' as {capability.name} "
            f"({', '.join(packages)}); name the package if you meant another"
        )


_MAX_ITEM_WORDS = 8
# a setting's key right before a value: camelCase ("cgroupDriver:") or snake_case
# ("log_driver="), never a list heading ("packages:")
_SETTING_KEY = re.compile(
    r"(?<![\w.-])(?!\w*(?:[Pp]ackage|[Pp]kg))(?:[a-z]+[A-Z]\w*|[a-z]+_[a-z_]+)\s*[:=]\s*$"
)


def _said_phrase(capabilities: Sequence[Capability], item: Item) -> bool:
    """Whether the item says capability phrases of two words or more, and nothing else.

    "system stats", "a directory client", "a remote screen": the catalog's phrase is what
    the words mean together, even where one of them alone is a package ("screen") or a
    word the filler list drops ("system"). Words written as one name ("can-utils",
    "docker-ce") are read as that name by the other checks.
    """
    if sum(1 for t in item.tokens if t.kind == "word" and words(t.text)) < 2:
        return False
    said = words(" ".join(item.words))
    covered = _covered(capabilities, said, min_words=2)
    return any(covered) and all(done or w in FILLER for w, done in zip(said, covered, strict=True))


def _resolve_item(state: PlanState, item: Item) -> None:
    """Read one list item ("docker", "node monitoring", "htop") as packages to add or remove."""
    if item.mode != "remove" and (language := one_letter_language(state, item)) is not None:
        apply_capabilities(state, item, [state.catalog.capabilities[language]])  # "R, python3"
        return
    content = [w for w in item.words if w not in FILLER]
    if len(content) == 2 and content[1] in HEAD_NOUNS and PACKAGE_TOKEN.match(content[0]):
        content = content[:1]  # "the cockpit-podman plugin" names cockpit-podman
    elif len(content) == 2 and content[1] == "kernel" and re.fullmatch(KERNEL_NAME, content[0]):
        # "the linux-azure kernel": the word "kernel" marks linux-azure as a package, the
        # kernel (settle_kernel_images puts it in the kernel's list)
        name = next(state.text.raw(t.start, t.end) for t in item.tokens if t.text == content[0])
        if name == name.lower():
            apply_names(state, item, name, [name])
            return
    elif (
        len(content) == 2
        and content[0] not in IMPERATIVES  # "point chrony at ...": a verb and its object
        and not _real(state, content[0])
        and _real(state, content[1])
    ):
        content = content[1:]  # "the browser chromium", "the compositor cage": the name
    if len(item.tokens) == 1 and _SETTING_KEY.search(state.text.original[: item.span[0]]):
        return  # "cgroupDriver: systemd", "log_driver=journald": a setting's value
    if len(content) == 1 and item.mode != "remove" and worked_on(state, item.tokens[-1]):
        state.text.consume(*item.span, "context")
        return  # "the fstab we do with ansible": a job done elsewhere, and its tool
    if (exact := exact_name(state, item)) is not None:
        apply_names(state, item, exact, [exact])  # "prometheus itself": that very package
        return
    text = " ".join(item.words)
    text = object_first(state.catalog, text) or text  # "sharing the printer": printer sharing
    target = state.target
    if len(content) > _MAX_ITEM_WORDS:
        return  # a run-on phrase is not a package list; the leftover report quotes it
    capabilities = _find_capabilities(state.catalog, text)
    if capabilities and _said_phrase(capabilities, item):
        apply_capabilities(state, item, capabilities)  # "system stats", "a remote screen"
        return
    token = content[0] if len(content) == 1 else ""
    is_name = (
        bool(token)
        and PACKAGE_TOKEN.match(token) is not None
        and token not in NOT_PACKAGES
        and token not in RETRIEVAL_WORDS
        and not token.replace(".", "").isdigit()
    )
    # A package spelling that differs on this target ("docker-ce" on elxr12 is docker.io)
    # is mapped; a capability's own name ("docker") means the capability.
    # package names keep the case they were written in (NetworkManager, PackageKit)
    written = next((state.text.raw(t.start, t.end) for t in item.tokens if t.text == token), "")
    if is_name and any(t.text == token and in_path(state, t) for t in item.tokens):
        return  # "/srv": a path, not a package
    named_capability = token in state.catalog.capabilities  # "cloud-init", "docker"
    if (
        is_name
        and not named_capability
        and written == written.lower()
        and token not in state.user_names
        and said_from_a_repository(state, item)
        and not never_a_name(state, token, written)
    ):
        apply_names(state, item, written, [written])  # "need vault from hashicorp's repo"
        return
    if (
        is_name
        and not named_capability
        and (_real(state, written) or (item.mode != "remove" and from_repository(state, item)))
    ):
        # "nftables" on el10 is nftables, not the firewall capability's firewalld; a name
        # from the user's own repository stays as written ("docker-ce")
        if may_be_package(state, item, token, written):
            if item.mode == "remove" and target.known:
                # "no need for mosquitto" takes its companions (mosquitto-clients) too
                names = [written, *removal_aliases(state, written, token)]
                for capability in capabilities:
                    listed = capability.packages_for(target.os, target.dist, target.arch)
                    names += [n for n in listed if n.startswith(f"{token}-") and n not in names]
                remove_packages(state, item, names, written)
                return
            apply_names(state, item, written, [written])
            return
    if is_name and target.known and token not in {c.name for c in capabilities}:
        aliases = state.catalog.aliases(token, target.os, target.dist, target.arch)
        if aliases:
            # "containerd.io" beside download.docker.com's docker-ce: the vendor's own
            served = written in aliases or vendor_served(state, written)
            names = [written] if served else list(aliases)
            apply_names(state, item, written, names)
            return
    if capabilities and token and "/" in token and not token.startswith("/"):
        token, is_name = "", False  # "Moby/Docker": two names for one thing
    if capabilities and token and not _names_capability(capabilities, token):
        capabilities = ()  # "python3-pip" names a package, not the python capability
    if capabilities and is_name and "-" in token and from_a_repository(state, item):
        capabilities = ()  # "from that repo install cuda-toolkit": the repository's name
    if capabilities:
        item_words = words(text)
        covered = _covered(capabilities, item_words)
        leftover = [
            w for w, done in zip(item_words, covered, strict=True) if not done and w not in FILLER
        ]
        if not leftover or all(qualifies(capabilities, w) for w in leftover):
            apply_capabilities(state, item, capabilities)
            return
        if not is_name:
            return  # part of it is unclear ("docker swarm magic"): report the whole item
    if (
        item.mode == "none"
        and is_name
        and (
            _known(state, written or token)
            or (item.verb and may_be_package(state, item, token, written))
        )
    ):
        # "SSH and sudo only": a known name; "..., mosquitto and wireguard-tools": a name
        # listed among the things asked for
        if not slip(state, item, written) and not apply_module(state, item, written):
            apply_names(state, item, written, [written])
        return
    if item.mode == "none":
        if state.mode == "create" and content and all(w in RETRIEVAL_WORDS for w in content):
            for token_ in item.tokens:
                if token_.text in RETRIEVAL_WORDS:
                    state.use_case_words.append((token_.start, token_.text))
            state.text.consume(*item.span, "base")
        elif is_name:
            listed_product(state, item, written)  # "and firefox and Slack": reported
        return  # a bare unknown word: the leftover report names it
    # a broad word from the vocabulary ("gui", "networking"): remove what matches it, but
    # do not guess what to add
    group = token if token in PACKAGE_CAPABILITIES else CAPABILITY_SYNONYMS.get(token)
    removal_group = REMOVAL_SYNONYMS.get(token)
    tools = removal_group in REMOVAL_GROUPS and bool(TOOL_NOUNS & set(item.words))
    if group is None and (item.mode == "remove" or tools):
        group = removal_group  # "scrap the display"; "add debug tools": which ones?
    if group is not None and state.mode == "create" and token in RETRIEVAL_WORDS:
        state.use_case_words += [(t.start, t.text) for t in item.tokens if t.text == token]
        state.text.consume(*item.span, "base")  # "a desktop image": it chose the base
        return
    if group is not None:
        if item.mode == "remove":
            patterns = PACKAGE_CAPABILITIES.get(group) or REMOVAL_GROUPS.get(group, ())
            remove_by_patterns(state, item, token, patterns)
            return
        options = [c.name for c in state.catalog.capabilities.values() if c.group == group]
        state.reject(
            *item.span,
            "too general to pick packages; ask for "
            + (" or ".join(options) if options else "the packages by name"),
        )
        return
    if is_name:
        # "OVMF" is the library's ovmf; "NetworkManager" keeps its case
        name = token if not _known(state, written) and _known(state, token) else written
        if may_be_package(state, item, token, name):
            if not slip(state, item, name) and not apply_module(state, item, name):
                apply_names(state, item, name, [name])
        else:
            listed_product(state, item, written)  # "and firefox and Slack": reported
        return  # not a package ("Firefox", "a ton"): the accounting reports or keeps it
    if content and all(w in RETRIEVAL_WORDS or w in NOT_PACKAGES for w in content):
        suggestions = [c.name for c in state.catalog.for_use_case(text)][:4]
        if suggestions and item.mode == "add" and state.mode == "create":
            # "ubuntu raw, with ethtool, on an industrial board": what the image is for,
            # which chose the base; the capabilities it suggests are not asked for
            state.use_case_words += [(t.start, t.text) for t in item.tokens]
            state.text.consume(*item.span, "base")
            return
        # "also the robot has a camera", "Brightlane runs openstack": a remark, no use case
        if suggestions and item.mode == "add" and item.verb not in _SAID_OF_A_PLACE:
            state.reject(
                *item.span,
                "names a use case, not packages; ask for capabilities such as "
                + ", ".join(suggestions),
            )


_SAID_OF_A_PLACE = frozenset("also runs run ran uses use used".split())
