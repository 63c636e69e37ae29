"""Which words are package names, by what knows them and by their role in the sentence.

A name the index, the catalog or the library knows is a package; an ordinary word that
is also a package name ("make", "parted") is one only where the sentence uses it as one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from oic_ai.stores.capability_catalog import Capability, words
from oic_ai.tools.planner.clauses import sentence_at, split_clauses
from oic_ai.tools.planner.lexicon import is_common, is_derived, is_english
from oic_ai.tools.planner.rules.capability_words import real_names
from oic_ai.tools.planner.rules.package_known import (
    debian_name as _debian_name,
)
from oic_ai.tools.planner.rules.package_known import (
    dist_library_names as _dist_library_names,
)
from oic_ai.tools.planner.rules.package_known import known as known
from oic_ai.tools.planner.rules.package_places import (
    no_package_here,
    upstream_library,
    worked_on,
)
from oic_ai.tools.planner.state import PlanState, family_of
from oic_ai.tools.planner.text import Item, Token
from oic_ai.tools.planner.words import (
    ADD_VERBS,
    FILLER,
    NEGATORS,
    NOT_PACKAGES,
    PACKAGE_TOKEN,
    RETRIEVAL_WORDS,
)


def real(state: PlanState, name: str) -> bool:
    """True when the catalog or the library installs ``name`` on the target's family.

    Not when a capability has ``name`` as a synonym and spells it otherwise on the
    target's dist ("firefox" on Debian 13 is firefox-esr), unless the dist's own library
    templates install it.
    """
    family = family_of(state.target.os, state.target.dist)
    if not family or name not in real_names(family):
        return False
    target = state.target
    if not target.known or name in _dist_library_names(target.dist):
        return True
    for capability in state.catalog.capabilities.values():
        if name not in capability.synonyms:
            continue
        listed = capability.packages_for(target.os, target.dist, target.arch)
        keys = [k.split("/", 1)[0] for k, v in capability.package_table.items() if name in v]
        if listed and name not in listed and not ({family, target.dist} & set(keys)):
            if target.os == "debian" and _debian_name(name):
                continue  # "xfce4": Debian's own metapackage too, beside task-xfce-desktop
            return False  # only another dist's spelling ("firefox" is Ubuntu's)
    return True


def _ambiguous(state: PlanState, token: Token) -> bool:
    """A word that is both an ordinary word and a package of the family ("make", "parted")."""
    word = token.text
    if len(word) < 3 or (word not in FILLER and word not in NOT_PACKAGES):
        return False
    written = state.text.raw(token.start, token.end)
    return written == word and (real(state, word) or known(state, word))


def listed_ambiguous(state: PlanState, item: Item) -> list[Token]:
    """The ambiguous words of a run of names without commas ("gcc make git").

    Each must stand between two known names, or after one at the run's end.
    """
    tokens = item.tokens
    found = []
    for k, token in enumerate(tokens):
        if not _ambiguous(state, token) or k == 0:
            continue
        before = tokens[k - 1]
        after = tokens[k + 1] if k + 1 < len(tokens) else None
        if _named(state, before) and (after is None or _named(state, after)):
            found.append(token)
    return found


def _named(state: PlanState, token: Token) -> bool:
    return token.text not in FILLER and known(state, state.text.raw(token.start, token.end))


def _single_name(state: PlanState, item: Item | None) -> bool:
    """True for an item that is one package name the index, catalog or library knows."""
    if item is None or len(item.tokens) != 1 or item.mode == "aside":
        return False
    return _named(state, item.tokens[0])


def ambiguous_in_list(state: PlanState, items: Sequence[Item], index: int, took: bool) -> bool:
    """An ambiguous word is a package where its role in the sentence is a package's.

    "make" and "parted" are verbs and package names. As an item of a list whose item
    before it was a package ("git, gcc, make and jq") or whose next item is a known
    package, or as the whole object of an add or remove verb ("drop make."), the word
    is the package; anywhere else ("make the disk bigger") it is the word.
    """
    item = items[index]
    if len(item.tokens) != 1 or item.mode not in ("add", "remove", "none"):
        return False
    if not _ambiguous(state, item.tokens[0]):
        return False
    following = items[index + 1] if index + 1 < len(items) else None
    between = state.text.work[item.span[1] : following.span[0]] if following else ""
    listed_next = (
        following is not None
        and "." not in between
        and (_single_name(state, following) or _package_shaped(state, following))
    )
    if took or listed_next:
        return bool(item.verb) or item.mode != "none"
    # the whole object of its verb: the sentence ends (or a new one starts) right after it,
    # or only a polite word or "too" follows ("we also need screen too, please")
    rest = state.text.work[item.span[1] :]
    whole = _WHOLE_OBJECT.match(rest) or _PURPOSE_AFTER.match(rest)
    if whole is not None and _CONTINUING.fullmatch(state.text.original[: item.span[0]].lower()):
        return True  # "and screen so it keeps running": the last turn's list goes on
    return item.mode in ("add", "remove") and item.verb in _OBJECT_VERBS and whole is not None


# verbs whose object is what they add or remove ("drop make", "install parted", "we need
# screen", "put screen on it")
_OBJECT_VERBS = frozenset(
    "add install remove drop delete uninstall purge include exclude omit skip need needs "
    "want wants put with plus also".split()
)
_WHOLE_OBJECT = re.compile(
    r"\s*(?:(?:too|as\s+well|also|please|pls|plz|on\s+it|on\s+there|thanks)\b[\s,]*)*"
    r"(?:$|[.;!?\n,])"
)


# what the object is for, said right after it: "add screen so it keeps running when i log
# out", "drop make because nobody builds there" (never "so much", "so far")
_PURPOSE_AFTER = re.compile(
    r"\s*(?:(?:too|as\s+well|also|please|pls)\b[\s,]*)*,?\s*(?:so(?!\s+(?:much|many|far|long)\b)"
    r"|because|since|as\s+(?:we|they|it|i))\b"
)
# a message that opens by going on with the last turn's list: "and screen", "oh, also make"
_CONTINUING = re.compile(r"\W*(?:(?:oh|ok|okay|right|and|also|plus)\W+)*(?:and|also|plus)\W*")


def _package_shaped(state: PlanState, item: Item) -> bool:
    """True for one lower-case name that is no English word ("tmux"): a package's shape."""
    from oic_ai.tools.planner.lexicon import is_english

    if len(item.tokens) != 1 or item.mode == "aside":
        return False
    token = item.tokens[0]
    written = state.text.raw(token.start, token.end)
    return written == token.text and token.text.isalnum() and not is_english(token.text)


