"""Where a request names a target: codenames, package families, ruled-out targets."""

from __future__ import annotations

import pytest

from oic_ai.stores.targets import load_targets
from oic_ai.tools.retrieval.query_classifier import (
    QueryVocabulary,
    classify_query,
    detect_target_spans,
    detect_targets,
    tokenize,
)
from oic_ai.tools.retrieval.target_mentions import ruled_out_targets


def targets(text: str) -> dict[str, str]:
    return detect_targets(tokenize(text), text)


@pytest.mark.parametrize(
    ("text", "dist"),
    [
        ("a resolute minimal image", "ubuntu26"),
        ("ubuntu resolute raccoon for servers", "ubuntu26"),
        ("ubuntu 26 server", "ubuntu26"),
        ("noble kvm host", "ubuntu24"),
        ("noble numbat", "ubuntu24"),
        ("trixie install iso", "debian13"),
        ("a bookworm-based image", "elxr12"),
        ("a bookworm based gateway", "elxr12"),
        ("mariner pxe initrd", "azl3"),
        ("alma 10 on arm64", "el10"),
        ("rhel 10 clone", "el10"),
        # a release written short (round 9)
        ("deb13 on arm64 for a sensor hub", "debian13"),
        ("deb 13, raw, x86_64", "debian13"),
        ("u24.04 vm with htop", "ubuntu24"),
        ("ubu26 box for the lab", "ubuntu26"),
        ("u26 amd64 please", "ubuntu26"),
    ],
)
def test_every_supported_release_is_named_by_its_codename_or_short_form(
    text: str, dist: str
) -> None:
    assert targets(text).get("dist") == dist


def test_every_dist_with_a_codename_is_found_by_it() -> None:
    registry = load_targets()
    named = {d.id: d.codename for d in registry.dists.values() if d.codename}
    assert {"ubuntu24", "ubuntu26", "debian13", "elxr12"} <= set(named)
    for dist, codename in named.items():
        assert targets(f"a {codename} image").get("dist") == dist, codename


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("an RPM-based minimal image", "rpm"),
        ("rpm based installer ISO", "rpm"),
        ("nginx on an rpm distro", "rpm"),
        ("a Debian-based cloud image", "deb"),
        ("something debian-derived for nginx", "deb"),
        ("apt-based KVM hypervisor", "deb"),
        ("a deb-based monitoring appliance", "deb"),
    ],
)
def test_family_words_name_a_family_not_a_distribution(text: str, family: str) -> None:
    found = targets(text)
    assert found.get("family") == family
    assert "dist" not in found and "os" not in found  # "Debian-based" is not debian13


def test_bookworm_alone_is_still_an_unsupported_debian_release() -> None:
    kinds = {m.kind for m in detect_target_spans("debian bookworm")}
    assert "unsupported" in kinds
    assert {m.kind for m in detect_target_spans("bookworm-based eLxr")} == {"dist"}


@pytest.mark.parametrize(
    ("text", "wanted", "ruled_out"),
    [
        (
            "arm64 gateway, but not plain Debian - I want the Wind River distro",
            "elxr12",
            "debian13",
        ),
        ("debian 13, not ubuntu", "debian13", "ubuntu"),
        ("ubuntu 24.04 rather than debian", "ubuntu24", "debian13"),
    ],
)
def test_a_ruled_out_target_is_not_the_target(text: str, wanted: str, ruled_out: str) -> None:
    assert targets(text).get("dist") == wanted
    negated = [m for m in detect_target_spans(text) if m.negated]
    assert [m.value for m in negated] == [ruled_out]
    assert all(m.source for m in negated)  # consumers that skip sources skip these too


def test_every_target_of_a_ruled_out_list_is_ruled_out() -> None:
    text = "nginx web server on an rpm distro, no debian or ubuntu please"
    assert {(m.kind, m.value) for m in ruled_out_targets(text)} == {
        ("dist", "debian13"),
        ("os", "ubuntu"),
    }
    assert targets(text) == {"family": "rpm"}
    # a plain comma starts a new item: only "or"/"nor"/"and"/"/" continue the list
    assert targets("no ubuntu, debian for arm64")["dist"] == "debian13"


def test_an_unbuilt_release_still_names_its_os() -> None:
    assert targets("ubuntu 22.04 minimal") == {"os": "ubuntu"}
    assert targets("debian 12 server") == {"os": "debian"}


def test_the_classification_carries_what_is_ruled_out() -> None:
    classified = classify_query("no debian or ubuntu please, rpm distro", QueryVocabulary())
    assert classified.to_json()["ruled_out"] == [
        {"kind": "dist", "value": "debian13"},
        {"kind": "os", "value": "ubuntu"},
    ]


@pytest.mark.parametrize(
    "text",
    [
        "debian 13 for the welding robot arm controller, amd64",
        "an ubuntu image for the packing arm in hall 3, x86_64",
    ],
)
def test_a_machines_arm_is_no_architecture(text: str) -> None:
    assert targets(text)["arch"] == "x86_64"
    assert [m.kind for m in detect_target_spans(text)].count("arch") == 1


def test_arm_on_its_own_still_names_the_architecture() -> None:
    assert targets("the same image for arm please")["arch"] == "aarch64"
    assert targets("a robot arm image on arm")["arch"] == "aarch64"


@pytest.mark.parametrize(
    ("text", "image_type"),
    [
        # "img" ending a noun phrase, with no network-boot word: the word image
        ("a kiosk img, debian 13, with firefox-esr", None),
        ("need a trixie based img for the label printers", None),
        # the image type when named as a value, or beside a network-boot word
        ("switch it to img", "img"),
        ("make it an img", "img"),
        ("an img for the diskless racks", "img"),
        ("the img type please", "img"),
    ],
)
def test_img_at_the_end_of_a_noun_phrase_is_the_word_image(
    text: str, image_type: str | None
) -> None:
    assert detect_targets(tokenize(text), text).get("image_type") == image_type
