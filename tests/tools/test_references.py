"""References to the conversation: what "undo that" and "the same for Debian" are read as.

The phrases in these tables are not copied into ``stores/data/conversation.yaml``: they are
ways to say the same thing written for the test, so the vocabulary has to generalise.
"""

from __future__ import annotations

import pytest

from oic_ai.stores.conversation_vocabulary import parse_conversation
from oic_ai.tools.references import (
    before_target,
    changed_words,
    describes_a_change,
    find_back_to_words,
    find_reference,
    keep_rest_spans,
    reference_spans,
    remainder,
    target_clause_spans,
    touches,
    undo_aspects,
    undo_names,
)

UNDO = [
    ("undo", ""),
    ("Undo it please", ""),
    ("revert my last change", ""),
    ("please revert that, thanks", ""),
    ("roll it back", ""),
    ("hmm, roll back the last edit", ""),
    ("take it back", ""),
    ("go back a step", ""),
    ("go back to the previous template", ""),
    ("put it back the way it was", ""),
    ("put it back how it was before the disk change", ""),
    ("scratch that", ""),
    ("restore the previous version", ""),
    ("undo the hostname change and add htop", "add htop"),
    ("Undo that; the mirror is down this week.", "the mirror is down this week."),
    ("remove those packages again, go back to the previous version", ""),
    ("undo the nosmt", ""),
    ("take back the watchdog package please", ""),
    ("revert the hostname, then add strace", "add strace"),
    ("back out that change", ""),
    ("please back out the last edit", ""),
]


@pytest.mark.parametrize(("text", "rest"), UNDO)
def test_taking_back_the_last_change_is_an_undo(text: str, rest: str) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "undo", text
    assert remainder(text, found.spans) == rest


SAME = [
    ("the same for Debian", {"dist": "debian13"}, ""),
    ("now do the same thing on arm64", {"arch": "aarch64"}, ""),
    ("same again but for Azure Linux 3", {"dist": "azl3"}, ""),
    ("and an el10 one as well", {"dist": "el10"}, ""),
    ("the same setup on our x86_64 boxes please", {"arch": "x86_64"}, ""),
    ("the arm64 raw image of the same", {"arch": "aarch64", "image_type": "raw"}, ""),
    ("the same for trixie, with htop", {"dist": "debian13"}, "with htop"),
    ("same for el10", {"dist": "el10"}, ""),
    ("ok same on azure linux 3 pls", {"dist": "azl3"}, ""),
    # "the same" before any noun phrase, with a target in the sentence
    ("please create the same ci runner on el10", {"dist": "el10"}, ""),
    ("now generate the same firewall appliance for aarch64", {"arch": "aarch64"}, ""),
    ("let's bake the same kiosk for trixie", {"dist": "debian13"}, ""),
    # the whole image made into a target
    ("make the whole build Debian 13 now", {"dist": "debian13"}, ""),
    ("ok, make everything azure linux 3 instead", {"dist": "azl3"}, ""),
]


@pytest.mark.parametrize(("text", "targets", "rest"), SAME)
def test_the_same_image_elsewhere_names_its_target(
    text: str, targets: dict[str, str], rest: str
) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "same", text
    assert found.targets == targets
    assert not found.back_only
    assert remainder(text, found.spans) == rest


def test_like_before_refers_back_and_leaves_the_change_to_the_planner() -> None:
    text = "same as last time, but with nginx instead of apache"
    found = find_reference(text)
    assert found is not None and found.kind == "same" and found.back_only
    assert found.targets == {}
    assert remainder(text, found.spans) == "with nginx instead of apache"


NOT_REFERENCES = [
    "move the console to ttyS1, same speed",
    "take splash back out. quiet stays",
    "keep the same hostname and add htop",
    "make /data the same size as /var/log",
    "revert the hostname to edge-01",
    "revert the console to ttyS0 for now",
    "don't undo the disk change, add htop",
    "add htop too",
    "remove cockpit-machines again and add virt-top",
    "a minimal debian 13 image with docker",
    "the rollback partition should be 2GiB",
    "same for every user: shell /bin/zsh",
    "give the same user a zsh shell",
    "make everything under /srv owned by ops",
    "use the same mirror as the debian one",
    "these hosts list these packages, I want the same set on el10",
    # a taking-out verb said of a thing (round 14, h2)
    "drop the docker stuff",
    "remove the last user",
    "drop that",
    "scrap the ccache package",
    # a new value for a part (round 16, h3)
    "set the hostname to edge-01",
    "put the disk back to 8GiB",
    "revert last partition",
]


@pytest.mark.parametrize("text", NOT_REFERENCES)
def test_ordinary_requests_are_not_references(text: str) -> None:
    assert find_reference(text) is None
    assert reference_spans(text) == ()