# generic nouns after a package name: "the cockpit-podman plugin", "the nvme-cli tool"
HEAD_NOUNS = frozenset(
    "plugin plugins package packages tool tools utility utilities module modules extension "
    "extensions addon add-on client daemon service cli".split()
)
# Nouns for kinds of software: a description with one of them can head unknown names
# ("the SCAP tooling (openscap-scanner and scap-security-guide)").
SOFTWARE_NOUNS = HEAD_NOUNS | frozenset(
    (
        "tooling suite stack components dependencies prerequisites libraries library drivers "
        "driver agents agent software bundle runtime toolkit toolchain broker userspace "
        "user-space server sdk sdks runtimes toolkits toolchains"
    ).split()
)


def installed_by_capability_word(state: PlanState, word: str) -> list[str]:
    """The template's packages of the one capability a word of its phrases names.

    "drop the broker": "broker" is a word of the mqtt capability's phrases ("message
    broker"), and mosquitto is installed. Several capabilities, or none installed: [].
    """
    target = state.target
    if not target.known:
        return []
    installed = {*state.facts.packages, *state.facts.kernel.packages}
    found: list[list[str]] = []
    for capability in state.catalog.capabilities.values():
        phrases = (capability.name, *capability.synonyms)
        if not any(word in words(p) and len(words(p)) > 1 for p in phrases):
            continue
        listed = capability.packages_for(target.os, target.dist, target.arch)
        present = [n for n in listed if n in installed]
        if present and present not in found:
            found.append(present)
    return found[0] if len(found) == 1 else []


def family_names(state: PlanState, word: str) -> list[str]:
    """The template's (and the request's) packages a short family name stands for.

    "moby" stands for moby-engine and moby-cli: the installed names that start with
    "moby-" (or with a version between: "php" for php8.3-fpm), and the catalog's other
    names for it present on the target. A word that is
    a package itself, or that starts no installed name, stands for nothing here.
    """
    installed = [*state.facts.packages, *state.facts.kernel.packages, *state.add]
    # ("php" for php8.3-fpm and php8.3-mysql too: the family's name with its version)
    versioned = re.compile(rf"{re.escape(word)}(?:\d+\.\d+)?-")
    found = [n for n in installed if n == word or versioned.match(n)]
    target = state.target
    if target.known:
        aliases = state.catalog.aliases(word, target.os, target.dist, target.arch)
        found += [n for n in aliases if n in installed and n not in found]
    return found


def removal_aliases(state: PlanState, written: str, token: str) -> tuple[str, ...]:
    """The other names a removal of ``written`` takes: none when the template has it.

    "remove gcc" on a template with gcc removes gcc, not make (an alias group's other
    real name); "remove docker-ce" on a template with docker.io removes docker.io.
    """
    if written in state.facts.packages or written in state.facts.kernel.packages:
        return ()
    target = state.target
    return state.catalog.aliases(token, target.os, target.dist)


