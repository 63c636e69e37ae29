"""A change typed without the comma before what the user says about it (tools/planner/run_ons.py).

The sentences are the lead's own, in the shorthand of on-call notes and chat; the near-misses
are objects that go on ("as the web server", "too", "to the image") and remarks with no
subject or verb ("add nginx web server"), which keep their reading.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner.run_ons import mark_run_ons
from tests.tools.planner.helpers import added, plan_after, plan_on, removed

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # openssh-server, systemd-timesyncd; loglevel=4
KNOWN = frozenset("htop tmux jq nginx chrony curl rsyslog fail2ban auditd zsh".split())


def _known(word: str) -> bool:
    return word.lower() in KNOWN


@pytest.mark.parametrize(
    ("said", "marked"),
    [
        ("drop rsyslog the journal ships logs now", "drop rsyslog, the journal ships logs now"),
        ("Remove tmux nobody attaches to sessions", "Remove tmux, nobody attaches to sessions"),
        ("yank fail2ban and auditd the EDR agent covers both", "yank fail2ban and auditd, the EDR"),
        ("add jq too we parse json in the hooks", "add jq too, we parse json in the hooks"),
        ("install htop ops wants it on every box", "install htop, ops wants it on every box"),
        ("take chrony out it's already in the base", "take chrony out, it's already in the base"),
        ("ditch the curl package scripts use wget", "ditch the curl package, scripts use wget"),
    ],
)
def test_a_remark_after_a_change_gets_its_comma(said: str, marked: str) -> None:
    assert mark_run_ons(said, _known).startswith(marked)


@pytest.mark.parametrize(
    "said",
    [
        "add nginx web server",  # no subject, no verb after the name
        "add nginx as the web server",
        "add chrony to the image please",
        "remove htop and tmux please",
        "install zsh so that the shell exists",  # the splitter already sees "so"
        "remove htop and the docs",
        "add htop tmux jq",
        "drop htop, we never use it",  # the writer's own comma
        "drop mosquitto the broker moved",  # a name nobody knows: left as written
        "take the rest of the disk for /data",
    ],
)
def test_objects_that_go_on_are_left_as_written(said: str) -> None:
    assert mark_run_ons(said, _known) == said


@pytest.mark.parametrize(
    ("first", "said", "gone"),
    [
        ("add htop and tmux", "drop tmux people use screen from the jump host", "tmux"),
        ("add htop and tmux", "lose htop the vendor's top is enough for us", "htop"),
        ("add chrony", "remove systemd-timesyncd chrony does the time sync", "systemd-timesyncd"),
    ],
)
def test_the_removal_is_applied_and_the_remark_is_context(first: str, said: str, gone: str) -> None:
    result = plan_after(UBUNTU, first, said)
    assert gone in removed(result), result
    assert not result.not_applied, result.not_applied


def test_a_kernel_option_of_the_template_is_an_object_too() -> None:
    result = plan_on(UBUNTU, "drop loglevel=4 the vendor wants the default log level")
    assert not result.not_applied, result.not_applied
    cmdline = [op for op in result.operations if "cmdline" in str(op.model_dump())]
    assert cmdline and "loglevel=4" not in str(cmdline[-1].model_dump())


def _deletes_bob(result: EditPlan) -> bool:
    return any(
        getattr(op, "path", "") == "systemConfig.users[name=bob]" for op in result.operations
    )


def _quiet_gone(result: EditPlan) -> bool:
    cmdlines = [op.cmdline for op in result.operations if op.op == "set_kernel"]
    return bool(cmdlines) and "quiet" not in str(cmdlines[-1]).split()


@pytest.mark.parametrize(
    ("first", "said", "check"),
    [
        (
            "add htop and tmux",
            "we don't need tmux, screen is enough",
            lambda r: "tmux" in removed(r),
        ),
        ("add htop", "I no longer want htop on these boxes", lambda r: "htop" in removed(r)),
        ("add a user bob with sudo", "we won't use bob, he moved teams", _deletes_bob),
        (
            "add quiet to the kernel command line",
            "we don't need quiet",
            lambda r: "quiet" in str(r),
        ),
    ],
)
def test_a_need_said_away_takes_out_what_the_template_has(
    first: str, said: str, check: Callable[[EditPlan], bool]
) -> None:
    result = plan_after(UBUNTU, first, said)
    assert result.operations and check(result), result
    assert not any(op.op == "add_packages" for op in result.operations), result
    assert not result.not_applied, result.not_applied


def test_a_need_said_away_of_what_the_template_lacks_changes_nothing() -> None:
    result = plan_on(UBUNTU, "we don't need docker")
    assert not result.operations, result


@pytest.mark.parametrize(
    ("said", "packages", "options"),
    [
        ("add ffmpeg and htop, quiet on the cmdline", ["ffmpeg", "htop"], ["quiet"]),
        ("add tmux, jq and splash on the kernel command line", ["tmux", "jq"], ["splash"]),
        ("install curl and nomodeset on the kernel cmdline", ["curl"], ["nomodeset"]),
    ],
)
def test_packages_listed_before_a_kernel_option_stay_packages(
    said: str, packages: list[str], options: list[str]
) -> None:
    result = plan_on(UBUNTU, said)
    assert added(result) == packages, result
    appended = [a for op in result.operations if op.op == "set_kernel" for a in op.append_cmdline]
    assert appended == options, result


@pytest.mark.parametrize(
    ("said", "marked"),
    [
        # the object named first, then the word that takes it out
        ("parted out gdisk is enough", "parted out, gdisk is enough"),
        ("rsyslog gone the journal forwards everything", "rsyslog gone, the journal forwards"),
        ("ok htop out nobody logs in there", "ok htop out, nobody logs in there"),
        # where the object goes, before or after it
        ("add htop and jq to the image we debug on site", "add htop and jq to the image, we"),
        ("Add to it tmux and curl ops uses tmux daily", "Add to it tmux and curl, ops uses"),
        ("add nomodeset to the kernel command line the GPU hangs", "add nomodeset to the kernel"),
        # an undo of something the template has
        ("undo the /srv/share partition prof says one root", "undo the /srv/share partition, prof"),
        ("undo the zsh thing we're a bash shop", "undo the zsh thing, we're a bash shop"),
    ],
)
def test_objects_said_first_or_placed_still_end_at_the_remark(said: str, marked: str) -> None:
    known = KNOWN | {"parted", "gdisk", "nomodeset", "/srv/share"}
    out = mark_run_ons(said, lambda word: word.lower() in known)
    assert out.startswith(marked) and out.count(",") == 1, out


@pytest.mark.parametrize(
    "said",
    [
        "htop out",  # nothing after it
        "htop out of the image please",  # the object goes on
        "htop and tmux we need",  # no word that takes it out
        "add htop to the image please",
        "add jq to the list of tools",
        "undo the last change",  # nothing the template has
    ],
)
def test_said_first_or_placed_objects_that_go_on_are_left_as_written(said: str) -> None:
    known = KNOWN | {"parted", "gdisk"}
    assert mark_run_ons(said, lambda word: word.lower() in known) == said


@pytest.mark.parametrize(
    ("first", "said", "gone"),
    [
        # a part of a template package's name, or an alias, is an object too
        (
            "add prometheus-alertmanager",
            "Scratch alertmanager alerting is centralised in another cluster now",
            "prometheus-alertmanager",
        ),
        ("add ninja-build and make", "lose ninja we're a make shop", "ninja-build"),
        ("add ninja-build", "ninja out nobody here uses it", "ninja-build"),
        ("add htop and tmux", "tmux gone people use screen", "tmux"),
    ],
)
def test_a_short_name_or_a_name_said_first_is_removed_and_the_remark_is_context(
    first: str, said: str, gone: str
) -> None:
    result = plan_after(UBUNTU, first, said)
    assert gone in removed(result), result
    assert not result.not_applied, result.not_applied
    assert not added(result), result


def test_an_option_word_before_its_place_and_a_remark_is_applied() -> None:
    result = plan_on(
        UBUNTU, "Kindly add console=ttyS1,115200 and earlyprintk to kernel cmdline serial is a must"
    )
    appended = [a for op in result.operations if op.op == "set_kernel" for a in op.append_cmdline]
    assert "earlyprintk" in appended, result
    assert not result.not_applied, result.not_applied
