"""The words that choose a base template: plain-base, role and addition words.

Read once from ``stores/data/base_choice.yaml`` (the file says what each list means);
:mod:`oic_ai.tools.retrieval.base_choice` uses them to rank a specialised template below
its distribution's plain base unless the request asks for what it has.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from oic_ai.stores.data_files import load_mapping

BASE_CHOICE_PATH = Path(__file__).parent / "data" / "base_choice.yaml"


@dataclass(frozen=True)
class BaseWords:
    """The base-choice word lists, lower case.

    Attributes:
        plain_words: Single words that ask for a plain base ("minimal").
        plain_phrases: Phrases that do ("nothing fancy"), as tuples of words.
        role_words: Words that say what kind of machine, never what it is for.
        addition_words: Words and phrases that start a request's additions ("with").
        desktop_environments: Catalog capabilities that install a desktop environment.
    """

    plain_words: frozenset[str]
    plain_phrases: tuple[tuple[str, ...], ...]
    role_words: frozenset[str]
    addition_words: tuple[str, ...]
    desktop_environments: frozenset[str] = frozenset()


def _words(data: Mapping[str, object], key: str) -> list[str]:
    raw = data.get(key) or []
    if not isinstance(raw, list) or not all(isinstance(w, str) for w in raw):
        raise ValueError(f"{BASE_CHOICE_PATH.name}: {key} must be a list of words")
    return [w.lower() for w in raw]


def parse_base_words(data: Mapping[str, object]) -> BaseWords:
    """Build the word lists from the parsed document.

    Raises:
        ValueError: the document is malformed (a bug in the shipped data).
    """
    return BaseWords(
        plain_words=frozenset(_words(data, "plain_words")),
        plain_phrases=tuple(tuple(p.split()) for p in _words(data, "plain_phrases")),
        role_words=frozenset(_words(data, "role_words")),
        addition_words=tuple(_words(data, "addition_words")),
        desktop_environments=frozenset(_words(data, "desktop_environments")),
    )


@lru_cache(maxsize=1)
def load_base_words() -> BaseWords:
    """Load (once) the shipped base-choice words."""
    return parse_base_words(load_mapping(BASE_CHOICE_PATH))
