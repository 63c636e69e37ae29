"""References to the conversation, end to end: undo as a new turn, "the same for X", refusals.

Every test runs real turns through the compiled graph (builtin planner, the bundled library,
a SQLite checkpointer) and checks the route taken, the session's template and the answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.settings import load_settings
from tests.conftest import OUR_TEMPLATES
from tests.graph.runner import Conversation, builtin_settings

OK = ("valid", "valid_with_warnings")


@pytest.fixture
def run(agent_data_dir: Path) -> Any:
    with Conversation(builtin_settings(agent_data_dir)) as runner:
        yield runner


def _doc(text: str | None) -> dict[str, Any]:
    data = yaml.safe_load(text or "")
    assert isinstance(data, dict)
    return data


def _packages(text: str | None) -> list[str]:
    return list(_doc(text)["systemConfig"]["packages"])


def test_undo_is_a_new_turn_that_restores_the_template_from_before_the_last_change(
    run: Conversation,
) -> None:
    first = run.turn("a minimal debian 13 image")
    assert first.status in OK
    second = run.turn("add htop")
    assert "htop" in _packages(second.template)
    asked = run.turn("what packages are included?")
    assert asked.route["intent"] == "explain"
    undone = run.turn("hmm, roll that back")
    assert run.nodes == ["classify", "undo", "validate", "verify_packages", "respond"]
    assert undone.route["intent"] == "undo" and undone.status in OK
    assert undone.template == first.template == run.template()
    assert undone.turn == 4 and undone.not_applied == []
    assert "Undid turn 2 ('add htop')" in undone.message
    assert undone.diff and "-    - htop" in undone.diff
    # the history keeps the change and its undoing
    kept = [s.values.get("template") for s in run.agent.history(run.session or "")]
    assert second.template in kept and first.template in kept


def test_undo_goes_back_one_change_at_a_time_and_says_when_nothing_is_left(
    run: Conversation,
) -> None:
    first = run.turn("a minimal debian 13 image")
    run.turn("add htop")
    run.turn("set the hostname to edge-7")
    once = run.turn("undo")
    assert "htop" in _packages(once.template)
    assert _doc(once.template)["systemConfig"]["hostname"] != "edge-7"
    twice = run.turn("go back one step")
    assert twice.template == first.template
    nothing = run.turn("undo")
    assert nothing.status == "valid_with_warnings"
    assert nothing.template == first.template
    assert any("nothing to take back" in item for item in nothing.not_applied)
    assert "Nothing to undo" in nothing.message


def test_the_rest_of_an_undo_request_is_planned_on_the_restored_template(run: Conversation) -> None:
    first = run.turn("a minimal debian 13 image")
    run.turn("add htop")
    both = run.turn("undo that and add curl")
    assert run.nodes[:3] == ["classify", "undo", "generate"]
    packages = _packages(both.template)
    assert "curl" in packages and "htop" not in packages
    back = run.turn("undo")
    assert back.template == first.template  # the undo and the addition were one step


def test_undo_takes_back_a_turn_that_changed_nothing_not_an_earlier_one(run: Conversation) -> None:
    run.turn("a minimal debian 13 image")
    with_htop = run.turn("add htop")
    same = run.turn("add htop")
    assert same.template == with_htop.template
    undone = run.turn("revert my last edit")
    assert undone.template == with_htop.template
    assert "it had changed nothing" in undone.message


def test_an_undo_that_names_the_last_change_takes_it_back(run: Conversation) -> None:
    first = run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add the kernel option nosmt")
    before = run.template()
    run.turn("and hostname pier-4")
    run.undo("undo the hostname")
    assert run.template() == before
    assert first.template != before


def _cmdline(text: str | None) -> list[str]:
    return str(_doc(text)["systemConfig"]["kernel"]["cmdline"]).split()


def test_an_undo_that_names_part_of_a_turn_takes_back_only_that_part(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add the kernel option nosmt, and hostname pier-4")
    kept = run.template()
    part = run.undo("take back the nosmt please")
    assert "nosmt" not in _cmdline(run.template())
    assert _doc(run.template())["systemConfig"]["hostname"] == "pier-4"
    assert "Undid part of turn 2" in part.message and "nosmt" in part.message
    other = run.turn("revert the splash")
    assert "no change of this session touched splash" in other.not_applied[0]
    whole = run.turn("undo")  # the part taken back was a change of its own: this restores it
    assert whole.not_applied == [] and run.template() == kept


def test_a_partial_undo_reaches_over_later_changes_and_keeps_them(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("kernel options: add mitigations=off and transparent_hugepage=never")
    run.turn("set loglevel=7 on the kernel command line")
    run.turn("add htop and a user ops with sudo")
    run.undo("undo the transparent_hugepage thing, it broke the database")
    tokens = _cmdline(run.template())
    assert "transparent_hugepage=never" not in tokens
    assert "mitigations=off" in tokens and "loglevel=7" in tokens
    assert "htop" in _packages(run.template())
    assert [u["name"] for u in _doc(run.template())["systemConfig"]["users"]] == ["ops"]
    back = run.turn("undo the loglevel change")
    assert "loglevel=7" not in _cmdline(run.template())
    assert any(t.startswith("loglevel=") for t in _cmdline(run.template()))  # the old one
    assert back.not_applied == [] and "htop" in _packages(run.template())


def test_a_partial_undo_of_packages_and_users_keeps_the_rest_of_the_turn(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add tmux and curl, hostname lab-3, and an account called kim with sudo")
    users = run.turn("undo the user change")
    assert users.not_applied == []
    doc = _doc(run.template())
    assert not doc["systemConfig"].get("users")
    assert doc["systemConfig"]["hostname"] == "lab-3"
    assert {"tmux", "curl"} <= set(_packages(run.template()))
    packages = run.turn("undo the packages")
    assert packages.not_applied == []
    assert not {"tmux", "curl"} & set(_packages(run.template()))
    assert _doc(run.template())["systemConfig"]["hostname"] == "lab-3"


def test_an_undo_naming_an_aspect_reaches_over_turns_that_changed_nothing(
    run: Conversation,
) -> None:
    run.turn("a minimal debian 13 raw image for x86_64 with curl")
    before = run.template()
    added = run.turn(
        "add the apt repository https://mirror.example.com/tools, codename stable, "
        "component main, key https://mirror.example.com/tools.asc"
    )
    assert added.template != before
    run.turn("set the timezone to Europe/Oslo")  # no template field: changes nothing
    run.turn("which packages does it install?")  # a question: no turn to take back
    undone = run.undo("undo the repository, our proxy mirrors it now")
    assert run.template() == before
    assert "took back turn 2" in " ".join(undone.changes)


def test_an_undo_naming_an_aspect_takes_it_back_over_a_later_change_of_something_else(
    run: Conversation,
) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    before = _cmdline(run.template())
    run.turn("add the kernel option console=ttyS1,57600")
    run.turn("add htop")
    undone = run.turn("undo the console change")
    assert undone.not_applied == []
    assert _cmdline(run.template()) == before
    assert "htop" in _packages(run.template())


def test_go_back_to_before_a_kind_of_change_and_other_languages_undo_it(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64, disk 24GiB")
    before = run.template()
    run.turn("a separate /srv partition of 6GiB, ext4")
    assert run.template() != before
    run.undo("go back to before the partition change, the default layout is fine")
    assert run.template() == before
    run.turn("a separate /srv partition of 6GiB, ext4")
    run.undo("nie, cofnij tę partycję, zostaw jak było")
    assert run.template() == before
    run.turn("add htop")
    spanish = run.turn("deshaz eso por favor")
    assert spanish.route["intent"] == "undo" and run.template() == before


def test_the_same_for_another_distribution_keeps_every_customisation(run: Conversation) -> None:
    run.turn("a minimal debian 13 image")
    run.turn("add iftop and nginx")
    run.turn("set the hostname to web-7")
    run.turn("make the disk 8GiB")
    moved = run.turn("now the same for Azure Linux 3, please")
    assert run.nodes == ["classify", "retarget", "validate", "verify_packages", "respond"]
    assert moved.route["intent"] == "retarget" and moved.status in OK, moved.reasons
    doc = _doc(moved.template)
    assert doc["target"] == {
        "os": "azure-linux", "dist": "azl3", "arch": "x86_64", "imageType": "raw"
    }  # fmt: skip
    assert {"iftop", "nginx"} <= set(doc["systemConfig"]["packages"])
    assert any("iftop" in w for w in moved.warnings)  # no catalog mapping: kept by name
    assert doc["systemConfig"]["hostname"] == "web-7" and doc["disk"]["size"] == "8GiB"
    assert doc["systemConfig"]["kernel"]["packages"] == ["kernel"]
    assert moved.base_template == "azl3-x86_64-minimal-raw.yml"
    assert "Re-targeted the current template to Azure Linux 3 (azl3)" in moved.message
    assert moved.not_applied == []


def test_a_terse_same_for_without_the_article_is_a_retarget_too(run: Conversation) -> None:
    # "same for X" with no "the": read as a new request, it started from X's plain base and
    # dropped the packages and the hostname
    run.turn("an ubuntu 24.04 raw image for x86_64 with rsync and strace, hostname relay-9")
    moved = run.turn("same for debian")
    assert moved.route["intent"] == "retarget" and moved.status in OK, moved.reasons
    doc = _doc(moved.template)
    assert doc["target"]["dist"] == "debian13"
    assert {"rsync", "strace"} <= set(doc["systemConfig"]["packages"])
    assert doc["systemConfig"]["hostname"] == "relay-9"


def test_like_before_but_plans_only_the_change(run: Conversation) -> None:
    first = run.turn("a minimal debian 13 image with nginx")
    again = run.turn("like before, but add htop")
    assert again.route["intent"] == "refine"
    assert again.route["reference"]["remainder"] == "add htop"
    packages = _packages(again.template)
    assert "htop" in packages and "nginx" in packages
    assert _doc(again.template)["target"] == _doc(first.template)["target"]
    assert not any("like before" in item for item in again.not_applied)


def test_a_combination_without_defaults_is_refused_with_the_nearest_ones(run: Conversation) -> None:
    first = run.turn("a minimal ubuntu 24.04 image for arm64")
    assert _doc(first.template)["target"]["arch"] == "aarch64"
    refused = run.turn("and an installer ISO of it?")
    assert run.nodes == ["classify", "respond"]
    assert refused.status == "unsupported" and refused.template is None
    assert run.template() == first.template
    assert "no OS defaults for Ubuntu 24.04 ISO installers for aarch64" in refused.message
    assert "Nearest buildable: Ubuntu 24.04 ISO installer for x86_64" in refused.message
    assert "The session's template is unchanged." in refused.message
    undone = run.turn("undo")  # the refusal changed nothing: nothing of it to take back
    assert undone.template == first.template


def test_after_a_refused_combination_the_next_request_keeps_its_distribution(
    run: Conversation,
) -> None:
    refused = run.turn("a Debian 13 PXE netboot image for our arm64 nodes")
    assert refused.status == "unsupported" and run.template() is None
    assert refused.route["unsupported"]["options"][0] == "Debian 13 network-boot image for x86_64"
    built = run.turn("OK, what about the same netboot image for x86_64 then, with nvme-cli?")
    assert built.route["intent"] == "create" and built.status in OK
    doc = _doc(built.template)
    assert doc["target"]["dist"] == "debian13" and doc["target"]["imageType"] == "img"
    assert doc["target"]["arch"] == "x86_64" and "nvme-cli" in doc["systemConfig"]["packages"]
    assert not any("same" in item for item in built.not_applied)


@pytest.mark.parametrize(
    ("request_text", "nearest"),
    [
        ("ubuntu 22.04 please", "Ubuntu 24.04"),
        ("switch it to Debian 12", "Debian 13"),
        ("can it be CentOS 7 instead?", "RHEL-compatible 10"),
    ],
)
def test_an_old_release_is_refused_and_the_template_stays(
    run: Conversation, request_text: str, nearest: str
) -> None:
    first = run.turn("a minimal debian 13 image")
    refused = run.turn(request_text)
    assert refused.status == "unsupported" and run.nodes == ["classify", "respond"]
    assert run.template() == first.template
    assert f"Nearest supported: {nearest}" in refused.message


def test_an_edit_to_a_target_the_composer_cannot_build_is_invalid(run: Conversation) -> None:
    first = run.turn("a minimal ubuntu 24.04 image")
    text = (OUR_TEMPLATES / "ubuntu24-x86_64-installer-iso.yml").read_text(encoding="utf-8")
    edited = run.agent.apply_edit(run.session, text.replace("arch: x86_64", "arch: aarch64"))
    assert edited.status == "invalid"
    codes = [e["code"] for e in edited.validation["errors"]]
    assert "target-not-buildable" in codes
    assert run.template() == first.template


def test_a_model_plans_only_what_a_reference_leaves(agent_data_dir: Path) -> None:
    from tests.support.fake_models import ScriptedChatModel

    named = {"summary": "name it", "operations": [{"op": "set_hostname", "hostname": "lab-1"}]}
    htop = {"summary": "add htop", "operations": [{"op": "add_packages", "packages": ["htop"]}]}
    model = ScriptedChatModel.answering([named, htop])
    settings = load_settings(data_dir=agent_data_dir, env={}, provider="builtin")
    with TemplateAgent(settings, chat_model=model) as agent:
        first = agent.generate("a minimal debian 13 image")
        moved = agent.generate("now the same for Azure Linux 3, and add htop", first.session)
    assert moved.provider == "chat-model" and moved.route["intent"] == "retarget"
    assert len(model.prompts) == 2
    asked = str(model.prompts[-1][-1].content)
    assert "add htop" in asked and "same for" not in asked
    doc = _doc(moved.template)
    assert doc["target"]["dist"] == "azl3" and "htop" in doc["systemConfig"]["packages"]
    assert doc["systemConfig"]["hostname"] == "lab-1"  # carried over by the retarget


def test_same_packages_after_a_refusal_carries_the_refused_request(run: Conversation) -> None:
    refused = run.turn("an Ubuntu 20.04 raw image for x86_64 with htop and tmux")
    assert refused.status == "unsupported"
    then = run.turn("ok, 24.04 then, with the same packages")
    assert then.status in OK and then.not_applied == []
    assert {"htop", "tmux"} <= set(_packages(then.template))
    kept = run.turn("same users, same disk, and add jq")  # parts kept as they are
    assert kept.not_applied == [] and "jq" in _packages(kept.template)


def test_the_equivalent_of_what_was_pasted_and_the_same_account_are_accounted(
    run: Conversation,
) -> None:
    made = run.turn(
        "provisioning used: apt-get install -y htop jq. we are moving to debian 13 raw "
        "for x86_64. give me the equivalent"
    )
    assert made.status in OK and made.not_applied == []
    assert {"htop", "jq"} <= set(_packages(made.template))
    user = run.turn(
        'the old one had EXTRA_USERS_PARAMS = "useradd -G video ops;" — I want the same user here'
    )
    assert user.not_applied == []
    (ops,) = _doc(user.template)["systemConfig"]["users"]
    assert ops["name"] == "ops" and ops["groups"] == ["video"]


def test_an_equivalent_asked_of_a_refused_release_carries_only_the_request(
    run: Conversation,
) -> None:
    refused = run.turn(
        "we ran Ubuntu 20.04 with htop and tmux. can I get a Ubuntu 20.04 equivalent?"
    )
    assert refused.status == "unsupported"
    then = run.turn("ok 24.04 then, same package list")
    assert then.status in OK and then.not_applied == []
    assert {"htop", "tmux"} <= set(_packages(then.template))


def test_what_a_clause_before_an_undo_names_is_the_part_taken_back(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add the kernel options nosmt and mitigations=off")
    run.turn("add jq")
    run.undo("hmm, and the nosmt, put it back how it was")
    tokens = _cmdline(run.template())
    assert "nosmt" not in tokens and "mitigations=off" in tokens
    assert "jq" in _packages(run.template())


def test_a_name_in_an_undo_matches_whole_words_of_what_changed() -> None:
    from oic_ai.tools.partial_undo import Part

    part = Part(names=("ci", "exporter", "hugepages"))
    assert part.named("prometheus-node-exporter") and part.named("hugepages=512")
    assert part.named("ci") and not part.named("pciutils") and not part.named("hugepagesz=1g")


@pytest.mark.parametrize(
    ("kept", "later", "undo", "said"),
    [
        # an undo naming every part of a turn restores it exactly
        (
            ("a minimal debian 13 raw image for x86_64, disk 10GiB", "add htop and tmux"),
            ("grow the disk to 16GiB, remove tmux and add an account named qa",),
            "undo the disk/tmux/qa-account change please",
            "took back turn 3",
        ),
        # an undo of the last n changes goes back that many turns
        (
            ("a minimal debian 13 raw image for x86_64", "add htop"),
            ("add tmux", "hostname bench-9"),
            "hmm, roll back the last 2 changes please",
            "took back turns 3, 4",
        ),
        # "scratch the X stuff" and "before the Y thing" take back that turn
        (
            ("a minimal debian 13 raw image for x86_64, disk 10GiB", "add htop"),
            ("disk 20GiB with a /srv partition of 8GiB",),
            "scratch the storage stuff, back to how it was before the /srv thing",
            "",
        ),
    ],
)
def test_an_undo_restores_the_template_from_before_the_turns_it_names(
    run: Conversation, kept: tuple[str, ...], later: tuple[str, ...], undo: str, said: str
) -> None:
    for request in kept:
        run.turn(request)
    before = run.template()
    for request in later:
        run.turn(request)
    back = run.undo(undo)
    assert run.template() == before
    assert said in " ".join(back.changes), back.changes


def test_an_undo_of_more_changes_than_the_session_made_is_refused(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add htop")
    before = run.template()
    back = run.turn("undo the last three edits")
    assert back.not_applied and run.template() == before


def test_undoing_a_partition_keeps_a_disk_size_a_later_turn_set(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add a /srv/media partition of 40GiB")
    run.turn("the whole disk is 96GiB")
    run.undo("undo the /srv/media partition")
    disk = _doc(run.template())["disk"]
    assert disk["size"] == "96GiB"
    assert "/srv/media" not in [p.get("mountPoint") for p in disk["partitions"]]


def test_an_undo_of_a_part_no_turn_touched_names_the_part_not_the_undo_words(
    run: Conversation,
) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add jq")
    kept = run.template()
    answer = run.turn("undo the account stuff, our provisioning makes them")
    assert run.template() == kept
    assert "touched the account;" in answer.not_applied[0], answer.not_applied
    assert "remove undo" not in answer.not_applied[0]


def test_a_question_that_offers_a_package_changes_nothing_and_yes_adds_it(
    run: Conversation,
) -> None:
    run.turn("ubuntu 24.04 minimal raw image for x86_64")
    before = run.template()
    asked = run.turn("would fail2ban make sense on this box? it faces the internet")
    assert asked.status in OK and run.template() == before
    assert "explain" in run.nodes and asked.not_applied == []
    assert "Say 'yes' to add it (add fail2ban)" in asked.message
    accepted = run.turn("yes please")
    assert accepted.status in OK
    assert "fail2ban" in _packages(run.template())
    assert "accepts the offer" in accepted.route["reason"]


def test_a_reply_other_than_yes_drops_the_offer(run: Conversation) -> None:
    run.turn("ubuntu 24.04 minimal raw image for x86_64")
    run.turn("is it worth having tmux on it?")
    run.turn("no, and make the disk 8GiB")
    after = run.template()
    run.turn("yes")
    assert "tmux" not in _packages(run.template())
    assert run.template() == after


def test_an_undo_naming_a_swap_with_an_arrow_takes_back_that_swap(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64 with jq")
    run.turn("drop jq, we use yq instead")
    run.turn("hostname relay-3")
    run.undo("undo the jq -> yq swap please, jq is what the scripts call")
    packages = _packages(run.template())
    assert "jq" in packages and "yq" not in packages
    assert _doc(run.template())["systemConfig"]["hostname"] == "relay-3"


def test_a_setting_put_back_as_it_was_gets_what_it_held_back(run: Conversation) -> None:
    run.turn(
        "emt 3 raw image for x86_64, immutable, with secure boot: keys at "
        "/srv/sb/db.key, /srv/sb/db.crt and /srv/sb/db.cer"
    )
    locked = _doc(run.template())["systemConfig"]["immutability"]
    assert locked["enabled"] is True and locked["secureBootDBKey"] == "/srv/sb/db.key"
    run.turn("switch immutability off for now, the field team needs to patch things")
    assert _doc(run.template())["systemConfig"]["immutability"]["enabled"] is False
    run.turn("add tcpdump")
    run.undo("ok, switch immutability back on, just like before")
    system = _doc(run.template())["systemConfig"]
    assert system["immutability"] == locked
    assert "tcpdump" in system["packages"]


def test_both_after_a_question_weighing_two_formats_asks_for_the_two(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    asked = run.turn("for hyper-v, is vhd or vhdx the better pick?")
    assert asked.route["intent"] == "explain" and asked.route.get("compared") == ["vhd", "vhdx"]
    both = run.turn("ok, both then, and add htop")
    assert both.not_applied == [], both.not_applied
    doc = _doc(run.template())
    assert [a["type"] for a in doc["disk"]["artifacts"]] == ["vhd", "vhdx"]
    assert "htop" in doc["systemConfig"]["packages"]


def test_both_without_two_formats_weighed_just_before_names_nothing(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("for hyper-v, is vhd or vhdx the better pick?")
    run.turn("add jq")
    run.turn("both then")
    artifacts = [a["type"] for a in _doc(run.template())["disk"]["artifacts"]]
    assert "vhd" not in artifacts and "vhdx" not in artifacts


def test_add_it_after_asking_whether_the_image_has_something_adds_that(run: Conversation) -> None:
    run.turn("ubuntu 24.04 minimal raw image for x86_64")
    asked = run.turn("does the image ship with htop? our admins live in it")
    assert asked.route["intent"] == "explain" and asked.route.get("proposal") == "add htop"
    added = run.turn("ok add it, and jq as well")
    assert added.not_applied == [], added.not_applied
    assert {"htop", "jq"} <= set(_packages(run.template()))


def test_add_it_with_no_question_before_names_nothing_offered(run: Conversation) -> None:
    run.turn("ubuntu 24.04 minimal raw image for x86_64")
    run.turn("hostname kiosk-2")
    run.turn("add it")
    assert "htop" not in _packages(run.template())


def test_an_undo_naming_an_option_family_takes_back_every_key_of_it(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add isolcpus=2-3 to the kernel command line")
    kept = run.template()
    run.turn("hugepages: 64 pages of 2M")
    assert {"hugepagesz=2M", "hugepages=64"} <= set(_cmdline(run.template()))
    undone = run.turn("undo the hugepages, the app allocates its own")
    assert undone.not_applied == [], undone.not_applied
    assert not [t for t in _cmdline(run.template()) if "hugepage" in t]
    assert run.template() == kept  # "hugepages" names hugepagesz too: the whole turn


def test_back_to_before_a_refused_move_keeps_the_template_and_says_why(run: Conversation) -> None:
    run.turn("a debian 13 raw image for x86_64")
    run.turn("add htop")
    kept = run.template()
    refused = run.turn("and a netboot one for arm64?")
    assert refused.status == "unsupported"
    back = run.turn("alright, stay on x86_64 and return to what we had before the arm64 idea")
    assert back.route["intent"] == "undo" and back.status in OK, back.reasons
    assert back.not_applied == [] and run.template() == kept
    assert "Nothing taken back: the template is not on aarch64" in back.message


def test_back_to_before_a_move_takes_back_the_move_and_what_came_after(run: Conversation) -> None:
    run.turn("a debian 13 raw image for x86_64")
    run.turn("add htop")
    kept = run.template()
    run.turn("the same for arm64")
    run.turn("add tmux")
    back = run.turn("switch back to how it was before the arm64 change")
    assert back.route["intent"] == "undo" and back.status in OK, back.reasons
    assert run.template() == kept


def test_back_to_a_package_a_later_turn_swapped_out_restores_the_template_before_it(
    run: Conversation,
) -> None:
    run.turn("a debian 13 raw image with nginx and htop")
    kept = run.template()
    run.turn("replace nginx with apache2")
    run.undo("meh, let's go back to nginx please")
    assert run.template() == kept
    # a word no earlier template had is no way back: an ordinary request
    other = run.turn("switch back to lighttpd")
    assert other.route["intent"] != "undo"


def test_dropping_a_vendors_stuff_again_takes_back_the_turn_that_brought_it_in(
    run: Conversation,
) -> None:
    run.turn("a debian 13 raw image with htop")
    kept = run.template()
    run.turn(
        "add the repo https://pkgs.example.com/acme with suite trixie, component main, key "
        "https://pkgs.example.com/acme/key.asc, and install fleetd from it"
    )
    assert "fleetd" in _packages(run.template())
    run.undo("hmm, get rid of the acme stuff again, legal said no")
    assert run.template() == kept  # the repository and the package it served
