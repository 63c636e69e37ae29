"""Round 13 of clause accounting (session 13), in wordings of our own.

- a kiosk's one application, said as what the machine boots into or launches, is a package
  it holds, when the name is known as one;
- a decision reported about the image's software ("the team went with X instead", "we are
  moving the builders to X") names what it should hold now;
- a quantified subject and a verb of what is ("some teams still run hyper-v") describe the
  world, after a comma as much as anywhere;
- a rule for people on a condition ("if anyone needs root they ...") asks nothing of the image;
- "no <kind>" after the request removed something says why;
- a wish said to the assistant ("can you schedule ...") asks, even where the bank's nearest
  example is a remark, and a polite "pls" does not hide an imperative; "make sure ..." checks;
- a header followed by a rule ("firewall: only allow ssh") is the rule's topic, no package.
"""

from __future__ import annotations

from oic_ai.tools.references import find_reference
from tests.tools.planner.helpers import added, plan_after, plan_on, removed

BASE = "debian13-x86_64-minimal-raw.yml"


def test_what_a_kiosk_boots_into_or_launches_is_a_package_it_holds() -> None:
    for said in (
        "the lobby screen must boot straight into chromium, full screen",
        "have it launch chromium in kiosk mode",
        "add htop; the panel autostarts chromium on boot",
    ):
        result = plan_on(BASE, said)
        assert "chromium" in added(result), (said, result.operations)
        assert not result.not_applied, (said, result.not_applied)


def test_a_word_a_kiosk_boots_into_that_is_no_package_adds_nothing() -> None:
    for said in ("it should boot into the dashboard fullscreen", "launch our signage app on boot"):
        result = plan_on(BASE, said)
        assert added(result) == [], (said, result.operations)


def test_a_decision_about_the_software_names_what_the_image_holds_now() -> None:
    for said, name in (
        ("remove nginx, ops settled on caddy", "caddy"),
        ("the display team went with weston's kiosk shell instead", "weston"),
        ("we are switching the build hosts to podman", "podman"),
    ):
        result = plan_on(BASE, said)
        assert name in added(result), (said, result.operations)
        assert not result.not_applied, (said, result.not_applied)


def test_a_quantified_subject_and_a_verb_of_what_is_describe_the_world() -> None:
    for said in (
        "add a vhdx too, some sites still run hyper-v",
        "add nano, most techs live in vi anyway",
    ):
        result = plan_on(BASE, said)
        assert not result.not_applied, (said, result.not_applied)


def test_a_rule_for_people_on_a_condition_asks_nothing_of_the_image() -> None:
    said = "drop nano. if anybody needs to change a file they should go via config management"
    result = plan_on(BASE, said)
    assert not result.not_applied, result.not_applied
    result = plan_on(BASE, "if anyone needs docker, add it")
    assert "docker.io" in added(result), result.operations


def test_no_kind_after_a_removal_says_why() -> None:
    said = "take vim and nano out, no editors on a build box"
    result = plan_after(BASE, "add vim and nano", said)
    assert set(removed(result)) == {"vim", "nano"}, result.operations
    assert not result.not_applied, result.not_applied
    result = plan_after(BASE, "add vim", "drop vim, no editors, and no compilers")
    assert "vim" in removed(result), result.operations


def test_a_wish_said_to_the_assistant_asks_and_is_reported() -> None:
    for said, quoted in (
        ("could you set up a weekly reboot on sunday night", "weekly reboot"),
        ("require a 16 character minimum for passwords pls", "16 character minimum"),
    ):
        result = plan_on(BASE, said)
        assert any(quoted in entry for entry in result.not_applied), (said, result.not_applied)


def test_make_sure_after_a_change_checks_it() -> None:
    result = plan_on(BASE, "add quiet to the kernel line. please make sure it is there only once")
    assert not result.not_applied, result.not_applied
    result = plan_on(BASE, "add quiet. could you double-check it appears once")
    assert not result.not_applied, result.not_applied


