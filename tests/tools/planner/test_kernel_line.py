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

HUGE = "hugepagesz=1G hugepages=32 nohz_full=4-7"
FAMILIES = "isolcpus=2 default_hugepagesz=1G hugepagesz=1G hugepages=8"


def row(
    said: str,
    present: tuple[str, ...] = (),
    absent: tuple[str, ...] = (),
    *,
    extra: str = "",
    template: str = UBUNTU,
    clean: bool = False,
) -> tuple[str, str, str, tuple[str, ...], tuple[str, ...], bool]:
    """A table row: with ``clean``, nothing of the request may be left unapplied."""
    return said, template, extra, present, absent, clean


@pytest.mark.parametrize(
    ("said", "template", "extra", "present", "absent", "clean"),
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
    ],
)
def test_the_kernel_line_after_a_request(
    said: str,
    template: str,
    extra: str,
    present: tuple[str, ...],
    absent: tuple[str, ...],
    clean: bool,
) -> None:
    cmdline, not_applied = kernel_after(said, extra=extra, template=template)
    assert [o for o in present if cmdline.count(o) != 1] == [], (cmdline, not_applied)
    assert [o for o in absent if o in cmdline] == [], (cmdline, not_applied)
    assert not clean or not_applied == [], not_applied
