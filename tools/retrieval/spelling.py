"""Read a request the way it was meant: misspellings corrected, paraphrases named.

Two steps, both conservative and both reported, so nothing changes silently:

- **Spelling.** A word that is not known (not a target, feature, catalog or library
  word, not a package of the synced index, not common English) and is close to exactly
  one known word is read as that word ("dokcer" as "docker"). Short words (under
  :data:`MIN_WORD`), words with digits and names (after "hostname", "user", "called",
  in quotes) are never touched. The allowed distance is one edit for words up to six
  letters and two for longer ones, the first letter must agree, and a word that is the
  known word plus an English ending ("containers") is left alone. rapidfuzz does the
  distance.
- **Paraphrase.** Phrases that describe a capability or target without naming it
  ("time-critical control loops", "serves web pages") are read as the name ("real-time",
  "web server"). The phrases are data (``stores/data/language.yaml``): their words match
  by stem, in order, with at most two small words in between.

:func:`read_request` returns a :class:`Reading` with the corrected text, the rewritten
text (paraphrases replaced: what the builtin planner reads), the expanded text
(paraphrase names appended: what search reads) and the list of what was read how.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Protocol

from oic_ai.stores.vocabulary import (
    CAPABILITY_SYNONYMS,
    NOT_PACKAGE_WORDS,
    PACKAGE_ALIASES,
    PACKAGE_CAPABILITIES,
    load_language,
)

MIN_WORD = 5  # shorter words are never corrected
_WORD = re.compile(r"[A-Za-z0-9][\w.+:/=~'-]*[A-Za-z0-9+]|[A-Za-z0-9]")  # nohz_full stays whole
_LETTERS = re.compile(r"^[a-z]+(?:-[a-z]+)*$")
_PARTS = re.compile(r"[a-z0-9]+")
# English endings: a known word plus one of these is an inflection, not a typo
_ENDINGS = ("s", "es", "ed", "d", "er", "ers", "ing", "ings", "ly", "ment", "ness", "able")
_STEM_ENDINGS = ("ations", "ation", "ings", "ing", "ers", "er", "ed", "es", "s", "e", "ly")
_QUOTED = re.compile(r"\"[^\"]*\"|'[^'\s][^']*'|`[^`]*`")


@dataclass(frozen=True)
class Correction:
    """One word or phrase read as something else.

    Attributes:
        written: What the request says ("dokcer", "serves web pages").
        read_as: How it was read ("docker", "web server").
        kind: ``spelling`` or ``paraphrase``.
    """

    written: str
    read_as: str
    kind: Literal["spelling", "paraphrase"] = "spelling"

    @property
    def notice(self) -> str:
        """The line the answer shows: ``read 'dokcer' as 'docker'``."""
        return f"read '{self.written}' as '{self.read_as}'"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for ``search --json``."""
        return {"written": self.written, "read_as": self.read_as, "kind": self.kind}


@dataclass(frozen=True)
class Reading:
    """A request as read.

    Attributes:
        original: The request as written.
        corrected: Misspellings corrected, nothing else changed.
        rewritten: Corrected, with each paraphrase replaced by what it means.
        expanded: Corrected, with what the paraphrases mean appended.
        corrections: What was read how, in order.
    """

    original: str
    corrected: str
    rewritten: str
    expanded: str
    corrections: tuple[Correction, ...] = ()

    @property
    def notices(self) -> list[str]:
        """One line per correction."""
        return [c.notice for c in self.corrections]


class PackageNames(Hashable, Protocol):
    """The synced package index, as the corrector asks it (read-only)."""

    def is_package(self, word: str) -> bool:
        """True when some synced index has a package named ``word``."""
        ...

    def names(self) -> tuple[str, ...]:
        """Every package name of the synced indexes, lower-case, sorted."""
        ...


