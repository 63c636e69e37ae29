"""Clauses that give a reason, greet or ask for advice ask for no change (issue 21, round 3).

The sentences were written for these tests: greetings in other languages, someone
else's need reported as the reason ("the auditor says they need ..."), a subject and
its verb stating a fact ("Grafana polls it hourly"), and asking the assistant to
choose ("pick whichever fits"). A clause that names a value or a field still asks.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.asking import read_clause
from tests.tools.planner.helpers import added, plan_on, template_text

DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "clause",
    [
        "hola",
        "servus",
        "grazie",
        "the auditor says they need to read the journal later",
        "Tomasz thinks they need it for the demo",
        "Grafana polls it hourly",
        "legal flagged the old one",
        "could you pick whichever fits best",
        "decide for me",
    ],
)
def test_reasons_greetings_and_advice_ask_nothing(clause: str) -> None:
    assert read_clause(clause).asking == "context", read_clause(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "the auditor says they need a static ip of 10.0.0.5",  # a value
        "Ines says we need the timezone set",  # a field
        "choose ext4 for the root",  # an object, no advice asked
        "firewall rules for ssh",
    ],
)
def test_a_clause_naming_a_value_or_field_still_asks(clause: str) -> None:
    assert read_clause(clause).asking == "asks", read_clause(clause)


def test_a_request_with_a_reason_reports_nothing() -> None:
    result = plan_on(
        DEBIAN, "ciao! drop less, legal flagged the pager. add jq, my colleague says she needs it"
    )
    assert not result.not_applied, result.not_applied
    ops = {op.op: op for op in result.operations}
    assert "less" in ops["remove_packages"].packages  # type: ignore[attr-defined]
    assert "jq" in ops["add_packages"].packages  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "request_text",
    [
        "our badge reader (qzreader) is plugged in over usb",
        "The label printer (zq-420) sits next to it, add jq",
    ],
)
def test_a_name_in_parentheses_after_a_remark_is_part_of_the_remark(request_text: str) -> None:
    result = plan_on(DEBIAN, request_text)
    assert not result.not_applied, result.not_applied
    assert "qzreader" not in added(result) and "zq-420" not in added(result)


def test_a_name_in_parentheses_after_a_request_is_still_read() -> None:
    text = template_text(DEBIAN)
    # one's own agent needs a repository that can serve it (else it is reported, round 12)
    text = text.replace(
        "\nsystemConfig:\n",
        "\npackageRepositories:\n  - url: https://apt.backup.example/debian\n"
        "    codename: trixie\n    component: main\n"
        "    pkey: https://apt.backup.example/key.asc\n\nsystemConfig:\n",
        1,
    )
    assert "packageRepositories" in text
    result = plan_request("install our backup agent (qzbak)", text, mode="refine")
    assert added(result) == ["qzbak"]


def test_skip_that_takes_back_the_list_before_just() -> None:
    result = plan_on(DEBIAN, "add vim, jq and nano. no jq, skip that. just vim nano")
    assert added(result) == ["vim", "nano"], result.operations
    assert not result.not_applied, result.not_applied


def test_the_second_half_of_a_purpose_asks_nothing() -> None:
    result = plan_on(DEBIAN, "add jq and curl for the parsers and ebpf probes")
    assert not result.not_applied, result.not_applied