_VAGUE_NOUNS = frozenset("thing things stuff".split())
_SWITCHED_ON = frozenset("enforcing enforced enabled active".split())


def qualifies(capabilities: Sequence[Capability], word: str) -> bool:
    """Whether ``word`` only qualifies the capabilities an item names.

    "the OpenCL runtime", "an mqtt broker", "the intel opencl runtime": a word for a
    kind of software, a word of the same capability's own phrases, or a word that
    chose the base.
    """
    if word in RETRIEVAL_WORDS or word in SOFTWARE_NOUNS or word in _VAGUE_NOUNS:
        return True  # "forget the remote desktop thing": a vague noun heads the phrase
    if word in _SWITCHED_ON:
        return True  # "SELinux enforcing", "audit logging enabled": the state it is to be in
    if word.removesuffix("s") in SOFTWARE_NOUNS:
        return True
    return any(
        word in words(phrase) or word.removesuffix("s") in words(phrase)
        for capability in capabilities
        for phrase in (capability.name, *capability.synonyms)
    )


def prefer_picks(state: PlanState, picks: Sequence[Capability]) -> None:
    """A pick replaces what a broader phrase added for the same kind of capability.

    "a browser ... chromium is what the team used": the browser phrase gave firefox,
    the pick says chromium, so firefox is not added.
    """
    target = state.target
    if not target.known:
        return
    for picked in picks:
        mine = set(picked.packages_for(target.os, target.dist, target.arch))
        for other in state.catalog.capabilities.values():
            if other.name == picked.name or other.group != picked.group:
                continue
            listed = set(other.packages_for(target.os, target.dist, target.arch)) - mine
            said = {w for _, label in state.features for w in label.split()}
            said -= mine | {w for p in (picked.name, *picked.synonyms) for w in words(p)}
            # "add firefox and chromium": a name said outright stays
            named = any(w in listed or known(state, w) for w in said)
            if listed and listed <= set(state.add) and not named:
                state.add[:] = [n for n in state.add if n not in listed]


# Verbs that say what something has or does, not what to add: "the NUC has a 32G nvme but
# leave headroom", "the lab runs foo": an unknown word after one of them is not asked for.
_STATING_VERBS = frozenset(
    "has have had having contains containing run runs running use uses using carry carries "
    "offer offers provide provides providing adds includes ships brings pulls installs "
    "bundles".split()
)
# what a wish is said of: "the image had tcpdump", "it should have jq", "one that runs X"
_IMAGE_SUBJECTS = (
    r"(?:image|images|template|build|system|os|it|one|that|which|we|i|you|they|ours?|"
    r"appliance|vm)"
)


def _said_of_the_image(state: PlanState, verb: str) -> bool:
    """Whether a stating verb is said of the image (a wish), not of other hardware."""
    pattern = (
        rf"\b{_IMAGE_SUBJECTS}\s+(?:(?:would|should|must|will|could|can|to|also|just)\s+)*"
        rf"(?:also\s+)?{re.escape(verb)}\b"
    )
    return re.search(pattern, state.text.original.lower()) is not None


# Nouns after a name that make it the name of something else: "our cuda mirror", "the
# acme repo", "the dialout group", "the kiosk user", "the gw1 host".
_NAMED_THING = frozenset(
    "mirror mirrors repo repos repository repositories feed channel ppa group groups user "
    "users account accounts login host hostname machine box node partition volume disk "
    "key keys team project site".split()
)
# what kind of repository a name's noun is ("our artifactory rpm repo", "the acme apt mirror")
_REPOSITORY_KINDS = frozenset(
    "rpm deb apt yum dnf zypper package packages internal private local public".split()
)
# Groups accounts join; a name the package rule does not know is a group here, not a package.
SYSTEM_GROUPS = frozenset(
    "wheel sudo adm dialout plugdev video render audio input netdev lp tty kvm libvirt "
    "users systemd-journal gpio i2c spi uucp lock floppy cdrom tape disk staff games".split()
)


# someone's own software named right before a name, which is then its name in apposition:
# "their own app, cityeye-analytics", "our in-house service (acme-sync)", "the customer's
# tool: fooctl"
_OWN_SOFTWARE = re.compile(
    r"\b(?:our|their|my|your|his|her|[a-z]+'s)\s+(?:own\s+|in-house\s+|internal\s+|custom\s+)*"
    r"(?:app|application|service|tool|software|product|binary|daemon|program|agent|code)s?"
    r"\s*[,(:]?\s*$"
)


