"""Sort a query into semantic, package_explicit, keyword_heavy, negation or refinement.

The classification is a small typed record that keeps its evidence (packages found,
negated terms, keyword density), so a replay can show why a query went where it did.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from oic_ai.stores.targets import load_targets
from oic_ai.stores.vocabulary import (
    CAPABILITY_SYNONYMS,
    NOT_PACKAGE_WORDS,
    PACKAGE_ALIASES,
    PACKAGE_CAPABILITIES,
)
from oic_ai.tools.retrieval.target_mentions import (
    WORD_END,
    WORD_START,
    TargetKind,
    TargetMention,
    detect_target_spans,
    detect_targets,
    ruled_out_targets,
)

__all__ = [
    "WORD_END",
    "WORD_START",
    "QueryClassification",
    "QueryType",
    "QueryVocabulary",
    "TargetKind",
    "TargetMention",
    "classify_query",
    "detect_target_spans",
    "detect_targets",
    "exclusion_patterns",
    "is_modification",
    "negated_terms",
    "target_names",
    "positive_text",
    "tokenize",
]

QueryType = Literal["semantic", "package_explicit", "keyword_heavy", "negation", "refinement"]

_TOKEN = re.compile(r"[a-z0-9][a-z0-9._+:-]*[a-z0-9+]|[a-z0-9]")
_NEGATORS = (
    r"(?:without|no|not|exclude|excluding|except|minus|sans|drop|skip|omit|omitting|lacking|"
    r"nothing(?!\s+(?:but|else|fancy|heavy|more|special|extra|much|too|at)\b)|"
    r"(?:leave|leaving)\s+out|other\s+than|free\s+of|instead\s+of|rather\s+than|"
    r"(?:do\s+not|don'?t|doesn'?t|never)\s+(?:want|need|include|install|add|use|ship|have))"
)
_NEGATION = re.compile(
    rf"\b{_NEGATORS}\s+((?:(?:any|the|a|an|full|entire|whole|complete|heavy|big|graphical|extra|additional)\s+)*)"
    rf"([a-z0-9][\w.+-]*(?:\s*(?:,|/|\bor\b|\band\b|"
    rf"\bnor\b)\s*(?:{_NEGATORS}\s+)?(?:(?:any|the|a|an)\s+)*(?!with\b)[a-z0-9][\w.+-]*)*)"
)
# words that finish a negated phrase without naming anything of their own
_NEGATED_TAIL = re.compile(
    r"\s+(?:stack|support|packages?|tools|software|environment|components?|bits|stuff|"
    r"specific\s+kernel|kernel(?:\s+build)?|layer|session|build|variant|version|flavou?r|"
    r"edition|engines?|runtimes?|related|things?)\b"
)
_FREE_OF = re.compile(r"\b([a-z0-9][\w.+]*)-free\b")
_MODIFY = re.compile(
    # a lead-in of time or order may come first: "meanwhile make me one", "for now, add htop"
    r"^\s*(?:(?:please|now|also|and|then|meanwhile|in\s+the\s+mean\s*time|for\s+now|first|next|"
    r"after\s+that|afterwards|while\s+you'?re\s+at\s+it)\b[\s,]*)*(?:add|remove|drop|delete|change|set|"
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
        return cls(frozenset(package_set), frozenset(keyword_set - _GENERIC - target_names()))


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
    ruled_out: tuple[tuple[str, str], ...] = ()

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
            "ruled_out": [{"kind": k, "value": v} for k, v in self.ruled_out],
        }


def negated_terms(query: str) -> list[str]:
    """Terms after "without", "no", "exclude" ... and before "-free"."""
    lowered = query.lower()
    terms: list[str] = []
    for match in _NEGATION.finditer(lowered):
        for part in re.split(r"\s*(?:,|/|\bor\b|\band\b|\bnor\b)\s*", match.group(2)):
            part = re.sub(rf"^{_NEGATORS}\s+", "", part.strip(" ."))
            part = re.sub(r"^(?:(?:any|the|a|an)\s+)+", "", part)
            part = re.sub(r"-(?:related|specific|stuff|things|bits)$", "", part)
            if part and part not in _GENERIC:
                terms.append(part)
    terms += [m.group(1) for m in _FREE_OF.finditer(lowered)]
    if _ACCOUNTS.search(lowered):
        # "'deploy' without sudo": a right an account lacks, not a package to rule out
        terms = [t for t in terms if t not in _ACCOUNT_RIGHTS]
    return list(dict.fromkeys(terms))


_ACCOUNTS = re.compile(r"\b(?:users?|accounts?|logins?)\b")
_ACCOUNT_RIGHTS = frozenset(
    (
        "sudo",
        "sudo rights",
        "sudo access",
        "sudo privileges",
        "admin",
        "admin rights",
        "root",
        "root access",
        "password",
    )
)


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


def target_names() -> frozenset[str]:
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
        ruled_out=tuple(dict.fromkeys((m.kind, m.value) for m in ruled_out_targets(query))),
    )