def test_spans_point_into_the_original_text() -> None:
    text = "OK. Now The Same For Debian, please; and add htop"
    found = find_reference(text)
    assert found is not None
    covered = " ".join(text[a:b] for a, b in found.spans)
    assert "The Same" in covered and "Debian" in covered and "htop" not in covered
    assert remainder(text, found.spans) == "add htop"


def test_a_create_keeps_the_target_words_for_the_planner() -> None:
    text = "what about the same netboot image for x86_64 then"
    found = find_reference(text)
    assert found is not None
    rest = remainder(text, found.marker_words())
    assert "netboot" in rest and "x86_64" in rest and "same" not in rest


def test_a_clause_that_only_asks_for_a_target_is_covered() -> None:
    text = "could we have an installer ISO of this instead, so the techs can use USB sticks"
    spans = target_clause_spans(text)
    assert remainder(text, spans) == "so the techs can use USB sticks"


def test_an_unquoted_yes_or_no_in_the_filler_list_is_refused() -> None:
    with pytest.raises(ValueError, match="quote it"):
        parse_conversation({"undo": {"phrases": []}, "same": {}, "filler": ["ok", False]})


def test_an_undo_that_names_what_it_takes_back_leaves_nothing_for_the_planner() -> None:
    # the parts after the marker only restate what is taken back; a new request does not
    request = "OK, revert that network change, the hostname and the 3 GiB partition too. Ta"
    found = find_reference(request)
    assert found is not None and found.kind == "undo"
    assert remainder(request, found.spans) == "Ta"
    asked = "roll back the last change, then add strace"
    again = find_reference(asked)
    assert again is not None and remainder(asked, again.spans) == "add strace"


def test_an_undo_names_what_it_takes_back_and_the_change_says_what_it_touched() -> None:
    assert undo_names("undo the nosmt") == ["nosmt"]
    assert undo_names("take back the watchdog package") == ["watchdog", "package"]
    assert undo_names("revert my last edit") == []
    before = 'hostname: a-1\nkernel:\n  cmdline: "console=tty0 loglevel=4"\n'
    after = 'hostname: a-1\nkernel:\n  cmdline: "console=tty0 loglevel=4 nosmt"\n'
    assert changed_words(before, after) == ["cmdline: nosmt"]
    renamed = after.replace("a-1", "b-2")
    assert changed_words(after, renamed) == ["hostname: a-1", "hostname: b-2"]


def test_an_undo_that_names_a_kind_of_change_describes_a_turn() -> None:
    # "the network edit" describes a turn by what it changed; "edit" itself names nothing

    assert undo_names("undo the network edit") == ["network"]
    assert undo_names("put it back how it was before that storage change") == ["storage"]
    assert describes_a_change("undo the network edit")
    assert not describes_a_change("undo the nosmt")


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("add strace, and leave all the rest as it was", "add strace,"),
        ("Move it to arm64. Everything else should stay the same.", "Move it to arm64."),
        ("hostname db-2; the rest unchanged", "hostname db-2;"),
        ("retain all else I added, just bump the disk to 30 gig", "just bump the disk to 30 gig"),
        ("otherwise as before, but with tcpdump", "but with tcpdump"),
        ("debian 13 then, same for everything else", "debian 13 then,"),
    ],
)
def test_words_that_keep_everything_else_leave_only_the_change(text: str, rest: str) -> None:
    spans = keep_rest_spans(text)
    assert spans, text
    assert remainder(text, spans).strip(" ,;.") == rest.strip(" ,;.")


@pytest.mark.parametrize("text", ["keep nginx", "leave the hostname alone", "the rest of the disk"])
def test_keeping_one_named_thing_is_no_keep_everything_else(text: str) -> None:
    assert keep_rest_spans(text) == ()


def test_an_undo_may_name_an_aspect_of_a_change_in_several_languages() -> None:
    repo = undo_aspects("undo the repo")
    assert repo and "codename" in repo[0]
    both = undo_aspects("go back to before the partition/disk change")
    assert len(both) == 2 and "mountPoint" in both[0] and "size" in both[1]
    assert undo_aspects("cofnij tę partycję") == undo_aspects("undo the partitions")
    assert undo_aspects("undo the quiet") == []
    # a verb-only phrase names nothing; articles of other languages are no names
    assert undo_names("go back to before") == []
    assert undo_names("kommando zurück") == []
    assert undo_names("revert the nosmt") == ["nosmt"]


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("ok, return to what we had before the arm64 detour", {"arch": "aarch64"}),
        ("switch back to how it was before the ISO change", {"imageType": "iso"}),
        ("get back to what things looked like before that trixie switch", {"dist": "debian13"}),
    ],
)
def test_going_back_to_before_a_move_to_a_target_names_that_target(
    text: str, target: dict[str, str]
) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "undo"
    assert before_target(found.marker) == target


def test_going_back_to_before_a_kind_of_change_names_no_target() -> None:
    assert before_target("go back to before the partition change") == {}
    assert before_target("undo the arm64 thing") == {}  # no "before": the change itself