OWN_SOFTWARE = (
    "your own software is no distro package and no repository in the template serves it; "
    "add the repository that does (its URL, suite, component and key), then "
    "'install the package <name>'"
)


OWN_PACKAGE = (
    "your own package is no distro package and no repository in the template serves it; "
    "add the repository that does (its URL, suite, component and key), then ask for it again"
)
# "our HMI runtime", "the vendor's gateway agent": one's own software, named in the sentence
_OWNED = re.compile(
    r"\b(?:our|their|my|(?:the\s+)?(?:vendor|supplier|oem|customer)'s)\s+"
    r"(?:(?!(?:and|or|the|a|an)\b)[\w-]+\s+){0,2}"
    r"(?:app|application|service|tool|software|product|binary|daemon|program|agent|runtime"
    r"|client|stack|package|suite)s?\b"
)


def _own_without_repository(state: PlanState, found: Token) -> bool:
    """Whether an unknown name is one's own software no listed repository could serve.

    "add our HMI runtime, the package is acme-hmi-runtime" on a template with no package
    repository and none added by the request: the name is reported (nothing can install
    it), not added. Once a repository is listed, "now add it from there" adds it.
    """
    if state.repositories or state.facts.repositories or not state.target.known:
        return False
    original = state.text.original.lower()
    start = max(original.rfind(s, 0, found.start) for s in (".", "\n", "!", "?", ";"))
    end = min(
        (i for i in (original.find(s, found.end) for s in ".\n!?;") if i >= 0),
        default=len(original),
    )
    owned = _OWNED.search(original, start + 1, end)
    if owned is None:
        return False
    # the description and the name are one thing asked for: one report for both
    state.reject(min(owned.start(), found.start), max(owned.end(), found.end), OWN_PACKAGE)
    return True


# the same said after the name: "warehouse-nav, that's our in-house navigation stack"
_OWN_AFTER = re.compile(
    r"\s*[,(-]?\s*(?:that's|that\s+is|which\s+is|it's|its|is)\s+(?:our|their|my|[a-z]+'s)\s+"
    r"(?:own|in-house|internal|custom|proprietary)\b"
)


def plays_another_role(state: PlanState, item: Item, token: str) -> bool:
    """Whether an unknown name plays another role in its sentence than a package.

    A group accounts join ("dialout"), the name of someone's own software said beside
    it ("their own app, cityeye-analytics", "warehouse-nav, that's our in-house stack")
    when the request gives no repository, the name of a repository, group or
    host said with its noun ("our cuda mirror"), a word after a verb that states what something
    has ("has ... headroom"), and, in a message written in another language, any
    unknown word not named outright by an add or remove verb (there an unknown word is
    as likely a word of that language as a package name; "install X" still marks one).
    """
    from oic_ai.tools.planner.languages import detect

    if token in SYSTEM_GROUPS:
        return True
    found = next((t for t in item.tokens if t.text == token), None)
    if found is not None and not state.repositories:
        # "their own app, cityeye-analytics", "warehouse-nav, that's our in-house stack":
        # the name of someone's own software, from no repository the request gives
        original = state.text.original.lower()
        if _OWN_SOFTWARE.search(original[: found.start]) or _OWN_AFTER.match(original, found.end):
            if item.mode == "add" and item.verb not in ("with", "plus", "and", ""):
                # "include warehouse-nav, that's our in-house stack": asked for, and said
                # to be nobody's package but theirs
                state.reject(found.start, found.end, OWN_SOFTWARE)
            return True
    # "our cuda mirror", "our artifactory rpm repo": a kind of repository may stand between
    named = (
        rf"(?<![\w.-]){re.escape(token)}\s+(?:(?:{'|'.join(_REPOSITORY_KINDS)})\s+){{0,2}}"
        rf"(?:{'|'.join(_NAMED_THING)})(?![\w-])"
    )
    if re.search(named, state.text.original.lower()):
        return True
    if item.verb in _STATING_VERBS and not _said_of_the_image(state, item.verb):
        return True
    return item.verb not in _EXPLICIT_VERBS and bool(detect(state.text.written))


# verbs that name what they act on outright ("añade X" is read "add X"): enough to mark an
# unknown name as a package in a message of another language, where "need X" or "with X"
# is not ("necesito imagen para la tienda")
_EXPLICIT_VERBS = frozenset(
    "add adds adding include including remove removes removing drop delete uninstall purge".split()
)


# nouns for people and their accounts: the subject of a wish, never a package
_PEOPLE = frozenset(
    (
        "user users admin admins administrator administrators account accounts login logins "
        "sudoer sudoers operator operators dev devs developer developers team teams people "
        "staff tech techs technician technicians engineer engineers colleague colleagues"
    ).split()
)


