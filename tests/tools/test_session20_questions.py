"""A question whose sentence opens with its topic asks no change (dev15, reworded)."""

from __future__ import annotations

import pytest

from oic_ai.tools.questions import questions_of


@pytest.mark.parametrize(
    "request_text",
    [
        "apart from the arch, what's different between the x86 and the arm template now?",
        "besides the kernel, what else changed?",
        "em không hiểu lắm (I don't understand well): what is the difference of initrd and raw?",
        "about the partitions, which one holds /var?",
        # a question by its mark that opens with "there's", after "the X bit" as its topic
        "the ssh key bit, there's really no way to get it in?",
        "there is no option for that?",
        "the docker part, is that the CE one?",
    ],
)
def test_a_topic_before_a_question_is_no_change(request_text: str) -> None:
    asked = questions_of(request_text)
    assert asked.questions and asked.only_questions


@pytest.mark.parametrize(
    "request_text",
    [
        "add htop, and which users are there?",
        "hostname gw1, what else do you need?",
        "packages htop and jq, anything else?",
        # "there's" without a question mark, and a topic asked for
        "there's a typo in the hostname, fix it",
        "add the docker part, is that ok?",
    ],
)
def test_a_change_before_a_question_still_asks(request_text: str) -> None:
    assert questions_of(request_text).changes