def test_a_changed_word_touches_an_aspect_by_its_field_or_its_option_key() -> None:
    assert touches(["codename: trixie"], ("url", "codename"))
    assert touches(["cmdline: console=ttys1,57600"], ("console=",))
    assert not touches(["cmdline: quiet"], ("console=",))
    assert not touches(["packages: htop"], ("url", "codename"))


@pytest.mark.parametrize(
    "text",
    [
        "same package list",
        "with the same users",
        "same kernel options as before",
        "the same account",
        "same repo",
        "los mismos paquetes",
        "aynı paketler ile",
        "te same pakiety",
        "dieselben Pakete",
    ],
)
def test_the_same_part_is_kept_as_it_is(text: str) -> None:
    spans = keep_rest_spans(f"ok, {text}, thanks")
    assert [f"ok, {text}, thanks"[a:b].lstrip() for a, b in spans] == [text]


@pytest.mark.parametrize(
    ("text", "marker"),
    [
        ("here is our old preseed. build me the equivalent", "build me the equivalent"),
        (
            "could we have an Azure Linux equivalent, arm64?",
            "could we have an Azure Linux equivalent",
        ),
        ("that's the old setup; I need the equivalent on el10", "I need the equivalent"),
    ],
)
def test_asking_for_an_equivalent_refers_back_without_a_change_of_its_own(
    text: str, marker: str
) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "same" and found.back_only
    assert found.marker.lower() == marker.lower()


@pytest.mark.parametrize(
    "text", ["what is the equivalent of htop on azl3?", "is there an equivalent package for nano"]
)
def test_a_question_about_an_equivalent_is_no_reference(text: str) -> None:
    assert find_reference(text) is None


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("ok, and the hostname, put it back how it was", "hostname"),
        ("oh, e o loglevel, volta como estava antes", "loglevel"),
        ("add htop, then undo", ""),
        ("oh no, sorry, roll that back", ""),
        ("undo the splash", ""),
    ],
)
def test_a_clause_right_before_an_undo_names_what_it_takes_back(text: str, topic: str) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "undo"
    assert found.topic == topic
    if topic:
        assert topic not in remainder(text, found.spans)


@pytest.mark.parametrize(
    ("text", "marker"),
    [
        # the sentence ends the named part: what follows is a reason, not part of the undo
        ("Revert the swap change. Our monitoring flagged it.", "Revert the swap change"),
        ("undo the console bit. nobody reads it anyway", "undo the console bit"),
        # a dot inside a word stays in it
        ("revert the hugepages=1.5 change", "revert the hugepages=1.5 change"),
    ],
)
def test_an_undo_naming_its_part_ends_with_its_sentence(text: str, marker: str) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "undo", text
    assert found.marker == marker


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("could we get the same appliance for Debian 13?", {"dist": "debian13"}),
        ("the same box but on arm64", {"arch": "aarch64"}),
        ("same vm on Azure Linux 3 please", {"dist": "azl3"}),
        ("I need the identical server for el10", {"dist": "el10"}),
    ],
)
def test_the_same_machine_by_any_of_its_names_is_a_retarget(
    text: str, target: dict[str, str]
) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "same", text
    assert found.targets == target


@pytest.mark.parametrize(
    ("text", "target", "rest"),
    [
        # the current image moved somewhere: a verb of moving with it / the image as object
        ("could you port it to Debian 13?", {"dist": "debian13"}, ""),
        ("migrate the template onto el10 and add htop", {"dist": "el10"}, "add htop"),
        ("carry everything over to Azure Linux 3", {"dist": "azl3"}, ""),
        # "a <target> version" of the image
        ("and an el10 version?", {"dist": "el10"}, ""),
        ("a trixie variant of it as well", {"dist": "debian13"}, ""),
    ],
)
def test_moving_the_image_to_a_target_is_a_retarget(
    text: str, target: dict[str, str], rest: str
) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "same", text
    assert found.targets == target
    assert remainder(text, found.spans) == rest


@pytest.mark.parametrize(
    "text",
    ["move the disk to 20GiB", "port 8080 to 80 in the firewall", "we need a newer kernel version"],
)
def test_moving_something_else_is_no_retarget(text: str) -> None:
    assert find_reference(text) is None, text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("nah, go back to chrony, the ntp one was flaky", "chrony"),
        ("let's switch back to the docker runtime please", "docker runtime"),
        ("return to nginx and add htop", "nginx"),
        # a target, or words of a change, are no package's words
        ("go back to debian", None),
        ("go back to the previous version", None),
    ],
)
def test_going_back_to_words_that_name_no_target(text: str, words: str | None) -> None:
    found = find_back_to_words(text)
    assert (found.object if found else None) == words


def test_back_to_without_a_verb_of_going_back_names_nothing() -> None:
    assert find_back_to_words("forward the journal back to the log server") is None
    found = find_back_to_words("meh, back to nginx")
    assert found is not None and found.object == "nginx"
