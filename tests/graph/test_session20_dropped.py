"""A question about what the last change left out is answered from that change's report."""

from __future__ import annotations

import pytest

from oic_ai.graph.agent import TemplateAgent


@pytest.mark.parametrize(
    "question",
    [
        "what did you drop exactly?",
        "which parts couldn't be carried over?",
        "what got skipped?",
        "so what was not applied?",
    ],
)
def test_what_was_dropped_names_the_last_changes_report(
    agent: TemplateAgent, question: str
) -> None:
    first = agent.generate("debian 13 raw image with htop, and set the timezone to Europe/Berlin")
    assert any("timezone" in item for item in first.not_applied)
    answer = agent.generate(question, session=first.session)
    assert answer.template == first.template  # a question changes nothing
    assert "Not applied in the last change" in answer.message
    assert "timezone" in answer.message


def test_a_question_between_keeps_the_last_changes_report(agent: TemplateAgent) -> None:
    first = agent.generate("debian 13 raw image with htop, and set the timezone to Europe/Berlin")
    agent.generate("which packages are in it?", session=first.session)
    answer = agent.generate("what did you leave out?", session=first.session)
    assert "timezone" in answer.message


def test_nothing_dropped_is_said_so(agent: TemplateAgent) -> None:
    first = agent.generate("debian 13 raw image with htop")
    answer = agent.generate("what did you drop?", session=first.session)
    assert "Nothing: every part of the last change was applied." in answer.message


def test_a_question_about_the_template_is_not_read_as_one_about_drops(
    agent: TemplateAgent,
) -> None:
    first = agent.generate("debian 13 raw image with htop, and set the timezone to Europe/Berlin")
    answer = agent.generate("which packages are in it?", session=first.session)
    assert "Not applied in the last change" not in answer.message
