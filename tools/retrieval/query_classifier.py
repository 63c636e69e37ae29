"""Sort a query into semantic, package_explicit, keyword_heavy, negation or refinement.

The classification is a small typed record that keeps its evidence (packages found,
negated terms, keyword density), so a replay can show why a query went where it did.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from oic_ai.stores.targets import load_targets
from oic_ai.stores.vocabulary import (
    CAPABILITY_SYNONYMS,
    NOT_PACKAGE_WORDS,
    PACKAGE_ALIASES,
    PACKAGE_CAPABILITIES,
)
from oic_ai.tools.retrieval.spelling import read_cached

QueryType = Literal["semantic", "package_explicit", "keyword_heavy", "negation", "refinement"]

_TOKEN = re.compile(r"[a-z0-9][a-z0-9._+:-]*[a-z0-9+]|[a-z0-9]")
_NEGATORS = (
    r"(?:without|no|not|exclude|excluding|except|minus|sans|drop|skip|omit|omitting|lacking|"
    r"(?:leave|leaving)\s+out|other\s+than|free\s+of|instead\s+of|rather\s+than|"
    r"(?:do\s+not|don'?t|doesn'?t|never)\s+(?:want|need|include|install|add|use|ship|have))"
)
_NEGATION = re.compile(
    rf"\b{_NEGATORS}\s+((?:(?:any|the|a|an|full|entire|whole|complete|heavy|big|graphical|extra|additional)\s+)*)"
    rf"([a-z0-9][\w.+-]*(?:\s*(?:,|\bor\b|\band\b|"
    rf"\bnor\b)\s*(?:{_NEGATORS}\s+)?(?!with\b)[a-z0-9][\w.+-]*)*)"
)
# words that finish a negated phrase without naming anything of their own
_NEGATED_TAIL = re.compile(
    r"\s+(?:stack|support|packages?|tools|software|environment|components?|bits|stuff|"
    r"specific\s+kernel|kernel|layer|session)\b"
)
_FREE_OF = re.compile(r"\b([a-z0-9][\w.+]*)-free\b")
_MODIFY = re.compile(
    r"^\s*(?:please\s+|now\s+|also\s+|and\s+|then\s+)*(?:add|remove|drop|delete|change|set|"
    r"make|increase|decrease|grow|shrink|resize|enable|disable|use|switch|replace|rename|"
    r"include|exclude|bump|upgrade|downgrade|put|give|turn|move|swap|without|no\b|with\b)"
)
_GENERIC = frozenset(
    {
        "image",
        "images",
        "system",
        "os",
        "linux",
        "based",
        "for",
        "with",
        "and",
        "the",
        "a",
        "an",
        "to",
        "of",
        "on",
        "in",
        "i",
        "need",
        "want",
        "me",
        "my",
        "that",
        "this",
        "please",
        "build",
        "create",
        "make",
        "template",
        "some",
        "any",
        "is",
        "it",
        "which",
        "can",
        "run",
        "runs",
    }
)


# Boundaries that keep hyphenated and dotted names whole: "emt" must not match inside
# "emt3-x86_64-minimal", nor "arm" inside "arm64".
WORD_START = r"(?<![a-z0-9_.+/=-])"
WORD_END = r"(?![a-z0-9_+/=]|[.-][a-z0-9])"
_BLANK = "\x1f"

TargetKind = Literal["dist", "arch", "image_type", "os", "unsupported"]
_TARGET_KINDS: tuple[Literal["dist", "arch", "image_type"], ...] = ("dist", "arch", "image_type")


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens; hyphenated and dotted names stay whole (docker.io)."""
    return _TOKEN.findall(text.lower())


@dataclass(frozen=True)
class QueryVocabulary:
    """What counts as a package name or a technical keyword for this library."""

    packages: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()

    @classmethod
    def build(cls, packages: Iterable[str], keywords: Iterable[str]) -> QueryVocabulary:
        """Collect vocabulary from the library's packages and keywords plus the tables."""
        package_set = {p.lower() for p in packages}
        for group in PACKAGE_ALIASES:
            package_set |= {m.lower() for m in group}
        keyword_set: set[str] = set()
        for keyword in keywords:
            keyword_set.update(tokenize(keyword))
        keyword_set.update(load_targets().request_words("image_type"))
        keyword_set.update(CAPABILITY_SYNONYMS)
        # Distribution and arch names say which target, not which features: they are
        # recorded as targets and do not make a query keyword-heavy.
        return cls(frozenset(package_set), frozenset(keyword_set - _GENERIC - _target_names()))