def test_a_header_followed_by_a_rule_is_its_topic() -> None:
    result = plan_on(BASE, "firewall: only allow 443 from the store VLAN")
    assert added(result) == [], result.operations
    assert result.not_applied, result
    result = plan_on(BASE, "firewall: nftables")
    assert added(result) == ["nftables"], result.operations


def test_scratch_that_after_a_clause_of_the_same_message_takes_that_clause_back() -> None:
    for said in ("and htop? no, scratch that. add curl", "add a swap file... hmm forget that"):
        assert find_reference(said) is None, said
        result = plan_on(BASE, said)
        assert "htop" not in added(result), result.operations
        assert not result.not_applied, (said, result.not_applied)
    for said in ("scratch that", "ok, scratch that please"):  # alone: the turn before
        found = find_reference(said)
        assert found is not None and found.kind == "undo", said


def test_it_after_one_capability_named_removes_that_capability() -> None:
    template = "ubuntu24-x86_64-ros2-robotics-raw.yml"
    result = plan_after(
        template, "add ros-jazzy-navigation2", "nav2 is too heavy for the small robots, drop it"
    )
    assert "ros-jazzy-navigation2" in removed(result), result.operations
    assert not result.not_applied, result.not_applied


def test_scratch_with_a_package_removes_it() -> None:
    result = plan_after(BASE, "add htop and curl", "scratch curl, the proxy blocks it anyway")
    assert removed(result) == ["curl"], result.operations


def test_a_kiosk_application_and_its_compositor_said_without_a_verb() -> None:
    result = plan_on(BASE, "a wall display: firefox fullscreen on weston, that's all")
    assert {"firefox-esr", "weston"} <= set(added(result)), result.operations
    assert not result.not_applied, result.not_applied
    result = plan_on(BASE, "our menu board fullscreen under cage")  # no app name: nothing
    assert "cage" in added(result) and len(added(result)) == 1, result.operations


def test_have_something_do_something_asks_and_is_reported() -> None:
    result = plan_on(BASE, "add htop. have journald forward everything to graylog at 10.0.0.9")
    assert "htop" in added(result), result.operations
    assert any("journald forward everything" in entry for entry in result.not_applied), (
        result.not_applied
    )


def test_a_purpose_that_holds_a_value_is_not_absorbed() -> None:
    result = plan_on(BASE, "add rsyslog, for the relay at 10.0.0.9")
    assert "rsyslog" in added(result), result.operations
    assert any("10.0.0.9" in entry for entry in result.not_applied), result.not_applied


def test_courtesy_to_the_assistant_asks_nothing() -> None:
    for said in (
        "add curl. let us know if anything is missing",
        "add curl, ping me if the target is unclear. have a great weekend",
    ):
        result = plan_on(BASE, said)
        assert added(result) == ["curl"], result.operations
        assert not result.not_applied, (said, result.not_applied)


def test_a_kind_word_before_a_package_name_names_that_package() -> None:
    for said, name in (
        ("add the browser chromium", "chromium"),
        ("I'd like the compositor cage on it", "cage"),
    ):
        result = plan_on(BASE, said)
        assert added(result) == [name], (said, result.operations)
    result = plan_after(BASE, "add chrony", "point chrony at 10.20.0.1")  # a verb: no name
    assert result.not_applied, result


def test_saying_again_that_something_must_not_be_there_asks_nothing_more() -> None:
    result = plan_after(BASE, "add vim", "remove vim, it must never be installed again")
    assert removed(result) == ["vim"], result.operations
    assert not result.not_applied, result.not_applied
    result = plan_on(BASE, "add htop, it must be small")  # a wish of its own still asks
    assert result.not_applied, result


def test_a_package_name_that_is_an_everyday_word_alone_asks_nothing() -> None:
    result = plan_on(BASE, "add curl. Touch screen on the front, for the nurses")
    assert added(result) == ["curl"], result.operations
    assert not result.not_applied, result.not_applied
    result = plan_on(BASE, "add curl, also screen")  # said as one of the things to add
    assert added(result) == ["curl", "screen"], result.operations