# reflexive pronouns: "the app we install ourselves" says who, never what
REFLEXIVE = frozenset(
    "myself yourself yourselves himself herself itself ourselves themselves oneself".split()
)


def never_a_name(state: PlanState, token: str, written: str) -> bool:
    """Whether an unknown word can never be a package, however it is marked.

    A single letter ("-y" of "install -y"), a command-line flag ("--no-install-recommends"),
    and the name of an operating system, release or architecture ("FROM ubuntu:24.04",
    "install on trixie") are never package names unless something knows them as one.
    """
    from oic_ai.stores.targets import load_targets

    if len(token) < 2 or token in _PEOPLE or token in REFLEXIVE:
        return True  # "-y"; "the admins want X", "we install it ourselves": people
    flag = rf"(?<![\w.-])--?{re.escape(written)}(?![\w.+-])"
    if re.search(flag, state.text.original):
        return True
    if token in _KERNEL_KEYS or token in _cmdline_keys(state.facts.kernel.cmdline):
        return True  # "isolcpus / nohz_full should be 1-3": kernel options named bare
    if token in _PROTOCOLS:
        return True  # "a box for dns + dhcp": what it serves, not a package
    registry = load_targets()
    if registry.os_for_spelling(token) is not None:
        return True
    if any(token in registry.request_words(kind) for kind in ("dist", "arch")):
        return True
    return _short_dist(token, registry.request_words("dist"))


# protocols and networks a machine serves or uses, none of them a package of its own
_PROTOCOLS = frozenset(
    "dhcp dns http https tcp udp smtp imap vpn lan wan wlan wifi ipv4 ipv6 tls ssl".split()
)
# kernel command-line keys people name without "=" (the kernel's parameter names, none of
# them a package); the template's own command line adds its keys (_cmdline_keys)
_KERNEL_KEYS = frozenset(
    (
        "isolcpus nohz_full nohz rcu_nocbs rcu_nocb_poll irqaffinity hugepages hugepagesz "
        "default_hugepagesz transparent_hugepage nosmt mitigations loglevel intel_iommu "
        "amd_iommu iommu nmi_watchdog nosoftlockup processor.max_cstate intel_idle.max_cstate "
        "intel_pstate idle clocksource tsc skew_tick kthread_cpus slab_nomerge init_on_alloc "
        "init_on_free page_alloc.shuffle randomize_kstack_offset vsyscall lockdown "
        "consoleblank maxcpus nr_cpus panic"
    ).split()
)


@lru_cache(maxsize=64)
def _cmdline_keys(cmdline: str) -> frozenset[str]:
    return frozenset(arg.split("=", 1)[0].lower() for arg in cmdline.split() if "=" in arg)


def _short_dist(token: str, dist_words: Sequence[str] | dict[str, str]) -> bool:
    """Whether ``token`` shortens a release's name ("deb13" for debian13, "ubu24")."""
    short = _LETTERS_DIGITS.match(token)
    if short is None or len(short.group(1)) < 2:
        return False
    for word in dist_words:
        full = _LETTERS_DIGITS.match(word)
        if full and full.group(2) == short.group(2) and full.group(1).startswith(short.group(1)):
            return True
    return False


_LETTERS_DIGITS = re.compile(r"^([a-z]+)(\d+)$")


# A host or domain name: two dots or more, or one before a top-level domain word.
_HOST_LIKE = re.compile(
    r"^(?:[a-z0-9-]+\.){2,}[a-z][a-z0-9-]*$"
    r"|^[a-z0-9-]+\.(?:com|net|org|local|lan|internal|example|invalid|test|localdomain|corp"
    r"|home|edu|gov)$"
)
# a file name by its extension: a configuration file, a unit, a script or a key
_FILE_LIKE = re.compile(
    r"^[a-z0-9][\w.+-]*\.(?:conf|cfg|cnf|ini|yaml|yml|json|toml|list|repo|sources|service|timer"
    r"|socket|mount|rules|sh|py|pem|crt|cer|key|gpg|asc|txt|xml|env|log|rc)$"
)
# Words after which an unknown word is a verb: "to" and the subject pronouns.
_BEFORE_A_VERB = frozenset("to it he she they we i you u who which that nobody everyone".split())
# The verbs that mark what follows as a package even when nothing knows the name.
_BEFORE_A_STATE = frozenset("be been being become becomes stay stays remain remains".split())
_STRONG_VERBS = frozenset({"install", "installing", "installed", "packages", "package"})