@dataclass(frozen=True)
class QueryClassification:
    """The query type and the evidence for it."""

    type: QueryType
    packages: tuple[str, ...] = ()
    negated: tuple[str, ...] = ()
    excluded_patterns: tuple[str, ...] = ()
    keyword_density: float = 0.0
    keywords: tuple[str, ...] = ()
    targets: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the classification as plain JSON."""
        return {
            "type": self.type,
            "packages": list(self.packages),
            "negated": list(self.negated),
            "excluded_patterns": list(self.excluded_patterns),
            "keyword_density": round(self.keyword_density, 3),
            "keywords": list(self.keywords),
            "targets": dict(self.targets),
        }


def negated_terms(query: str) -> list[str]:
    """Terms after "without", "no", "exclude" ... and before "-free"."""
    lowered = query.lower()
    terms: list[str] = []
    for match in _NEGATION.finditer(lowered):
        for part in re.split(r"\s*(?:,|\bor\b|\band\b|\bnor\b)\s*", match.group(2)):
            part = re.sub(rf"^{_NEGATORS}\s+", "", part.strip(" ."))
            if part and part not in _GENERIC:
                terms.append(part)
    terms += [m.group(1) for m in _FREE_OF.finditer(lowered)]
    return list(dict.fromkeys(terms))


def positive_text(query: str) -> str:
    """``query`` without what it rules out: "a minimal image without docker" is "a minimal image".

    The negated phrases and "-free" words are cut; the rest is kept as written.
    """
    lowered = query.lower()
    spans = []
    for match in _NEGATION.finditer(lowered):
        tail = _NEGATED_TAIL.match(lowered, match.end())  # "no virtualization stack"
        spans.append((match.start(), tail.end() if tail else match.end()))
    spans += [m.span() for m in _FREE_OF.finditer(lowered)]
    kept = []
    position = 0
    for start, end in sorted(spans):
        if start >= position:
            kept.append(query[position:start])
            position = end
    kept.append(query[position:])
    return " ".join("".join(kept).split())


def exclusion_patterns(term: str) -> list[str]:
    """Package globs a negated term rules out: its aliases, its capability, or itself."""
    patterns: list[str] = []
    for group in PACKAGE_ALIASES:
        if term in {m.lower() for m in group}:
            patterns += sorted(group)
    capability = CAPABILITY_SYNONYMS.get(term)
    if capability and term not in {"docker"}:
        patterns += list(PACKAGE_CAPABILITIES.get(capability, ()))
    if not patterns:
        patterns = [term, f"{term}-*", f"{term}.*"]
    return list(dict.fromkeys(patterns))


def _target_names() -> frozenset[str]:
    """Words that name a target: they say which target, not which features."""
    targets = load_targets()
    return frozenset(
        {
            *targets.request_words("dist"),
            *targets.request_words("arch"),
            *targets.name_parts,
            *targets.oses,
        }
    )


def detect_targets(tokens: list[str], query: str) -> dict[str, str]:
    """Find the dist, arch and image type a query names, by single words.

    This is the word reading used for search evidence and routing: the first word of each
    kind wins, and two-word names ("azure linux") count as one word. A bare os word with
    no dist ("ubuntu") gives ``os``. :func:`detect_target_spans` reads the same registry
    phrase by phrase and reports where each mention is.

    The query is read first (:func:`~oic_ai.tools.retrieval.spelling.read_cached`): a
    misspelt name ("debina") or a paraphrase ("an enterprise Linux rebuild") names its
    target too.

    Args:
        tokens: ``tokenize(query)``.
        query: The query text.

    Returns:
        Kind (``dist``, ``arch``, ``image_type`` or ``os``) -> value.
    """
    reading = read_cached(query)
    if reading.expanded != query:  # "ubuntoo", "an enterprise Linux rebuild"
        query = reading.expanded
        tokens = tokenize(query)
    targets = load_targets()
    found: dict[str, str] = {}
    joined = query.lower()
    extra = [word for phrase, word in targets.joined_words.items() if phrase in joined]
    tables = {kind: targets.request_words(kind) for kind in _TARGET_KINDS}
    for token in [*tokens, *extra]:
        for kind, table in tables.items():
            if token in table and kind not in found:
                found[kind] = table[token]
    if "dist" not in found:
        os_name = next((os for word, os in targets.os_words.items() if word in tokens), None)
        if os_name:
            found["os"] = os_name
    return found


@dataclass(frozen=True)
class TargetMention:
    """One place where a request names a target.

    Attributes:
        kind: ``dist``, ``arch``, ``image_type``; ``os`` for a bare os word ("ubuntu")
            when no dist is named; ``unsupported`` for a target the composer does not
            build.
        value: The dist, arch, image type or os named; for ``unsupported``, what the
            composer supports instead.
        start: Offset of the mention in the text.
        end: Offset just past the mention.
        source: True when the mention follows "from": it names what to move away from.
    """

    kind: TargetKind
    value: str
    start: int
    end: int
    source: bool = False

    @property
    def span(self) -> tuple[int, int]:
        """The mention's ``(start, end)`` offsets."""
        return (self.start, self.end)


@dataclass(frozen=True)
class _SpanPatterns:
    unsupported: tuple[tuple[re.Pattern[str], str], ...]
    kinds: tuple[tuple[TargetKind, tuple[tuple[re.Pattern[str], str], ...]], ...]
    os_words: tuple[tuple[re.Pattern[str], str], ...]
    from_before: re.Pattern[str]


