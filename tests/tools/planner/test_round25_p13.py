"""Round 25 (p13): products that are no packages, runtimes and tools asked by need or purpose,
the family's spelling of a product, jobs at set times, and questions about a named thing.

Each class is tried in reworded forms written for these tests, beside near-misses that must
not trigger.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import plan_after, plan_on, template_text

DEBIAN = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
EMT = "emt3-x86_64-minimal-raw.yml"


def added(plan: EditPlan) -> list[str]:
    return [n for op in plan.operations if op.op == "add_packages" for n in op.packages]


# --- a product that is no package of the family is reported, never added -----------------


@pytest.mark.parametrize(
    ("template", "said", "product", "kept"),
    [
        (DEBIAN, "a home server with samba for sharing files and plex", "plex", ["samba"]),
        (DEBIAN, "samba plus Plex please", "plex", ["samba"]),
        (UBUNTU, "and firefox and vscode", "vscode", ["firefox"]),
        (UBUNTU, "add git and visual studio code", "code", ["git"]),
        (UBUNTU, "VS Code too", "code", []),
    ],
)
def test_a_product_from_its_vendor_is_reported(
    template: str, said: str, product: str, kept: list[str]
) -> None:
    plan = plan_on(template, said)
    assert added(plan) == kept, plan.operations
    assert any(product in entry.lower() for entry in plan.not_applied), plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "and firefox and Slack",
        "htop, tmux and Kafka",
        "with git and Postman",
    ],
)
def test_a_products_name_listed_among_packages_is_reported(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    name = said.split()[-1]
    assert name.lower() not in added(plan)
    assert any(f"'{name}'" in entry for entry in plan.not_applied), plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "add htop. Slack is what the team uses",  # a statement of its own sentence
        "add htop, thanks Priya",  # who is thanked
        "add htop for Maria",  # who it is for
        "with htop and Docker",  # a capability the catalog knows
    ],
)
def test_a_capitalised_word_beside_a_package_that_is_no_product_asked_for(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert "htop" in added(plan)
    assert not any("a product's name" in entry for entry in plan.not_applied), plan.not_applied


def test_what_a_swap_replaces_asks_nothing_when_it_has_no_package() -> None:
    for said in ("ok instead of plex put minidlna", "instead of node-red put nodejs"):
        plan = plan_after(DEBIAN, "add samba", said)
        assert added(plan) and plan.not_applied == [], (said, plan)


def test_a_product_asked_for_is_still_reported() -> None:
    plan = plan_after(DEBIAN, "add samba", "add node-red instead of mosquitto")
    assert any("node-red" in entry for entry in plan.not_applied)


# --- a runtime asked by need, with a hedge after it --------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "it needs java 21 i think",
        "the server jar needs java 21, i believe",
        "it requires java 21 iirc",
        "needs java 21 i guess",
    ],
)
def test_a_runtime_asked_by_need_with_a_hedge_after_it(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == ["openjdk-21-jdk-headless"], plan
    assert plan.not_applied == []


def test_a_hedge_that_opens_the_clause_is_read_as_before() -> None:
    assert added(plan_on(UBUNTU, "i think it needs java 21")) == ["openjdk-21-jdk-headless"]
    assert added(plan_on(UBUNTU, "we need a java 17 runtime i think")) == [
        "openjdk-17-jre-headless"
    ]


def test_a_hedge_alone_asks_nothing() -> None:
    plan = plan_on(UBUNTU, "i think so")
    assert plan.operations == [] and plan.not_applied == []


# --- an ordinary word that is a package, given with its purpose ---------------------------


@pytest.mark.parametrize(
    "said",
    [
        "and screen so it keeps runing when i log out",
        "add screen so the server survives a logout",
        "also screen so it keeps running",
        "we need screen so the jobs stay up after logout",
        "and screen",
    ],
)
def test_screen_with_its_purpose_is_the_package(said: str) -> None:
    assert added(plan_on(UBUNTU, said)) == ["screen"]


@pytest.mark.parametrize(
    "said",
    [
        "and screen the logs for errors",  # the verb
        "and make sure it boots",  # "make sure"
        "and make it 8GB",  # a size
    ],
)
def test_the_ordinary_word_stays_a_word(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert not {"screen", "make"} & set(added(plan)), plan.operations


# --- a product's capitalised name maps to the family's package ---------------------------


@pytest.mark.parametrize(
    ("template", "said", "package"),
    [
        (UBUNTU, "It should have Chromium, and the device name should be sign-player.", None),
        (UBUNTU, "add chromium for the kiosk", None),
        (DEBIAN, "PostgreSQL and Redis on the box", "redis-server"),
        (DEBIAN, "we need Redis", "redis-server"),
        (UBUNTU, "install redis", "redis-server"),
    ],
)
def test_a_product_maps_to_the_familys_package(
    template: str, said: str, package: str | None
) -> None:
    names = added(plan_on(template, said))
    assert (package or "chromium-browser") in names, names
    assert "chromium" not in names and "redis" not in names


def test_chromium_on_debian_stays_chromium() -> None:
    assert added(plan_on(DEBIAN, "add chromium")) == ["chromium"]


# --- what the composer cannot do is reported ---------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Also a cron job that prunes docker images nightly.",
        "also a systemd timer that reboots it weekly",
        "plus a cron job that cleans /tmp",
        "we need:\n1) Debian 13\n2) Daily backups pushed to our S3 bucket",
    ],
)
def test_a_job_at_set_times_is_reported(said: str) -> None:
    plan = plan_on(EMT if "docker" in said else DEBIAN, said)
    # the schedules reason, or the bank's for a service or script ("a cron job that ...")
    reasons = ("at set times", "services, scripts and files")
    assert any(r in entry for entry in plan.not_applied for r in reasons), plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "also a big thank you to everyone",
        "also a reminder that the deck is due friday",
        "notes:\n- backups are pushed to our S3 bucket by the NAS\n- add htop",
    ],
)
def test_a_remark_about_a_schedule_or_an_also_is_no_request(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert not any("at set times" in entry for entry in plan.not_applied), plan.not_applied


def test_a_job_at_set_times_beside_the_tool_for_it_is_reported() -> None:
    plan = plan_on(DEBIAN, "and a nightly backup of /srv to the nas with rsync, can you do that?")
    assert added(plan) == ["rsync"]
    assert any("at set times" in entry for entry in plan.not_applied), plan.not_applied


@pytest.mark.parametrize(
    "said",
    ["add rsync for the nightly backups", "add chrony so the clock is right every day"],
)
def test_a_tool_for_a_job_at_set_times_is_only_the_tool(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert added(plan) and plan.not_applied == [], plan


def test_pushing_the_image_keeps_its_own_reason() -> None:
    plan = plan_on(DEBIAN, "push the final image to our S3 bucket")
    assert any("uploading the built image" in entry for entry in plan.not_applied)


# --- questions answered from the image or a short description ------------------------------


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("whats samba exactly", ["file", "samba"]),
        ("what is samba?", ["file"]),
        ("so what's chrony for", ["clock"]),
        ("what does docker do", ["Docker"]),
    ],
)
def test_what_a_named_thing_is(question: str, words: list[str]) -> None:
    answer = describe_template(template_text(DEBIAN), question)
    for word in words:
        assert word in answer, answer


@pytest.mark.parametrize(
    "question",
    ["what is this?", "what is it", "what is the hostname", "what's qzviewer"],
)
def test_a_question_that_names_no_known_thing_is_answered_as_before(question: str) -> None:
    answer = describe_template(template_text(DEBIAN), question)
    assert "Samba" not in answer and "Docker" not in answer


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("Confirm telnet and ftp are not in there.", ["telnet", "ftp"]),
        ("check that telnet is not installed", ["telnet"]),
        ("please verify gcc, make and gdb aren't in the image", ["gcc", "make", "gdb"]),
        ("make sure there is no telnet in the image", ["telnet"]),
    ],
)
def test_a_check_of_the_package_list_names_each_thing(question: str, names: list[str]) -> None:
    answer = describe_template(template_text(UBUNTU), question)
    for name in names:
        assert name in answer, answer
    assert answer.startswith("No"), answer


def test_a_check_of_something_the_image_has_says_yes() -> None:
    answer = describe_template(template_text(UBUNTU), "confirm openssh-server is installed")
    assert answer.startswith("Yes") and "openssh-server" in answer


def test_a_request_to_check_is_no_change() -> None:
    plan = plan_request(
        "Confirm telnet and ftp are not in there.", template_text(UBUNTU), mode="refine"
    )
    assert plan.operations == []


@pytest.mark.parametrize(
    "said",
    [
        "I mostly use VS Code for editing.",
        "we stream with plex from the old server",
        "Plex on the old machine kept crashing.",
        "Plex, Sonarr and Radarr ran on the old one.",
    ],
)
def test_a_product_told_of_is_no_request(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert plan.operations == [] and plan.not_applied == [], plan


def test_the_familys_spelling_of_chromium_follows_a_change_of_target() -> None:
    plan = plan_after(UBUNTU, "add chromium", "make it debian 13")
    assert "chromium-browser" not in added(plan)
