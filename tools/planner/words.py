"""The request's vocabulary: word tables and the regex fragments the rules share.

Target names, titles and word boundaries come from the target registry
(:mod:`oic_ai.stores.targets`) and :mod:`oic_ai.tools.retrieval.query_classifier`.
"""

from __future__ import annotations

import re

from oic_ai.stores.vocabulary import NOT_PACKAGE_WORDS
from oic_ai.tools.planner.languages import foreign_words

SIZE = r"(?<![\d.])\d{1,7}(?:\.\d{1,3})?\s*(?:tib|tb|t|gib|gb|g|mib|mb|m|kib|kb|k)(?![a-z0-9])"
FS = r"ext4|ext3|ext2|xfs|btrfs|fat32|fat16|vfat|f2fs"
MOUNT = r"/(?:[a-z0-9._-]+(?:/[a-z0-9._-]+)*)?"
CLAUSE_END = r"(?=$|[\s,;.!?)\x1f])"
# a verdict on the value just said: "is way too small", "not enough", "won't do"
SIZE_VERDICT = (
    r"(?:\s+(?:disk|drive|image|one))?"
    r"\s+(?:(?:is|are|was|seems?)\s+|['\u2019]s\s+)?(?:(?:way|far|much|a\s+bit|a\s+little|"
    r"just|bit)\s+)?(?:too\s+(?:small|big|large|little|tight|much|low|high|short)|not\s+enough"
    r"|(?:isn['\u2019]?t|is\s+not|ain['\u2019]?t)\s+enough|won['\u2019]?t\s+do|will\s+not\s+do)"
)
# a verdict on a size a thing has, after it: "... for /boot/efi is overkill", "/var at 2 GiB
# is too small" (the size is what it has, not what to make it)
SIZE_JUDGED = (
    r"\b(?:is|are|was|'s|seems?|looks?)\s+(?:\w+\s+)?(?:overkill|excessive|wasteful|a\s+waste|"
    r"too\s+(?:big|much|large|small|little)|not\s+enough)\b"
)
# a field label's link to its value: "image name must be X", "hostname needs to be X"
BE_VALUE = r"(?:set\s+to|to|is|as|(?:should|will|must|shall|has\s+to|needs?\s+to)\s+be)"
# A name is the whole next word, checked afterwards, so "hostname -bad-" is reported as
# invalid rather than half-read; a sentence's full stop is not part of it.
QUOTED_NAME = (
    # a courtesy word between the label and its value is no value: "image name please X",
    # nor is a word of time: "hostname now edge-arm-01"
    r"(?:(?:please|pls|plz|kindly|now)\s+)?"
    r"[\"'`]?(?!(?:please|pls|plz|kindly|now|and|to|with|then|is|as|the|a|an|of|for|set|be|called|named|"
    # what a name should be like, not a name: "the image name must be short"
    r"short|long|unique|different|same|consistent|descriptive|meaningful|lowercase|"
    r"uppercase|readable|obvious|clear|simple|generic|specific|stable|predictable|"
    # whether it matters, not a name: "is the hostname important?"
    r"important|required|necessary|needed|mandatory|optional|relevant|"
    r"changed|updated|removed|kept|empty|blank|something|anything|fine|ok|okay|good|better|"
    r"right|correct|wrong|random|whatever|not|none|you|we|they|it|this|that|"
    r"must|should|shall|would|could|might|needs|has|have|was|were|are|"
    # a verb or a word of a rename after the label: "hostname: make it kiosk-12", "rename
    # it from pos-1 to pos-2"
    r"from|make|use|give|change|switch)(?![a-z0-9_.-]))"
    r"(?P<value>[^\s,;\"'`\x1f]+?)[\"'`]?(?=$|[\s,;\x1f]|[.!?](?:\s|$))"
)


def value_then_label(label: str) -> re.Pattern[str]:
    """A field's value said before its label: "use kiosk-3 as the hostname".

    ``label`` is a regular expression for the field's names ("hostname|host name"); the value
    is the ``value`` group, read as :data:`QUOTED_NAME` reads a value after its label.
    """
    return re.compile(
        r"\b(?:use|take|pick|choose|go\s+with)\s+"
        + QUOTED_NAME
        + r"\s+(?:as|for)\s+(?:the\s+|its\s+|a\s+|our\s+|this\s+)?(?:"
        + label
        + r")\b"
    )


