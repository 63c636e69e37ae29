"""Greetings, "ok so" and thanks at a request's edges ask for nothing (tools/courtesy.py)."""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.courtesy import plain_request


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
    ],
)
def test_courtesy_at_the_edges_is_dropped(said: str, plain: str) -> None:
    assert plain_request(said) == plain


@pytest.mark.parametrize(
    "said",
    ["thanks!", "ok", "hi", "oh well", "oklahoma field office image", "add the cheers-cli package"],
)
def test_a_request_that_is_only_courtesy_or_only_looks_like_it_stays(said: str) -> None:
    assert plain_request(said) == said


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
