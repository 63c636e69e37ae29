"""Round 15 (helper h3): things a template cannot express, targets, artifacts, in wordings
of our own.

- a file's content pasted or placed at a path inside the image (a udev rule, a config
  file's key and value, "goes in /etc/app/app.ini") changes nothing and is reported; keys
  and certificates at a path (secure boot, repository keys) stay template fields;
- over-reported context: a determiner before a noun that
  looks like a pronoun ("our IT team"), a title naming the machine by a field-like noun
  ("Substation gateway."), a head clause whose label is a number ("boxes on line 2"), a
  second verb of a relative clause ("boxes that read X and push it on"), people and what
  they need after a change ("drop rd.shell=0, operators need the shell"), a question to
  the assistant ("is that something you can do?");
- a board named in a tool's name ("the raspberry pi imager") is no target; a model number
  ("UNO-2271G") is no size;
- a refused system's request names its target: the os it is a release of, the arch and
  image type said ("ubuntu 20.04 for arm64, iso"), the schema's arch ("armv7").
"""

from __future__ import annotations

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.questions import questions_of
from oic_ai.tools.retrieval.spelling import find_paraphrases
from tests.tools.planner.helpers import plan_on, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("template", "said", "reported"),
    [
        # a pasted udev rule
        (
            UBUNTU,
            'the scanner needs this rule: ACTION=="add", KERNEL=="hidraw*", MODE="0660"',
            "udev rule",
        ),
        (
            UBUNTU,
            'add a udev rule SUBSYSTEM=="net", ATTR{address}=="aa:bb:cc:dd:ee:ff", '
            'NAME="lan0" please',
            "udev rule",
        ),
        (
            UBUNTU,
            "from the vendor notes:\n"
            'SUBSYSTEMS=="usb", ATTRS{idProduct}=="7e3f", SYMLINK+="modem0"',
            "udev rule",
        ),
        (UBUNTU, 'KERNEL=="ttyACM[0-9]*", MODE="0666" is what the vendor wants', "udev rule"),
        # content placed in a file of the image ("": reported in any words)
        (DEBIAN, "the broker address belongs in /etc/telemetry/agent.toml, add it please", ""),
        (DEBIAN, "please copy my settings into /opt/scada/conf/site.yaml", ""),
        (DEBIAN, "write log_level=debug to /etc/myapp.conf", ""),
        (DEBIAN, "put this line in /etc/default/grub-extra: TIMEOUT=3", ""),
        (DEBIAN, "and set retries=5 inside /srv/app/config.json", ""),
        (
            DEBIAN,
            "also ship our config at /etc/fluent-bit/fluent-bit.conf with flushInterval: 5",
            "",
        ),
        # a proxy is a network setting
        (UBUNTU, "make apt go through our proxy at http://10.1.1.1:3128", "network"),
        (
            UBUNTU,
            "the devices reach the internet only via the corporate proxy, set that up",
            "network",
        ),
        (UBUNTU, "set https_proxy=http://proxy.corp:8080", "network"),
        (UBUNTU, "configure an apt proxy for the build", "network"),
    ],
)
def test_a_udev_rule_file_content_or_a_proxy_changes_nothing_and_is_reported(
    template: str, said: str, reported: str
) -> None:
    plan = plan_on(template, said)
    assert plan.operations == [], (said, plan.operations)
    assert any(reported in item for item in plan.not_applied), (said, plan.not_applied)


def test_an_assignment_alone_is_no_udev_rule() -> None:
    # no match key ("=="): a kernel option's form, read as one
    plan = plan_on(UBUNTU, 'add the kernel option quiet and MODE="x"')
    assert not any("udev rule" in item for item in plan.not_applied), plan.not_applied


