"""Round 16 (h3): targets, carry-over between them, questions, undo and names."""

from __future__ import annotations

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.references import keep_rest_spans
from oic_ai.tools.turn_links import is_sequel, target_remark_spans

UBUNTU = (
    "image:\n  name: x\ntarget:\n  os: ubuntu\n  dist: ubuntu24\n  arch: x86_64\n  imageType: raw\n"
)
NOBLE_NEXT = UBUNTU.replace("ubuntu24", "ubuntu26")


# -- the next target of a series carries the image -------------------------------------


@pytest.mark.parametrize(
    "request_text",
    [
        "Next: Debian 13.",
        "Finally, eLxr 12 please",
        "And azure linux 3.",
        "ok now el10",
        "Last one: EMT 3, use the RPM names where they differ.",
        "Azure Linux 3 next, map the packages to their dnf equivalents",
        "Then RHEL 10 compatible, package names will differ there of course.",
    ],
)
def test_a_target_named_as_the_next_step_retargets_the_current_image(request_text: str) -> None:
    route = route_request(request_text, UBUNTU)
    assert route["intent"] == "retarget"
    assert route["reference"]["remainder"] == ""


@pytest.mark.parametrize(
    "request_text",
    [
        "an azure linux 3 minimal image",
        "a debian 13 image with nginx",
        "now a new elxr template for the kiosks",
        "build another image: debian 13 with podman",
    ],
)
def test_a_new_image_described_is_no_sequel(request_text: str) -> None:
    assert not is_sequel(request_text)
    assert route_request(request_text, UBUNTU)["intent"] == "create"


def test_a_sequel_keeps_the_rest_of_the_request() -> None:
    route = route_request("Next: Debian 13, and add htop", UBUNTU)
    assert route["intent"] == "retarget"
    assert route["reference"]["remainder"] == "add htop"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("use whatever the RPM equivalents are", "use whatever the RPM equivalents are"),
        ("Package names differ there obviously", "Package names differ there obviously"),
        ("with the deb equivalents where needed", "with the deb equivalents where needed"),
        ("translate the package names as needed", "translate the package names as needed"),
        ("keep evrything else", "keep evrything else"),
        ("and everythin else stays the same", "and everythin else stays the same"),
    ],
)
def test_words_about_carrying_ask_for_nothing_of_their_own(text: str, kept: str) -> None:
    assert [text[b:e] for b, e in keep_rest_spans(text)] == [kept.lower()] or [
        text[b:e] for b, e in keep_rest_spans(text)
    ] == [kept]


@pytest.mark.parametrize("text", ["use the package manager", "use the right kernel", "keep htop"])
def test_near_misses_of_carrying_words(text: str) -> None:
    assert keep_rest_spans(text) == ()


# -- a remark about the target it ends on goes with the re-target ----------------------


@pytest.mark.parametrize(
    "request_text",
    [
        "actually bug only repros on noble. switch to 24.04 keep evrything else",
        "the crash only happens on 24.04, so 24.04 then, everything else as is",
        "hm, the customer still runs everything on noble; move it to 24.04",
        "our regression only shows up under noble. 24.04 it is, keep the rest",
    ],
)
def test_a_remark_that_ends_on_the_target_is_no_request(request_text: str) -> None:
    route = route_request(request_text, NOBLE_NEXT)
    assert route["intent"] == "retarget"
    assert route["reference"]["target"]["dist"] == "ubuntu24"
    assert route["reference"]["remainder"] == ""


@pytest.mark.parametrize("text", ["nginx on noble", "add htop for noble", "install gdb on 24.04"])
def test_a_clause_that_names_a_package_beside_the_target_is_no_remark(text: str) -> None:
    assert target_remark_spans(text) == []


# -- carrying packages to another family -------------------------------------------------