ADD_VERBS = frozenset(
    (
        "add adds adding install installs installing include including with plus enable want "
        "wants need needs require requires put puts ship ships shipping bundle containing "
        "contains has have "
        "having had use using run runs running provide provides providing includes offer offers "
        "bring brings carry carries also pull preinstall preinstalls pre-install bake bakes baking "
        "mandate mandates demand demands"
    ).split()
)
# The verbs (and phrasal verbs) that take a thing out, for every field's removal pattern:
# "scrap the irqaffinity one", "nuke the /data partition", "ditch the second user" read the
# same way whatever they take out. A field adds the words only it reads ("disable", "no").
TAKE_OUT = (
    r"(?:remove|delete|drop|strip|lose|scrap|scratch|kill|ditch|nuke|axe|toss|yank|zap"
    r"|get\s+rid\s+of|rip\s+out|pull\s+out|take\s+out|take\s+off|throw\s+out|do\s+away\s+with)"
)
REMOVE_VERBS = frozenset(
    (
        "remove removes removing drop drops dropping delete deletes without no exclude excludes "
        "excluding uninstall uninstalls disable disables minus sans skip strip lose except purge "
        "rid omit omitting excluded lacking forget ditch scrap scratch rm nuke axe toss zap "
        "yank nix kill"
    ).split()
)
SEPARATOR_WORDS = frozenset({"and", "or", "nor", "then", "but", "also"})
NEGATORS = frozenset({"not", "don't", "dont", "never", "shouldn't", "mustn't", "nothing"})
# Two-word negations: the first word removes what follows when the second follows it
# ("leave out docker", "other than vim", "free of snap", "do without cups").
# Phrasal verbs of taking out count too ("rip out gcc", "pull out ninja", "cut out vim").
REMOVE_PAIRS = frozenset(
    {
        ("leave", "out"),
        ("other", "than"),
        ("free", "of"),
        ("do", "without"),
        ("rip", "out"),
        ("take", "out"),
        ("pull", "out"),
        ("cut", "out"),
        ("strip", "out"),
        ("yank", "out"),
        ("throw", "out"),
    }
)
# Two-word verbs that add what follows ("switch to docker-ce", "go with podman").
ADD_PAIRS = frozenset(
    {
        ("switch", "to"),
        ("go", "with"),
        ("going", "with"),  # "we're going with node exporter"
        ("move", "to"),
        ("change", "to"),
        ("throw", "in"),
        ("toss", "in"),
        ("pop", "in"),
        ("bring", "in"),
        # the rest of the phrasal verbs that put a thing in ("pull in jq", "bake in htop")
        ("pull", "in"),
        ("put", "in"),
        ("bake", "in"),
        ("stick", "in"),
        ("chuck", "in"),
        ("slip", "in"),
        ("add", "in"),
        ("set", "up"),
        ("ask", "for"),
        ("asks", "for"),
        ("asked", "for"),
        ("asking", "for"),
        # "I don't want vim, give me nano": what is handed over is wanted
        ("give", "me"),
        ("give", "us"),
    }
)
# Verbs whose object is a new name, never a package ("create svc-backup", "call it gw1").
NAMING_VERBS = frozenset("create creates creating call calls called name names rename".split())
# Words that say when or how much, never what: dropped from the ends of a list item
# ("put nano back", "htop too", "chrony after all", "ebtables any more").
ADVERBS = frozenset(
    (
        "back too again later also anyway afterwards soon first today tomorrow now then "
        "either instead though anymore please pls plz thanks thx ty"
    ).split()
)
# Verbs that keep what is there: a later "keep X" takes back an earlier removal of X.
# "leave kubelet" keeps it ("leave out" is a removal, read as a pair first).
KEEP_VERBS = frozenset("keep keeping retain preserve leave".split())
# Two-word adverbs ("after all", "any more", "as well", "at all", "for now").
ADVERB_PAIRS = frozenset(
    {("after", "all"), ("any", "more"), ("as", "well"), ("at", "all"), ("for", "now")}
)
# Words that carry no request of their own.
FILLER = (
    frozenset(
        (
            "a an the some any all of for to on onto in into at as by from it its it's this that "
            "these those i i'd we me my our us you please pls kindly also too well now then just "
            "only so is are be should would could can will like need want wanted make set change "
            "get give build create generate new image images template os system linux distro "
            "distribution based one package packages pkg pkgs support stuff them there which what "
            "here yes ok okay thanks thank let's lets let same instead out version switch move "
            "port rebase retarget convert turn target targeting go going do does everything leave "
            "than free other keep keeping again anyway say maybe perhaps probably roughly around "
            "approximately that's it's there's here's what's units unit binary decimal anymore "
            "here there either produce output emit installed included present available normal "
            "added regular ordinary usual plain list oh ah hmm hm um uh lol haha btw fyi nvm tbh "
            "asap "
            "imo imho afaik iirc idk e.g e.g. eg i.e i.e. ie etc etc. vs up they their he she his "
            "her gigabytes gigabyte gibibytes gibibyte megabytes megabyte mebibytes mebibyte "
            "terabytes terabyte tebibytes tebibyte gb gib mb mib tb tib kb kib "
        ).split()
    )
    | ADD_VERBS
    | REMOVE_VERBS
    | SEPARATOR_WORDS
    | NEGATORS
)
# Words that pick the base template in create mode; retrieval already used them.
RETRIEVAL_WORDS = frozenset(
    (
        "minimal minimalist small smaller tiny lean lightweight light slim base basic bare "
        "metal bare-metal baremetal edge cloud iot iiot server headless embedded appliance "
        "gateway industrial factory robotics robot desktop workstation vm virtual machine "
        "kiosk production prod dev development test testing lab demo general purpose "
        "general-purpose device devices node nodes host box secure security hardened ai "
        "inference vision video analytics signage camera datacenter data center aws azure gcp "
        "openstack vps workload workloads deployment ready optimized friendly simple standard "
        "plain vanilla clean stock barebones bare-bones "
        "default generic modern stable lts 64-bit bit"
    ).split()
)
# Plain English that is never a package name even after "add".
NOT_PACKAGES = (
    frozenset(
        (
            "more less better faster slower bigger smaller everything something anything nothing "
            # the indefinite pronouns: "an install somebody set up", "give anyone access"
            "somebody someone anybody anyone everybody everyone nobody "
            "things thing features feature performance speed stability security secure "
            "reliability tools tool utilities utils extras apps app software latest updates "
            "update it storage networking network logs partition disk user users kernel boot "
            "hostname cmdline size swap lvm codename suite component components priority prio pkey "
            "gpg url "
            "locale locales keyboard timezone "
            # key and certificate files ("DB key, cert and cer are at /keys/...")
            "key keys cert certs certificate certificates crt cer pem der pfx "
            # file formats: a pasted block's language ("```yaml"), never a package
            "yaml yml json toml ini xml "
            # what software is set up with or listens on: "ship the agent config", "the
            # executor needs the socket"; never a package by itself
            "config configs configuration configurations conf settings socket sockets"
        ).split()
    )
    | frozenset(NOT_PACKAGE_WORDS)
    | frozenset(FS.split("|"))
    # other languages' function words, greetings and everyday words ("e", "fica", "und")
    | foreign_words()
)
PACKAGE_TOKEN = re.compile(r"^[a-z0-9][a-z0-9+_.:~-]*$")
# nouns for people: a clause they head states what they do ("operators log in over ssh",
# "techs use the pos account")
PEOPLE = frozenset(
    (
        "people folks users admins administrators operators devs developers engineers techs "
        "technicians staff customers colleagues teammates"
    ).split()
)


