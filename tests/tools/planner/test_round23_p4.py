"""How packages are read from a turn (issue 21, round 23, helper p4).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with reworded forms and with near-misses that must not trigger.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import added, plan_on, removed, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"
EMT = "emt3-x86_64-minimal-raw.yml"
KIOSK = "ubuntu24-x86_64-desktop-kiosk-raw.yml"


def _on(template: str, names: list[str], said: str, earlier: str = "") -> tuple[list, list]:
    """Plan ``said`` on ``template`` with ``names`` installed: (added, removed)."""
    data = yaml.safe_load(template_text(template))
    data["systemConfig"]["packages"] += names
    text = yaml.safe_dump(data, sort_keys=False)
    plan = plan_request(said, text, mode="refine", earlier=earlier)
    return added(plan), removed(plan)


# --- replacements said in other forms ----------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "we're using Thonny this term instead of geany",
        "lecturer says thonny for now rather than geany",
        "use Thonny instead of geany",
        "switching to thonny this semester instead of geany",
    ],
)
def test_a_time_between_the_new_name_and_instead_of(said: str) -> None:
    assert _on(KIOSK, ["geany"], said) == (["thonny"], ["geany"])


@pytest.mark.parametrize(
    "said",
    [
        "PI changed her mind, wants pyqt6 instead of 5",
        "pyqt6 instead of pyqt5",
        "go with pyqt6 rather than pyqt5",
    ],
)
def test_a_version_instead_of_another_swaps_the_images_package(said: str) -> None:
    assert _on(DEBIAN, ["python3-pyqt5", "python3-serial"], said) == (
        ["python3-pyqt6"],
        ["python3-pyqt5"],
    )


def test_a_version_swap_needs_a_package_of_the_image() -> None:
    plus, minus = _on(DEBIAN, ["python3-serial"], "pyqt6 instead of 5")
    assert "python3-pyqt6" not in plus and minus == []


@pytest.mark.parametrize(
    ("said", "plus"),
    [
        ("not nginx, caddy", ["caddy"]),
        ("not nginx but caddy", ["caddy"]),
        ("actually not nginx, caddy", ["caddy"]),
        # near-misses: one more that is not wanted, and "no X, Y" (a list of unwanted ones)
        ("not nginx, caddy either", []),
        ("no nginx, caddy", []),
    ],
)
def test_not_x_comma_y_adds_y(said: str, plus: list[str]) -> None:
    assert _on(DEBIAN, ["nginx"], said) == (plus, ["nginx"])


@pytest.mark.parametrize(
    ("said", "plus", "minus"),
    [
        ("remove tmux I meant screen", ["screen"], ["tmux"]),
        ("drop tmux, i meant screen", ["screen"], ["tmux"]),
        ("tmux, I meant screen", ["screen"], []),
    ],
)
def test_i_meant_y_adds_y(said: str, plus: list[str], minus: list[str]) -> None:
    assert _on(DEBIAN, ["tmux"], said) == (plus, minus)


@pytest.mark.parametrize(
    "said",
    [
        "Actually scratch the nftables line, site firewall handles it.",
        "drop the nftables entry",
        "remove the nftables row please",
    ],
)
def test_the_line_of_a_list_is_its_package(said: str) -> None:
    assert _on(EMT, ["tpm2-tools", "nftables"], said)[1] == ["nftables"]


def test_a_line_without_a_known_name_is_reported() -> None:
    plan = plan_on(EMT, "drop the last line")
    assert removed(plan) == [] and plan.not_applied


@pytest.mark.parametrize(
    ("said", "plus", "minus"),
    [
        ("PRD diff: jq removed, add htop and iperf3", ["htop", "iperf3"], ["jq"]),
        ("jq dropped, add htop", ["htop"], ["jq"]),
        # near-misses: a question, and the user's own past action
        ("was jq removed?", [], []),
        ("I removed jq, add htop", ["htop"], []),
    ],
)
def test_a_changelog_line_removes(said: str, plus: list[str], minus: list[str]) -> None:
    assert _on(UBUNTU, ["jq"], said) == (plus, minus)


@pytest.mark.parametrize(
    ("said", "minus"),
    [
        ("make sure gcc and gdb aren't in there", ["gcc", "gdb"]),
        ("ensure gcc is not installed", ["gcc"]),
        ("please make sure that gdb isn't on the image", ["gdb"]),
        # near-misses: stated, or asked, not demanded
        ("gcc and gdb aren't in there, right?", []),
        ("gcc isn't installed yet", []),
    ],
)
def test_make_sure_x_is_not_there_removes(said: str, minus: list[str]) -> None:
    plus, taken = _on(EMT, ["gcc", "gdb"], said)
    assert plus == [] and taken == minus


def test_names_then_etc_must_not_be_there() -> None:
    plan = plan_on(AZL, "No compilers on the device (gcc, make etc must not be there).")
    assert plan.not_applied == [] and added(plan) == []


# --- names given in a role ----------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "slurm client (slurmd), munge, nfs client",
        "the slurm client (slurmd)",
        "install slurm client (slurmd)",
    ],
)
def test_one_name_in_parentheses_spells_out_the_words_before(said: str) -> None:
    plus = added(plan_on(UBUNTU, said))
    assert "slurmd" in plus and "slurm-client" not in plus and "slurm" not in plus


def test_several_names_in_parentheses_still_read_together() -> None:
    plan = plan_on(UBUNTU, "add the SCAP tooling (openscap-scanner, ssg-debian)")
    assert added(plan) == ["openscap-scanner", "ssg-debian"]


def test_parentheses_that_are_no_known_name_leave_the_words() -> None:
    plan = plan_on(UBUNTU, "add chrony (for time)")
    assert added(plan) == ["chrony"]


@pytest.mark.parametrize(
    ("said", "plus"),
    [
        (
            "Needs: modbus over RS-485 via python3-pymodbus, and mosquitto-clients",
            ["python3-pymodbus", "mosquitto-clients"],
        ),
        ("add log shipping via rsyslog", ["rsyslog"]),
        # near-misses: how something is done, not what to install
        ("we deploy via ansible", []),
        ("need the config pushed via ansible", []),
    ],
)
def test_a_known_name_after_via_is_what_a_need_comes_through(said: str, plus: list[str]) -> None:
    assert added(plan_on(DEBIAN, said)) == plus


@pytest.mark.parametrize(
    ("said", "plus"),
    [
        (
            "| item | value |\n|---|---|\n| extra rpms | podman, tmux, git |\n",
            ["podman", "tmux", "git"],
        ),
        (
            "| # | Requirement | Value |\n|---|---|---|\n| 5 | Packages | chromium, unclutter |\n",
            ["chromium", "unclutter"],
        ),
        ("| additional pkgs | jq |\n", ["jq"]),
        # near-misses: a row that lists nothing, and a row of another field
        ("| packages | none |\n| software | the usual |\n| rpms | TBD |\n", []),
        ("| owner | app team |\n| disk | 12 GiB |\n", []),
    ],
)
def test_a_pasted_tables_packages_row(said: str, plus: list[str]) -> None:
    template = EL10 if "rpms" in said else DEBIAN
    assert added(plan_on(template, said)) == plus


@pytest.mark.parametrize(
    ("said", "plus"),
    [
        ("Then it should install a system with nginx and openssh-server", ["nginx"]),
        ("the ISO must install a minimal system with chrony", ["chrony"]),
        # near-miss: an English word after it is no package
        ("it should install a system with care", []),
    ],
)
def test_an_installer_should_install_a_system_with(said: str, plus: list[str]) -> None:
    assert added(plan_on("azl3-x86_64-installer-iso.yml", said)) == plus


@pytest.mark.parametrize(
    ("said", "plus"),
    [
        ("row 5 was wrong, app team says firefox-esr not chromium", ["firefox-esr"]),
        ("the lecturer said thonny, not geany", ["thonny"]),
        ("security says no", []),
    ],
)
def test_somebody_says_x_not_y(said: str, plus: list[str]) -> None:
    assert _on(DEBIAN, ["chromium", "geany"], said)[0] == plus


# --- needs said as capabilities -------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "plus"),
    [
        (
            "Requirements: read-only root, no compilers or build tools on target, audit "
            "logging enabled.",
            ["auditd"],
        ),
        ("Constraints: no compilers on the device, auditd required, root immutable.", ["auditd"]),
        ("no gui, htop mandatory", ["htop"]),
        # near-misses: the negation itself governs it, and a word that is no name
        ("no compilers required", []),
        ("no gui, nothing else required", []),
    ],
)
def test_wanted_state_after_a_comma_is_asked_for(said: str, plus: list[str]) -> None:
    template = "ubuntu26-x86_64-minimal-raw.yml"
    got = added(plan_on(template, said))
    assert [p for p in got if p in plus] == plus and (plus or got == [])


@pytest.mark.parametrize(
    ("said", "minus"),
    [
        ("compliance: no compilers, no debugger.", ["gcc", "gdb"]),
        ("security: drop gdb", ["gdb"]),
    ],
)
def test_a_label_before_a_colon_asks_for_no_capability(said: str, minus: list[str]) -> None:
    plus, taken = _on(EMT, ["gcc", "gdb"], said)
    assert plus == [] and sorted(taken) == minus


def test_the_label_alone_is_still_the_capability() -> None:
    assert added(plan_on(EMT, "add compliance")) == ["audit"]


@pytest.mark.parametrize(
    "said",
    [
        "something so I can ssh in and a way to read the temperature sensors",
        "I need a way to read the temperature sensors",
        "some way to check the temperature sensors",
    ],
)
def test_a_way_to_x_describes_a_package(said: str) -> None:
    assert "lm-sensors" in added(plan_on(UBUNTU, said))


@pytest.mark.parametrize(
    "said",
    [
        "Is there a way to read the temperature sensors?",
        "whether there's a way to read the temperature sensors",
    ],
)
def test_is_there_a_way_asks(said: str) -> None:
    assert added(plan_on(UBUNTU, said)) == []


def test_a_way_onto_wifi() -> None:
    plus = added(plan_on("ubuntu24-aarch64-minimal-raw.yml", "Things I need: a way to get on wifi"))
    assert plus == ["network-manager"]


@pytest.mark.parametrize(
    ("said", "plus"),
    [
        ("it needs a sensor over i2c and a gps over usb serial", ["gpsd", "gpsd-clients"]),
        ("add a gps receiver", ["gpsd", "gpsd-clients"]),
        ("add a modem over usb", ["modemmanager"]),
        # near-miss: not a link after "over"
        ("add a gps dongle over the network", []),
    ],
)
def test_a_device_over_a_link(said: str, plus: list[str]) -> None:
    assert added(plan_on(DEBIAN, said)) == plus


def test_gps_has_no_rpm_packages_and_says_so() -> None:
    plan = plan_on(EL10, "add gps")
    assert added(plan) == [] and "gps has no packages" in plan.not_applied[0]


@pytest.mark.parametrize(
    ("template", "said", "plus"),
    [
        (
            KIOSK,
            "Students write Python and a bit of C.",
            ["python3", "python3-pip", "python3-venv", "build-essential"],
        ),
        (UBUNTU, "we code in C++", ["build-essential"]),
        (EL10, "the devs program in C", ["gcc", "gcc-c++", "make"]),
        (UBUNTU, "add a c compiler", ["build-essential"]),
        # near-miss: what is written, not the toolchain
        (UBUNTU, "they write python scripts for the lab", []),
    ],
)
def test_the_languages_people_write(template: str, said: str, plus: list[str]) -> None:
    assert added(plan_on(template, said)) == plus


@pytest.mark.parametrize("said", ["and SELinux enforcing please", "selinux enforced"])
def test_selinux_enforcing_is_its_policy(said: str) -> None:
    assert "selinux-policy-targeted" in added(plan_on(EL10, said))


def test_selinux_disabled_adds_nothing() -> None:
    assert added(plan_on(EL10, "selinux disabled")) == []


@pytest.mark.parametrize(
    ("earlier", "said", "plus"),
    [
        (
            "does it have docker?",
            "make sure it does. and compose",
            ["moby-engine", "docker-cli", "docker-compose"],
        ),
        ("does it come with htop?", "please make sure it does", ["htop"]),
        # near-misses: "does not", and a question about no package
        ("does it have docker?", "make sure it does not", []),
        ("what's the disk size?", "make sure it does", []),
    ],
)
def test_make_sure_it_does_after_a_question(earlier: str, said: str, plus: list[str]) -> None:
    template = EMT if "docker" in earlier else UBUNTU
    assert added(plan_on(template, said, earlier=earlier)) == plus


# --- words that are no package ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "plus"),
    [
        ("fine, ansible will do that after first boot. make the disk 20G", []),
        ("ansible will do the rest", []),
        ("busybox will do", ["busybox"]),
        ("tmux will do the job", ["tmux"]),
    ],
)
def test_a_tool_that_will_do_a_job_is_no_request(said: str, plus: list[str]) -> None:
    assert added(plan_on(UBUNTU, said)) == plus


@pytest.mark.parametrize(
    "said",
    ["perfect. also compress the output as xz and give me a qcow2 too", "also sign the image"],
)
def test_a_verb_before_its_object_is_no_package(said: str) -> None:
    assert added(plan_on(DEBIAN, said)) == []