@dataclass(frozen=True)
class SpellingVocabulary:
    """The words a misspelling may be read as, and the words that are never corrected.

    Attributes:
        candidates: Known words a misspelt word may become (targets, features, catalog
            and library words).
        known: Every word that stays as written (the candidates, common English, the
            library's words).
        packages: The synced package index, when there is one: a package name stays as
            written, and a word close to no candidate may be read as a package name
            one edit away.
        names: Distribution, codename and os names: a word of seven to nine letters
            may be two edits from one of these ("ubuntoo"), one edit from anything else.
    """

    candidates: tuple[str, ...]
    known: frozenset[str]
    packages: PackageNames | None = None
    names: frozenset[str] = frozenset()
    _by_letter: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)

    @classmethod
    def build(
        cls,
        candidates: Iterable[str] = (),
        known: Iterable[str] = (),
        packages: PackageNames | None = None,
        commands: Iterable[str] = (),
    ) -> SpellingVocabulary:
        """The shipped vocabulary plus ``candidates``, ``known`` words and an index.

        ``commands`` are English words a reader acts on ("remove", "hostname"): candidates
        though they are common English, so "remvoe" is read as "remove".
        """
        base = _base_vocabulary()
        language = load_language()
        extra = {
            w.lower()
            for w in candidates
            if _LETTERS.match(w.lower())
            and len(w) >= MIN_WORD
            and w.lower() not in language.known_words
        } | {w.lower() for w in commands if _LETTERS.match(w.lower()) and len(w) >= MIN_WORD}
        all_candidates = tuple(sorted(set(base.candidates) | extra))
        known_words = base.known | extra | {w.lower() for w in known}
        return cls(all_candidates, frozenset(known_words), packages, base.names)

    def letter_table(self, letter: str) -> tuple[str, ...]:
        """The candidates that start with ``letter``."""
        if not self._by_letter:
            table: dict[str, list[str]] = {}
            for word in self.candidates:
                table.setdefault(word[0], []).append(word)
            self._by_letter.update({k: tuple(v) for k, v in table.items()})
        return self._by_letter.get(letter, ())


def _split_words(names: Iterable[str]) -> set[str]:
    return {part for name in names for part in _PARTS.findall(name)}


@lru_cache(maxsize=1)
def _base_vocabulary() -> SpellingVocabulary:
    """Targets, the capability catalog, the vocabulary tables and the language data."""
    from oic_ai.stores.capability_catalog import load_catalog
    from oic_ai.stores.targets import load_targets

    targets = load_targets()
    catalog = load_catalog()
    language = load_language()
    words: set[str] = set()
    target_names = set(targets.os_words) | set(targets.name_parts) | set(targets.oses)
    for os_name in targets.oses.values():
        target_names |= set(os_name.spellings)
    for dist in targets.dists.values():
        target_names |= set(targets.request_words("dist")) | {dist.codename} | set(dist.keywords)
    for kind in ("dist", "arch", "image_type"):
        words |= set(targets.request_words(kind))
    words |= set(targets.os_words) | set(targets.name_parts) | set(targets.oses)
    for os_name in targets.oses.values():
        words |= set(os_name.spellings)
    for dist in targets.dists.values():
        words |= {w for k in dist.keywords for w in k.split()}
        if dist.codename:
            words.add(dist.codename)
    for pattern in (
        *(d.phrase for d in targets.dists.values()),
        *(u.phrase for u in targets.unsupported),
    ):
        # the literal words of a phrase pattern: "fedora", "bookworm", "enterprise"
        words |= set(re.findall(r"(?<![\\a-z])[a-z]{4,}", pattern or ""))
    for capability in catalog.capabilities.values():
        for phrase in (capability.name, *capability.synonyms):
            words |= {phrase.lower(), *_split_words([phrase.lower()])}
        for names in capability.package_table.values():
            words |= {n.lower() for n in names}
    for group in catalog.alias_groups:
        words |= {n.lower() for n in group.names}
    for use_case in catalog.use_cases.values():
        for phrase in (use_case.name, *use_case.synonyms):
            words |= _split_words([phrase.lower()])
    words |= set(CAPABILITY_SYNONYMS) | set(PACKAGE_CAPABILITIES) | set(NOT_PACKAGE_WORDS)
    for alias_group in PACKAGE_ALIASES:
        words |= {m.lower() for m in alias_group}
    for patterns in PACKAGE_CAPABILITIES.values():
        # "chromium*" names chromium; "linux-*-rt" names nothing
        literal = (p.lower().removesuffix("*") for p in patterns)
        words |= {p for p in literal if not any(c in p for c in "*?[")}
    for entry in language.paraphrases:
        words |= _split_words([entry.means])
        for phrase_words in entry.phrases:
            words |= set(phrase_words)
    # common English is never a reading: "paint" is not a misspelt "point"
    candidates = {
        w
        for w in words
        if _LETTERS.match(w) and len(w) >= MIN_WORD and w not in language.known_words
    }
    known = words | language.known_words
    return SpellingVocabulary(
        tuple(sorted(candidates)), frozenset(known), None, frozenset(target_names) & candidates
    )


