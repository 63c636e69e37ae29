"""The base a request means: the plain base unless a purpose is asked, over the whole library.

The checks run per distribution of the library (not per phrase), so they hold for every
dist that has a plain base, and they are built from the templates themselves: what a
specialised template installs that its plain base does not is what asks for it.
"""

from __future__ import annotations

import pytest

from oic_ai.stores.capability_catalog import load_catalog
from oic_ai.stores.targets import load_targets
from oic_ai.tools.retrieval.base_choice import (
    plain_bases,
    purpose_evidence,
    read_purpose,
)
from oic_ai.tools.retrieval.hybrid_search import TemplateSearch


def _corpus(search: TemplateSearch) -> list:  # type: ignore[type-arg]
    search.vocabulary  # noqa: B018 - loads the corpus
    return list(search._corpus or [])


def _plain(search: TemplateSearch) -> dict[str, str]:
    corpus = _corpus(search)
    return {
        dist: corpus[i].id
        for (dist, arch), i in plain_bases(corpus, "x86_64").items()
        if arch == ""
    }


def test_every_dist_of_the_library_has_its_minimal_raw_image_as_plain_base(
    library_search: TemplateSearch,
) -> None:
    bases = _plain(library_search)
    assert set(bases) == set(load_targets().dists)
    assert all("minimal" in name and "x86_64" in name for name in bases.values()), bases


@pytest.mark.parametrize(
    "wording",
    [
        "a headless {title} server",
        "{title} appliance",
        "a plain {title} image",
        "{title} box, nothing fancy",
        "a {title} desktop image",
        "{title}",
    ],
)
def test_a_request_without_a_purpose_starts_from_the_plain_base(
    library_search: TemplateSearch, wording: str
) -> None:
    for dist, base in _plain(library_search).items():
        title = load_targets().dists[dist].title
        top = library_search.search(wording.format(title=title)).results[0]
        assert top.template == base, (wording.format(title=title), top.template, top.evidence)


def test_a_specialised_template_wins_when_what_only_it_installs_is_asked(
    library_search: TemplateSearch,
) -> None:
    """For every specialised raw template: name three packages only it has -> it comes first."""
    corpus = {item.id: item for item in _corpus(library_search)}
    bases = _plain(library_search)
    checked = 0
    for item in corpus.values():
        dist = str(item.metadata["dist"])
        base = corpus[bases[dist]]
        if item.id == base.id or item.metadata.get("image_type") != "raw":
            continue
        own = [p for p in item.values("packages") if p not in base.values("packages")]
        own = [p for p in own if p.islower() and len(p) > 3][:3]
        if len(own) < 3:
            continue
        title = load_targets().dists[dist].title
        query = f"{title} image with {own[0]}, {own[1]} and {own[2]}"
        top = library_search.search(query).results[0]
        assert set(own) <= set(corpus[top.template].values("packages")), (query, top.template)
        checked += 1
    assert checked >= 15


def test_a_plain_request_reads_its_additions_as_additions(library_search: TemplateSearch) -> None:
    # the monitoring is added to the minimal base; it is not a reason for the monitoring one
    top = library_search.search("eLxr 12 minimal for a line-side PC, add node monitoring")
    assert top.results[0].template == "elxr12-x86_64-minimal-raw.yml"
    assert top.purpose is not None and top.purpose.plain
    # without a plain word, the same words ask for the monitoring template
    asked = library_search.search("eLxr 12 for a line-side PC with node monitoring")
    assert asked.results[0].template == "elxr12-x86_64-monitoring-raw.yml"
    assert "capability node-monitoring" in asked.results[0].evidence


