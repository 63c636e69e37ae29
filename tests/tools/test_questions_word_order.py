"""Questions in the word order of second-language English, reported or held (round 9).

The sentences were written for these tests. A statement said with a question mark ("the
disk is 8 GiB now?"), advice asked with "should" ("should it stay on?"), a question
reported from someone else ("our manager asked which users ..."), a request that says it
changes nothing ("no changes please", "I'm only asking"), and "I need it for X" after a
question are questions: the template stays. Their answers name the packages asked for in
shorthand ("pkgs") and the image's own name.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.questions import questions_of
from tests.conftest import OUR_TEMPLATES

UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")


def test_shorthand_and_the_image_name_are_answered() -> None:
    assert "openssh-server" in describe_template(UBUNTU, "which pkgs are in there")
    answer = describe_template(UBUNTU, "image name + hostname now")
    assert "Target:" in answer and "Hostname" in answer, answer


@pytest.mark.parametrize(
    "request_text",
    [
        # a wish asked as a feasibility goes to the planner, which reports what it cannot do
        "Our boss asked whether the image could play a jingle at boot.",
        # a condition is no hold: the question before it may still ask for something
        "Will it blink the LEDs? Do not change anything if not.",
    ],
)
def test_a_feasibility_or_a_condition_is_not_only_a_question(request_text: str) -> None:
    assert not questions_of(request_text).only_questions, questions_of(request_text)
