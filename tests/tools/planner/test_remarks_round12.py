"""Round 12 of clause accounting: what asks is reported, what describes is context.

Mechanisms, each said in wordings of our own:
- a clause headed by a verb in the imperative asks, even when the bank's nearest example is
  a description of use ("make the hypervisor ..."), or when its object is "me"/"us";
- verbs of what people ask a machine to do that no template holds ("enforce", "notify");
- "password policy" is a rule about passwords, not a password to cut;
- a clause cannot end on "be" ("I want to be" + "able to log in");
- a create request may name the image after a greeting or a remark about who asks;
- a definite subject with a present verb in -s describes the machine ("the scanner talks");
- a need someone else relayed, followed by a question about it, is the question's background;
- list items under a header of checks ("Test plan:") are checks, not changes;
- "so <subject> <verb>" says what follows from a change;
- a parenthesis on a list line is the item's aside.
"""

from __future__ import annotations

from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.redact import redact_passwords
from oic_ai.tools.questions import questions_of
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import added, plan_on, removed

BASE = "debian13-x86_64-minimal-raw.yml"


def _create(request: str):  # type: ignore[no-untyped-def]
    text = (OUR_TEMPLATES / BASE).read_text(encoding="utf-8")
    return plan_request(request, text, mode="create")


def _reported(result, words: str) -> bool:  # type: ignore[no-untyped-def]
    return any(words in entry for entry in result.not_applied)


def test_an_imperative_is_reported_even_where_the_bank_reads_a_description_of_use() -> None:
    result = plan_on(BASE, "add htop and make the VM get 4 vCPUs")
    assert "htop" in added(result)
    assert _reported(result, "make the VM get 4 vCPUs"), result.not_applied


def test_a_verb_with_me_or_us_as_its_object_asks() -> None:
    result = plan_on(BASE, "add htop, and text us once the build finishes")
    assert "htop" in added(result)
    assert _reported(result, "text us once the build finishes"), result.not_applied


def test_verbs_of_machine_policy_ask_and_are_reported_whole() -> None:
    result = plan_on(BASE, "add htop. Also enforce password history, last 5 remembered.")
    assert "htop" in added(result)
    assert _reported(result, "enforce password history"), result.not_applied
    result = plan_on(BASE, "add htop, notify the NOC when disk usage passes 90 percent")
    assert _reported(result, "notify the NOC"), result.not_applied


def test_a_rule_about_passwords_is_no_password() -> None:
    assert redact_passwords("set the password policy to 90 days") == (
        "set the password policy to 90 days",
        None,
    )
    cut, warning = redact_passwords("the admin password is swordfish9")
    assert "swordfish9" not in cut
    assert warning is not None


def test_a_clause_ending_on_be_is_completed_by_the_next() -> None:
    result = plan_on(BASE, "add htop. I have to be able to log in remotely from the office.")
    assert "htop" in added(result)
    assert result.not_applied == [], result.not_applied


def test_a_create_request_names_the_image_after_a_greeting_and_a_remark() -> None:
    result = _create(
        "Hello! We run a small print shop and we need an OS image for the front-desk PC. "
        "Debian 13, add htop."
    )
    assert "htop" in added(result)
    assert result.not_applied == [], result.not_applied
    assert "base" in [c.outcome for c in result.clauses]


def test_a_thing_and_what_it_does_describes_the_machine() -> None:
    result = plan_on(BASE, "add htop. The label printer hangs off the serial port.")
    assert "htop" in added(result)
    assert result.not_applied == [], result.not_applied
    # a verb in the imperative is no such statement
    assert plan_on(BASE, "add htop. Print the build date on the login screen.").not_applied


def test_a_relayed_need_and_a_question_about_it_is_a_question() -> None:
    asked = questions_of(
        "My colleague says the kiosk user has to be in 'video' for the screen. "
        "What is that group for?"
    )
    assert asked.only_questions
    relayed = questions_of("My colleague says the kiosk user has to be in 'video'.")
    assert relayed.changes and not relayed.questions


def test_items_under_a_header_of_checks_are_checks() -> None:
    request = (
        "Debian 13 raw for the label printers\n"
        "Requirements:\n"
        "- add cups\n"
        "Test plan:\n"
        "1) prints a label within a minute of power-on\n"
        "2) web UI reachable on the shop LAN\n"
    )
    result = _create(request)
    assert "cups" in added(result)
    assert result.not_applied == [], result.not_applied


def test_an_item_that_asks_under_a_header_of_checks_is_still_read() -> None:
    result = _create("Debian 13 raw for the label printers\n### AC\n- MUST include htop\n")
    assert "htop" in added(result)
    # and an item under a header of requirements is no check
    plain = plan_on(BASE, "Requirements:\n- add htop\n- prints labels within a minute\n")
    assert plain.not_applied


def test_so_a_subject_and_its_verb_says_what_follows() -> None:
    result = plan_on(BASE, "add nfs-common so nodes mount the shared disk at boot")
    assert "nfs-common" in added(result)
    assert result.not_applied == [], result.not_applied


def test_a_parenthesis_on_a_list_line_is_the_items_aside() -> None:
    result = plan_on(BASE, "Changes:\n- remove openssh-server (security finding SF-3)\n")
    assert "openssh-server" in removed(result)
    assert result.not_applied == [], result.not_applied


def test_keeping_what_is_there_asks_for_no_change() -> None:
    result = plan_on(BASE, "add htop, and leave the ops account as it is")
    assert "htop" in added(result)
    assert result.not_applied == [], result.not_applied
    # the value kept is the template's own console
    result = plan_on(BASE, "drop the serial console from the cmdline but keep tty0")
    assert result.not_applied == [], result.not_applied
    # "leave out" removes
    assert plan_on(BASE, "leave out the frobnicator docs").not_applied


def test_a_negated_change_of_the_rest_keeps_the_rest() -> None:
    result = plan_on(BASE, "add htop, and please don't change anything else in it")
    assert "htop" in added(result)
    assert result.not_applied == [], result.not_applied
    assert "vim" not in added(plan_on(BASE, "add htop, don't add vim"))


def test_plus_a_thing_asks_for_it() -> None:
    result = plan_on(BASE, "add htop, plus a cron job that restarts the kiosk every night")
    assert "htop" in added(result)
    assert _reported(result, "cron job"), result.not_applied


def test_keeping_a_state_asks_for_it() -> None:
    assert plan_on(BASE, "add htop, and keep root locked").not_applied


def test_keeping_what_the_template_does_not_have_asks() -> None:
    result = plan_on(BASE, "add htop, and keep the crash dumps for 90 days")
    assert _reported(result, "keep the crash dumps"), result.not_applied
