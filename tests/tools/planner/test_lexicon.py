"""The English lexicon the planner tells words from names with."""

from __future__ import annotations

import pytest

from oic_ai.tools.planner.lexicon import is_english


@pytest.mark.parametrize("word", ["offline", "fanless", "provisioned", "headroom"])
def test_english_words_and_their_compounds(word: str) -> None:
    assert is_english(word, compounds=True)


@pytest.mark.parametrize("word", ["bbcbbc", "nownow", "qzxtool", "kullanıyor"])
def test_a_word_said_twice_an_acronym_pair_or_a_foreign_word_is_no_compound(word: str) -> None:
    # hypothesis found "bbcbbc" (BBC twice) read as an English compound, which hid junk
    assert not is_english(word, compounds=True)


def test_without_compounds_only_known_forms_count() -> None:
    assert not is_english("fanless")