def test_a_desktop_is_not_a_kiosk(library_search: TemplateSearch) -> None:
    # the kiosk calls itself a desktop, but it installs no desktop environment
    desktop = library_search.search("an ubuntu 24.04 desktop image with gnome")
    assert desktop.results[0].template == "ubuntu24-x86_64-minimal-raw.yml"
    kiosk = next(r for r in desktop.results if "kiosk" in r.template)
    assert kiosk.unasked and kiosk.evidence == []
    asked = library_search.search("an ubuntu 24.04 kiosk for digital signage")
    assert asked.results[0].template == "ubuntu24-x86_64-desktop-kiosk-raw.yml"


def test_the_named_image_type_is_evidence(library_search: TemplateSearch) -> None:
    for wording, kind in (("an eLxr 12 installer", "iso"), ("an eLxr 12 pxe image", "img")):
        top = library_search.search(wording).results[0]
        assert top.metadata["image_type"] == kind
        assert f"image type {kind}" in top.evidence


def test_a_negated_variant_is_not_chosen(library_search: TemplateSearch) -> None:
    for wording in (
        "Edge Microvisor Toolkit 3 for an industrial PC, but not the RT build",
        "EMT 3 image for x86, but NOT the realtime kernel build, just a lean base",
        "an emt3 image without the real-time kernel",
    ):
        results = library_search.search(wording).results
        assert "realtime" not in results[0].template, wording
        rt = [r for r in results if "realtime" in r.template]
        assert not rt or rt[0].excluded_by, wording


def test_a_ruled_out_distribution_ranks_last(library_search: TemplateSearch) -> None:
    response = library_search.search(
        "arm64 mqtt gateway, but not plain Debian: Wind River", top_k=40
    )
    assert response.results[0].template == "elxr12-aarch64-iot-gateway-raw.yml"
    assert not any(r.template.startswith("debian13") for r in response.results)
    assert ("dist", "debian13") in response.classification.ruled_out
    only_debian = library_search.search(
        "arm64 mqtt gateway, but not plain Debian: Wind River", filters={"dist": "debian13"}
    )
    assert only_debian.low_confidence
    assert all("not debian13" in r.excluded_by for r in only_debian.results)
    rpm = library_search.search("nginx web server on an rpm distro, no debian or ubuntu please")
    assert rpm.results[0].template == "el10-x86_64-monitoring-web-raw.yml"


def test_a_family_word_prefers_that_family(library_search: TemplateSearch) -> None:
    families = load_targets().families
    for wording, family in (
        ("rpm based installer ISO for bare metal", "rpm"),
        ("Debian-based PXE boot image", "deb"),
        ("an RPM-based minimal image", "rpm"),
    ):
        top = library_search.search(wording).results[0]
        assert top.metadata["dist"] in families[family], (wording, top.template)


def test_the_purpose_read_is_what_the_request_says() -> None:
    purpose = read_purpose(
        "eLxr 12 minimal for a line-side PC, add chrony and node monitoring",
        packages=["chrony"],
        image_type=None,
    )
    assert purpose.plain
    assert purpose.capabilities == ()  # what follows "add" is an addition
    assert purpose.packages == ()
    asked = read_purpose("a debian web server with certbot", packages=["certbot"], image_type=None)
    assert not asked.plain
    assert [c.name for c in asked.capabilities] == ["nginx"]
    assert asked.packages == ("certbot",)
    assert "server" not in asked.words and "debian" not in asked.words


def test_evidence_is_what_the_template_has_and_its_base_lacks(
    library_search: TemplateSearch,
) -> None:
    corpus = {item.id: item for item in _corpus(library_search)}
    web = corpus["debian13-x86_64-web-server-raw.yml"]
    base = corpus["debian13-x86_64-minimal-raw.yml"]
    asked = read_purpose("a debian box with nginx", packages=["nginx"], image_type=None)
    assert purpose_evidence(web, base, asked, 0.0) == ["package nginx", "capability nginx"]
    nothing = read_purpose("a headless debian server", packages=[], image_type=None)
    assert purpose_evidence(web, base, nothing, 0.0) == []
    assert purpose_evidence(web, base, nothing, 0.2) == ["reads like it"]
    assert load_catalog().get("nginx").group == "web-server"
