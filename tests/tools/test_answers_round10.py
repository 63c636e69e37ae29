"""Answers to "how many ... are there" and "iso or img?" (issue 21, round 10).

The sentences were written for these tests. A question that opens with "how many" or
"which" asks about the topic it names, never whether a package is in the image; the
target line names the image type as the template writes it.
"""

from __future__ import annotations

from oic_ai.tools.explain_template import describe_template
from tests.conftest import OUR_TEMPLATES

UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")


def test_how_many_partitions_are_there_answers_with_the_partitions() -> None:
    answer = describe_template(
        UBUNTU, "how many partitions are there at the moment and what's on them"
    )
    assert answer.startswith("Disk:"), answer
    assert "package list" not in answer


def test_which_users_are_there_answers_with_the_users() -> None:
    answer = describe_template(UBUNTU, "which users are there right now")
    assert answer.startswith("Users:"), answer


def test_the_target_line_names_the_image_type_as_the_template_writes_it() -> None:
    netboot = (OUR_TEMPLATES / "elxr12-x86_64-netboot-initrd.yml").read_text(encoding="utf-8")
    answer = describe_template(netboot, "which image type is it right now")
    assert "network-boot image (img)" in answer, answer