def _target(dist: str) -> dict[str, str]:
    from oic_ai.stores.targets import load_targets

    return {"os": load_targets().dists[dist].os, "dist": dist, "arch": "x86_64"}


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        ("openjdk-17-jre-headless", "ubuntu24", "el10", ("java-21-openjdk-headless",)),
        ("openjdk-17-jre-headless", "ubuntu24", "debian13", ("default-jre-headless",)),
        ("openjdk-17-jre-headless", "ubuntu24", "azl3", ("msopenjdk-17",)),
    ],
)
def test_a_release_the_new_target_no_longer_ships_maps_to_its_default(
    name: str, old: str, new: str, expected: tuple[str, ...]
) -> None:
    from oic_ai.stores.capability_catalog import load_catalog
    from oic_ai.tools.rebase import map_package

    assert map_package(load_catalog(), name, _target(old), _target(new)) == expected


# -- "we also have X, can I get the same for arm64?" asks for an image -------------------


@pytest.mark.parametrize(
    "request_text",
    [
        "We also have i.MX-class rigs, can I get the same thing built for aarch64?",
        "We also run a few Pis, could we have this one for arm64 as well?",
        "they also have arm boards. can you do the same for aarch64?",
        "I also look after some Ampere servers; could I get the same image on arm64?",
    ],
)
def test_a_statement_with_also_then_a_request_for_the_same_image(request_text: str) -> None:
    route = route_request(request_text, UBUNTU)
    assert route["intent"] == "retarget"
    assert route["reference"]["target"]["arch"] == "aarch64"


def test_also_between_two_parts_still_splits_them() -> None:
    from oic_ai.tools.questions import questions_of

    found = questions_of("add htop also which users are there?")
    assert found.questions == ("which users are there",)
    assert found.changes


# -- undo: terse checklists and "back to what it was" -------------------------------------


@pytest.mark.parametrize(
    "text", ["- revert last", "undo last", "roll back previous change", "revert latest step"]
)
def test_a_terse_undo_of_the_last_change(text: str) -> None:
    from oic_ai.tools.references import find_reference, undo_names

    found = find_reference(text)
    assert found is not None and found.kind == "undo"
    assert undo_names(found.marker) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("on second thought put the disk size back to what it was before", ["disk", "size"]),
        ("change the hostname back to the previous one", ["hostname"]),
        ("restore the old disk size please", ["disk", "size"]),
        ("reset the loglevel to how it was", ["loglevel"]),
        ("return the hostname to what it was before, thanks", ["hostname"]),
    ],
)
def test_a_part_put_back_to_what_it_was_is_an_undo_of_it(text: str, names: list[str]) -> None:
    from oic_ai.tools.references import find_reference, undo_names

    found = find_reference(text)
    assert found is not None and found.kind == "undo"
    assert undo_names(found.marker) == names


@pytest.mark.parametrize(
    "text", ["set the hostname to edge-01", "put the disk back to 8GiB", "revert last partition"]
)
def test_a_new_value_is_no_undo(text: str) -> None:
    from oic_ai.tools.references import find_reference

    assert find_reference(text) is None


# -- questions: a question then a polite request; a declared question's lead-in ---------


@pytest.mark.parametrize(
    "request_text",
    [
        "What's the image called at the moment? Could you name it room12-ubuntu instead?",
        "which packages are in there? could you add htop?",
        "Is the hostname set? Can you make it gw-01 please?",
        "how big is the disk? would you grow it to 20GiB",
    ],
)
def test_a_question_then_a_polite_request_is_a_request(request_text: str) -> None:
    assert route_request(request_text, UBUNTU)["intent"] == "refine"


@pytest.mark.parametrize(
    "request_text",
    [
        "what is the hostname? can you tell me the disk size too?",
        "Quick question: their instructions dearmor the key into a keyring and use "
        "signed-by, but you put the key URL in the template. Is that equivalent?",
        "quick question - the vendor docs enable the repo with a key. does the template "
        "do that too?",
        "Side question: our old scripts set the hostname at boot and add users by hand. "
        "Is that still needed with this?",
    ],
)
def test_questions_and_their_lead_in_change_nothing(request_text: str) -> None:
    assert route_request(request_text, UBUNTU)["intent"] == "explain"


