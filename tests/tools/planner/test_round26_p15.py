"""Round 26 (p15): references to earlier turns, by count, by aspect, by release, by name.

- an undo that counts its turns with "both of those ... changes" / "those two changes";
- an aspect said in two words ("put secure boot back like it was before");
- a release of the current os by its number or as newer/older ("switch it to 26 then",
  "make it the newer LTS");
- the image's first template ("revert to exactly what you gave me first");
- an undo beside "back to the raw disk" that names only the target left ("undo the iso");
- an entry corrected by what it is ("their admin is bladmin instead of nwadmin", "it was
  /data not /var/log. same size");
- a party named for the first time opens another image ("Orbis wants the same, but ...").
"""

from __future__ import annotations

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.earlier_images import opens_new_image, pointed_image
from oic_ai.tools.first_template import first_template
from oic_ai.tools.planner import plan_request
from oic_ai.tools.references import find_back_to, find_reference, undo_aspects, undo_names
from oic_ai.tools.release_words import resolve_releases
from oic_ai.tools.undo_words import undo_count
from tests.tools.planner.helpers import template_text

UBUNTU = template_text("ubuntu24-x86_64-minimal-raw.yml")
UBUNTU26 = UBUNTU.replace("dist: ubuntu24", "dist: ubuntu26")
DEBIAN = template_text("debian13-x86_64-minimal-raw.yml")


# --- counted undo ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("undo both of those console/loglevel changes, hw team had the wrong box", 2),
        ("undo both of those changes", 2),
        ("revert both of the last edits", 2),
        ("undo both changes please", 2),
        ("roll back those two changes", 2),
        ("revert these three edits", 3),
    ],
)
def test_an_undo_counts_both_and_those_n_changes(said: str, count: int) -> None:
    found = find_reference(said)
    assert found is not None and found.kind == "undo"
    assert undo_count(found.marker) == count


@pytest.mark.parametrize(
    "said",
    [
        "drop both of those packages",  # a removal of packages, not an undo
        "add both nginx and htop",
        "keep both users",
    ],
)
def test_both_outside_an_undo_counts_nothing(said: str) -> None:
    found = find_reference(said)
    assert found is None or undo_count(found.marker) == 0


# --- an aspect of two words -------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "put secure boot back like it was before",
        "turn secure boot back on like before",
        "set secure-boot back to how it was",
    ],
)
def test_secure_boot_is_the_immutability_aspect_not_a_name(said: str) -> None:
    found = find_reference(said)
    assert found is not None and found.kind == "undo"
    assert any("secureBootDBKey" in keys for keys in undo_aspects(found.marker))
    assert "boot" not in undo_names(found.marker)


def test_a_boot_word_alone_is_no_secure_boot_aspect() -> None:
    assert not any("secureBootDBKey" in keys for keys in undo_aspects("undo the boot change"))


# --- a release by number or as newer/older ---------------------------------------------


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("ok not jammy. switch it to 26 then", "switch it to Ubuntu 26.04 then"),
        ("Make it the newer LTS.", "Make it Ubuntu 26.04."),
        ("move it to 26.04", "move it to Ubuntu 26.04"),
        ("upgrade to version 26 please", "upgrade to Ubuntu 26.04 please"),
        ("ok, 26 instead", "ok, Ubuntu 26.04 instead"),
        ("go with the latest release", "go with Ubuntu 26.04"),
        ("use the newer ubuntu lts", "use Ubuntu 26.04"),
    ],
)
def test_a_release_of_the_current_os_is_written_as_its_title(said: str, written: str) -> None:
    assert written in resolve_releases(said, UBUNTU)


@pytest.mark.parametrize(
    "said",
    [
        "switch the disk to 26 GB",
        "set loglevel to 4",
        "add 26 users",
        "switch it to 22",  # no such release of the os
        "install the latest version of nginx",
        "the newer nginx version please",
        "go back to the previous one",
        "make it 26",  # a size or a count as much as a release
        "set the image version 26 please",  # the image's own version
        "24 is fine",  # after "how big should the disk be?"
    ],
)
def test_numbers_and_versions_that_name_no_release_stay(said: str) -> None:
    assert resolve_releases(said, UBUNTU) == said


def test_older_counts_from_the_current_release_and_one_release_os_has_none() -> None:
    assert resolve_releases("move to the older LTS", UBUNTU26) == "move to Ubuntu 24.04"
    assert resolve_releases("make it the newer LTS", UBUNTU26) == "make it the newer LTS"
    assert resolve_releases("switch it to 13 then", DEBIAN) == "switch it to 13 then"


@pytest.mark.parametrize(
    "said", ["switch it to 26 then", "Make it the newer LTS.", "move it to 26.04"]
)
def test_a_release_by_number_retargets_the_current_image(said: str) -> None:
    route = route_request(said, UBUNTU)
    assert route["intent"] == "retarget"
    assert route["reference"]["target"]["dist"] == "ubuntu26"
    assert route["reference"]["remainder"] == ""


# --- the first template ------------------------------------------------------------------