# "isn't needed", "not needed", "is no longer wanted": said of a package or a partition that
# is to go
NOT_NEEDED = (
    r"(?:(?:(?:is|are)\s+)?not|isn't|aren't|(?:(?:is|are)\s+)?no\s+longer"
    r"|(?:is|are)n't\s+really)"
    r"\s+(?:needed|required|necessary|wanted|used|useful|approved|allowed|permitted|welcome)"
)
# "a fixed 12 GiB", "a static size of 6 gigs": a size said to stay as it is
FIXED = r"(?:(?:an?\s+)?(?:fixed|static|flat|constant)(?:\s+size(?:\s+of)?)?\s+)?"
# "it can go", "should be dropped", "has to go away": said after what goes
GOES_AWAY = (
    r"(?:can|could|should|must|may|has\s+to|have\s+to|needs?\s+to)\s+"
    r"(?:go(?:\s+away)?|be\s+(?:removed|dropped|deleted|taken\s+out|left\s+out))"
    r"(?:\s+(?:too|as\s+well|now))?"
)
# "we don't need", "I no longer want", "we won't use": a need said away
NEGATED_NEED = (
    r"(?:we|i|they|you)\s+(?:don'?t|do\s+not|no\s+longer|won'?t|will\s+not)\s+(?:really\s+)?"
    r"(?:need|want|use)"
)
# "we don't need (it) anymore", "I no longer want": said after the names it is about
NOT_WANTED = rf"{NEGATED_NEED}(?:\s+(?:it|them))?(?:\s+(?:anymore|any\s+more|now|either))?"
# the words a change is said with: a misspelling of one ("remvoe", "delte", "repalce",
# "pasword") is read as the word (five letters or more; see retrieval/spelling.py)
COMMAND_WORDS = frozenset(
    (
        "remove delete uninstall replace rename change switch enable disable install "
        "hostname partition partitions cmdline password username packages package "
        "repository immutable immutability instead everything please users groups "
        "upgrade update increase decrease resize extend shrink should without actually "
        "command commands"
    ).split()
)

# "add the debug tools": a kind of tools, not a package's name
TOOL_NOUNS = frozenset(
    "tools tool tooling utilities utils stuff packages programs binaries".split()
)
