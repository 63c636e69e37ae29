"""Sizes as people say them become one exact token each; GB and GiB keep their meaning."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oic_ai.stores.disk_units import parse_size
from oic_ai.tools.planner.sizes import read_sizes


@pytest.mark.parametrize(
    ("said", "token", "exact"),
    [
        ("16 gig", "16GiB", 16 * 1024**3),
        ("8 gigs", "8GiB", 8 * 1024**3),
        ("512 megs", "512MiB", 512 * 1024**2),
        ("half a gig", "512MiB", 512 * 1024**2),
        ("a quarter gig", "256MiB", 256 * 1024**2),
        ("one and a half gigs", "1536MiB", 1536 * 1024**2),
        ("thirty-two GiB", "32GiB", 32 * 1024**3),
        ("two gigs", "2GiB", 2 * 1024**3),
        ("32 GiB", "32GiB", 32 * 1024**3),
        ("40 GB", "40GB", 40 * 1000**3),
        ("1.5 TB", "1500GB", 1500 * 1000**3),
        ("1 TiB", "1TiB", 1024**4),
        ("25GB", "25GB", 25 * 1000**3),
        ("3 gigabytes", "3GB", 3 * 1000**3),
        ("16G", "16GiB", 16 * 1024**3),
    ],
)
def test_a_size_is_read_exactly_in_its_own_kind_of_unit(said: str, token: str, exact: int) -> None:
    text, _ = read_sizes(f"make it {said} please")
    assert text == f"make it {token} please"
    assert parse_size(token) == exact


@pytest.mark.parametrize(
    "text",
    [
        "version 1.2.0",
        "console on ttyS1 at 57600",
        "isolcpus=2-3",
        "repo https://example.com/16gb/debian",
        "a 2 m cable",
        "add nginx and 2 users",
    ],
)
def test_what_is_not_a_size_stays_as_written(text: str) -> None:
    assert read_sizes(text) == (text, [])


def test_informal_sizes_say_how_they_were_read() -> None:
    _, notices = read_sizes("make the disk 8 gigs and /var/log half a gig, 40 GB total")
    assert notices == ["read '8 gigs' as 8GiB", "read 'half a gig' as 512MiB"]


@given(
    number=st.integers(1, 4096),
    unit=st.sampled_from(["GB", "GiB", "MB", "MiB", "TB", "TiB"]),
    space=st.sampled_from(["", " "]),
)
def test_property_every_written_size_keeps_its_bytes(number: int, unit: str, space: str) -> None:
    text, _ = read_sizes(f"disk {number}{space}{unit}")
    assert parse_size(text.removeprefix("disk ")) == parse_size(f"{number}{unit}")


@pytest.mark.parametrize(
    ("said", "read"),
    [
        # the later size replaces the size said last before it; the correction is gone
        ("a 2 GiB /srv partition, ext4. no wait, make that 3 GiB", "a 3GiB /srv partition, ext4."),
        ("swap of 1GiB and a 20GB disk, oops make it 24GB", "swap of 1GiB and a 24GB disk"),
        # a bare number keeps the unit of the size it corrects
        ("disk 8 gig. no wait make it 12", "disk 12GiB."),
    ],
)
def test_a_corrected_size_replaces_the_size_said_before_it(said: str, read: str) -> None:
    text, notices = read_sizes(said)
    assert text == read
    assert any("as correcting" in n for n in notices), notices


def test_a_corrected_size_reaches_the_partition_not_the_disk() -> None:
    from oic_ai.tools.planner import plan_request
    from tests.conftest import OUR_TEMPLATES

    base = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    plan = plan_request(
        "add a 2 GiB /srv partition, ext4. no wait make that 3 GiB", base, mode="refine"
    )
    assert [(op.op, getattr(op, "size", None)) for op in plan.operations] == [
        ("add_partition", "3GiB")
    ], plan.operations
