"""A question said as an imperative, then a change in the same sentence: both are done.

"show the config and add htop", "list the packages and then add htop": the question used to
take the whole sentence, so the turn was only answered and htop was dropped without a word.
The question now ends where the request starts; the change is planned and the question is
answered from the template after it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from oic_ai.graph.agent import TemplateAgent
from oic_ai.nodes.classify import route_request
from oic_ai.stores.settings import load_settings
from oic_ai.tools.questions import questions_of
from tests.tools.planner.helpers import template_text

UBUNTU = template_text("ubuntu24-x86_64-minimal-raw.yml")


@pytest.mark.parametrize(
    ("said", "question"),
    [
        ("show the config and add htop", "show the config"),
        ("list the packages and then add htop", "list the packages"),
        ("tell me the disk size, and add htop too", "tell me the disk size"),
        ("can you show me the users and add htop", "can you show me the users"),
    ],
)
def test_the_question_ends_where_the_request_starts(said: str, question: str) -> None:
    asked = questions_of(said)
    assert asked.questions == (question,) and asked.changes
    assert route_request(said, UBUNTU)["intent"] == "refine"


@pytest.mark.parametrize(
    "said",
    [
        "show me the users",  # only a question
        "list the users and the hostname",  # more of what it asks about
        "what's in the package list and why is vim there",
    ],
)
def test_a_question_alone_stays_a_question(said: str) -> None:
    assert route_request(said, UBUNTU)["intent"] == "explain"


def test_the_change_is_made_and_the_question_answered(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", env={}, provider="builtin")
    with TemplateAgent(settings) as agent:
        first = agent.generate("a minimal ubuntu 24.04 raw image for x86_64")
        after = agent.generate("list the packages and then add htop", session=first.session)
    assert "htop" in (after.template or "")
    assert "Packages:" in (after.message or "") and "htop" in (after.message or "")
