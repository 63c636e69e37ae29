"""A size for "that" is the partition the last turn sized (issue 21, round 14, h2).

"add a 2GiB /opt/mes partition" then "actually make that 3 gig": "that" is the partition
the last turn added or resized, when that turn left the disk's size alone. The sentences
are written for these tests.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.tools.pointers import resolve_pointers
from tests.conftest import OUR_TEMPLATES

DEBIAN = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8")


def _with(parts: dict[str, str], disk: str = "4GiB") -> str:
    doc: dict[str, Any] = yaml.safe_load(DEBIAN)
    doc["disk"]["size"] = disk
    for mount, end in parts.items():
        doc["disk"]["partitions"].append(
            {
                "id": mount.strip("/").replace("/", "-"),
                "mountPoint": mount,
                "start": "1MiB",
                "end": end,
            }
        )
    return yaml.safe_dump(doc, sort_keys=False)


BEFORE = _with({})
AFTER = _with({"/opt/mes": "2049MiB"})


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("actually make that 3 gig", "actually make the /opt/mes partition 3 gig"),
        ("hmm, make it 4GiB instead", "hmm, make the /opt/mes partition 4GiB instead"),
        ("that should be 1.5G", "make the /opt/mes partition 1.5G"),
        ("bump it to 6 gigs please", "make the /opt/mes partition 6 gigs please"),
    ],
)
def test_a_size_for_that_is_the_partition_the_last_turn_added(said: str, meant: str) -> None:
    assert resolve_pointers(said, AFTER, BEFORE, BEFORE) == meant


def test_a_resized_partition_is_sized_again() -> None:
    grown = _with({"/opt/mes": "3073MiB"})
    assert resolve_pointers("make that 5 gig", grown, BEFORE, AFTER) == (
        "make the /opt/mes partition 5 gig"
    )


@pytest.mark.parametrize(
    ("now", "last"),
    [
        (_with({"/opt/mes": "2049MiB"}, disk="16GiB"), BEFORE),  # the last turn sized the disk too
        (_with({"/opt/mes": "2049MiB", "/srv": "4097MiB"}), BEFORE),  # two partitions
        (AFTER, AFTER),  # the last turn changed no partition
    ],
)
def test_that_stays_as_written_when_the_last_turn_sized_no_one_partition(
    now: str, last: str
) -> None:
    assert resolve_pointers("make it 3 gig", now, BEFORE, last) == "make it 3 gig"


def test_a_size_without_that_and_that_without_a_size_stay() -> None:
    assert resolve_pointers("make the disk 8 gig", AFTER, BEFORE, BEFORE) == "make the disk 8 gig"
    assert resolve_pointers("make that xfs", AFTER, AFTER, BEFORE) == "make that xfs"
