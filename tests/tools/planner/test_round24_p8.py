"""Round 24 (p8): pointing back at one of several images made in one conversation.

People build more than one image in a session (per customer, per tier, per variant) and
point back at one by its ordinal ("the second one", "customer one"), by the name or role
it was made for ("Acme's image", "the clinic one"), or by its target ("the EMT one"). A
pointer that fits no image is reported, never guessed; ordinary words ("the second one"
about a partition, "back to basics", "the customer wants") point at nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.earlier_images import (
    opens_new_image,
    own_package_list,
    pointed_image,
    resolve_roles,
    rest_of,
)
from oic_ai.tools.references import find_back_to, find_back_to_words
from tests.tools.planner.helpers import plan_after, plan_on

UBUNTU = "target:\n  os: ubuntu\n  dist: ubuntu24\n  arch: x86_64\n  imageType: raw\n"
DEBIAN = "target:\n  os: debian\n  dist: debian13\n  arch: x86_64\n  imageType: raw\n"
EMT = "target:\n  os: edge-microvisor-toolkit\n  dist: emt3\n  arch: x86_64\n  imageType: raw\n"


def _entry(turn: int, request: str, template: str, image: int) -> dict[str, Any]:
    return {"turn": turn, "request": request, "template": template, "image": image}


# two clients: Acme on Ubuntu (turns 1-2), Brightwater on Debian (turn 3)
CLIENTS = [
    _entry(1, "working for two clients today. first: Acme Logistics. ubuntu 24.04 raw", UBUNTU, 1),
    _entry(2, "users for Acme: deploy (sudo), monitor (no sudo)", UBUNTU, 1),
    _entry(3, "now one for the other client, Brightwater: debian 13, same users", DEBIAN, 2),
]
# a clinic on EMT, then a second customer on Ubuntu
CUSTOMERS = [
    _entry(1, "client #1 (a clinic): emt3, raw. pkgs: chrony, rsyslog", EMT, 1),
    _entry(2, "+ 30GiB disk, hostname clinic-app01", EMT, 1),
    _entry(3, "another customer wants exactly this but on ubuntu 24.04", UBUNTU, 2),
]


@pytest.mark.parametrize(
    ("request_", "entries", "number", "rest"),
    [
        ("back to Acme's image, give it hostname acme-web-01", CLIENTS, 1, "give it hostname"),
        ("ok switch back to the Acme one and add htop", CLIENTS, 1, "add htop"),
        ("and Brightwater's hostname is bw-web", CLIENTS, 2, "the hostname is bw-web"),
        ("customer one needs borgbackup too actually", CLIENTS, 1, "it needs borgbackup"),
        ("client #2 also gets htop", CUSTOMERS, 2, "it also gets htop"),
        ("Actually go back to the second one, I want to finish it first.", CLIENTS, 2, "I want"),
        ("let's go back to the first image", CUSTOMERS, 1, ""),
        ("back to the clinic one", CUSTOMERS, 1, ""),
        ("back to the first customer, the EMT one", CUSTOMERS, 1, ""),
        ("return to the ubuntu one, disk 12GiB", CUSTOMERS, 2, "disk 12GiB"),
        ("for the first customer: add htop", CUSTOMERS, 1, "add htop"),
    ],
)
def test_an_earlier_image_is_pointed_at_by_its_number_name_role_or_target(
    request_: str, entries: list[dict[str, Any]], number: int, rest: str
) -> None:
    pointed = pointed_image(request_, entries)
    assert pointed is not None and pointed.image is not None, pointed
    assert pointed.image.number == number
    assert pointed.refusal == ""
    left = rest_of(request_, pointed)
    assert (rest in left and pointed.marker not in left) if rest else left == ""


@pytest.mark.parametrize(
    ("request_", "said"),
    [
        ("back to the fourth one", "the fourth one"),
        ("go back to the Zeta image", "Zeta image"),
        ("customer five needs htop", "customer five"),
        # the two words fit two different images: neither is taken
        ("back to the second customer, the EMT one", "more than one|no image"),
    ],
)
def test_a_pointer_that_fits_no_image_is_reported_not_guessed(request_: str, said: str) -> None:
    pointed = pointed_image(request_, CUSTOMERS)
    assert pointed is not None
    assert pointed.image is None
    assert pointed.refusal
    assert any(part in pointed.refusal for part in said.split("|"))


@pytest.mark.parametrize(
    "request_",
    [
        "make the second one 4GiB",  # a partition
        "the second user should have sudo",
        "back to basics: a minimal image",
        "the customer wants htop and curl",
        "a customer of ours needs samba",
        "our customers complain about the boot time",
        "set alice's shell to zsh",
        "ship the logs back to the server",
        "customer three: same packages, plus htop",  # opens the next image
        "drop tmux from that one",
        "go back to nginx",  # a package an earlier template had
    ],
)
def test_ordinary_words_point_at_no_image(request_: str) -> None:
    assert pointed_image(request_, CLIENTS) is None


def test_a_package_written_as_a_name_is_no_image() -> None:
    nginx = UBUNTU + "systemConfig:\n  packages: [nginx]\n"
    with_nginx = [
        _entry(1, "first client: ubuntu 24.04 with nginx", nginx, 1),
        _entry(2, "hostname web-01", nginx, 1),
        CLIENTS[2],
    ]
    assert pointed_image("Nginx's worker count should be 4", with_nginx) is None
    assert pointed_image("go back to Nginx", with_nginx) is None


def test_a_session_of_one_image_has_nothing_to_point_back_at() -> None:
    assert pointed_image("back to the first one", CLIENTS[:2]) is None
    assert pointed_image("customer one needs htop", CLIENTS[:2]) is None


@pytest.mark.parametrize(
    "request_",
    [
        "now one for the other client, Brightwater: debian 13",
        "another customer wants exactly this but on ubuntu 24.04",
        "next customer, a vet clinic, wants the same base but arm64",
        "customer two: same packages, debian 13, plus borgbackup",
        "client #2 wants azure linux 3 with the same packages",
        "Second variant adds a web tier: nginx and certbot",
        "ok, the second image: same but arm64",
    ],
)
def test_a_turn_for_someone_else_opens_the_next_image(request_: str) -> None:
    assert opens_new_image(request_, 1)


@pytest.mark.parametrize(
    ("request_", "count"),
    [
        ("add another user called bob", 1),
        ("the second partition gets 4GiB", 1),
        ("customer two: add htop", 2),  # customer two is there already: it points back
        ("Third: add htop", 1),  # no second image yet
        ("a new kernel option: quiet", 1),
        ("now add htop", 1),
    ],
)
def test_other_words_open_no_image(request_: str, count: int) -> None:
    assert not opens_new_image(request_, count)


def test_a_new_image_with_a_list_of_its_own_does_not_carry_the_packages() -> None:
    assert own_package_list(
        "now one for the other client, Brightwater: debian 13, same users, packages:\nnginx", 1
    )
    assert own_package_list("next customer: debian 13, pkgs: nginx, php-fpm", 1)
    # the packages said to stay, or no new image: the packages carry
    assert not own_package_list("customer two: same packages, debian 13, plus borgbackup", 1)
    assert not own_package_list("another customer wants exactly this, packages: htop too", 1)
    assert not own_package_list("debian 13 now, packages: nginx", 1)


STEPS = [
    _entry(
        1, "First: Debian 13 base VM, cloud-init", DEBIAN + "systemConfig:\n  packages: [a]\n", 1
    ),
    _entry(
        2,
        "Second variant adds a web tier: nginx and certbot",
        DEBIAN + "systemConfig:\n  packages: [a, nginx, certbot]\n",
        2,
    ),
]


@pytest.mark.parametrize(
    "request_",
    [
        "Third: instead of the web tier a DB tier - postgresql",
        "a DB variant without the web tier, postgresql",
        "now drop the web tier",
    ],
)
def test_an_images_role_taken_out_is_the_packages_it_added(request_: str) -> None:
    assert resolve_roles(request_, STEPS).endswith("Remove nginx, certbot.")


@pytest.mark.parametrize(
    "request_",
    [
        "instead of the db tier add redis",  # no image was opened for a db tier
        "remove the old kernel",
        "without the first partition",
    ],
)
def test_a_role_no_image_was_made_for_stays_as_written(request_: str) -> None:
    assert resolve_roles(request_, STEPS) == request_


@pytest.mark.parametrize(
    ("request_", "target"),
    [
        ("nvm debian is fine", {"dist": "debian13"}),
        ("never mind, stick with ubuntu", {"os": "ubuntu"}),
        ("nvm, use debian", {"dist": "debian13"}),
        ("never mind, debian is fine after all", {"dist": "debian13"}),
    ],
)
def test_a_change_of_mind_goes_back_to_the_earlier_target(
    request_: str, target: dict[str, str]
) -> None:
    found = find_back_to(request_)
    assert found is not None and found.target == target


@pytest.mark.parametrize(
    "request_", ["never mind the wifi", "nevermind, I'll do it later", "nvm the hostname"]
)
def test_never_mind_without_a_target_goes_back_to_nothing(request_: str) -> None:
    assert find_back_to(request_) is None
    assert find_back_to_words(request_) is None


def test_users_said_for_someone_before_a_colon_are_the_names_after_it() -> None:
    plan = plan_on(
        "ubuntu24-x86_64-minimal-raw.yml", "users for Acme: deploy (sudo), monitor (no sudo)"
    )
    users = {op.name: op.sudo for op in plan.operations if op.op == "add_user"}  # type: ignore[union-attr]
    assert users == {"deploy": True, "monitor": False}
    assert plan.not_applied == []
    # "accounts for alice and bob": the names after "for" are the users
    plan = plan_on("ubuntu24-x86_64-minimal-raw.yml", "accounts for alice and bob")
    assert {op.name for op in plan.operations if op.op == "add_user"} == {"alice", "bob"}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "request_",
    ["with samba instead of the php stuff", "remove the php packages", "drop php"],
)
def test_a_family_named_without_its_version_is_all_of_its_packages(request_: str) -> None:
    plan = plan_after(
        "ubuntu24-x86_64-minimal-raw.yml", "add nginx, php8.3-fpm, php8.3-mysql", request_
    )
    removed = [n for op in plan.operations if op.op == "remove_packages" for n in op.packages]  # type: ignore[union-attr]
    assert sorted(removed) == ["php8.3-fpm", "php8.3-mysql"]


def test_a_family_name_takes_no_unversioned_longer_name() -> None:
    plan = plan_after(
        "ubuntu24-x86_64-minimal-raw.yml", "add nginx, php8.3-fpm, phpmyadmin", "drop php"
    )
    removed = [n for op in plan.operations if op.op == "remove_packages" for n in op.packages]  # type: ignore[union-attr]
    assert "phpmyadmin" not in removed and "nginx" not in removed