def _is_ending(longer: str, shorter: str) -> bool:
    return longer.startswith(shorter) and longer[len(shorter) :] in _ENDINGS


def correct_word(word: str, vocabulary: SpellingVocabulary) -> str | None:
    """The known word ``word`` is a misspelling of, or None to keep it as written."""
    from rapidfuzz.distance import OSA

    from oic_ai.tools.planner.lexicon import is_english

    lowered = word.lower()
    if len(lowered) < MIN_WORD or not _LETTERS.match(lowered) or lowered in vocabulary.known:
        return None
    english = is_english(lowered)
    # two edits only for a long word, or for a distribution's name ("ubuntoo")
    limit = 1 if len(lowered) <= 6 else 2
    best: list[str] = []
    best_distance = limit + 1
    for candidate in vocabulary.letter_table(lowered[0]):
        if abs(len(candidate) - len(lowered)) > limit:
            continue
        distance = OSA.distance(lowered, candidate, score_cutoff=limit)
        if distance > limit or (
            distance == 2 and len(lowered) < 10 and candidate not in vocabulary.names
        ):
            continue
        if _is_ending(lowered, candidate) or _is_ending(candidate, lowered):
            continue  # "containers", "contain": an English form, not a typo
        if english and len(lowered) > 4 and lowered[:-2] == candidate[:-2]:
            continue  # "installed" is no misspelt "installer": another ending of a word
        if distance < best_distance:
            best, best_distance = [candidate], distance
        elif distance == best_distance and candidate not in best:
            best.append(candidate)
    if vocabulary.packages is not None and vocabulary.packages.is_package(lowered):
        return None  # a real package of its own
    if len(best) == 1:
        return best[0]
    if best or vocabulary.packages is None:
        return None  # two readings are as close: keep the word
    return _index_name(lowered, vocabulary.packages.names())


def _index_name(word: str, names: tuple[str, ...]) -> str | None:
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    found = process.extract(word, names, scorer=OSA.distance, score_cutoff=1, limit=5)
    close = [name for name, _, _ in found if name[0] == word[0] and not _is_ending(name, word)]
    return close[0] if len(close) == 1 else None


# Words after which the next word is a name, a value or a secret, never a misspelling.
_NAMING = frozenset(
    (
        "hostname host named name called call user username users account login password "
        "passphrase label id tag key repo repository url path file directory dir folder "
        "rename mount version group groups"
    ).split()
)


# Words that may stand between a naming word and the name ("call it X", "rename the image to X").
_LINKS = frozenset("to as is it the image host machine box device template be".split())


def _after_naming(previous: list[str]) -> bool:
    """True when the next word is a name: a naming word, then at most three linking words."""
    for word in reversed(previous[-4:]):
        if word in _NAMING:
            return True
        if word not in _LINKS:
            return False
    return False


# what may follow a naming word and is no name: "hostname sholud be x" is "should be",
# "a kiosk user withuot sudo" is "without"
_MODALS = frozenset("should would could must shall".split())
_BE_NEXT = re.compile(r"\s+(?:be|not|also|now|really)\b", re.IGNORECASE)
_NEVER_NAMES = frozenset("without".split())
_SENTENCE_END = re.compile(r"[.;!?]\s|\n")


def _linking_after_name(read: str, text: str, end: int) -> bool:
    """True when ``read`` after a naming word is no name: a modal before "be", "without"."""
    return read in _NEVER_NAMES or (read in _MODALS and _BE_NEXT.match(text, end) is not None)


