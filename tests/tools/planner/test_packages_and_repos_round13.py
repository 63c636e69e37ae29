"""Packages and repositories read by their role (issue 21, round 13).

One's own service named after a comma and said to do something is no package; what goes
"with" a removed thing is removed too; a vendor's whole setup ("the acme stuff") takes its
repository; a product's word removes the names that carry it; a vendor's pasted lines keep
the install after "apt-get update &&" (the pasted sources lines of this round, continued with
a backslash or pasted after the file that holds them was fetched, are rows of the table in
test_vendor_repositories). The sentences are this file's own; the hosts are example hosts.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import DeleteValue, EditPlan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import added, plan_on, removed, the_repository, with_packages

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"


def _after(template: str, *requests: str) -> str:
    text = (OUR_TEMPLATES / template).read_text(encoding="utf-8")
    for request in requests:
        text = apply_plan(text, plan_request(request, text, mode="refine")).text
    return text


def _deleted(result: EditPlan) -> list[str]:
    return [op.path for op in result.operations if isinstance(op, DeleteValue)]


def test_ones_own_service_said_to_do_something_after_a_comma_is_no_package() -> None:
    result = plan_on(UBUNTU, "install redis, our billing service 'ledgerd' needs it")
    assert "ledgerd" not in added(result)
    assert "redis" in added(result) or "redis-server" in added(result)


def test_a_predicate_read_as_a_paraphrase_still_makes_its_subject_a_statement() -> None:
    # "runs in a container" is read as a paraphrase; the service before it stays the user's
    request = (
        "needs redis and a container runtime, our billing service 'ledgerd' runs in a container"
    )
    result = plan_on(UBUNTU, request)
    assert "ledgerd" not in added(result)
    # the catalog's redis is the server package on the deb family (redis-server)
    assert {"redis-server", "docker.io"} <= set(added(result))


_VENDOR = (
    "add repo https://pkgs.acme.example/apt with suite acme-stable, component main, "
    "key https://pkgs.acme.example/key.asc",
    "from that repo we need the package acme-uploader, and also jq",
)


def test_what_goes_with_a_removed_repository_is_removed_too() -> None:
    text = _after(DEBIAN, *_VENDOR)
    for request in (
        "drop the acme repo for now. and the uploader with it of course",
        "remove the acme repo; the uploader goes with it",
    ):
        result = plan_request(request, text, mode="refine")
        assert _deleted(result) == ["packageRepositories[url=https://pkgs.acme.example/apt]"]
        assert removed(result) == ["acme-uploader"], request
        assert result.not_applied == [], result.not_applied


def test_with_it_after_no_removal_removes_nothing() -> None:
    text = _after(DEBIAN, *_VENDOR)
    result = plan_request("add tmux and the uploader with it", text, mode="refine")
    assert removed(result) == []
    assert "tmux" in added(result)


def test_a_vendors_whole_setup_takes_its_repository_and_its_package() -> None:
    text = _after(DEBIAN, *_VENDOR)
    result = plan_request("get rid of all the acme stuff, legal said no", text, mode="refine")
    assert _deleted(result) == ["packageRepositories[url=https://pkgs.acme.example/apt]"]
    assert removed(result) == ["acme-uploader"]
    assert "jq" not in removed(result)


def test_stuff_that_names_no_repository_host_deletes_no_repository() -> None:
    text = _after(DEBIAN, *_VENDOR)
    result = plan_request("drop the json stuff", text, mode="refine")
    assert _deleted(result) == []


def test_a_products_word_removes_the_name_and_its_plugin() -> None:
    text = with_packages("docker-buildx", "docker-buildx-plugin", "docker-compose-plugin")
    result = plan_request("lose buildx, nobody uses it", text, mode="refine")
    assert sorted(removed(result)) == ["docker-buildx", "docker-buildx-plugin"]
    result = plan_request("scrap the buildx plugin", text, mode="refine")
    assert removed(result) == ["docker-buildx-plugin"]


def test_words_for_what_software_is_set_up_with_are_never_packages() -> None:
    for request in (
        "also ship the vector agent config so the logs go to our collector",
        "install the telegraf agent config too",
        "include the ssh daemon config from our repo",
        "add docker, the builds need the socket",
    ):
        result = plan_on(UBUNTU, request)
        assert not {"config", "socket", "settings"} & set(added(result)), request


def test_a_repositorys_own_name_before_its_kind_and_noun_is_no_package() -> None:
    request = (
        "and add our nexus yum repo: https://nexus.corp.example/repository/yum-hosted, "
        "key at https://nexus.corp.example/keys/public.asc"
    )
    result = plan_on("azl3-x86_64-minimal-raw.yml", request)
    assert "nexus" not in added(result)
    assert the_repository(result)[0] == "https://nexus.corp.example/repository/yum-hosted"


def test_words_sharing_one_noun_name_siblings_of_the_name_before_them() -> None:
    result = plan_on(UBUNTU, "for playback: gstreamer1.0-tools plus the base and ugly plugins")
    assert set(added(result)) >= {
        "gstreamer1.0-tools",
        "gstreamer1.0-plugins-base",
        "gstreamer1.0-plugins-ugly",
    }
    result = plan_on(UBUNTU, "add python3-serial and the usb and yaml bindings")
    assert set(added(result)) >= {"python3-serial", "python3-usb", "python3-yaml"}


def test_ones_own_package_with_no_repository_to_serve_it_is_reported() -> None:
    for request in (
        "put our label printer daemon on it, the package is zebra-printd",
        "install the package gw-agentd, it is our vendor's agent",
    ):
        result = plan_on(UBUNTU, request)
        assert added(result) == [], request
        assert len(result.not_applied) == 1, result.not_applied
        assert "no repository" in result.not_applied[0]


def test_ones_own_package_is_added_once_a_repository_can_serve_it() -> None:
    text = _after(
        UBUNTU,
        "add repo https://apt.printers.example/ubuntu with suite noble, component main, "
        "key https://apt.printers.example/key.asc",
    )
    result = plan_request(
        "put our label printer daemon on it, the package is zebra-printd", text, mode="refine"
    )
    assert added(result) == ["zebra-printd"]


def test_a_key_url_said_beside_a_keyring_path_is_the_repositorys_key() -> None:
    request = (
        "here is the line they gave us:\n"
        "deb [signed-by=/usr/share/keyrings/printers.gpg] https://apt.printers.example/ubuntu "
        "noble main\n"
        "and the key: https://apt.printers.example/key.asc\n"
    )
    assert the_repository(plan_on(UBUNTU, request))[3] == "https://apt.printers.example/key.asc"


def test_the_one_after_a_name_stands_for_its_kind() -> None:
    result = plan_on(UBUNTU, "install python3-serial and the usb one too")
    assert set(added(result)) == {"python3-serial", "python3-usb"}


def test_a_package_marked_as_one_after_install_is_added() -> None:
    # everyday words in such a phrase ("the good plugins") are rows of round 15 h1's table
    assert added(plan_on(UBUNTU, "install the package vlc")) == ["vlc"]


@pytest.mark.parametrize(
    ("request_text", "removed", "added"),
    [
        ("drop isolcpus and htop", {"htop"}, set()),
        ("remove the console=ttyS0,115200 and also less", {"less"}, set()),
        ("delete the quiet flag and htop", {"htop"}, set()),
        ("get rid of loglevel=4, plus less", {"less"}, set()),
        # the verb heads its own clause only: an add after it keeps its reading
        ("drop isolcpus, add htop", set(), {"htop"}),
        ("add quiet and htop", set(), {"htop"}),
        ("hostname box1 and htop", set(), {"htop"}),
    ],
)
def test_a_removal_another_rule_read_reaches_over_and(
    request_text: str, removed: set[str], added: set[str]
) -> None:
    template = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text()
    template = template.replace("    - less\n", "    - less\n    - htop\n") if removed else template
    plan = plan_request(request_text, template, mode="refine")
    ops = {op.op: set(getattr(op, "packages", []) or []) for op in plan.operations}
    assert ops.get("remove_packages", set()) == removed, plan.operations
    assert ops.get("add_packages", set()) == added, plan.operations