def may_be_package(state: PlanState, item: Item, token: str, written: str) -> bool:
    """The package rule: is ``written`` (read as ``token``) a package in this item?

    A name is a package when the synced index, the catalog or the library knows it; or
    when the request marks it as one and it has a package name's shape for the family
    (lower case): strongly ("install X", "the package X", `X`) or, for a word that is no
    ordinary English word, by "add", "with" or "need". Anything else (a product name
    written with capitals, "a ton", "the options") is left for the accounting to report.
    """
    if token in state.user_names or token == state.hostname:
        return False  # an account or host name this request used ("ops needs an account")
    if any(token == user.name for user in state.facts.users):
        return False  # "tkaplan: ssh-ed25519 ...": an account the template has
    found = next((t for t in item.tokens if t.text == token), None)
    if worked_on(state, found):
        return False  # "the fstab we do with ansible": a job done elsewhere, and its tool
    if known(state, written):
        return True
    if token in SOFTWARE_NOUNS:
        return False  # "add the acme sdk", "also the runtime": the kind of what is named
    if re.fullmatch(r"[\d.,:~+-]+", written):
        return False  # "change to 2-3", "1.5": a number or a range, never a name
    if item.verb == "said":
        return False  # "they run acme-thing": a statement names only what is known
    if not PACKAGE_TOKEN.match(written.lower()) or not _shaped(state, written):
        return False
    if never_a_name(state, token, written):
        return False  # "-y", "--quiet", "ubuntu", "trixie": a flag or a target's name
    if _HOST_LIKE.match(written.lower()):
        return False  # "ntp1.corp.example.net", "example.com": a host, not a package
    if _FILE_LIKE.match(written.lower()):
        return False  # "chrony.conf", "daemon.json": a file to edit, not a package
    words = item.words
    before = words[: words.index(token)] if token in words else words
    found = next((t for t in item.tokens if t.text == token), None)
    if no_package_here(state, found, token):
        return False  # "bring up can0", "500k bitrate", "from the ubuntu repos", "docs say"
    if found is not None and _OBJECT_AFTER.match(state.text.work, found.end):
        return False  # "configure it to keep the logs": a verb and its object, no name
    if (
        found is not None
        and item.verb not in _STRONG_VERBS
        and _DEFINITE_OBJECT.match(state.text.work, found.end)
    ):
        return False  # "also compress the output as xz": a verb and the thing it acts on
    if found is not None and _SUBJECT_OF.match(state.text.work, found.end):
        return False  # "the codecs need them": the subject of a verb, not a thing asked for
    if found is not None and _ASSIGNED.match(state.text.work, found.end):
        return False  # 'disk_size = "40G"': a pasted setting's field, not a name
    if found is not None and re.search(r"\b(?:you|u)\s+$", state.text.original[: found.start]):
        return False  # "can you bake this into an image": a verb after its subject
    if before and before[-1] in _BEFORE_A_VERB:
        return False  # "wants us to consolidate", "make sure it boots": a verb, not a thing
    if before and before[-1] in _BEFORE_A_STATE:
        return False  # "want the image to be reproducible": what it is, not a thing in it
    if before and (before[-1] in ("a", "an") or "for" in before):
        return False  # "a vpn": a kind of thing; "for our amr": what it is for, no name
    if _after_target_word(state, item, token):
        return False  # "x86 nuc", "arm64 board": the hardware the target runs on
    quoted = f"`{written}`" in state.text.original
    marked = quoted or any(w in ("package", "packages") for w in before)
    marked = marked or (found is not None and _under_packages_header(state, found.start))
    phrase = before[-1:] == ["the"] or len([w for w in words if w not in FILLER]) > 1
    if not marked and found is not None and upstream_library(state, found, written):
        return False  # "plus libmodbus": Debian ships libmodbus5 and libmodbus-dev
    if item.verb in _STRONG_VERBS and not marked and phrase and is_common(token):
        return False  # "install the good and great plugins": an everyday word in a phrase
    if item.verb in _STRONG_VERBS or marked:
        if found is not None and _own_without_repository(state, found):
            return False  # "add our HMI runtime, the package is acme-hmi-runtime": reported
        return True
    if item.mode == "remove" and item.verb in NEGATORS | {"no", "without"}:
        return False  # "be careful not to duplicate": a negation names no unknown package
    if plays_another_role(state, item, token):
        return False  # a group, a named repository, a statement, another language
    if "-" in token and all(_english_part(part) for part in token.split("-") if part):
        return False  # "also auto-register", "with read-only root": English, said weakly
    if item.verb == "," and found is not None and not in_a_package_list(state, found):
        return False  # "match our naming scheme, site-role-nn": listed after no package
    # "add vlc": a lower-case word that is no English word; after a need, no noun either
    return (
        bool(item.verb)
        and written == written.lower()
        and not is_common(token)
        and not is_derived(token)  # "audit wants everything reproducible"
        and not (item.verb in ("need", "needs", "want", "wants", "require", "requires")
                 and (is_english(token) or re.search(r"[a-z]{3}(?:ation|ment|ness|ity)$", token)))
    )


