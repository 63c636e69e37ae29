"""Kernel command line, disks and users (issue 21, round 16, helper h2).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with paraphrases that differ in verb, order and field, and with
near-misses that must not trigger.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner.rules.kernel_images import is_kernel_image
from oic_ai.tools.pointed_items import named_items, resolve_pointed
from oic_ai.tools.proposals import resolve_setting
from oic_ai.tools.restores import restored_request
from tests.tools.planner.helpers import ops_of, plan_after, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
CPUS = "add isolcpus=2,3 nohz_full=2,3 rcu_nocbs=2,3 to the kernel command line"
FLAGGED = "add isolcpus=managed_irq,domain,2-7 nohz_full=2-7 rcu_nocbs=2-7 to the cmdline"
HUGE = "add default_hugepagesz=1G hugepagesz=1G hugepages=16 to the kernel command line"


def appended(result: EditPlan) -> list[str]:
    """The options a plan appends to the command line."""
    return [a for op in ops_of(result, "set_kernel") for a in op.get("append_cmdline") or []]


# --- a new value for an option, weighed by "only", "instead", "now" -----------------------


@pytest.mark.parametrize(
    ("said", "arg"),
    [
        ("nohz_full should only be 4-7, the rest are housekeeping", "nohz_full=4-7"),
        ("rcu_nocbs needs to only be 3-7", "rcu_nocbs=3-7"),
        ("sorry, isolcpus must simply be 5-7", "isolcpus=managed_irq,domain,5-7"),
        ("nohz_full has to be 6-7 instead", "nohz_full=6-7"),
    ],
)
def test_an_option_said_to_only_be_a_value_gets_it(said: str, arg: str) -> None:
    result = plan_after(UBUNTU, FLAGGED, said)
    assert arg.split("=")[0] + "=" in " ".join(appended(result))
    assert not result.not_applied


def test_only_a_remark_about_an_option_changes_nothing() -> None:
    result = plan_after(UBUNTU, FLAGGED, "isolcpus is only a test setting")
    assert appended(result) == []


# --- one CPU list for all the CPU-list options ----------------------------------------------


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("it's a 4 core box and I want 1-3 isolated, for all three options", "1-3"),
        ("use cores 0-1 for all of them", "0-1"),
        ("all three options should be 4 to 7 now", "4-7"),
        ("move each of them to cores 1,2", "1,2"),
    ],
)
def test_a_cpu_list_for_all_the_options_sets_each(said: str, value: str) -> None:
    result = plan_after(UBUNTU, CPUS, said)
    assert sorted(appended(result)) == sorted(
        f"{key}={value}" for key in ("isolcpus", "nohz_full", "rcu_nocbs")
    )
    assert not result.not_applied


def test_a_cpu_list_for_all_keeps_the_flags_before_it() -> None:
    result = plan_after(UBUNTU, FLAGGED, "put all of them on cores 1-3")
    assert "isolcpus=managed_irq,domain,1-3" in appended(result)


def test_a_count_that_is_not_the_options_sets_none() -> None:
    result = plan_after(UBUNTU, CPUS, "set all four options to 1-3")
    assert not any(a.startswith("nohz_full") for a in appended(result))


def test_a_range_said_isolated_is_isolcpus() -> None:
    assert "isolcpus=2-5" in appended(plan_after(UBUNTU, CPUS, "keep 2 to 5 isolated please"))
    assert appended(plan_after(UBUNTU, CPUS, "we have 3 isolated networks")) == []


# --- a page size said as the huge pages' value ----------------------------------------------


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("hugepages need to be 2M not 1G, and 8192 of them", "8192"),
        ("the huge pages should be 2MB instead, 4096 of them", "4096"),
        ("make the hugepages 2M, 1024 of them", "1024"),
        ("switch hugepages to 2M pages", None),
    ],
)
def test_a_size_for_the_huge_pages_is_the_page_size(said: str, count: str | None) -> None:
    result = plan_after(UBUNTU, HUGE, said)
    args = appended(result)
    assert "hugepagesz=2M" in args and "default_hugepagesz=2M" in args
    assert (
        (f"hugepages={count}" in args)
        if count
        else not any(a.startswith("hugepages=") for a in args)
    )
    assert not result.not_applied
    assert not ops_of(result, "set_disk_size")


def test_a_count_for_the_huge_pages_stays_a_count() -> None:
    assert appended(plan_after(UBUNTU, HUGE, "hugepages must be 8, not 16")) == ["hugepages=8"]


# --- FIPS mode on the kernel command line ---------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Also FIPS mode has to be enabled from first boot (kernel arg).",
        "FIPS mode on the kernel command line.",
        "turn on fips mode via the kernel cmdline",
        "the boot parameters need FIPS enabled",
    ],
)
def test_fips_said_with_the_command_line_is_fips_1(said: str) -> None:
    result = plan_after(AZL, "add htop", said)
    assert appended(result) == ["fips=1"]
    assert not result.not_applied


def test_fips_alone_is_a_compliance_wish() -> None:
    result = plan_after(AZL, "add htop", "enable FIPS mode")
    assert appended(result) == [] and result.not_applied


# --- acknowledgements ask nothing ----------------------------------------------------------


def test_an_acknowledgement_before_a_change_is_context() -> None:
    result = plan_after(UBUNTU, "add htop", "Got it. Now bump the disk to 40 GiB.")
    assert not result.not_applied


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("ok, fair, leave it on", "ok, fair, leave immutability on"),
        ("got it, turn it off then", "got it, turn immutability off then"),
        ("makes sense, keep it enabled", "makes sense, keep immutability enabled"),
        ("I see. leave it off", "I see. leave immutability off"),
        # the same words open a setting reply (round 17, h5)
        ("copy that, leave it on", "copy that, leave immutability on"),
        ("i understand, turn it off", "i understand, turn immutability off"),
        ("Noted. keep it on", "Noted. keep immutability on"),
    ],
)
def test_a_setting_asked_about_is_named_after_an_acknowledgement(said: str, meant: str) -> None:
    assert resolve_setting(said, "immutability") == meant


def test_a_setting_reply_needs_a_state() -> None:
    assert resolve_setting("fair, leave it to me", "immutability") == "fair, leave it to me"


# --- a size turned down, or the device's own capacity, is no disk size ----------------------


def disk_sizes(result: EditPlan) -> list[str]:
    return [str(op["size"]) for op in ops_of(result, "set_disk_size")]


@pytest.mark.parametrize(
    ("said", "size"),
    [
        ("The hard drives are 256GB, can the image use about 100 gigabytes of that?", "100GB"),
        ("and 50 gig would eat my thin pool, 20 gig pls", "20GiB"),
        ("64 gigs is overkill, 16 gigs", "16GiB"),
        ("the nodes have 512GB NVMe drives, 200GB for the image is enough", "200GB"),
        ("ok 32GB sounds too big for a pi, make it 16GB", "16GB"),
    ],
)
def test_the_size_asked_for_wins_over_one_only_said_about(said: str, size: str) -> None:
    result = plan_after(UBUNTU, "add htop", said)
    assert disk_sizes(result) == [size]
    assert not result.not_applied


def test_the_device_capacity_alone_is_still_the_disk() -> None:
    assert disk_sizes(plan_after(UBUNTU, "add htop", "the box has a 64 GB eMMC")) == ["64GB"]


# --- users: the name said as the speaker's, "w" for with, "and Y without?" -----------------


def user_ops(result: EditPlan) -> dict[str, dict[str, object]]:
    return {str(op["name"]): op for op in ops_of(result, "add_user")}


@pytest.mark.parametrize(
    ("said", "name", "sudo", "groups"),
    [
        (
            "add me as a user, name's dave, with sudo, and in the docker group",
            "dave",
            True,
            ["docker"],
        ),
        (
            "create an account for me - my name is priya - in the docker group",
            "priya",
            False,
            ["docker"],
        ),
        ("add a user, username's ops, no sudo", "ops", False, []),
        ("I need a login too, name's kim, with sudo", "kim", True, []),
    ],
)
def test_a_name_said_as_the_speakers_own(
    said: str, name: str, sudo: bool, groups: list[str]
) -> None:
    found = user_ops(plan_after(UBUNTU, "add htop", said))
    assert list(found) == [name]
    assert bool(found[name].get("sudo")) is sudo
    assert list(found[name].get("groups") or []) == groups


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("add user oncall w sudo", "oncall"),
        ("user ops w sudo pls", "ops"),
        ("new login kai w sudo", "kai"),
    ],
)
def test_a_lone_w_is_with(said: str, name: str) -> None:
    result = plan_after(UBUNTU, "add htop", said)
    assert user_ops(result)[name].get("sudo") is True
    assert "sudo" not in [p for op in ops_of(result, "add_packages") for p in op["packages"]]


def test_a_w_after_a_number_is_no_with() -> None:
    result = plan_after(UBUNTU, "add htop", "add w3m")
    assert [p for op in ops_of(result, "add_packages") for p in op["packages"]] == ["w3m"]


@pytest.mark.parametrize(
    "said",
    [
        "Could there be two accounts: 'teacher' with admin rights, and 'student' without?",
        "can we get users ops with sudo and guest without!",
        "accounts lead with sudo and pupil without?",
    ],
)
def test_a_second_user_without_what_the_first_has(said: str) -> None:
    found = user_ops(plan_after(UBUNTU, "add htop", said))
    first, second = list(found)
    assert found[first].get("sudo") is True and not found[second].get("sudo")


# --- users removed only if they are there --------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "If there are admin / testuser / secureuser entries from a sample, remove them.",
        "if there's a guest or demo login, delete it",
        "in case there are test1, test2 users left over, drop them all",
        "no admin/testuser accounts please",
    ],
)
def test_users_removed_if_there_report_nothing(said: str) -> None:
    result = plan_after(AZL, "add htop", said)
    assert not result.not_applied
    assert not ops_of(result, "add_user")


def test_a_condition_on_no_user_leaves_the_removal_to_report() -> None:
    result = plan_after(AZL, "add htop", "if there are problems, remove them")
    assert result.not_applied


# --- a kernel image asked for is the kernel's own package -----------------------------------

DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "said",
    [
        "needs the PREEMPT_RT kernel Debian ships (linux-image-rt-amd64) instead of the stock one",
        "switch to the realtime kernel please",
        "add i2c-tools, and use the PREEMPT_RT kernel",
        "install linux-image-rt-amd64",
    ],
)
def test_a_kernel_image_replaces_the_stock_kernel(said: str) -> None:
    result = plan_after(DEBIAN, "add htop", said)
    kernel = [
        p for op in ops_of(result, "add_packages") if op.get("kernel") for p in op["packages"]
    ]
    system = [
        p for op in ops_of(result, "add_packages") if not op.get("kernel") for p in op["packages"]
    ]
    assert kernel == ["linux-image-rt-amd64"]
    assert "linux-image-rt-amd64" not in system
    assert "linux-image-amd64" in [
        p for op in ops_of(result, "remove_packages") for p in op["packages"]
    ]
    assert not result.not_applied


def test_kernel_headers_stay_system_packages() -> None:
    result = plan_after(DEBIAN, "add htop", "add linux-headers-amd64")
    assert not [op for op in ops_of(result, "add_packages") if op.get("kernel")]


@pytest.mark.parametrize(
    ("name", "image"),
    [
        ("linux-image-rt-arm64", True),
        ("kernel-rt", True),
        ("linux-realtime", False),  # a metapackage: image and headers
        ("kernel-rt-drivers-gpu", False),
        ("linux-headers-generic", False),
        ("linux-image-extra-virtual", False),
    ],
)
def test_what_a_kernel_image_is(name: str, image: bool) -> None:
    assert is_kernel_image(name) is image


# --- items named, then taken away with a pronoun --------------------------------------------

EL10 = "el10-x86_64-monitoring-web-raw.yml"


@pytest.mark.parametrize(
    ("question", "reply", "meant"),
    [
        (
            "why are console=ttyS0,115200 and loglevel=7 on the cmdline? no serial here.",
            "OK, drop both of those then.",
            "OK, remove console=ttyS0,115200 and loglevel=7 then.",
        ),
        ("why is qemu-kvm in there?", "Take it out.", "remove qemu-kvm."),
        (
            "what do rsyslog and chrony do here?",
            "ok get rid of them",
            "ok remove rsyslog and chrony",
        ),
        ("is nmi_watchdog=0 needed?", "nah, pull that one out", "nah, remove nmi_watchdog=0"),
    ],
)
def test_a_pronoun_takes_away_what_the_question_named(
    question: str, reply: str, meant: str
) -> None:
    text = template_text(EL10)
    assert resolve_pointed(reply, named_items([question], text), text) == meant


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "Audit finding 7: why is rsyslog in the image? Take it out please.",
            "Audit finding 7: why is rsyslog in the image? remove rsyslog please.",
        ),
        (
            "why are libzstd-devel and iwl-tools there - drop those two.",
            "why are libzstd-devel and iwl-tools there - remove libzstd-devel and iwl-tools.",
        ),
    ],
)
def test_a_pronoun_takes_away_what_the_request_named_before_it(said: str, meant: str) -> None:
    assert resolve_pointed(said, [], template_text(EL10)) == meant


@pytest.mark.parametrize(
    ("reply", "named"),
    [
        ("drop both of those then", ["a-b", "c-d", "e-f"]),  # "both" of three
        ("take it easy", ["rsyslog"]),  # no removal
        ("remove it", ["rsyslog", "chrony"]),  # "it" of two
        ("the read-only root is fine, drop it", []),  # an English compound is no package
    ],
)
def test_a_pronoun_that_does_not_fit_stays(reply: str, named: list[str]) -> None:
    assert resolve_pointed(reply, named, template_text(EL10)) == reply


@pytest.mark.parametrize(
    "said",
    [
        "ok mosquitto not needed after all, remove it pls, rest stays",
        "cmdline: append audit=1, and if quiet is in there take it out",
        "no sudo-capable 'service' account in the image. Remove it.",
    ],
)
def test_a_pronoun_after_a_statement_is_the_planners(said: str) -> None:
    assert resolve_pointed(said, ["chrony"], template_text(EL10)) == said


# --- a field put back is an undo of its last change -----------------------------------------


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "on second thought put the disk size back to what it was before, we grow it anyway",
            "on second thought undo the disk size change, we grow it anyway",
        ),
        ("restore the hostname please", "undo the hostname change"),
        ("bring the disk back to the old size", "undo the disk change"),
        ("ok put the kernel cmdline back as it was", "ok undo the kernel cmdline change"),
        # a restore of no field stays as it was said
        ("put htop back", "put htop back"),
        ("bring the weather back", "bring the weather back"),
        ("restore order", "restore order"),
        ("put the disk back to 8GiB", "put the disk back to 8GiB"),  # a value of its own
        (
            "put immutability back on like before",
            "put immutability back on like before",
        ),  # a state of its own
    ],
)
def test_a_field_put_back_undoes_its_change(said: str, meant: str) -> None:
    text = template_text(EL10)
    assert restored_request(said, text, [text]) == meant


# --- a reason stated with a measurement, before "so <change>" -------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "the radio units want sub-50us latency on the host side, so the box needs htop",
        "the control loop runs at 500 hz, so add rt-tests",
        "our PLCs expect under 2 ms jitter, so we need linuxptp",
        "the line scans 120 fps, so add htop",
    ],
)
def test_a_reason_with_a_measurement_asks_nothing(said: str) -> None:
    result = plan_after(DEBIAN, "add tmux", said)
    assert not result.not_applied


def test_a_reason_with_a_value_of_a_field_is_still_read() -> None:
    result = plan_after(DEBIAN, "add tmux", "the disk is 40 gigs, so add htop")
    assert ops_of(result, "set_disk_size")
