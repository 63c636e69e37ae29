"""A value said with a question mark and taken back at once, and a system named as the past.

Issue 21, round 14 (h2). The sentences are written for these tests.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.proposals import asked_setting, resolve_setting
from oic_ai.tools.questions import questions_of


@pytest.mark.parametrize(
    "said",
    [
        "disk: 1.5TB? no, that's the NAS. the hub itself has 32 GB",
        "hostname gw1? wait, gw-01",
        "16 GB? nah, 32 GB for the disk",
        "loglevel=7? hmm, no, loglevel=4 is fine",
    ],
)
def test_a_value_taken_back_at_once_is_no_question(said: str) -> None:
    assert questions_of(said).questions == ()


@pytest.mark.parametrize(
    "said",
    [
        "packages? no, I mean the users",  # a question said again, no value
        "what is the disk size? no wait, set it to 8GB",  # a question word
        "disk size?",
    ],
)
def test_a_question_stays_a_question(said: str) -> None:
    assert questions_of(said).questions


# "it" in the answer to a question about one setting is that setting
@pytest.mark.parametrize(
    ("question", "reply", "meant"),
    [
        (
            "what does 'immutability' mean in the template? should I turn it on for this?",
            "no, leave it off. and make the disk 256 gigabytes",
            "no, leave immutability off. and make the disk 256 gigabytes",
        ),
        ("is the immutable rootfs worth it here?", "ok turn it on", "ok turn immutability on"),
        ("what would secure boot give us?", "nah keep that off", "nah keep secure boot off"),
        (
            "does read-only root slow updates?",
            "yes, switch it on then",
            "yes, switch immutability on then",
        ),
    ],
)
def test_it_after_a_question_about_one_setting_is_that_setting(
    question: str, reply: str, meant: str
) -> None:
    assert resolve_setting(reply, asked_setting([question])) == meant


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("should I use secure boot and immutability?", "leave it off"),  # two settings
        ("what packages are in it?", "leave it off"),  # no setting
        ("what does immutability mean?", "add htop and leave it at that"),  # no on/off
    ],
)
def test_it_stays_when_the_question_named_no_one_setting(question: str, reply: str) -> None:
    assert resolve_setting(reply, asked_setting([question])) == reply