@pytest.mark.parametrize(
    ("said", "op"),
    [
        (
            "secure boot on, keys at /etc/keys/db.key /etc/keys/db.crt /etc/keys/db.cer",
            "set_immutability",
        ),
        ("add a /var/lib/docker partition of 20GiB", "add_partition"),
        ("add nginx", "add_packages"),
    ],
)
def test_a_key_a_mount_point_or_a_package_is_no_file_content(said: str, op: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert any(o.op == op for o in plan.operations), (said, plan.operations, plan.not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "Our IT team moved on, add htop",
        "add htop. our it department manages the fleet",
        "The previous admin left. add htop",
        "add htop, their IT guy quit",
        # asking the assistant whether it can is no description
        "add htop. Is that something you can do?",
        "add htop - is this something you could do?",
        "add htop, is that something you can manage!",
    ],
)
def test_a_remark_about_people_or_asking_whether_the_assistant_can_is_context(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert plan.not_applied == [], (said, plan.not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "Substation gateway. Ubuntu 24.04, x86_64, raw. add htop",
        "Wind park gateway: debian 13, add htop",
        "Need an image for the soft-PLC boxes on line 2. add htop",
        "We want an image for the scanners at site 14. add htop",
    ],
)
def test_an_opening_title_or_label_chose_the_base(said: str) -> None:
    plan = plan_on(UBUNTU, said, mode="create")
    assert plan.not_applied == [], (said, plan.not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "We have boxes that collect meter data and push it upstream. add htop",
        "add htop; it is for a gateway that polls the PLCs and forwards the values",
        "add htop for the hubs that read the sensors and publish the readings",
        "add htop for the robots that map the hall and report it back",
    ],
)
def test_the_second_verb_of_a_relative_clause_is_context(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert "htop" in [p for o in plan.operations if o.op == "add_packages" for p in o.packages]
    assert plan.not_applied == [], (said, plan.not_applied)


@pytest.mark.parametrize(
    ("said", "package"),
    [
        ("boxes that run docker and add htop", "htop"),
        ("a daemon that collects logs and install nginx", "nginx"),
    ],
)
def test_an_edit_after_a_relative_clause_still_asks(said: str, package: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert package in [p for o in plan.operations if o.op == "add_packages" for p in o.packages]


@pytest.mark.parametrize(
    "said",
    [
        "remove loglevel=4, operators need the loglevel the kernel picks",
        "add rd.shell=1, techs need the emergency shell on the bench",
        "add isolcpus=2, integrators want the isolated cores",
        "set loglevel=7, engineers need every boot message",
    ],
)
def test_people_needing_what_the_change_touched_is_a_reason(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert plan.operations, said
    assert plan.not_applied == [], (said, plan.not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "I flashed it with the raspberry pi imager",
        "we used the jetson flashing tool before",
        "the graviton emulator runs our tests",
    ],
)
def test_a_board_in_a_tools_name_is_no_target(said: str) -> None:
    assert [means for _, _, means in find_paraphrases(said)] == [], said


def test_a_board_alone_is_still_a_target() -> None:
    assert [means for _, _, means in find_paraphrases("for the raspberry pi")] == ["arm64"]


@pytest.mark.parametrize(
    "said",
    ["it's a box from Advantech (UNO-2271G)", "the NAS is a DS-920G, add htop"],
)
def test_a_model_number_is_no_disk_size(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert not any(o.op == "set_disk_size" for o in plan.operations), (said, plan.operations)


@pytest.mark.parametrize(
    ("said", "target"),
    [
        (
            "ok then ubuntu 20.04 for arm64, iso",
            {"os": "ubuntu", "arch": "aarch64", "imageType": "iso"},
        ),
        ("what about debian 11 x86_64", {"os": "debian", "arch": "x86_64"}),
        ("an armhf image for the old boards", {"arch": "armv7hl"}),
        (
            "could I get rocky 9 instead, raw",
            {"os": "redhat-compatible-distro", "imageType": "raw"},
        ),
    ],
)
def test_a_refusal_names_the_target_it_refuses(said: str, target: dict[str, str]) -> None:
    route = route_request(said, None, None)
    assert route["intent"] == "unsupported", route
    named = dict(route.get("unsupported", {}).get("target") or {})
    assert {k: named.get(k) for k in target} == target, (said, named)


def test_a_system_of_no_known_os_names_no_os() -> None:
    route = route_request("a windows 11 image for x86_64", None, None)
    named = dict(route.get("unsupported", {}).get("target") or {})
    assert "os" not in named and named.get("arch") == "x86_64", named


WEB = "ubuntu24-x86_64-web-server-raw.yml"  # raw (zstd) and vmdk artifacts


def _artifacts(plan) -> list[str] | None:  # type: ignore[no-untyped-def]
    ops = [o for o in plan.operations if o.op == "set_artifacts"]
    return [a.type for a in ops[-1].artifacts] if ops else None


@pytest.mark.parametrize(
    "said",
    ["qcow2 too", "a vhdx as well please", "and qcow2, too", "give me a vdi in addition"],
)
def test_a_format_followed_by_too_is_one_more(said: str) -> None:
    found = _artifacts(plan_on(WEB, said))
    assert found is not None and found[:2] == ["raw", "vmdk"] and len(found) == 3, (said, found)


@pytest.mark.parametrize(
    "said",
    ["qcow2 out", "x86, qcow2 out. add htop", "vhdx out please", "hostname a1, qcow2 out"],
)
def test_a_format_the_image_lacks_and_out_is_the_output(said: str) -> None:
    found = _artifacts(plan_on(WEB, said))
    assert found is not None and len(found) == 1 and found[0] in ("qcow2", "vhdx"), (said, found)


@pytest.mark.parametrize("said", ["vmdk out", "add htop, vmdk out"])
def test_a_format_the_image_has_and_out_is_removed(said: str) -> None:
    assert _artifacts(plan_on(WEB, said)) == ["raw"], said


def test_a_package_and_out_is_still_removed() -> None:
    plan = plan_on(WEB, "nginx out")
    assert any(o.op == "remove_packages" for o in plan.operations), plan.operations


# --- questions ---------------------------------------------------------------------------

EL10 = "el10-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "said",
    [
        "Thanks. Roughly how big will the ISO come out?",
        "approximately how large is the image going to be?",
        "curious, which kernel does it use?",
        "ballpark, how many packages are in it?",
    ],
)
def test_a_hedge_before_a_question_word_is_still_a_question(said: str) -> None:
    text = template_text(EL10)
    assert route_request(said, text, None)["intent"] == "explain", said


def test_a_hedge_before_a_change_is_still_a_change() -> None:
    text = template_text(EL10)
    assert route_request("roughly 20GB disk please", text, None)["intent"] == "refine"


@pytest.mark.parametrize(
    "said",
    [
        "will those be enabled in the image?",
        "the old ks had `services --enabled=chronyd` - will that be running at boot?",
        "will chrony be enabled?",
        "will the disk be big enough?",
    ],
)
def test_will_it_be_is_a_question(said: str) -> None:
    found = questions_of(said)
    assert found.questions and not found.changes, (said, found)


def test_will_you_be_able_to_asks_for_a_change() -> None:
    assert questions_of("will you be able to add htop?").changes


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("what does the template install exactly?", "Packages:"),
        ("remind me what i've added so far", "Packages:"),
        ("what does it come with?", "Packages:"),
        ("which services start at boot?", "Services:"),
        ("will sshd be enabled?", "Services:"),
    ],
)
def test_what_it_installs_or_enables_is_answered(question: str, expected: str) -> None:
    answer = describe_template(template_text(EL10), question)
    assert expected in answer, (question, answer)
    if expected == "Packages:":
        assert "more" not in answer.split("Packages:")[1].split("\n")[0], answer


# --- proxies (a proxy said alone: a row of the first table) -------------------------------


def test_a_repository_on_a_host_named_proxy_is_still_a_repository() -> None:
    plan = plan_on(
        DEBIAN, "add the repo http://proxy.example.com/debian suite trixie component main"
    )
    assert any(o.op == "add_repository" for o in plan.operations), plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "add htop and force them to change it at first login",
        "passwords must expire every 90 days",
        "add htop, and make users change their password on first login",
        "expire the password so the tech picks one at next login",
    ],
)
def test_a_password_rule_is_reported(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert any("password rules" in item for item in plan.not_applied), (said, plan.not_applied)


def test_changing_another_setting_is_no_password_rule() -> None:
    plan = plan_on(DEBIAN, "change the hostname to lab-2")
    assert not plan.not_applied and plan.operations, plan.not_applied