# "- packages: grafana, mosquitto", "Packages: nginx, openssl, curl": a list headed by
# the word, up to the name on the same line
_PACKAGES_HEADER = re.compile(
    r"(?:^|[\n;(]|[-*•]\s)\s*(?:extra\s+|additional\s+|more\s+)?(?:packages?|pkgs?)\s*:\s*"
    r"(?:[\w.+-]+\s*(?:,|\band\b|&)\s*)*$",
    re.IGNORECASE,
)


def _under_packages_header(state: PlanState, at: int) -> bool:
    """Whether the name at ``at`` is in a list that a "packages:" header opens on its line."""
    said = state.text.original
    line = said[said.rfind("\n", 0, at) + 1 : at]
    return _PACKAGES_HEADER.search(line) is not None


def in_a_package_list(state: PlanState, found: Token) -> bool:
    """True when a package was read or an adding verb said before ``found`` in its sentence."""
    said = state.text.original
    sentence = sentence_at(split_clauses(said), found.start)
    if sentence is None:
        return False
    begin = sentence[0]
    if any(
        owner == "packages" and begin <= start < found.start
        for start, _, owner in state.text.claims
    ):
        return True
    words = re.findall(r"[a-z-]+", said[begin : found.start].lower())
    # "and grafana, repo is ...": a sentence opening with "and" goes on with what was added
    return words[:1] == ["and"] or any(w in ADD_VERBS for w in words)


# the short English words a compound joins ("add-on", "log-in"); a part of two letters
# otherwise is a package's suffix ("stress-ng", "docker-ce", "iputils-ng"), not a word
_SHORT_PARTS = frozenset("on in up of to by at go do no re out off".split())


def _english_part(part: str) -> bool:
    return is_english(part) and (len(part) > 2 or part in _SHORT_PARTS)


# an object pronoun right after a word: the word is a verb ("configure it", "tune them")
_OBJECT_AFTER = re.compile(r"\s+(?:it|them)\b")
_DEFINITE_OBJECT = re.compile(r"\s+(?:the|its|this|that|these|those|our|my|your|their)\s+[a-z]")
# a verb of needing or using and an object pronoun right after a word: the word is the
# verb's subject ("the codecs need them", "our app uses it"), never a thing to install
_SUBJECT_OF = re.compile(
    # (where it runs, and a modal, may come between: "apt inside the image will need that")
    r"(?:\s+(?:inside|in|on|within)\s+(?:the|this|that|our|your)\s+(?:image|box|system|vm))?"
    r"(?:\s+(?:will|would|'ll|might|may|does|do))?"
    r"\s+(?:(?:also|really|just|still)\s+)?(?:(?:need|needs|require|requires|want|wants|use|uses"
    r"|depend\s+on|depends\s+on|rely\s+on|relies\s+on)\s+(?:it|them|those|these|that|this)\b"
    # "ops wants to be able to install things", "QA would like to test", "ops can log in":
    # the subject of a wish or an ability of its own, not a thing asked for
    r"|(?:wants?|needs?|would\s+like|likes?|has|have|had|is\s+going|are\s+going|plans?|tries|"
    r"try|asks?|asked|gets|got)\s+to\s+[a-z]|(?:will|can|could|should|must|may|might|would)"
    r"(?:\s+not|n't)?\s+(?!be\b)[a-z]+)"
)
# an assignment right after a word: the word is a setting's field ('disk_size = "40G"')
_ASSIGNED = re.compile(r"[ \t]*\+?=(?!=)")


_DEBIAN_NAME = re.compile(r"^[a-z0-9][a-z0-9+.-]+$", re.IGNORECASE)


def _after_target_word(state: PlanState, item: Item, token: str) -> bool:
    """Whether the word written right before ``token`` names an architecture or release."""
    from oic_ai.stores.targets import load_targets

    found = next((t for t in item.tokens if t.text == token), None)
    if found is None:
        return False
    before = state.text.original[: found.start].lower().split()
    if not before:
        return False
    registry = load_targets()
    return any(before[-1] in registry.request_words(kind) for kind in ("arch", "dist"))


