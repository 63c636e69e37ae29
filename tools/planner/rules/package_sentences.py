"""Sentences about packages as a whole: a sentence of bare names, "keep X", "just X".

Split from :mod:`packages` (the package rule's item reading) to keep both short.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from oic_ai.stores.capability_catalog import words
from oic_ai.tools.planner.lexicon import is_english
from oic_ai.tools.planner.rules.capability_words import covered_words as _covered
from oic_ai.tools.planner.rules.capability_words import find_capabilities as _find_capabilities
from oic_ai.tools.planner.rules.package_apply import add_packages
from oic_ai.tools.planner.rules.package_names import family_names, never_a_name, qualifies
from oic_ai.tools.planner.rules.package_names import known as _known
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, Token
from oic_ai.tools.planner.words import (
    FILLER,
    NOT_NEEDED,
    NOT_PACKAGES,
    NOT_WANTED,
    PACKAGE_TOKEN,
    RETRIEVAL_WORDS,
)

NAME = r"[a-z0-9][a-z0-9+_.:~-]*[a-z0-9+]|[a-z0-9]"
NAMES = rf"(?:{NAME})(?:\s*(?:,|\band\b|&)\s*(?:{NAME}))*"


def in_path(state: PlanState, token: Token) -> bool:
    """True when ``token`` is written as part of a path ("/srv", "/var/lib/docker").

    Two names joined by a slash ("kubelet/kubeadm") and sed's shorthand ("s/nano/vim/")
    are no path.
    """
    text = state.text.original
    if token.start == 0 or text[token.start - 1] != "/":
        return False
    if any(m.start() < token.start < m.end() for m in SUBSTITUTE.finditer(text.lower())):
        return False
    chunk = text[: token.start].split()[-1] if text[: token.start].split() else ""
    if chunk.startswith(("/", "~", ".")) or "://" in chunk:
        return True
    # "htop/jq/curl": known names, each between slashes, are a list, not a relative path
    rest = text[token.start :].split()
    whole = chunk + (rest[0] if rest else "")
    segments = whole.rstrip(",.;:!?").split("/")
    return chunk.count("/") > 1 and not all(s and _known(state, s) for s in segments)


# where a sentence ends: a stop, a colon or a semicolon before a space, or a line break
_SENTENCE_END = re.compile(r"[.!?;:](?=\s|$)|\n")


def from_repository(state: PlanState, item: Item) -> bool:
    """Whether ``item`` may come from a repository the request adds: it keeps its spelling.

    The repository (its URL, a word for one, or "from it") is said before the end of the
    name's sentence: "add the repo ... Then install docker-ce", "switch to docker-ce from
    it". "add moby for containers. Their runtime comes from their repo ...": the repository
    comes after, for something else, and "moby" is the target's moby-engine.
    """
    if not state.repositories:
        return False
    original = state.text.original
    end = next((m.start() for m in _STOP.finditer(original, item.span[1])), len(original))
    said = original[:end].lower()
    if re.search(r"\brepo(?:s|sitory|sitories)?\b|://|\bfrom\s+(?:it|there|that|them)\b", said):
        return True
    return any(r.url.lower() in said for r in state.repositories)


def said_from_a_repository(state: PlanState, item: Item) -> bool:
    """Whether ``item``'s own clause says its names come from a repository.

    "need vault and consul from hashicorp's repo", "we need corp-agent installed from it",
    "pull acme-tools out of that repository": the names are the repository's own, so they
    keep their spelling even when they are ordinary words ("vault") or unknown to every
    index. Only names asked for (an adding verb), only while the request adds a repository
    or the template has one, and only when the source is said after the names, before the
    clause ends ("add vault. the repo is slow" says nothing of vault).
    """
    # no verb in its own clause (one carried over from the last clause is not its own)
    verbless = item.mode in ("none", "add") and _opens_clause(state, item)
    if not verbless and (item.mode != "add" or item.verb not in _ASKING):
        return False
    if not state.repositories and not state.facts.repositories:
        return False
    original = state.text.original
    end = next((m.start() for m in _CLAUSE_STOP.finditer(original, item.span[1])), len(original))
    source = _FROM_SOURCE.search(original[item.span[1] : end].lower())
    if source is None:
        return False
    if not verbless:
        return True
    # "fluent-bit from their repo", "and the platform-baseline package from it": a clause
    # of names and where they come from asks for them, when it says nothing more ("nginx
    # from the repo is too old" says something of it) and the names are no English words
    rest = original[item.span[1] + source.end() : end]
    names = [t.text for t in item.tokens if t.kind == "word" and t.text not in FILLER]
    return _VERBLESS_END.match(rest) is not None and all(
        not is_english(n) or _known(state, n) for n in names if n not in _HEADS
    )


def _opens_clause(state: PlanState, item: Item) -> bool:
    """Whether only a joining word ("and", "also", "plus") comes before ``item`` in its clause."""
    before = state.text.original[: item.span[0]]
    start = max((m.end() for m in _CLAUSE_STOP.finditer(before)), default=0)
    return _JOINING.fullmatch(before[start:].lower()) is not None


# what may open a clause of names before them: nothing, or words that join it to the last
_JOINING = re.compile(r"\s*(?:[-*\u2022]\s+)?(?:(?:and|also|plus|then|oh|ok|okay|so)\b[\s,]*)*")
# a verbless "X from their repo" ends there, or with a comma ("..., docs say:")
# (the repository's URL may follow: "gitlab-runner too, from their repo https://...")
_VERBLESS_END = re.compile(
    r"(?:\s*(?:at\s+)?(?:https?://)?[^\s,]+[./][^\s,]+)?\s*(?:(?:too|as\s+well|please|pls)\b\s*)?(?:,|$)"
)
# the noun that marks the names as packages ("the platform-baseline package from it")
_HEADS = frozenset("package packages pkg pkgs deb debs rpm rpms".split())


# verbs that ask for a thing ("need", "install"), not list commas or statements
_ASKING = frozenset(
    "add install include need needs want wants require requires get pull put".split()
)
_CLAUSE_STOP = re.compile(r"[.!?;:](?=\s|$)|\n")
# "from it", "from there", "from hashicorp's repo", "out of their repository", "from the
# repo above", "from https://..."
_FROM_SOURCE = re.compile(
    r"^(?:\s*(?:,|\band\b|&)\s*(?:and\s+)?[a-z0-9][\w.+-]*)*\s*"
    r"(?:(?:too|also|as\s+well)\s*,?\s*)?"  # "gitlab-runner too, from their repo ..."
    r"(?:(?:installed|pulled|coming|taken)\s+)?"
    r"(?:from|out\s+of|via)\s+(?:it|there|them|https?://|(?:(?:the|their|that|this|our|its|"
    r"[\w-]+'s)\s+)?(?:[\w.-]+\s+)?(?:own\s+)?(?:repo|repos|repository|repositories)\b)"
)


# where a sentence ends for :func:`from_repository` (a colon heads a list in it)
_STOP = re.compile(r"[.!?;](?=\s|$)|\n")


def name_sentences(state: PlanState, items: list[Item]) -> list[Item]:
    """Mark the items of a verbless sentence that is nothing but names as added.

    "deb13 raw for a gateway. nftables dnsmasq hostapd": the second sentence only lists
    names, one of them known (nftables), so each name in it is asked for, even one nothing
    knows. Every word must be a known name, a capability's phrase or a package-shaped
    word that is no English word; a target's name, a field word or a verb ends the reading.
    """
    original = state.text.original
    ends = [m.start() for m in _SENTENCE_END.finditer(original)] + [len(original)]
    sentences: dict[int, list[int]] = {}
    for index, item in enumerate(items):
        sentence = next(k for k, end in enumerate(ends) if item.span[0] < end)
        sentences.setdefault(sentence, []).append(index)
    marked = list(items)
    for indexes in sentences.values():
        group = [items[k] for k in indexes]
        if not all(item.mode == "none" and item.verb in ("", ",") for item in group):
            continue
        naming = _only_names(state, group)
        for k, names in zip(indexes, naming or [], strict=False):
            if names:
                marked[k] = Item("add", items[k].tokens, "listed", items[k].aside_by)
    return marked


# a word of letters only: no digit, hyphen or dot marks it as a package's name
_PLAIN_WORD = re.compile(r"[^\W\d_]+")


def joining_words(state: PlanState, tokens: Sequence[Token]) -> set[int]:
    """The indexes of ``tokens`` that join names in a language the planner has no table for.

    "nginx aur podman daal do", "nginx og podman": a word nothing knows, of letters only
    and no English word, between two known names joins them ("and"); it is no package. A
    sentence that holds one is in that language, so its other such words ("daal") are that
    language's too. A name marked by its shape ("zork-agent", "tool2") stays a name.
    """

    def known_at(k: int) -> bool:
        token = tokens[k]
        written = state.text.raw(token.start, token.end)
        # ("jazzy" of "ros2 jazzy ros-base" is a capability's word: ROS 2's release)
        return _known(state, written) or bool(_find_capabilities(state.catalog, token.text))

    def plain(k: int) -> bool:
        word = tokens[k].text
        return (
            _PLAIN_WORD.fullmatch(word) is not None
            and word not in FILLER
            and not known_at(k)
            and not is_english(word)
        )

    joining = {
        k for k in range(1, len(tokens) - 1) if plain(k) and known_at(k - 1) and known_at(k + 1)
    }
    if not joining:
        return set()
    return {k for k in range(len(tokens)) if plain(k)}


# words that link a phrase to something else: a sentence with one lists no names
_LINKING = frozenset(
    "for in on from inside via at as to by if unless when because since so".split()
)


def _only_names(state: PlanState, group: Sequence[Item]) -> list[bool] | None:
    """Which of a sentence's items name packages, when its items are only names.

    None unless there are at least two names, one of them known. A target's word, a
    base word or a number ("deb13 x86 raw, nginx certbot") is neither a name nor an end
    to the list: its item is left as it is.
    """
    names = known_names = 0
    naming = []
    for item in group:
        if any(t.text in _LINKING for t in item.tokens):
            return None  # "for hyper-v", "on the nuc": what it is for or where, no name
        content = [t for t in item.tokens if t.text not in FILLER]
        text = " ".join(t.text for t in content)
        capabilities = _find_capabilities(state.catalog, text) if len(content) > 1 else ()
        if capabilities and all(
            done or qualifies(capabilities, w)
            for w, done in zip(words(text), _covered(capabilities, words(text)), strict=True)
        ):
            names, known_names = names + 1, known_names + 1  # "gstreamer cli tools"
            naming.append(True)
            continue
        before = names
        joining = joining_words(state, content)
        for k, token in enumerate(content):
            written = state.text.raw(token.start, token.end)
            if k in joining:
                continue  # "nginx aur podman": another language's "and", left unread
            if _known(state, written) or token.text in state.catalog.capabilities:
                names, known_names = names + 1, known_names + 1
            elif (
                token.text in RETRIEVAL_WORDS
                or token.text.replace(".", "").isdigit()
                or never_a_name(state, token.text, written)
            ):
                continue  # "x86", "raw", "13", "deb13": the target, said beside the list
            elif (
                written != token.text
                or not PACKAGE_TOKEN.match(token.text)
                or token.text in NOT_PACKAGES
                or is_english(token.text)
                or in_path(state, token)
            ):
                return None
            names += 1
        naming.append(
            names > before or any(_known(state, state.text.raw(t.start, t.end)) for t in content)
        )
    return naming if names >= 2 and known_names >= 1 else None


_KEEP = (
    r"\b(?:keep|keeping|retain|preserve)\s+(?:the\s+)?(?P<names>{names})"
    # said after the names: "ipmitool stays", "moby can stay", "nano remains"
    r"|\b(?P<names2>{names})\s+(?:(?:can|should|will|must)\s+)?(?:stays?|remains?|is\s+staying)\b"
)


def keeps(state: PlanState) -> list[tuple[int, int, tuple[int, int]]]:
    """Spans of the names a request keeps ("oh wait, keep socat", "ipmitool stays").

    Each is (start, end, the whole phrase's span).
    """
    pattern = re.compile(_KEEP.format(names=NAMES))
    found = []
    for m in state.text.matches(pattern):
        start, end = m.span("names") if m.group("names") else m.span("names2")
        found.append((start, end, m.span()))
    return found


def keep(state: PlanState, item: Item) -> None:
    """Keep a package: take back its removal earlier in the request, or note it stays."""
    for token in item.tokens:
        written = state.text.raw(token.start, token.end)
        # "keep moby": a family's short name keeps each of its packages (moby-engine, moby-cli)
        for name in family_names(state, written) or [written]:
            if name in state.remove:
                state.remove.remove(name)
                state.text.consume(token.start, token.end)
            elif name in state.facts.packages or name in state.add:
                state.text.consume(token.start, token.end, "context")
            elif state.target.known and _known(state, name) and name == written:
                # "keep iperf3 after all" when an earlier turn took it out: keeping it
                # means having it, so it goes back in, and the answer says so
                add_packages(state, Item("add", [token], "keep"), [name], name)
                state.warn(f"{name} is not in the template, so keeping it adds it")


_CHANGE_OF_MIND = re.compile(
    r"\b(?:no\s*,?\s*wait|wait\s*,?\s*no|oh\s*,?\s*wait|actually|scratch\s+that|"
    r"hmm+\s*,?\s*no|on\s+second\s+thought|(?:skip|forget|scrap|drop)\s+that|never\s*mind)\b"
)
_JUST = (
    r"\b(?:just|only)\s+(?:(?:add|install|use|keep)\s+)?(?P<names>{names}(?:\s+{names})*)"
    r"(?=\s*(?:$|[.!;]|\x1f|\s+for\b))"
)


def final_intent(state: PlanState) -> None:
    """After a change of mind, "just X" is the request's whole list of packages to add.

    "add tmux and nginx, no wait not nginx, lighttpd... actually neither, just tmux"
    adds tmux only; what was said between the change of mind and "just" is taken back.
    """
    original = state.text.original.lower()
    marker = _CHANGE_OF_MIND.search(original)
    if marker is None:
        return
    final = None
    for match in re.compile(_JUST.format(names=NAMES)).finditer(original, marker.end()):
        final = match
    if final is None:
        return
    start, end = final.span("names")
    names = [n for n in re.split(r"\s*(?:,|\band\b|&)\s*|\s+", original[start:end]) if n]
    if not names or not all(
        n in state.add or n in state.facts.packages or _known(state, n) for n in names
    ):
        return
    state.add[:] = [n for n in state.add if n in names]
    missing = [n for n in names if n not in state.add and n not in state.facts.packages]
    state.add += missing
    state.text.consume(marker.start(), final.end(), "context")
    state.notes.append(f"only the last intent was kept: {', '.join(names)}")


# a time said between the new name and the old: "thonny this term instead of geany",
# "caddy for now rather than nginx"
_FOR_NOW = (
    r"(?:(?:(?:this|next|for\s+the|for\s+this)\s+(?:term|semester|year|quarter|release|sprint"
    r"|round|time|cycle)|(?:for\s+)?now|from\s+now\s+on|going\s+forward)\s+)?"
)
REPLACE = re.compile(
    rf"\b(?:replace|swap|substitute|trade|exchange)\s+(?:the\s+)?(?P<old>{NAME})"
    rf"(?:\s+(?:out|over))?\s+(?:with|by|for)\s+"
    rf"(?:the\s+)?(?P<new>{NAME})\b"
    rf"|\bswitch(?:ing)?\s+from\s+(?P<old2>{NAME})\s+to\s+(?P<new2>{NAME})\b"
    rf"|\b(?:(?:with|use|using|add|install)\s+)?(?P<new3>{NAME})\s+{_FOR_NOW}(?:instead\s+of|"
    rf"rather\s+than|in\s+place\s+of)\s+(?:the\s+)?(?P<old3>{NAME})\b"
    # "change apache to nginx", "move the web server from apache over to caddy": read only
    # when both sides name software (the caller checks), never "change the hostname to gw1"
    rf"|\b(?:change|changing|switch|switching|move|moving|migrate|migrating|go|going|convert)"
    rf"\s+(?:(?:the\s+|our\s+)?[a-z]+(?:\s+[a-z]+)?\s+from\s+|from\s+)?(?:the\s+)?"
    rf"(?P<old4>{NAME})\s+(?:over\s+)?"
    rf"(?:to|into|for)\s+(?:the\s+)?(?P<new4>{NAME})\b"
)


# sed's substitution as a shorthand for a replacement: "s/nano/vim/", "s/htop/btop/g"; the
# delimiter may be "/", "|" or "#" as in sed itself, and a trailing flag ("g") is allowed
SUBSTITUTE = re.compile(
    rf"(?<![\w/.-])s(?P<sep>[/|#])(?P<old>{NAME})(?P=sep)(?P<new>{NAME})(?:(?P=sep)g?)?"
    r"(?![\w/-]|\.\w)"
)

# a list variable updated as shells and build files write it: "pkgs += jq,curl",
# "packages -= nano vim"
PACKAGES_UPDATED = re.compile(
    r"\b(?:packages?|pkgs?)\s*(?P<op>\+=|-=)\s*"
    rf"(?P<names>(?:{NAME})(?:(?:\s*,\s*|[ \t]+)(?:{NAME}))*)"
)

# what is said of packages after their names: "nginx isn't needed", "mosquitto not needed",
# "curl is included", "jq and git preinstalled", "telnet must not be"
# where a package is said to be: "has to be in there", "must be on the box", "should be
# part of the image"
_IN_IT = (
    r"(?:in|on|inside)\s+(?:it|there|the\s+(?:image|build|template|box|device|system))"
    r"|part\s+of\s+(?:it|the\s+(?:image|build|template))"
)
SAID_OF = re.compile(
    rf"\b(?P<names>{NAMES})"
    r"(?:,?\s+(?:etc\b\.?|and\s+so\s+on|and\s+the\s+like))?"  # "gcc, make etc must not be"
    # "zsh itself obviously needs to be installed": adverbs between the name and its verb
    r"(?:\s+(?:itself|themselves|also|too|really|obviously|definitely|absolutely|still))*"
    rf"(?:\s*[-\u2013\u2014](?=\s*{NOT_NEEDED}))?"  # "htop - not needed": a note's dash
    r"\s+(?:"
    rf"(?P<off>{NOT_NEEDED})"
    r"|(?P<off2>(?:can|could|should|must|may)\s+(?:(?:both|all|also)\s+)?"
    r"(?:go|be\s+(?:removed|dropped|deleted|skipped))"
    r"|goes|(?:has|have)\s+to\s+go"
    # "postgres is overkill", "the agent is useless on-prem": judged not worth having
    r"|(?:is|are|'s|seems|feels)\s+(?:(?:really|totally|just|probably|clearly|kind\s+of|a\s+bit|"
    r"way)\s+)?(?:overkill|unnecessary|redundant|pointless|useless|superfluous|bloat))"
    # "telnet and rsh-client must not be (installed)": the verb of the sentence before
    r"|(?P<banned>(?:(?:must|should|may|shall|can)(?:\s+not|n't|\s+never)|mustn't|shouldn't)"
    rf"\s+be(?:\s+(?:installed|included|present|there|added|{_IN_IT}))?"
    r"(?=\s*(?:$|[\n.;,!)])))"
    r"|(?P<on>(?:is|are|should\s+be|must\s+be|needs?\s+to\s+be|has\s+to\s+be|have\s+to\s+be)"
    rf"\s+(?:included|installed|present|available|added|there|{_IN_IT})"
    # "systemd-timesyncd is enough for us", "busybox will do": the one that is wanted (not
    # "ansible will do that after first boot": a tool that will do a job)
    r"|(?:is|are)\s+(?:enough|sufficient|good\s+enough)|suffices"
    r"|will\s+do(?!\s+(?:that|it|this|those|them|so|all|most|some|any|what)\b"
    r"|\s+the\s+(?!job\b|trick\b))"
    # "jq and htop are needed", "curl is required": a need said of the names
    r"|(?:is|are)\s+(?:(?:also|still|really|definitely|absolutely)\s+)?"
    r"(?:needed|required|wanted|necessary|essential|mandatory|a\s+must)"
    # "htop would be nice", "jq would be really handy", "tmux is nice to have": a wish
    r"|(?:would|'d)\s+(?:also\s+)?(?:be\s+(?:(?:really|very|also|super)\s+)?"
    r"(?:nice|good|great|helpful|useful|handy|ideal|welcome|appreciated)|help)"
    r"|(?:is|are)\s+(?:(?:also|really)\s+)?(?:nice|good)\s+to\s+have)"
    r"|(?P<bare>installed|included|preinstalled|pre-installed)(?=\s*(?:$|[\n.;]))"
    # "make sure gcc and gdb aren't in there": read only after "make sure" (said_of checks)
    r"|(?P<absent>(?:is|are)(?:\s+not|n't)|isn't|aren't)"
    rf"\s+(?:installed|included|present|there|{_IN_IT})(?=\s*(?:$|[\n.;,!)]))"
    # "jq removed, add htop": a changelog's line, the name and what was done to it
    r"|(?P<gone>removed|dropped|deleted|uninstalled|purged)(?=\s*(?:$|[\n.;,!]))"
    # the object before its verb, as terse notes and second-language English put it:
    # "chrony remove, timesyncd is enough", "nano out", "mosquitto we don't need anymore"
    r"|(?P<fronted>(?:remove|drop|delete|uninstall|purge|out)(?:\s+(?:please|pls|too))?"
    rf"|{NOT_WANTED})(?=\s*(?:$|[\n.;,!]))"
    r")\b"
)


# "must have X and Y", "it should carry X", "the image has to include X", "it should run
# nginx": a modal and a verb of having; a statement elsewhere ("it must boot"), here it asks
# for what follows
MUST_HAVE = re.compile(
    r"\b(?:must|should|shall|has\s+to|have\s+to|needs?\s+to|will\s+need\s+to)"
    r"\s+(?:also\s+)?(?P<verb>have|carry|contain|include|ship(?:\s+with)?|come\s+with|bring|run"
    # "Then it should install a system with nginx and openssh-server" (an installer's
    # acceptance criterion): what the system it installs holds
    r"|install\s+(?:a|an|the)\s+(?:[a-z-]+\s+)?(?:system|image|os|machine|box|server|host)"
    r"\s+(?:with|that\s+has|having))"
    rf"\s*:?\s+(?P<names>{NAMES})\b"
)
# "it should boot into chromium fullscreen", "the panel launches firefox in kiosk mode": the
# one application a kiosk starts is a package it holds (only a name known as one counts)
LAUNCHES = re.compile(
    r"\b(?P<verb>(?:boots?|booting)\s+(?:(?:straight|directly|right)\s+)?into"
    r"|launch(?:es|ing)?|auto-?start(?:s|ing)?)"
    rf"\s+(?:an?\s+|the\s+)?(?P<names>{NAME})"
    r"(?:,?\s+(?:in\s+)?(?:full-?\s?screen|kiosk(?:\s+mode)?|on\s+boot|at\s+(?:boot|startup))\b)*"
    r"(?=\s*(?:$|[\n.;,!)]))"
)
# "Chromium fullscreen under cage", "firefox in kiosk mode on weston": the kiosk's
# application and the compositor it runs in, said without a verb (only known names count);
# the application is read first, then the manner and the compositor together
_FULLSCREEN = r"(?:in\s+)?(?:full-?\s?screen|kiosk\s+mode)"
_UNDER = r"\s+(?:under|in|on|inside|via|with)\s+"
FULLSCREEN_APP = re.compile(
    rf"\b(?P<names>{NAME})(?:\s+{_FULLSCREEN}\b(?!{_UNDER})|(?=\s+{_FULLSCREEN}{_UNDER}))"
)
FULLSCREEN_UNDER = re.compile(
    rf"\b{_FULLSCREEN}{_UNDER}(?P<names>{NAME})"
    r"(?=\s*(?:$|[\n.;,!)])|\s+(?:and|but|nothing)\b)"
)
# "the UX team went with weston's kiosk shell instead", "we're moving the runners to podman":
# a decision reported about the image's software names what it should hold now
DECIDED = re.compile(
    r"\b(?P<verb>went|gone|going|switched|switching|moved|moving|migrated|migrating|settled"
    r"|standardi[sz]ed|standardi[sz]ing)"
    r"\s+(?:(?:the|our|all|their)\s+(?:[a-z-]+\s+){0,2})?(?:with|to|on)"
    rf"\s+(?:an?\s+|the\s+)?(?P<names>{NAME})"
    r"(?='s\b|\s*(?:$|[\n.;,!)])|\s+instead\b)"
)
# "They mentioned usbguard.", "the auditors recommended aide and auditd", "app team says
# firefox-esr not chromium": a package somebody else named for the image, the sentence
# ending on the names (only known names count; "we", "you" and "I" mentioning something
# point back at the conversation)
SUGGESTED = re.compile(
    r"(?<![\w'-])(?!(?:i|we|you)\s)[a-z][\w-]*(?:\s+(?:also|even|specifically|explicitly))?"
    r"\s+(?P<verb>mentioned|mentions|suggested|suggests|recommended|recommends|proposed"
    r"|proposes|says|said)"
    rf"\s+(?:an?\s+|the\s+)?(?P<names>{NAMES})"
    # "app team says firefox-esr not chromium": the one they name in place of another
    rf"(?=\s*(?:$|[\n.;!)])|,?\s+not\s+(?:the\s+)?(?:{NAME})\s*(?:$|[\n.;!,)]))"
)
# the same negated, as tickets and user stories write it: "MUST NOT include openssh-server",
# "it shouldn't ship with telnet", "must never contain: a, b"
MUST_NOT_HAVE = re.compile(
    r"\b(?:(?:must|should|shall|may|can)(?:\s+not|n't|\s+never)|mustn't|shouldn't)"
    r"\s+(?P<verb>have|carry|contain|include|ship(?:\s+with)?|come\s+with|bring)"
    rf"\s*:?\s+(?P<names>(?:{NAME})(?:\s*(?:,|\b(?:and|or|nor)\b|&)\s*(?:{NAME}))*)\b"
)
# "make sure there is no ssh server in the image", "ensure there are no compilers": what
# must not be there
NONE_THERE = re.compile(
    r"\bthere(?:\s+is|\s+are|'s|'re)"
    rf"\s+no\s+(?P<names>(?:{NAME})(?:\s+(?:{NAME})){{0,2}})"
    r"(?=\s*(?:$|[\n.;,!)]|\s+(?:in|on|at\s+all|installed|left|anywhere)\b))"
)


# the sentence forms read for names, each with its way and the verb it counts as (a
# modal's own verb for MUST_HAVE and MUST_NOT_HAVE; "said": only known names count)
SENTENCE_READINGS: tuple[tuple[re.Pattern[str], Literal["add", "remove"], str], ...] = (
    (MUST_HAVE, "add", "have"),
    (MUST_NOT_HAVE, "remove", "no"),
    (NONE_THERE, "remove", "no"),
    (LAUNCHES, "add", "said"),
    (DECIDED, "add", "said"),
    (SUGGESTED, "add", "said"),
    (FULLSCREEN_APP, "add", "said"),
    (FULLSCREEN_UNDER, "add", "said"),
)


# what must come right before NONE_THERE (in the text as written: an earlier rule may
# have read "please make sure" as a polite opening)
ENSURING = re.compile(r"\b(?:make\s+sure|ensure|be\s+sure|check)\s+(?:that\s+)?$")


# "the qemu guest agent isn't needed": a definite phrase of a few words, then "not needed"
PHRASE_NOT_NEEDED = re.compile(
    rf"\bthe\s+(?P<names>(?:{NAME})(?:\s+(?:{NAME})){{0,3}})\s+{NOT_NEEDED}\b"
)


# "the package there is just grafana", "the package name is foo-agent", "the packages you
# want are a and b": a sentence whose subject is the package names what follows as one
PACKAGE_IS = re.compile(
    r"\b(?:the\s+)?packages?(?:\s+names?)?"
    r"(?:\s+(?:there|here|from\s+(?:it|there)|in\s+(?:it|there)|for\s+(?:it|that|this)"
    r"|(?:we|you|they|i)\s+(?:need|want)|to\s+(?:install|add)))?"
    r"\s+(?:is|are)\s+(?:(?:just|only|simply|called|named)\s+)*"
    rf"(?P<names>{NAMES})(?=\s*(?:$|[.!;,)\n]))"
)


# "pkgs from it: corp-agent", "packages from our repo: a, b": a header that says where the
# packages come from, then the names after its colon
PACKAGES_FROM = re.compile(
    r"\b(?:packages?|pkgs?)\s+(?:from|in|out\s+of)\s+"
    # ("repo" may already be read by the repository rule: \x1f)
    r"(?:it|there|this\s+one|that\s+one|(?:the|our|that|this)\s+(?:repo(?:sitory)?|\x1f+))"
    r"\s*:\s*"
    rf"(?P<names>{NAMES})(?=\s*(?:$|[.!;,)\n]))"
)


_QUESTION_WORDS = frozenset(
    "what which how why where when who does do is are did whats what's".split()
)


def questions(state: PlanState) -> list[tuple[int, int]]:
    """The spans of the request's questions ("What does it install, package-wise?")."""
    from oic_ai.tools.planner.clauses import split_clauses

    spans: dict[int, tuple[int, int]] = {}
    for clause in split_clauses(state.text.original):
        start, end = spans.get(clause.sentence, (clause.start, clause.end))
        spans[clause.sentence] = (min(start, clause.start), max(end, clause.end))
    found = []
    for start, end in spans.values():
        sentence = state.text.original[start : end + 1].strip()
        first = sentence.split(maxsplit=1)[0].lower().strip(",") if sentence else ""
        if sentence.endswith("?") and first in _QUESTION_WORDS:
            found.append((start, end))
    return found


# "busybox + nfs client is all it needs", "jq is all we want": a phrase said to be the
# whole of what is needed names what to add
ALL_IT_NEEDS = re.compile(
    rf"\b(?P<names>(?:{NAME})(?:\s+(?:{NAME})){{0,3}})\s+(?:is|are)\s+(?:really\s+)?all\s+"
    r"(?:it|we|they|this|that|you|i|the\s+image|the\s+box)\s+(?:really\s+)?"
    r"(?:needs?|wants?|requires?|uses?)\b"
)