def _bounded(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"{WORD_START}(?:{phrase}){WORD_END}")


@lru_cache(maxsize=1)
def _span_patterns() -> _SpanPatterns:
    targets = load_targets()
    phrases: dict[str, list[tuple[str, str]]] = {
        "dist": [(dist.phrase, dist.id) for dist in targets.dists.values() if dist.phrase],
        "arch": [(arch.phrase, arch.name) for arch in targets.arches.values() if arch.phrase],
        "image_type": [
            (kind.phrase, kind.name) for kind in targets.image_types.values() if kind.phrase
        ],
    }
    # Single words follow the phrases. Image type words are left to the phrases: the
    # extra words (qcow2, vhd) are disk formats, which an edit request means as artifacts.
    for kind in ("dist", "arch"):
        phrases[kind] += [(re.escape(w), v) for w, v in targets.request_words(kind).items()]
    kinds = tuple(
        (kind, tuple((_bounded(phrase), value) for phrase, value in phrases[kind]))
        for kind in _TARGET_KINDS
    )
    return _SpanPatterns(
        unsupported=tuple((_bounded(u.phrase), u.supported) for u in targets.unsupported),
        kinds=kinds,
        os_words=tuple((_bounded(re.escape(w)), os) for w, os in targets.os_words.items()),
        from_before=re.compile(targets.from_before),
    )


def detect_target_spans(text: str) -> list[TargetMention]:
    r"""Find every place ``text`` names a target, phrase by phrase, with offsets.

    Unsupported targets ("ubuntu 22.04") are found first, then dists, arches and image
    types: longer phrases ("ubuntu 24.04") before single words ("noble"). Each mention
    blanks its span, so a shorter phrase never matches inside a longer one. A bare os
    word ("ubuntu") is reported only when no dist is named other than after "from".
    Offsets are those of ``text``; spans already blanked with ``\x1f`` are skipped.

    Args:
        text: The request (any case).

    Returns:
        The mentions in the order they were found (by kind, then by phrase).
    """
    patterns = _span_patterns()
    work = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    mentions: list[TargetMention] = []

    def blank(start: int, end: int) -> None:
        nonlocal work
        work = work[:start] + _BLANK * (end - start) + work[end:]

    for pattern, supported in patterns.unsupported:
        for match in list(pattern.finditer(work)):
            mentions.append(TargetMention("unsupported", supported, *match.span()))
            blank(*match.span())
    named_dist = False
    for kind, table in patterns.kinds:
        for pattern, value in table:
            for match in list(pattern.finditer(work)):
                source = patterns.from_before.search(work, 0, match.start()) is not None
                mentions.append(TargetMention(kind, value, *match.span(), source=source))
                blank(*match.span())
                named_dist = named_dist or (kind == "dist" and not source)
    if not named_dist:
        for pattern, os_name in patterns.os_words:
            for match in list(pattern.finditer(work)):
                mentions.append(TargetMention("os", os_name, *match.span()))
                blank(*match.span())
    return mentions


def is_modification(query: str) -> bool:
    """True when the text asks to change something rather than find something."""
    return _MODIFY.match(query.lower()) is not None


def classify_query(
    query: str,
    vocabulary: QueryVocabulary,
    *,
    has_session: bool = False,
    package_threshold: int = 2,
    keyword_density: float = 0.5,
) -> QueryClassification:
    """Classify ``query`` following the ADR's flow.

    Refinement needs a session; then ≥ ``package_threshold`` packages make it
    package-explicit; then negation words; then a technical-keyword density above
    ``keyword_density`` makes it keyword-heavy; otherwise it is semantic. Technical
    keywords are feature and image-type words; distribution and arch names are targets.
    """
    tokens = tokenize(query)
    negated = negated_terms(query)
    negated_set = set(negated)
    packages = [
        t
        for t in dict.fromkeys(tokens)
        if t in vocabulary.packages and t not in NOT_PACKAGE_WORDS and t not in negated_set
    ]
    technical = [t for t in tokens if t in vocabulary.keywords or t in vocabulary.packages]
    density = len(technical) / len(tokens) if tokens else 0.0
    excluded = [p for term in negated for p in exclusion_patterns(term)]
    kind: QueryType
    if has_session and is_modification(query):
        kind = "refinement"
    elif len(packages) >= package_threshold:
        kind = "package_explicit"
    elif negated:
        kind = "negation"
    elif density > keyword_density:
        kind = "keyword_heavy"
    else:
        kind = "semantic"
    return QueryClassification(
        type=kind,
        packages=tuple(packages),
        negated=tuple(negated),
        excluded_patterns=tuple(dict.fromkeys(excluded)),
        keyword_density=density,
        keywords=tuple(dict.fromkeys(technical)),
        targets=detect_targets(tokens, query),
    )