# the field nouns people type without their vowels ("in video+input grps", "rm the 2nd
# prtn", "krnl opts"): a word of consonants only is one of these when its letters appear
# in it in order, from its first letter to its last
_FIELD_NOUNS = (
    "groups group packages package partitions partition password passwords hostname kernel "
    "repository repositories repos repo options option parameters params"
).split()
_VOWELS = re.compile(r"[aeiou]")


def field_shorthand(word: str, vocabulary: SpellingVocabulary) -> str | None:
    """The field noun ``word`` is typed short for ("grps": groups), or None.

    Only a word of three letters or more with no vowel after its first letter, that is no
    known word or package, and that spells exactly one field noun's letters in order from
    its first to its last ("grp" is group, "grps" groups).
    """
    if len(word) < 3 or not word.isalpha() or _VOWELS.search(word[1:]) or word in vocabulary.known:
        return None
    if vocabulary.packages is not None and vocabulary.packages.is_package(word):
        return None
    from oic_ai.stores.debian_names import debian_names

    if word in debian_names():
        return None  # "ots": a package of its own
    found = [
        n for n in _FIELD_NOUNS if n[0] == word[0] and n[-1] == word[-1] and _in_order(word, n)
    ]
    return found[0] if len(found) == 1 else None


def _in_order(letters: str, word: str) -> bool:
    rest = iter(word)
    return all(letter in rest for letter in letters)


def _in_path(text: str, start: int, end: int) -> bool:
    """Whether the word at ``start:end`` is part of a path ("/usr", "etc/")."""
    return text[start - 1 : start] == "/" or text[end : end + 1] == "/"


def correct_text(text: str, vocabulary: SpellingVocabulary) -> tuple[str, list[Correction]]:
    """Correct the misspelt words of ``text``; names, values and quoted text stay.

    Returns:
        The corrected text and one :class:`Correction` per word changed.
    """
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    pieces: list[str] = []
    corrections: list[Correction] = []
    position = 0
    previous: list[str] = []
    last_end = 0
    for match in _WORD.finditer(text):
        word = match.group()
        lowered = word.lower()
        start, end = match.span()
        if _SENTENCE_END.search(text, last_end, start):
            previous = []  # "... the grafana repo. remvoe it": a name ends with its sentence
        last_end = end
        naming = _after_naming(previous)
        inside = any(a <= start < b for a, b in quoted)
        previous.append(lowered)
        if inside or (word != lowered and not word.istitle()):
            continue  # "MyHost" and quoted values are kept as written
        read = None if _in_path(text, start, end) else field_shorthand(lowered, vocabulary)
        read = read or correct_word(lowered, vocabulary)
        if read is None or (naming and not _linking_after_name(read, text, end)):
            continue  # a name is kept as written: "hostname kiosk"
        pieces.append(text[position:start])
        pieces.append(read)
        position = end
        corrections.append(Correction(word, read))
    pieces.append(text[position:])
    return "".join(pieces), corrections


def _stem(word: str) -> str:
    for ending in _STEM_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            # "running" is "run", "stopped" is "stop"
            if ending in ("ing", "ings", "ed", "er", "ers") and stem[-1] == stem[-2]:
                stem = stem[:-1]
            return stem
    return word


def _same(text_word: str, phrase_word: str) -> bool:
    return text_word == phrase_word or _stem(text_word) == _stem(phrase_word)


def find_paraphrases(text: str) -> list[tuple[int, int, str]]:
    """Spans of ``text`` that paraphrase a name, as ``(start, end, means)``; no overlaps.

    Each phrase's words must appear in order (by stem: "configures" matches "configure"),
    with at most ``max_gap`` of the data's small words ("a", "the", "its") between two
    of them. Longer phrases claim their words first.
    """
    language = load_language()
    by_first = _phrases_by_first_stem()
    tokens = [(m.group(), m.start(), m.end()) for m in _PARTS.finditer(text.lower())]
    matches: list[tuple[int, int, int, str]] = []  # (-length, first, last, means)
    for first, (token, _, _) in enumerate(tokens):
        for phrase, means in by_first.get(_stem(token), ()):
            at = first
            for word in phrase[1:]:
                nxt = None
                for probe in range(at + 1, min(at + language.max_gap + 2, len(tokens))):
                    if _same(tokens[probe][0], word):
                        nxt = probe
                        break
                    if tokens[probe][0] not in language.gap_words:
                        break
                if nxt is None:
                    break
                at = nxt
            else:
                matches.append((-len(phrase), first, at, means))
    taken = [False] * len(tokens)
    found: list[tuple[int, int, str]] = []
    for _, first, last, means in sorted(matches):
        if any(taken[first : last + 1]):
            continue
        if _NAME_PART.match(text, tokens[last][2]) or _NAME_START.search(text, 0, tokens[first][1]):
            continue  # "graviton-07", "web-01": part of a name, not a paraphrase
        if _said_of_another(tokens, first):
            continue  # "the broker runs in a container": what something else does
        if TOOL_AFTER.match(text.lower(), tokens[last][2]):
            continue  # "the raspberry pi imager": a tool named after it, not it
        taken[first : last + 1] = [True] * (last + 1 - first)
        found.append((tokens[first][1], tokens[last][2], means))
    return _merged(text.lower(), sorted(found), language.gap_words)


