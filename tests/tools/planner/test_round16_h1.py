"""Round 16 (h1): packages pointed at, named as products are written, or described.

Each class is tested with paraphrases that differ in verb, order and field from the dev13
sentence that showed it, and with near-misses that must not trigger.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import added, plan_on, removed

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
EDGE = "ubuntu24-aarch64-edge-container-raw.yml"


# -- a pointer whose package was named before the request --------------------------------


@pytest.mark.parametrize(
    ("earlier", "request_"),
    [
        ("why is curl in there? nobody asked for it", "take it out"),
        ("What's curl doing in this image?", "ok, remove it please"),
        ("is curl really needed here", "drop that one"),
        ("curl looks unnecessary to me.", "then uninstall it"),
        ("add htop\nwhy is curl in there?", "uninstall it"),
    ],
)
def test_it_points_at_the_one_package_the_turn_before_named(earlier: str, request_: str) -> None:
    result = plan_on(EDGE, request_, earlier)
    assert removed(result) == ["curl"], result.operations
    assert not result.not_applied, result.not_applied


def test_it_names_a_package_the_template_lacks_so_it_is_noted_not_reported() -> None:
    result = plan_on(UBUNTU, "take it out", "why is cloud-init in there? these units are offline")
    assert removed(result) == [], result.operations
    assert not result.not_applied, result.not_applied
    assert "cloud-init" in result.summary


@pytest.mark.parametrize(
    "earlier",
    [
        "why are curl and jq in there?",  # two names for "it"
        "what does this image do?",  # no name at all
        "",
    ],
)
def test_it_with_no_single_package_before_is_still_reported(earlier: str) -> None:
    result = plan_on(EDGE, "remove it", earlier)
    assert removed(result) == [], result.operations
    assert result.not_applied


@pytest.mark.parametrize(
    ("template", "said", "gone", "kept", "new"),
    [
        # the nearest sentence that names a package is what "it" points at: "audit" is a
        # package too, but the sentence right before names rsyslog
        (
            "el10-x86_64-monitoring-web-raw.yml",
            "Audit finding AF-12: why is rsyslog in the image? Take it out please.",
            "rsyslog",
            "audit",
            None,
        ),
        (
            "el10-x86_64-monitoring-web-raw.yml",
            "The audit team asked: why is rsyslog here? Take it out.",
            "rsyslog",
            "audit",
            None,
        ),
        (
            "el10-x86_64-monitoring-web-raw.yml",
            "Audit note. rsyslog duplicates journald, drop it",
            "rsyslog",
            "audit",
            None,
        ),
        # the pointer never takes back what the same request adds
        (EDGE, "please add nginx and remove curl, we don't use it", "curl", "nginx", "nginx"),
        (EDGE, "add nginx, and drop curl since nobody uses it", "curl", "nginx", "nginx"),
        (EDGE, "remove curl, we don't use it, and add nginx", "curl", "nginx", "nginx"),
    ],
)
def test_the_pointer_takes_the_package_its_sentence_names(
    template: str, said: str, gone: str, kept: str, new: str | None
) -> None:
    result = plan_on(template, said)
    assert gone in removed(result), result.operations
    assert kept not in removed(result), result.operations
    assert new is None or new in added(result), result.operations


@pytest.mark.parametrize(
    "said",
    [
        "please add nginx and remove cloud-init, we don't use it",
        "install apache2, and drop cloud-init since nobody uses it",
    ],
)
def test_a_capabilitys_package_added_beside_a_package_the_template_lacks_pointed_at(
    said: str,
) -> None:
    result = plan_on("azl3-x86_64-minimal-raw.yml", said)
    assert not removed(result), result.operations
    assert added(result), result.operations
    assert not result.not_applied, result.not_applied
    assert "cloud-init" in result.summary, result.summary


@pytest.mark.parametrize(
    "said",
    [
        "I don't see why curl and jq belong in a production image - drop those two.",
        "curl and jq are debugging leftovers, remove both",
        "jq, curl: take those two out",
    ],
)
def test_those_two_takes_both_packages_named_before(said: str) -> None:
    result = plan_on(EDGE, said)
    assert sorted(removed(result)) == ["curl", "jq"], result.operations
    assert not result.not_applied, result.not_applied


def test_a_count_that_does_not_match_the_names_is_reported() -> None:
    said = "curl, jq and watchdog are leftovers, drop those two"
    result = plan_on(EDGE, said)
    assert removed(result) == [], result.operations
    assert result.not_applied


def test_those_two_names_the_template_lacks_are_noted_not_reported() -> None:
    said = "why would selinux-policy-devel and setools-console be in here - drop those two"
    result = plan_on(UBUNTU, said)
    assert not result.not_applied, result.not_applied
    assert "selinux-policy-devel" in result.summary


# -- a product's name written as products are written ---------------------------------


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("I'd like a desktop with LibreOffice, GIMP, and Thonny for the lessons", {"gimp"}),
        ("install Git and Vim", {"git", "vim"}),
        ("the PCs need Thonny, plus GIMP", {"thonny", "gimp"}),
        ("with Inkscape and Audacity for the media class", {"inkscape", "audacity"}),
    ],
)
def test_a_capitalised_product_name_in_a_list_is_its_package(said: str, names: set[str]) -> None:
    result = plan_on(UBUNTU, said)
    assert names <= set(added(result)), result.operations
    assert not result.not_applied, result.not_applied


def test_a_capitalised_product_is_removed_by_its_name_too() -> None:
    text = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    from oic_ai.tools.applier import apply_plan

    with_gimp = apply_plan(text, plan_request("add gimp", text, mode="refine")).text
    for said in ("please take GIMP out again", "drop GIMP, the PCs are too slow", "remove Gimp"):
        result = plan_request(said, with_gimp, mode="refine")
        assert removed(result) == ["gimp"], (said, result.operations)


@pytest.mark.parametrize(
    "said",
    [
        "we met with Priya and Dell yesterday",  # people and companies: no package names
        "the Python lessons start in May",
        "add a user Thonny",  # a user's name, not the package
    ],
)
def test_capitalised_words_that_are_no_listed_package_add_nothing(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert not ({"thonny", "python", "dell", "priya"} & set(added(result))), result.operations


# -- a vendor's key fetched with the keyring file named before the URL -------------------


def _repository(result: EditPlan) -> dict[str, object]:
    repos = [op for op in result.operations if op.op == "add_repository"]
    assert len(repos) == 1, result.operations
    return repos[0].model_dump()


@pytest.mark.parametrize(
    "fetch",
    [
        "sudo wget -q -O /etc/apt/keyrings/acme.gpg https://pkgs.acme.example/gpg.key",
        "curl -fsSLo /etc/apt/keyrings/acme.gpg https://pkgs.acme.example/gpg.key",
        "wget --output-document=/etc/apt/keyrings/acme.gpg https://pkgs.acme.example/gpg.key",
        "curl -fsSL https://pkgs.acme.example/gpg.key -o /etc/apt/keyrings/acme.gpg",
    ],
)
def test_the_key_file_named_before_or_after_the_url_is_the_repositorys_key(fetch: str) -> None:
    said = (
        "we want acme-agent from the vendor's repo, their docs say:\n"
        f"{fetch}\n"
        'echo "deb [signed-by=/etc/apt/keyrings/acme.gpg] https://pkgs.acme.example stable main"'
        " | sudo tee /etc/apt/sources.list.d/acme.list\n"
        "sudo apt-get update && sudo apt-get install acme-agent"
    )
    result = plan_on(UBUNTU, said)
    repo = _repository(result)
    assert repo["url"] == "https://pkgs.acme.example", repo
    assert repo["pkey"] == "https://pkgs.acme.example/gpg.key", repo
    assert (repo["codename"], repo["component"]) == ("stable", "main"), repo
    assert "acme-agent" in added(result), result.operations


# -- a wish that describes the package the pasted install names ---------------------------


@pytest.mark.parametrize(
    "wish",
    [
        "We need the oneAPI runtime, Intel's page says:",
        "the runtime libs are what we're after, from Intel:",
        "Our models want the oneAPI runtime. Intel's steps:",
    ],
)
def test_a_wish_naming_parts_of_the_installed_package_is_context(wish: str) -> None:
    said = (
        f"{wish}\n"
        'echo "deb [signed-by=/usr/share/keyrings/oneapi.gpg] https://apt.repos.intel.com/oneapi'
        ' all main" | sudo tee /etc/apt/sources.list.d/oneAPI.list\n'
        "wget -O- https://apt.repos.intel.com/intel-gpg-keys/KEY.PUB | gpg --dearmor"
        " | sudo tee /usr/share/keyrings/oneapi.gpg > /dev/null\n"
        "sudo apt install intel-oneapi-runtime-libs"
    )
    result = plan_on(UBUNTU, said)
    assert "intel-oneapi-runtime-libs" in added(result), result.operations
    assert not result.not_applied, result.not_applied


def test_a_wish_for_something_else_beside_the_install_is_still_reported() -> None:
    said = "We need the oneAPI compiler too.\nsudo apt install intel-oneapi-runtime-libs"
    result = plan_on(UBUNTU, said)
    assert result.not_applied or "compiler" in " ".join(added(result)), result


# -- places where an unknown word is never a package --------------------------------------


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("can you also bring up can0 at boot? and add python3-can", "can0"),
        ("add a static address on eth1 plus htop", "eth1"),
        ("with tcpdump and enp3s0 up on boot", "enp3s0"),
        ("need picocom for ttyUSB0 and minicom", "ttyusb0"),
        ("set vcan0 at 250k bitrate, add can-utils", "bitrate"),
        ("with htop and 4 cores", "cores"),
        ("also prometheus itself, from the normal ubuntu repos", "repos"),
        ("add grafana, from the vendor's own mirrors", "mirrors"),
        ("We install telegraf from InfluxData, their docs say: use the stable channel", "docs"),
        ("need ubuntu 24.04 img asap with strace", "asap"),
    ],
)
def test_a_word_where_no_package_stands_is_never_added(said: str, word: str) -> None:
    result = plan_on(UBUNTU, said)
    assert word not in added(result), (said, result.operations)


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("add nginx from the ubuntu archive", "nginx"),  # the name before "from" counts
        ("add x264 and lz4", "x264"),  # names that end in digits are no devices
        ("install mpg123", "mpg123"),
        ("add acme-agent from the corp repo", "acme-agent"),
    ],
)
def test_names_near_those_places_still_count(said: str, name: str) -> None:
    result = plan_on(UBUNTU, said)
    assert name in added(result), (said, result.operations)


# -- a package described by the parts of its name -----------------------------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("with nginx and certbot (and the nginx plugin for certbot)", "python3-certbot-nginx"),
        ("certbot's nginx plugin too please", "python3-certbot-nginx"),
        (
            "docker, and that exporter thing prometheus uses for node stats",
            "prometheus-node-exporter",
        ),
        ("also the node exporter for prometheus", "prometheus-node-exporter"),
        ("put the prometheus exporter for nginx on it", "prometheus-nginx-exporter"),
    ],
)
def test_the_parts_of_one_known_name_around_a_kind_of_thing_name_it(said: str, name: str) -> None:
    result = plan_on(UBUNTU, said)
    assert name in added(result), (said, result.operations)
    assert not result.not_applied, result.not_applied


def test_the_described_package_is_spelt_as_the_target_spells_it() -> None:
    result = plan_on("el10-x86_64-minimal-raw.yml", "add the node exporter thing for prometheus")
    assert "prometheus-node-exporter" not in added(result), result.operations
    assert any("node-exporter" in name for name in added(result)), result.operations


def test_a_described_package_can_be_removed_too() -> None:
    text = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    from oic_ai.tools.applier import apply_plan

    with_it = apply_plan(text, plan_request("add python3-certbot-nginx", text, mode="refine")).text
    result = plan_request("drop the nginx plugin for certbot", with_it, mode="refine")
    assert removed(result) == ["python3-certbot-nginx"], result.operations


@pytest.mark.parametrize(
    "said",
    [
        "add a plugin for grafana",  # one part only: nothing is made up
        "the exporter is scraped by prometheus",  # parts of several names, none whole
        "nginx and certbot, that's it",  # no kind of thing named
    ],
)
def test_words_that_spell_no_single_known_name_add_nothing_new(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert not {"python3-certbot-nginx", "prometheus-nginx-exporter"} & set(added(result)), (
        said,
        result.operations,
    )


def test_a_field_turned_into_a_value_is_still_read() -> None:
    result = plan_on(UBUNTU, "make the disk into a 32GiB one")
    assert any(op.op == "set_disk_size" for op in result.operations), result.operations


def test_a_from_phrase_before_a_verb_and_a_spaced_name_keep_their_readings() -> None:
    result = plan_on(UBUNTU, "and from that repo install cuda-toolkit")
    assert "cuda-toolkit" in added(result), result.operations
    result = plan_on(
        "ubuntu24-aarch64-edge-container-raw.yml", "rm node exporter, collectd instead"
    )
    assert "collectd" in added(result), result.operations
    assert "prometheus-node-exporter" in removed(result), result.operations


# -- a removal read by another rule lends its verb past an earlier adding verb -------------


@pytest.mark.parametrize(
    "said",
    [
        "management wants curl gone, so take out the vendor repo and the jq package",
        "we need htop, so drop the old mirror and the jq package",
        "ops wants a leaner box: remove the ops user and jq",
        "we'd like it smaller, so delete the extra repo, plus jq",
    ],
)
def test_the_nearer_removal_verb_reaches_the_package_after_it(said: str) -> None:
    result = plan_on(EDGE, said)
    assert "jq" in removed(result), (said, result.operations)
    assert "jq" not in added(result), (said, result.operations)
