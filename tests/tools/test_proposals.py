"""A question that offers a package, and the reply that accepts it (tools/proposals.py)."""

from __future__ import annotations

import pytest

from oic_ai.tools.proposals import accepts, offered_packages, proposal
from oic_ai.tools.questions import questions_of

KNOWN = {"chrony", "htop", "fail2ban", "make", "tmux"}.__contains__


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("would fail2ban make sense on this box?", ["fail2ban"]),
        ("is it worth having tmux on the gateways?", ["tmux"]),
        ("should I also install htop", ["htop"]),
        ("what about adding chrony and htop?", ["chrony", "htop"]),
        ("is htop a good idea for the techs?", ["htop"]),
    ],
)
def test_a_question_that_offers_known_packages_names_them(question: str, names: list[str]) -> None:
    assert offered_packages(question, KNOWN) == names


@pytest.mark.parametrize(
    "question",
    [
        "would it make sense to grow the disk?",  # offers no package
        "would frobnicator make sense here?",  # a name nobody knows is never offered
        "is chrony in the image?",  # asks what is there, offers nothing
        "does the make in there come from the base?",
    ],
)
def test_a_question_that_offers_no_known_package_offers_nothing(question: str) -> None:
    assert offered_packages(question, KNOWN) == []


def test_an_advice_question_with_a_modal_is_a_question() -> None:
    assert questions_of("would fail2ban make sense on this box?").only_questions
    assert questions_of("is it worth having tmux on the gateways?").only_questions
    # a modal with "you" still asks for a change
    assert not questions_of("could you add fail2ban?").only_questions


@pytest.mark.parametrize(
    "reply", ["yes", "Yes please!", "sure, go ahead", "ok add it", "yep do that", "absolutely"]
)
def test_a_reply_that_only_accepts_accepts(reply: str) -> None:
    assert accepts(reply)


@pytest.mark.parametrize(
    "reply",
    ["no thanks", "not now", "yes but make the disk 8GiB", "thanks", "please", "add htop"],
)
def test_a_reply_that_declines_or_asks_for_more_does_not_accept(reply: str) -> None:
    assert not accepts(reply)


def test_the_accepted_change_is_an_add_request() -> None:
    assert proposal(["chrony", "htop"]) == "add chrony and htop"


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("does it come with chrony? the old images did", ["chrony"]),
        ("will the build ship htop", ["htop"]),
    ],
)
def test_a_question_whether_the_image_comes_with_a_package_offers_it(
    question: str, names: list[str]
) -> None:
    assert offered_packages(question, KNOWN) == names
