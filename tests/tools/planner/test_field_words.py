"""A field named before a list of users, and "image should be called X" (lead, session 16).

Found while measuring typed-fast turns: "hostname should be lab-kvm-07 and users anna and
marek with sudo" made a user called hostname, and "image should be called kiosk" (no
article) was read as context and dropped without a word.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "said",
    [
        "hostname should be lab-kvm-07 and users anna and marek with sudo",
        "disk should be 20 GiB and please two users anna and marek both with sudo",
        "the kernel should have quiet and users anna and marek with sudo",
        "image should be called kiosk and users anna and marek, both with sudo",
    ],
)
def test_a_field_before_a_list_of_users_is_no_user(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert set(users(result)) == {"anna", "marek"}, result
    assert all(u.get("sudo") for u in users(result).values()), result


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("image should be called kiosk", "kiosk"),
        ("ok, image should be named kiosk-2", "kiosk-2"),
        ("the image should be called edge-gw", "edge-gw"),
    ],
)
def test_image_should_be_called_names_the_image(said: str, name: str) -> None:
    result = plan_on(UBUNTU, said)
    names = [op.name for op in result.operations if op.op == "set_image"]
    assert names == [name], result
