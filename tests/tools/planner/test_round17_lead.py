"""Lead's round in session 17: corrections inside a clause, questions about a topic or
asking to be shown, and a request after a lead-in of time ("meanwhile make me one").

Found on dev14; every sentence here is written for the test.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.nodes.classify import route_request
from oic_ai.tools.questions import questions_of
from oic_ai.tools.retrieval.query_classifier import is_modification
from tests.tools.planner.helpers import added, ops_of, plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"
TEMPLATE = "image:\n  name: x\ntarget:\n  os: ubuntu\n  dist: ubuntu24\n  arch: x86_64\n"


@pytest.mark.parametrize(
    ("said", "kept", "gone"),
    [
        ("add nginx no wait caddy", "caddy", "nginx"),
        ("install vim no wait, nano please", "nano", "vim"),
        ("pls add jq no wait yq", "yq", "jq"),
        ("we need lighttpd... no wait apache2", "apache2", "lighttpd"),
    ],
)
def test_a_change_of_mind_inside_one_clause_replaces_the_value(
    said: str, kept: str, gone: str
) -> None:
    result = plan_on(DEBIAN, said)
    assert kept in added(result), result
    assert gone not in added(result), result
    assert not result.not_applied, result


def test_a_change_of_mind_inside_a_clause_keeps_the_other_changes() -> None:
    result = plan_on(DEBIAN, "add htop and nginx no wait caddy, hostname box-3")
    assert {"htop", "caddy"} <= set(added(result)), result
    assert "nginx" not in added(result), result
    assert ops_of(result, "set_hostname") == [{"hostname": "box-3"}], result


def test_a_hostname_corrected_inside_its_clause() -> None:
    result = plan_on(DEBIAN, "hostname web-1 no wait web-2")
    assert ops_of(result, "set_hostname") == [{"hostname": "web-2"}], result


@pytest.mark.parametrize(
    "said",
    [
        "meanwhile make me one for x86_64, raw",
        "In the meantime, add htop",
        "for now, remove vim",
        "while you're at it set the hostname to gw-3",
        "afterwards, drop nano",
    ],
)
def test_a_lead_in_of_time_before_a_request_keeps_it_a_request(said: str) -> None:
    assert is_modification(said)


@pytest.mark.parametrize("said", ["firstly the image is for kiosks", "nowhere to put it"])
def test_words_that_only_start_like_a_lead_in_are_none(said: str) -> None:
    assert not is_modification(said)


def test_a_question_about_a_target_then_meanwhile_make_one_creates_it() -> None:
    route = route_request(
        "What does a Debian 13 raw image hold by default? I have to review it first. "
        "Meanwhile make me one for x86_64, hostname rev-01.",
        None,
    )
    assert route["intent"] == "create", route


def _say(agent: Any, *turns: str) -> tuple[Any, dict[str, Any]]:
    session = None
    result = None
    for turn in turns:
        result = agent.generate(turn, session=session)
        session = result.session
    assert result is not None
    return result, yaml.safe_load(result.template or "") or {}


@pytest.mark.parametrize(
    "undo",
    [
        "undo that, the lab needs gcc after all",
        "revert that, turns out the devs need make",
        "undo, the students need make after all",
    ],
)
def test_an_undo_with_the_reason_it_is_taken_back_only_undoes(agent: Any, undo: str) -> None:
    result, doc = _say(
        agent, "debian 13 raw x86_64 with git and build-essential", "remove build-essential", undo
    )
    assert "build-essential" in doc["systemConfig"]["packages"]
    assert not {"gcc", "make"} & set(doc["systemConfig"]["packages"])


def test_an_undo_then_a_wish_of_its_own_still_adds() -> None:
    from oic_ai.tools.references import reference_spans, remainder

    said = "undo that, we need htop now"
    assert remainder(said, reference_spans(said)) == "we need htop now"


def test_an_undo_that_keeps_a_value_of_the_undone_turn(agent: Any) -> None:
    _, doc = _say(
        agent,
        "debian 13 raw x86_64, hostname till-01",
        "make the disk 6 gigs and add a /var/log partition of 1 gig",
        "undo the partition, keep the 6 gigs",
    )
    assert doc["disk"]["size"] == "6GiB"
    assert "/var/log" not in [p.get("mountPoint") for p in doc["disk"]["partitions"]]


@pytest.mark.parametrize(
    "said",
    [
        "remove less. brb, coffee",
        "remove sudo. afk lunch",
        "hostname lab-9, back in 10",
        "ok troubleshooting done, remove less",
        "ok the pilot is over, remove sudo",
    ],
)
def test_stepping_away_or_saying_where_the_work_stands_asks_nothing(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert not result.not_applied, result
    assert result.operations, result


@pytest.mark.parametrize("said", ["disk done, 8GiB", "add htop brb"])
def test_a_change_beside_those_words_is_still_read(said: str) -> None:
    assert plan_on(DEBIAN, said).operations


@pytest.mark.parametrize(
    "said",
    [
        "add our standard security agents",
        "and the usual debugging tools please",
        "put the packages we always put on build boxes",
        "also add the typical logging agents",
    ],
)
def test_a_teams_usual_set_is_reported_not_guessed(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert not added(result), result
    assert any("usually installs" in item for item in result.not_applied), result


def test_a_usual_set_that_is_named_is_added() -> None:
    result = plan_on(DEBIAN, "add the usual stuff: jq, curl")
    assert {"jq", "curl"} <= set(added(result)), result
    assert not result.not_applied, result


def test_what_i_do_need_states_a_need() -> None:
    assert questions_of("What I do need is a user called ci, shell /bin/bash.").changes
