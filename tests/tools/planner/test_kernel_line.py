"""The kernel command line after one request: the options it has, the ones it lost.

One table for the kernel tests whose every check is "these options stand on the line (once
each), those are gone, and (where said) nothing was left unapplied". Its rows came from the
round files that found them (round 9's option_first, round 11, the kernel words, the
options in words and the options by role); each block says the class it checks. The
sentences are the tests' own. The Ubuntu minimal template's line is
``console=tty0 console=ttyS0,115200 loglevel=4``; ``extra`` options are added to it first.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import kernel_after

KIOSK = "ubuntu24-x86_64-desktop-kiosk-raw.yml"  # cmdline has quiet splash
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"

EMT = "emt3-x86_64-minimal-raw.yml"
HUGE = "hugepagesz=1G hugepages=32 nohz_full=4-7"
TUNED = "add default_hugepagesz=1G hugepagesz=1G hugepages=16 isolcpus=4-7 rcu_nocbs=4-7"
QUIET = "add quiet to the kernel command line"
FAMILIES = "isolcpus=2 default_hugepagesz=1G hugepagesz=1G hugepages=8"


def row(
    said: str,
    present: tuple[str, ...] = (),
    absent: tuple[str, ...] = (),
    *,
    extra: str = "",
    template: str = UBUNTU,
    first: str = "",
    clean: bool = False,
) -> tuple[str, str, str, str, tuple[str, ...], tuple[str, ...], bool]:
    """A table row: ``first`` is a request made before; with ``clean``, nothing of the
    request may be left unapplied."""
    return said, template, extra, first, present, absent, clean


@pytest.mark.parametrize(
    ("said", "template", "extra", "first", "present", "absent", "clean"),
    [
        # an option named before its removal (round 9)
        row(
            "ok, loglevel drop. nohz_full stays",
            ("nohz_full=4-7",),
            ("loglevel=4",),
            extra="nohz_full=4-7",
            clean=True,
        ),
        row(
            "the nohz_full option remove please",
            ("loglevel=4",),
            ("nohz_full=4-7",),
            extra="nohz_full=4-7",
            clean=True,
        ),
        # an option with its old value, then the new one (round 9)
        row("nohz_full 4-7 -> 5-7", ("nohz_full=5-7",), ("nohz_full=4-7",), extra=HUGE, clean=True),
        row("loglevel from 4 to 6", ("loglevel=6",), ("loglevel=4",), extra=HUGE, clean=True),
        row("hugepages: 48 please", ("hugepages=48",), ("hugepages=32",), extra=HUGE, clean=True),
        # a console kept while another goes asks nothing more (round 11)
        row(
            "no serial port on these boxes, remove the serial console but keep tty0",
            ("console=tty0",),
            ("console=ttyS0,115200",),
            clean=True,
        ),
        row(
            "drop the serial console from the kernel line; leave the tty0 console alone",
            ("console=tty0",),
            ("console=ttyS0,115200",),
            clean=True,
        ),
        # cpus said for housekeeping outside the isolated ones are a reason (round 11)
        row(
            "set isolcpus to 2-7, they want cpus 0 and 1 for housekeeping",
            ("isolcpus=2-7",),
            ("isolcpus=1-7",),
            extra="isolcpus=1-7",
            clean=True,
        ),
        # "set it again" gives no option the word "again" (round 11)
        row("panic is wrong, set it again", ("panic=5",), ("panic=again",), extra="panic=5"),
        # the last value said for an option wins, and stands once (round 11)
        row(
            "put isolcpus=1-3 on the kernel cmdline, actually 1-6",
            ("isolcpus=1-6",),
            ("isolcpus=1-3",),
            clean=True,
        ),
        row("hugepages=64, no, 128", ("hugepages=128",), ("hugepages=64",), clean=True),
        row(
            "add hugepagesz=2M to the cmdline, I mean 1G",
            ("hugepagesz=1G",),
            ("hugepagesz=2M",),
            clean=True,
        ),
        row(
            "set panic=10, no, panic=30 on the kernel command line",
            ("panic=30",),
            ("panic=10",),
            clean=True,
        ),
        # a console dropped by its device or its kind
        row(
            "nuke the serial console, it's a sealed box",
            ("console=tty0",),
            ("console=ttyS0,115200",),
        ),
        row("ditch tty0 please", ("console=ttyS0,115200",), ("console=tty0",)),
        row("console=ttyS0,9600 and lose tty0", ("console=ttyS0,9600",), ("console=tty0",)),
        # an option described by what it does
        row(
            "THP should be off, set that on the kernel command line",
            ("transparent_hugepage=never",),
            clean=True,
        ),
        row("disable transparent huge pages please", ("transparent_hugepage=never",), clean=True),
        row("we want SELinux disabled via the boot parameters", ("selinux=0",), clean=True),
        row("boot args: turn off the nmi watchdog", ("nmi_watchdog=0",), clean=True),
        row("reserve 2048 persistent hugepages", ("hugepages=2048",), clean=True),
        row("isolate CPUs 2-7 for the packet threads", ("isolcpus=2-7",), clean=True),
        # a verbose boot takes quiet and splash away
        row("we want a verbose boot on these", (), ("quiet", "splash"), template=KIOSK, clean=True),
        row("boot messages visible please", (), ("quiet", "splash"), template=KIOSK, clean=True),
        row("make it boot noisily", (), ("quiet", "splash"), template=KIOSK, clean=True),
        # the rest staying asks nothing more
        row(
            "drop panic=10, the rest of my options stay",
            ("nosmt",),
            ("panic=10",),
            extra="panic=10 nosmt",
            clean=True,
        ),
        row(
            "drop panic=10; the others are fine as they are",
            ("nosmt",),
            ("panic=10",),
            extra="panic=10 nosmt",
            clean=True,
        ),
        row(
            "remove panic=10 and the remaining options remain",
            ("nosmt",),
            ("panic=10",),
            extra="panic=10 nosmt",
            clean=True,
        ),
        # flags side by side are each an option
        row("we want quiet splash on the kernel line", ("quiet", "splash")),
        row("boot options: splash quiet nomodeset=0", ("quiet", "splash")),
        # a new count replaces the old one
        row(
            "cut the hugepage count to 64",
            ("hugepages=64", "hugepagesz=2M"),
            ("hugepages=512",),
            extra="hugepagesz=2M hugepages=512",
        ),
        row(
            "reduce the number of hugepages to 64",
            ("hugepages=64", "hugepagesz=2M"),
            ("hugepages=512",),
            extra="hugepagesz=2M hugepages=512",
        ),
        row(
            "bring huge pages down to 64",
            ("hugepages=64", "hugepagesz=2M"),
            ("hugepages=512",),
            extra="hugepagesz=2M hugepages=512",
        ),
        # an option in parentheses with its description: the description is the option's
        row("switch off the audit subsystem (audit=0) and add htop", ("audit=0",), clean=True),
        row("keep the old eth0 names (net.ifnames=0)", ("net.ifnames=0",), clean=True),
        # a flag joined to an option is an option (options by role)
        row("please add noquiet=1 and debug", ("noquiet=1", "debug"), clean=True),
        row("quiet and splash on this one", ("quiet", "splash"), clean=True),
        row(
            "we want transparent_hugepage=never, ro",
            ("transparent_hugepage=never", "ro"),
            clean=True,
        ),
        # a counted key is its value (options by role)
        row("reserve hugepages, 512 of them", ("hugepages=512",), clean=True),
        row("set up 512 hugepages on the kernel line", ("hugepages=512",), clean=True),
        # a word removes its option or its family (options by role)
        row(
            "get rid of the hugepages stuff",
            ("isolcpus=2",),
            ("hugepages=8", "hugepagesz=1G", "default_hugepagesz=1G"),
            extra=FAMILIES,
            clean=True,
        ),
        row(
            "scratch the isolcpus thing",
            ("hugepages=8",),
            ("isolcpus=2",),
            extra=FAMILIES,
            clean=True,
        ),
        row("drop hugepages", ("hugepagesz=1G",), ("hugepages=8",), extra=FAMILIES, clean=True),
        # a new value for an option the line has, said as what it must be (round 14, h2)
        row(
            "sorry my mistake, hugepages must be 8, not 16",
            ("hugepages=8",),
            ("hugepages=16",),
            template=EMT,
            first=TUNED,
            clean=True,
        ),
        row(
            "isolcpus should really be 2-7",
            ("isolcpus=2-7",),
            ("isolcpus=4-7",),
            template=EMT,
            first=TUNED,
            clean=True,
        ),
        row(
            "the rcu_nocbs value needs to be 1-7 instead of 4-7",
            ("rcu_nocbs=1-7",),
            ("rcu_nocbs=4-7",),
            template=EMT,
            first=TUNED,
            clean=True,
        ),
        row(
            "ok so hugepages is 4 now",
            ("hugepages=4",),
            ("hugepages=16",),
            template=EMT,
            first=TUNED,
            clean=True,
        ),
        row(
            "change hugepages to 32 instead of 16",
            ("hugepages=32",),
            ("hugepages=16",),
            template=EMT,
            first=TUNED,
            clean=True,
        ),
        # one set of verbs that take a thing out, for every field (round 14, h2)
        row(
            "scrap the irqaffinity one, last time it broke the lidar driver",
            (),
            ("irqaffinity=0-3",),
            template=EMT,
            first=TUNED + " irqaffinity=0-3",
        ),
        row(
            "nuke the isolcpus option",
            (),
            ("isolcpus=4-7",),
            template=EMT,
            first=TUNED + " irqaffinity=0-3",
        ),
        row(
            "axe rcu_nocbs", (), ("rcu_nocbs=4-7",), template=EMT, first=TUNED + " irqaffinity=0-3"
        ),
        row(
            "please toss the hugepages setting",
            (),
            ("hugepages=16",),
            template=EMT,
            first=TUNED + " irqaffinity=0-3",
        ),
        # a removal list never adds an option the line lacks (round 17, h5)
        row(
            "kernel: add lockdown=integrity and remove quiet and splash, we want full boot logs",
            (),
            ("quiet", "splash", "nomodeset"),
            first=QUIET,
        ),
        row("drop splash and quiet", (), ("quiet", "splash", "nomodeset"), first=QUIET),
        row(
            "take out nomodeset, quiet and splash",
            (),
            ("quiet", "splash", "nomodeset"),
            first=QUIET,
        ),
        row(
            "remove splash and quiet from the kernel command line",
            (),
            ("quiet", "splash", "nomodeset"),
            first=QUIET,
        ),
        row("get rid of quiet, splash please", (), ("quiet", "splash", "nomodeset"), first=QUIET),
        # the option said instead of another replaces it, whether or not the line had the
        # other one before (round 17, h5)
        *[
            row(said, (new,), (old,), first=first)
            for said, new, old in (
                (
                    "also: auditors want loglevel=3 instead of loglevel=7, and add audit=1",
                    "loglevel=3",
                    "loglevel=7",
                ),
                (
                    "use mitigations=auto rather than mitigations=off",
                    "mitigations=auto",
                    "mitigations=off",
                ),
                ("we need loglevel=3, not loglevel=7", "loglevel=3", "loglevel=7"),
                ("set panic=10 in place of panic=0 on the cmdline", "panic=10", "panic=0"),
            )
            for first in ("add htop", f"add {old} to the kernel command line")
        ],
        # two keys said with "not" are no replacement (round 17, h5)
        row("add audit=1, not loglevel=7", ("audit=1",), first="add htop"),
    ],
)
def test_the_kernel_line_after_a_request(
    said: str,
    template: str,
    extra: str,
    first: str,
    present: tuple[str, ...],
    absent: tuple[str, ...],
    clean: bool,
) -> None:
    cmdline, not_applied = kernel_after(said, extra=extra, template=template, first=first)
    assert [o for o in present if cmdline.count(o) != 1] == [], (cmdline, not_applied)
    assert [o for o in absent if o in cmdline] == [], (cmdline, not_applied)
    assert not clean or not_applied == [], not_applied
