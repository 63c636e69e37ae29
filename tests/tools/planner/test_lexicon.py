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


@pytest.mark.parametrize("word", ["expires", "expiring", "rotates", "standardised", "colour"])
def test_other_forms_and_british_spellings_of_known_words_are_english(word: str) -> None:
    # the vocabulary has "expired", "rotated", "standardized", "color", not these forms
    assert is_english(word)


@pytest.mark.parametrize("word", ["nftables", "hostapd", "dnsmasq", "snapd", "linuxptp"])
def test_package_names_are_still_no_english_words(word: str) -> None:
    assert not is_english(word)


def test_a_verb_form_after_need_is_no_package() -> None:
    from tests.tools.planner.helpers import added, plan_on

    result = plan_on("ubuntu24-x86_64-minimal-raw.yml", "the account needs a password that expires")
    assert added(result) == []
