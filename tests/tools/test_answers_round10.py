"""Answers asked for with "paste me ..." and "how many ... are there" (issue 21, round 10).

The sentences were written for these tests. "paste me X" and "print X" ask to be shown
X, like "show me X": the template stays. A question that opens with "how many" or
"which" asks about the topic it names, never whether a package is in the image.
"""

from __future__ import annotations

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.questions import questions_of
from tests.conftest import OUR_TEMPLATES

UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "request_text",
    ["paste me the package list the way it stands", "print the kernel command line for me"],
)
def test_paste_and_print_ask_to_be_shown(request_text: str) -> None:
    assert questions_of(request_text).only_questions, questions_of(request_text)
    assert route_request(request_text, UBUNTU)["intent"] == "explain"


def test_how_many_partitions_are_there_answers_with_the_partitions() -> None:
    answer = describe_template(
        UBUNTU, "how many partitions are there at the moment and what's on them"
    )
    assert answer.startswith("Disk:"), answer
    assert "package list" not in answer


def test_which_users_are_there_answers_with_the_users() -> None:
    answer = describe_template(UBUNTU, "which users are there right now")
    assert answer.startswith("Users:"), answer