# Words right after a board's or an arch's name that make it the name of a tool for it:
# "the raspberry pi imager", "an arm64 emulator", "the jetson flashing tool".
TOOL_AFTER = re.compile(
    r"[\s-]+(?:imager|imaging\s+(?:tool|utility|software|app)|flasher|flashing\s+"
    r"(?:tool|utility|software|app)|emulator|simulator|sdk\s+manager)\b"
)


# what the image itself is called in a request: its own verbs ask for a capability
_THE_IMAGE = frozenset(
    "it image images box boxes machine machines device devices system systems os host hosts "
    "node nodes server servers vm vms template gateway gateways appliance appliances".split()
)
_DETERMINERS = frozenset("the our their its this that".split())
_COPULAS = frozenset("is are was were".split())


def _said_of_another(tokens: list[tuple[str, int, int]], first: int) -> bool:
    """True when a paraphrase opens with a verb whose subject is something else.

    "the broker runs in a container" says where the broker runs; "it runs containers" and
    "the boxes run containers" ask the image to. The verb is in the third person ("runs")
    and follows a determiner and a noun that does not name the image; or the phrase is
    what a noun that does not name the image "is" ("the network is locked down").
    """
    verb = tokens[first][0]
    if first >= 2 and tokens[first - 1][0] in _COPULAS:
        # "our store network is locked down": what something else is, not the image
        subject = tokens[first - 2][0]
        return subject not in _THE_IMAGE and subject not in _COPULAS and subject.isalpha()
    if first < 2 or not verb.endswith("s") or verb.endswith("ss"):
        return False
    noun, determiner = tokens[first - 1][0], tokens[first - 2][0]
    return determiner in _DETERMINERS and noun not in _THE_IMAGE


# a phrase glued to a numbered part is a name (a hostname "graviton-07", "edge-web-2")
_NAME_PART = re.compile(r"[-_.][a-z]*\d", re.IGNORECASE)
_NAME_START = re.compile(r"[a-z0-9][-_.]$", re.IGNORECASE)


@lru_cache(maxsize=1)
def _phrases_by_first_stem() -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    table: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrase, means in load_language().phrase_table:
        table.setdefault(_stem(phrase[0]), []).append((phrase, means))
    return {key: tuple(value) for key, value in table.items()}


def _merged(
    text: str, spans: list[tuple[int, int, str]], gap_words: frozenset[str]
) -> list[tuple[int, int, str]]:
    """Join neighbouring spans of one meaning ("time-critical control loops" is one)."""
    merged: list[tuple[int, int, str]] = []
    for start, end, means in spans:
        if merged and merged[-1][2] == means:
            between = _PARTS.findall(text[merged[-1][1] : start])
            if all(word in gap_words for word in between) and len(between) <= 2:
                merged[-1] = (merged[-1][0], end, means)
                continue
        merged.append((start, end, means))
    return merged


def _glue_start(text: str, start: int) -> int:
    """Where a paraphrase starts once the linking words just before it are counted in."""
    glue = load_language().glue_words
    while True:
        match = re.search(r"([a-z']+)\s+$", text[:start].lower())
        if match is None or match.group(1) not in glue:
            return start
        start = match.start()


