"""Greetings, "ok so", thanks and acknowledgements ("got it", "copy that") at a request's edges ask
for nothing (tools/courtesy.py); the rows of later rounds say which round found them."""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.courtesy import is_acknowledgement, plain_request


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        ("hi! yes do it", "yes do it"),
        ("Hello team: add htop", "add htop"),
        ("good morning, make the disk 8GiB", "make the disk 8GiB"),
        ("undo thanks!", "undo"),
        ("revert that, thank you so much!", "revert that"),
        ("add htop thx", "add htop"),
        ("ok so which groups is ops in now?", "which groups is ops in now?"),
        ("okay, so, add htop", "add htop"),
        ("hmm no. bring bob back", "no. bring bob back"),
        ("ok so -btrfs-progs +gdisk", "-btrfs-progs +gdisk"),
        # an acknowledgement before a request asks nothing (round 16, h3)
        ("Got it. Now give /var its own 10GiB partition", "Now give /var its own 10GiB partition"),
        ("Understood, then add htop", "then add htop"),
        ("Makes sense! add qcow2 too", "add qcow2 too"),
        ("ok got it, thanks. hostname gw", "hostname gw"),
        ("Perfect timing, add htop", "Perfect timing, add htop"),
        ("Clear the cmdline", "Clear the cmdline"),
        ("Got it", "Got it"),
        # every acknowledgement before a request is dropped (round 17, h5)
        ("Copy that. Now make the disk 20GiB", "Now make the disk 20GiB"),
        ("Fair point, then drop vim", "then drop vim"),
        ("i understand. hostname kiosk-2", "hostname kiosk-2"),
        ("Noted, thanks! add a user ops", "add a user ops"),
        ("That makes total sense. add htop", "add htop"),
    ],
)
def test_courtesy_at_the_edges_is_dropped(said: str, plain: str) -> None:
    assert plain_request(said) == plain


@pytest.mark.parametrize(
    "said",
    [
        "thanks!",
        "ok",
        "hi",
        "oh well",
        "oklahoma field office image",
        "add the cheers-cli package",
        # an answer, or a word that only starts like an acknowledgement (round 17, h5)
        "sure, because the night shift keeps asking",  # "sure" answers a question
        "yes, got it. add htop",
        "Perfect timing, add htop",
        "Fine-tune the kernel options",
    ],
)
def test_a_request_that_is_only_courtesy_or_only_looks_like_it_stays(said: str) -> None:
    assert plain_request(said) == said


@pytest.mark.parametrize(
    "said",
    [
        # round 16, h2
        "Got it",
        "gotcha",
        "ok, fair enough",
        "Understood!",
        "makes sense",
        "roger that",
        # the same words alone (round 17, h5)
        "Clear.",
        "copy that",
        "that makes perfect sense",
        "sure",
    ],
)
def test_an_acknowledgement_alone_is_no_request(said: str) -> None:
    assert is_acknowledgement(said)


@pytest.mark.parametrize(
    "said",
    [
        "got it working",
        "got nginx",
        "fair share scheduler",
    ],
)
def test_an_acknowledgement_needs_to_be_all_the_clause(said: str) -> None:
    assert not is_acknowledgement(said)


def test_an_undo_with_thanks_after_it_takes_back_the_last_change(agent: Any) -> None:
    first = agent.generate("debian 13 raw image with htop")
    agent.generate("add tmux", session=first.session)
    undone = agent.generate("undo thanks!", session=first.session)
    assert undone.template == first.template
    assert not undone.not_applied


def test_a_question_after_a_greeting_is_answered_not_applied(agent: Any) -> None:
    first = agent.generate("debian 13 raw image with htop")
    asked = agent.generate("hi! is htop in it already?", session=first.session)
    assert asked.template == first.template
    assert "htop" in asked.message


@pytest.mark.parametrize(
    ("reply", "accepted"),
    [
        ("yes do it", True),
        ("yes do it, we need that for the pilot", True),
        ("sure, because the night shift keeps asking", True),
        ("yes please, our QA team flagged this", True),
        ("yes do it, and also add htop", False),
        ("yes, the disk should be 8G", False),
        ("no, we have our own", False),
    ],
)
def test_an_acceptance_with_a_reason_after_it_accepts(reply: str, accepted: bool) -> None:
    from oic_ai.tools.proposals import accepts

    assert accepts(reply) is accepted


def test_an_offer_accepted_with_a_reason_is_applied(agent: Any) -> None:
    first = agent.generate("debian 13 raw image for a gps-timed gateway")
    offered = agent.generate("would chrony make sense here?", session=first.session)
    assert offered.template == first.template
    taken = agent.generate("yes do it, we need that for the pilot", session=first.session)
    assert "- chrony" in taken.template, taken.message
    assert not taken.not_applied, taken.not_applied