@pytest.mark.parametrize(
    "request_text",
    ["Quick question: add htop. Is the hostname set?", "Quick q, I want qcow2 too. Is it raw?"],
)
def test_a_declared_question_beside_an_imperative_still_changes(request_text: str) -> None:
    from oic_ai.tools.questions import questions_of

    assert questions_of(request_text).changes


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("is trixie what debian 13 is called? just checking", '"trixie"'),
        ("what's the codename of this release?", '"trixie"'),
        ("What's the image called at the moment?", "image debian13-x86_64-minimal-raw"),
        ("what's actually going in there apart from docker?", "Packages: 10 —"),
        ("so what goes into the image?", "openssh-server"),
    ],
)
def test_names_and_contents_are_answered(question: str, expected: str) -> None:
    from pathlib import Path

    from oic_ai.tools.explain_template import describe_template

    text = Path("image-templates/debian13-x86_64-minimal-raw.yml").read_text()
    assert expected in describe_template(text, question)


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("Got it. Now give /var its own 10GiB partition", "Now give /var its own 10GiB partition"),
        ("Understood, then add htop", "then add htop"),
        ("Makes sense! add qcow2 too", "add qcow2 too"),
        ("ok got it, thanks. hostname gw", "hostname gw"),
        ("Perfect timing, add htop", "Perfect timing, add htop"),
        ("Clear the cmdline", "Clear the cmdline"),
        ("Got it", "Got it"),
    ],
)
def test_an_acknowledgement_before_a_request_asks_nothing(said: str, left: str) -> None:
    from oic_ai.tools.courtesy import plain_request

    assert plain_request(said) == left


# -- what a template cannot hold ----------------------------------------------------------


def _plan(text: str, template: str = "el10-x86_64-minimal-raw") -> object:
    from pathlib import Path

    from oic_ai.tools.planner.builtin import plan_request

    base = Path("image-templates") / f"{template}.yml"
    return plan_request(text, base.read_text(), mode="refine")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("The firewall also needs to allow SMB (port 445) from the office LAN only.", "firewall"),
        ("open samba through the firewall please", "firewall"),
        ("the firewall should block telnet", "firewall"),
        ("also the wifi of office, the name is OFICINA-5G, can you put?", "network"),
        ("please put our wireless network at the lab on it", "network"),
        ("make it join the wifi", "network"),
        ("Can you also make it bring up can0 at 500 kbit/s on boot?", "network"),
        ("set the can bitrate to 250000", "network"),
    ],
)
def test_wishes_no_template_holds_change_nothing(text: str, reason: str) -> None:
    plan = _plan(text)
    assert not plan.operations  # type: ignore[attr-defined]
    assert any(reason in item for item in plan.not_applied)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "package"),
    [("add ufw", "ufw"), ("add wifi support", "network-manager")],
)
def test_the_packages_for_them_are_still_added(text: str, package: str) -> None:
    plan = _plan(text, "ubuntu24-x86_64-minimal-raw")
    added = [p for op in plan.operations for p in getattr(op, "packages", [])]  # type: ignore[attr-defined]
    assert package in added


@pytest.mark.parametrize(
    "text",
    [
        "Ok understood, I'll do network and firewall after first boot. Add htop.",
        "we'll handle dns and the proxy ourselves, add htop",
        "I will sort out monitoring and the backups later; add htop",
        "fine, we're going to do the vpn and certificates by hand. add htop",
    ],
)
def test_what_the_user_will_do_themselves_is_context(text: str) -> None:
    plan = _plan(text)
    assert plan.not_applied == []  # type: ignore[attr-defined]
    assert [p for op in plan.operations for p in getattr(op, "packages", [])] == ["htop"]  # type: ignore[attr-defined]


def test_a_request_after_what_the_user_will_do_still_asks() -> None:
    plan = _plan("I'll do network and add htop")
    assert [p for op in plan.operations for p in getattr(op, "packages", [])] == ["htop"]  # type: ignore[attr-defined]