ENTRIES = [
    {"image": 1, "turn": 1, "template": UBUNTU, "request": "ubuntu 24.04 raw"},
    {"image": 1, "turn": 2, "template": UBUNTU26, "request": "add htop"},
]


@pytest.mark.parametrize(
    "said",
    [
        "revert to exactly what you gave me first, I need the customer's broken state again",
        "go back to the very first version",
        "back to the original template please",
        "ok back to what we started with",
        "roll it back to the first version",
    ],
)
def test_going_back_to_the_first_template(said: str) -> None:
    route = route_request(said, UBUNTU26, None, [UBUNTU], ENTRIES)  # type: ignore[arg-type]
    assert route["intent"] == "undo"
    assert route["reference"]["image"] == {"number": 1, "turn": 1, "refusal": ""}
    assert route["reference"]["remainder"] == ""


@pytest.mark.parametrize(
    "said",
    [
        "what's different now compared to the very first version you made?",
        "restore the original hostname",
        "go back to the first user",
        "revert the first partition",
        "move the swap partition back to the beginning of the disk",
    ],
)
def test_the_first_thing_that_is_no_template_is_not_gone_back_to(said: str) -> None:
    assert first_template(said, ENTRIES) is None


def test_the_first_template_keeps_the_rest_of_the_request() -> None:
    found = first_template("roll it back to the first version and add htop", ENTRIES)
    assert found is not None and found.turn == 1


# --- undo the target left, back to another ----------------------------------------------


@pytest.mark.parametrize(
    ("said", "undone"),
    [
        ("- undo the iso, back to the raw disk", "undo the iso"),
        ("undo that, go back to debian", "undo that"),
        ("revert the arm64 thing and go back to x86_64", "revert the arm64 thing"),
    ],
)
def test_an_undo_of_the_target_left_is_part_of_back_to(said: str, undone: str) -> None:
    back = find_back_to(said)
    assert back is not None
    assert any(said[a:b] == undone for a, b in back.spans)


def test_an_undo_that_names_something_else_stays_a_request() -> None:
    said = "undo the hostname, back to debian"
    back = find_back_to(said)
    assert back is not None
    assert not any("hostname" in said[a:b] for a, b in back.spans)


# --- an entry corrected by what it is ---------------------------------------------------

WITH_USER = UBUNTU.replace(
    "systemConfig:\n", "systemConfig:\n  users:\n    - name: nwadmin\n      sudo: true\n", 1
)


@pytest.mark.parametrize(
    "said",
    [
        "their admin is bladmin instead of nwadmin",
        "the admin account is bladmin, not nwadmin",
        "ok the ops login should be bladmin rather than nwadmin",
        "hostname bl-web01, and their admin is bladmin instead of nwadmin",
    ],
)
def test_a_user_corrected_by_what_it_is_is_renamed(said: str) -> None:
    plan = plan_request(said, WITH_USER, mode="refine")
    texts = [str(op) for op in plan.operations]
    assert any("nwadmin" in t and "bladmin" in t for t in texts), texts
    assert not any("add_packages" in t and "bladmin" in t for t in texts), texts


@pytest.mark.parametrize(
    "said",
    [
        "bob is the admin instead of nwadmin",  # no new name after the verb
        "add htop instead of nwadmin",  # nwadmin named, htop is no new name for it
    ],
)
def test_near_misses_do_not_rename_the_user(said: str) -> None:
    plan = plan_request(said, WITH_USER, mode="refine")
    assert not any("users[name=nwadmin].name" in str(op) for op in plan.operations), plan.operations


# --- a new party opens another image -----------------------------------------------------

EARLIER = "debian 13 db image for customer Halcyon Foods: postgresql"


@pytest.mark.parametrize(
    "said",
    [
        "Orbis wants the same, but hostname orbis-db1 and 250GB",
        "same for Brightlane please",
        "next, Zenith: like Acme but varnish instead of memcached",
        "customer Quill: like the first one (Acme's) but on debian 13",
        "ok now Orbis needs the same setup",
    ],
)
def test_a_party_named_first_opens_an_image(said: str) -> None:
    assert opens_new_image(said, 1, EARLIER)


@pytest.mark.parametrize(
    "said",
    [
        "Halcyon wants the same but with redis",  # already named: the same image
        "Halcyon wants an hfops login with sudo",
        "the same for Debian",  # a target
        "Orbis also has their own repo",
        "next, add htop",
    ],
)
def test_no_new_party_opens_nothing(said: str) -> None:
    assert not opens_new_image(said, 1, EARLIER)
    assert not opens_new_image(said, 1)


def test_an_image_said_to_be_like_another_is_not_named_by_it() -> None:
    entries = [
        {"image": 1, "turn": 1, "template": UBUNTU, "request": "golden image for customer Acme"},
        {"image": 2, "turn": 2, "template": UBUNTU26, "request": "next, Zenith: like Acme but x"},
    ]
    found = pointed_image("customer Quill: like the first one (Acme's) but on debian 13", entries)
    assert found is not None and found.image is not None and found.image.number == 1
