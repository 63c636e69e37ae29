"""The packages one request adds and removes on a library template.

One table for the planner tests whose every check is "this request, on that template, adds
exactly these packages, or at least these and none of those (and likewise removes), and
(where said) leaves nothing unapplied". Each row names the class it checks and the file it
came from; the sentences are the tests' own.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, plan_on, removed

Lists = list[str] | None
Names = tuple[str, ...]

AZL3_CLOUD = "azl3-x86_64-cloud-vm-qcow2.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
EMT = "emt3-x86_64-minimal-raw.yml"
EMT3_NETBOOT = "emt3-x86_64-netboot-initrd.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
UBUNTU24_WEB = "ubuntu24-x86_64-web-server-raw.yml"
UBUNTU24_EDGE = "ubuntu24-aarch64-edge-container-raw.yml"


Row = tuple[str, str, Lists, Lists, Names, Names, Names, Names, bool]


def row(
    said: str,
    template: str,
    *,
    added: list[str] | None = None,
    removed: list[str] | None = None,
    has: Names = (),
    lacks: Names = (),
    gone: Names = (),
    kept: Names = (),
    clean: bool = False,
) -> Row:
    """A table row. ``added`` and ``removed`` are the whole lists (None checks nothing of
    them); the plan adds every name of ``has`` and none of ``lacks``, removes every name of
    ``gone`` and none of ``kept``; with ``clean``, nothing of the request is left unapplied."""
    return said, template, added, removed, has, lacks, gone, kept, clean


@pytest.mark.parametrize(
    ("said", "template", "adds", "removes", "has", "lacks", "gone", "kept", "clean"),
    [
        # a capability word inside another description is not taken (described): "desktop"
        # is the desktop capability's word, but viewing one remotely asks for VNC
        row(
            "plus something to let us view the desktop remotely",
            DEBIAN,
            added=["tigervnc-standalone-server"],
        ),
        # the subject of need them is no package (package_forms_round11)
        row("add htop and jq, the dashboards need them", DEBIAN, added=["htop", "jq"]),
        # a ticket s must include with a colon adds each name (package_forms_round11)
        row("- MUST include: tcpdump, chrony", EMT, added=["tcpdump", "chrony"]),
        # a negated list keeps its negation (package_forms_round11)
        row("no nginx, fail2ban or ufw", UBUNTU24_WEB, removed=["nginx", "fail2ban", "ufw"]),
        # a sentence adverb after the last name (package_forms_round11)
        row("and git plus build-essential obviously", DEBIAN, added=["git", "build-essential"]),
        # the software in parentheses after what the machine does (package_forms_round11)
        row("The till PC prints to label printers (CUPS).", UBUNTU, added=["cups"]),
        # a parenthesis unrelated to its statement adds nothing (package_forms_round11)
        row("The old box ran in the back office (docker).", UBUNTU, added=[]),
        # what a new partition holds is no package (package_forms_round11)
        row("add a /srv partition, 10 GiB, ext4, for logs and rosbags", UBUNTU, added=[]),
        # the tool the user talks to is no package (package_forms_round11)
        row("we build images with this tool: add htop", DEBIAN, added=["htop"], clean=True),
        # audit logging is the audit daemon not log rotation (package_roles)
        row("- audit logging (auditd)\n- hostname cart-01", DEBIAN, added=["auditd"], clean=True),
        # a minus inside a line of plus signs removes (package_shorthand)
        row("+rsync +curl -less", DEBIAN, added=["rsync", "curl"], removed=["less"], clean=True),
        # a fronted removal of a name not there adds nothing (package_shorthand)
        row("ok, htop remove.", DEBIAN, added=[], removed=[]),
        # remove it please points back at the package said unneeded (package_shorthand)
        row(
            "systemd-resolved we do not use, we run our own. Remove it please.",
            DEBIAN,
            removed=["systemd-resolved"],
            clean=True,
        ),
        # a machine said to do something no capability does adds nothing (package_shorthand)
        row("the board must start within five seconds after power on", DEBIAN, added=[]),
        # where a described package is used from is no package (package_shorthand)
        row(
            "the admin wants 'something to remote into the desktop' from the office",
            UBUNTU,
            added=["tigervnc-standalone-server"],
        ),
        # to it between verb and names (package_shorthand)
        row(
            "Add to it tcpdump and ethtool, for the benches",
            EMT3_NETBOOT,
            added=["tcpdump", "ethtool"],
        ),
        # a vague noun after a capability is part of it (package_shorthand)
        row("forget the remote desktop thing, ssh will do", UBUNTU, added=[], clean=True),
        # what the image should be is no package (package_shorthand)
        row("auditors want the image to be reproducible and signed", DEBIAN, added=[]),
        # a web page shown on a screen needs a browser (package_shorthand)
        row(
            "the computer in the lobby must show our web page fullscreen",
            DEBIAN,
            added=["firefox-esr"],
        ),
        # out after a verb and its object is no removal (package_shorthand)
        row("check systemd-resolved out, it may fit", DEBIAN, removed=[]),
        # adverbs between a name and its verb and interjections are no names (pointing_back)
        row("oh and tmux itself obviously needs to be installed, lol", UBUNTU, added=["tmux"]),
        # key and certificate words beside secure boot paths are no packages (pointing_back)
        row(
            "secure boot on. The db key, cert and cer live at /sb/db.key, /sb/db.crt and "
            "/sb/db.cer",
            EMT,
            added=[],
            clean=True,
        ),
        # a decision naming no package adds none (remarks_round13)
        row("add htop, the team went with the cheaper boards instead", DEBIAN, added=["htop"]),
        # an adverb between a subject and its verb keeps the statement (remarks_round13)
        row(
            "add curl, the scanner firmware only speaks serial", DEBIAN, added=["curl"], clean=True
        ),
        # a verbs noun heading a remark asks nothing (remarks_round13)
        row("change of plan for the v2 boards, add curl", DEBIAN, added=["curl"], clean=True),
        # a package said not to be needed is removed not added (remarks_that_ask_nothing)
        row("openssh-server not needed after all", DEBIAN, added=[], removed=["openssh-server"]),
        # remove it after a removal points back (remarks_that_ask_nothing)
        row(
            "openssh-server is not needed on these, remove it",
            DEBIAN,
            removed=["openssh-server"],
            clean=True,
        ),
        # only with its own removal verb still removes (round15_h1)
        row("remove only openssh-server", UBUNTU, removed=["openssh-server"]),
        # a split name is removed too (split_and_described_names)
        row("get rid of le ss", DEBIAN, removed=["less"]),
        # the azure agent named by what it is is removed (split_and_described_names)
        row(
            "this runs on-prem now: remove the azure vm agent", AZL3_CLOUD, removed=["WALinuxAgent"]
        ),
        # a parenthesis naming the capability of an unclear description (split_and_described_names)
        row("we need label printer support (CUPS) for the shipping desk", DEBIAN, added=["cups"]),
        # the purpose after a known name is context (split_and_described_names)
        row(
            "add gpsd, and chrony to steer the system clock by it",
            DEBIAN,
            added=["gpsd", "chrony"],
            clean=True,
        ),
        # a module option removed without value is no package (kernel_keys_without_equals)
        row(
            "Drop i2c_hid.polling_mode, the touch panel is gone.",
            DEBIAN,
            added=[],
            removed=[],
            clean=True,
        ),
        # a path with slashes is no substitution (package_forms_round11)
        row("the notes are under docs/less/htop for later", DEBIAN, added=[], removed=[]),
        # a sibling nothing knows is not made up (package_forms_round11)
        row(
            "add python3-smbus and -frobnicate",
            DEBIAN,
            added=["python3-smbus"],
            lacks=("python3-frobnicate",),
        ),
        # a dash without plus signs on its line stays a flag (package_shorthand)
        row("apt install -y rsync curl", DEBIAN, removed=[], has=("rsync", "curl")),
        # a second thing the machine does is read too (package_shorthand)
        row(
            "our box which must read the flow meters over the serial port (RS485 converter) "
            "and publish them over MQTT.",
            DEBIAN,
            has=("python3-serial", "mosquitto"),
        ),
        # ones own package asked for after a comma is still added (packages_and_repos_round13)
        row("install redis, the package ledgerd-client too", UBUNTU, has=("ledgerd-client",)),
        # a word that spells no sibling leaves the shared noun unread (packages_and_repos_round13)
        row(
            "add gstreamer1.0-tools plus the good and shiny plugins",
            UBUNTU,
            lacks=("gstreamer1.0-plugins-good",),
        ),
        # a package said not to be in the image is not added (round14_h3)
        row("telnet must not be in there", UBUNTU, lacks=("telnet",)),
        # without a vendor repository docker io stays (round15_h1)
        row("add htop", UBUNTU24_EDGE, kept=("docker.io",)),
        # a count that does not match points at nothing (round15_h1)
        row("htop is handy, add those three packages", DEBIAN, lacks=("htop",)),
        # an adding verb after the removal still adds (round16_h1)
        row("remove the old repo and add jq", UBUNTU, has=("jq",)),
        # an addition before a remark is applied and nothing is reported (run_ons)
        row(
            "add tmux we keep long jobs running over flaky links",
            UBUNTU,
            added=["tmux"],
            lacks=("we", "keep"),
            clean=True,
        ),
    ],
)
def test_the_packages_a_request_adds_and_removes(
    said: str,
    template: str,
    adds: Lists,
    removes: Lists,
    has: Names,
    lacks: Names,
    gone: Names,
    kept: Names,
    clean: bool,
) -> None:
    result = plan_on(template, said)
    assert set(has) <= set(added(result)), (result.operations, result.not_applied)
    assert not set(lacks) & set(added(result)), (result.operations, result.not_applied)
    assert set(gone) <= set(removed(result)), (result.operations, result.not_applied)
    assert not set(kept) & set(removed(result)), (result.operations, result.not_applied)
    assert adds is None or added(result) == adds, (result.operations, result.not_applied)
    assert removes is None or removed(result) == removes, (result.operations, result.not_applied)
    assert not clean or not result.not_applied, result.not_applied
