"""A run of retargets: after "the same for X", a turn that only names Y asks for the same again.

"Now the same for Ubuntu 26.04.", "Same again for Debian 13.", then "Next: eLxr 12." or "And
RHEL 10 compatible.": the user is going down a list of targets with one image. Words that
only say the packages go over under the new family's names ("use whatever the RPM
equivalents are") are what a retarget does, never a request of their own.
"""

from __future__ import annotations

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.references import keep_rest_spans
from tests.tools.planner.helpers import template_text

UBUNTU = template_text("ubuntu24-x86_64-minimal-raw.yml")
DEBIAN = template_text("debian13-x86_64-minimal-raw.yml")


def _after_retarget() -> dict[str, object]:
    route = route_request("Same again for Debian 13.", UBUNTU)
    assert route["intent"] == "retarget"
    return dict(route)


@pytest.mark.parametrize(
    "said",
    [
        "Next: eLxr 12.",
        "And RHEL 10 compatible.",
        "now azure linux 3",
        "Edge Microvisor Toolkit next.",
        "Now Azure Linux 3. Package names differ there obviously, use whatever the RPM "
        "equivalents are.",
        "Now Edge Microvisor Toolkit, use the RPM names where they differ.",
    ],
)
def test_a_bare_target_after_a_retarget_continues_the_run(said: str) -> None:
    route = route_request(said, DEBIAN, _after_retarget())  # type: ignore[arg-type]
    assert route["intent"] == "retarget", route["reason"]


@pytest.mark.parametrize(
    "said",
    [
        "Next: eLxr 12.",  # after a new image, not a run of retargets: a new image again
        "And RHEL 10 compatible.",
    ],
)
def test_a_bare_target_after_a_new_image_is_a_new_image(said: str) -> None:
    created = route_request("a minimal ubuntu 24.04 image", None)
    assert created["intent"] == "create"
    assert route_request(said, UBUNTU, created)["intent"] == "create"


def test_a_target_with_a_request_of_its_own_after_a_retarget_is_a_new_image() -> None:
    # "a netboot image" asks for an image of its own kind: not the same one again
    route = route_request(
        "now a new image: el10 web server with nginx", DEBIAN, _after_retarget()  # type: ignore[arg-type]
    )
    assert route["intent"] == "create"


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("use whatever the RPM equivalents are", "use whatever the RPM equivalents are"),
        ("use the RPM names where they differ", "use the RPM names where they differ"),
        ("package names differ there obviously", "package names differ there obviously"),
        ("Package names differ there, fine", "Package names differ there"),
        ("with the equivalent packages.", "the equivalent packages"),
    ],
)
def test_words_that_map_package_names_are_kept_words(said: str, kept: str) -> None:
    assert [said[a:b] for a, b in keep_rest_spans(said)] == [kept]


@pytest.mark.parametrize(
    "said",
    [
        "install the rpm packages of nginx",  # a request that names a package
        "debian packages are fine",
        "which package names differ between them?",  # a question, not a statement
    ],
)
def test_other_words_about_packages_are_not(said: str) -> None:
    assert keep_rest_spans(said) == ()
