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


@pytest.mark.parametrize(
    "word", ["reproducible", "reimage", "unpatched", "preconfigured", "deployable", "misconfigured"]
)
def test_a_known_word_with_a_prefix_or_suffix_is_english(word: str) -> None:
    # the vocabulary splits rarer words into pieces: "reproducible" is not in it whole
    assert is_english(word)


@pytest.mark.parametrize("word", ["redis", "rekor", "reprepro", "keepalived", "disown", "unzip"])
def test_names_that_only_start_like_a_prefix_are_no_derived_words(word: str) -> None:
    assert not is_english(word)


@pytest.mark.parametrize(
    "said",
    ["Audit wants everything reproducible, hence this tool.", "We reimage rather than patch."],
)
def test_a_derived_english_word_in_a_remark_is_no_package(said: str) -> None:
    from tests.tools.planner.helpers import added, plan_on

    assert added(plan_on("debian13-x86_64-minimal-raw.yml", said)) == []


def test_a_debian_name_that_looks_derived_is_still_installed() -> None:
    from tests.tools.planner.helpers import added, plan_on

    # "preload" is pre + load, and a Debian package: the list of names wins
    assert added(plan_on("debian13-x86_64-minimal-raw.yml", "install preload")) == ["preload"]