def _shaped(state: PlanState, written: str) -> bool:
    """Whether ``written`` looks like a package name of the target's family.

    Debian names are lower case. RPM names may have inner capitals (NetworkManager,
    PackageKit), but a capitalised or upper-case word is a product name ("Firefox",
    "GNOME") in either family.
    """
    family = family_of(state.target.os, state.target.dist)
    if family != "rpm" and not _DEBIAN_NAME.match(written):
        return False  # "slab_nomerge": Debian names have no underscore (Policy 5.6.1)
    if written == written.lower():
        return True
    if family != "rpm" or written.isupper():
        return False
    return any(c.isupper() for c in written[1:])


def near_known(state: PlanState, name: str) -> str | None:
    """The one known package name ``name`` is a slip of the keyboard for, if any.

    Only for a name nothing knows (not in the index, the catalog, the library or Debian's
    list), of at least five letters, one edit (a letter missing, extra, wrong or two
    swapped) from exactly one name the catalog or the library uses, starting with the same
    letter: "mosquito" is mosquitto, "tcpdmp" tcpdump. A name from the user's own
    repository is never second-guessed. The caller reports it ("did you mean ...?"); it
    is never added in the name's place silently.
    """
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    if len(name) < 5 or state.repositories or known(state, name):
        return None
    candidates = [n for n in state.known_names() if n[:1] == name[:1]]
    found = process.extract(name, candidates, scorer=OSA.distance, score_cutoff=1, limit=3)
    close = [n for n, _, _ in found if n != name and not n.startswith(f"{name}-")]
    return close[0] if len(close) == 1 else None


def names_software(tokens: Sequence[Token]) -> bool:
    """Whether a word of ``tokens`` is a noun for software ("tool", "utilities")."""
    return any(t.text in SOFTWARE_NOUNS or t.text.rstrip("s") in SOFTWARE_NOUNS for t in tokens)


# words that mark a name as the package of that very name, not what a capability of the
# same word installs: "prometheus itself", "the package prometheus", "the actual grafana"
_EXACT_AFTER = frozenset("itself proper".split())
_EXACT_BEFORE = frozenset("actual real exact".split())
_PACKAGE_NOUNS = frozenset("package packages pkg".split())


def exact_name(state: PlanState, item: Item) -> str | None:
    """The package an item names by its very name, where a capability shares the word.

    "prometheus" alone asks for monitoring (the node exporter); "prometheus itself", "the
    package prometheus", "the prometheus package" or "the actual prometheus" ask for the
    package of that name. Only a name the index, the library or Debian's list knows
    counts, and not a capability's own name ("the docker package" is Docker); any other
    stays with the capability.
    """
    said = [w for w in item.words if w not in FILLER or w in _PACKAGE_NOUNS]
    marked = [w for w in said if w in _EXACT_AFTER | _EXACT_BEFORE | _PACKAGE_NOUNS]
    names = [w for w in said if w not in marked]
    if len(names) == 1 and not marked and len(said) == 1:
        return _beside_its_capability(state, item, names[0])
    if len(names) != 1 or not marked or len(said) > 3:
        return None
    name, at = names[0], said.index(names[0])
    before, after = said[:at], said[at + 1 :]
    if any(w in _EXACT_AFTER for w in before) or any(w in _EXACT_BEFORE for w in after):
        return None  # "itself prometheus", "prometheus actual": no such order
    if name in state.catalog.capabilities:
        return None  # "the docker package", "docker itself": the capability's own name
    token = next(t for t in item.tokens if t.text == name)
    if not any(name in c.synonyms for c in state.catalog.capabilities.values()):
        # no capability shares the word: "wordpress itself" is that name, when it is known
        written = state.text.raw(token.start, token.end)
        return written if PACKAGE_TOKEN.match(name) and known(state, written) else None
    written = state.text.raw(token.start, token.end)
    if not PACKAGE_TOKEN.match(name) or not known(state, written):
        return None
    return written


def _beside_its_capability(state: PlanState, item: Item, name: str) -> str | None:
    """The package ``name`` when the request also names what its capability installs.

    "prometheus + prometheus-node-exporter + prometheus-alertmanager": the node exporter
    that "prometheus" alone stands for is named in its own right, so "prometheus" is the
    package of that name (when the library, the index or Debian's list knows it).
    """
    if name in state.catalog.capabilities or not PACKAGE_TOKEN.match(name):
        return None
    target = state.target
    named = set(re.findall(r"[a-z0-9][a-z0-9+._-]*", state.text.original.lower()))
    sharing = [c for c in state.catalog.capabilities.values() if name in c.synonyms]
    if not sharing or not any(
        set(c.packages_for(target.os, target.dist, target.arch)) & named - {name} for c in sharing
    ):
        return None
    token = next(t for t in item.tokens if t.text == name)
    written = state.text.raw(token.start, token.end)
    return written if known(state, written) else None