_CLAUSE = re.compile(r"[,;.!?]|\bbut\b|\band\b|\bwith\b")
_NEGATOR = re.compile(
    r"\b(?:without|no|not|never|except|minus|sans|exclude|excluding|drop|skip|omit|"
    r"don'?t|doesn'?t|won'?t|wouldn'?t|shouldn'?t|mustn'?t|can'?t|cannot|isn'?t|aren'?t|"
    r"free\s+of|other\s+than|leave\s+out)\b"
)


def _negated_before(text: str, start: int) -> bool:
    """True when a negation opens the clause that a span at ``start`` belongs to."""
    before = text[:start].lower()
    clause = _CLAUSE.split(before)[-1]
    return _NEGATOR.search(clause) is not None


def read_request(text: str, vocabulary: SpellingVocabulary | None = None) -> Reading:
    """Read ``text``: correct misspellings, then name the paraphrases.

    Args:
        text: The request or query.
        vocabulary: The words to correct against; the shipped vocabulary when None.
    """
    corrected, corrections = correct_text(text, vocabulary or _base_vocabulary())
    spans = find_paraphrases(corrected)
    rewritten = corrected
    means_list: list[str] = []
    paraphrased: list[Correction] = []
    for start, end, means in reversed(spans):
        # its own list item for the planner: "an image that serves web pages" is read as
        # "an image; web server;", the linking words ("that") go with the phrase
        start = _glue_start(corrected, start)
        # "these hosts won't run containers": the rules read the negation with the phrase
        said = f"without {means}" if _negated_before(corrected, start) else means
        rewritten = f"{rewritten[:start].rstrip()}; {said}; {rewritten[end:].lstrip()}"
    for start, end, means in spans:
        paraphrased.append(Correction(corrected[start:end], means, "paraphrase"))
        # a paraphrase the request rules out is appended as ruled out, so search neither
        # looks for it nor lets it pull the ranking ("without a graphical desktop")
        name = f"without {means}" if _negated_before(corrected, start) else means
        if name not in means_list:
            means_list.append(name)
    expanded = corrected if not means_list else f"{corrected} ({', '.join(means_list)})"
    return Reading(text, corrected, rewritten, expanded, (*corrections, *paraphrased))


@lru_cache(maxsize=512)
def read_cached(text: str) -> Reading:
    """:func:`read_request` with the shipped vocabulary, cached per text."""
    return read_request(text)


class IndexPackageNames:
    """The synced package index as the spelling corrector asks it (read-only)."""

    def __init__(self, index: Any) -> None:
        """Wrap a :class:`~oic_ai.stores.package_index.PackageIndex`."""
        self._index = index
        self._views: list[Any] | None = None
        self._names: tuple[str, ...] | None = None
        self._checked: dict[str, bool] = {}

    def _all_views(self) -> list[Any]:
        if self._views is None:
            pairs = dict.fromkeys((row.dist, row.arch) for row in self._index.sources())
            self._views = [self._index.view(dist, arch) for dist, arch in pairs]
        return self._views

    def is_package(self, word: str) -> bool:
        """True when some synced index has a package named ``word``."""
        if word not in self._checked:
            self._checked[word] = any(view.exact(word) for view in self._all_views())
        return self._checked[word]

    def names(self) -> tuple[str, ...]:
        """Every package name of the synced indexes, lower-case, sorted."""
        if self._names is None:
            names = {name.lower() for view in self._all_views() for name in view.names()}
            self._names = tuple(sorted(names))
        return self._names


_INDEX_NAMES: dict[tuple[str, int, int], IndexPackageNames] = {}


def index_package_names(data_dir: Any) -> IndexPackageNames | None:
    """The synced package index under ``data_dir`` for the corrector, or None without one.

    The same object comes back while the index file is unchanged, so the planner's cached
    readings and vocabulary stay cached from turn to turn.
    """
    from oic_ai.stores.package_index import PackageIndex

    index = PackageIndex.for_data_dir(data_dir)
    try:
        stat = index.path.stat()
    except OSError:
        return None
    key = (str(index.path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _INDEX_NAMES:
        _INDEX_NAMES.clear()  # one index per process is the common case; never grow
        _INDEX_NAMES[key] = IndexPackageNames(index)
    return _INDEX_NAMES[key]
