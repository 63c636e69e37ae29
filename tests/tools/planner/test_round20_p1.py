"""Helper p1's round in session 20: package names a family knows, language modules, swaps.

Found on dev15; every sentence here is written for the test.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, plan_after, plan_on, removed

AZL = "azl3-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


# --- an upstream tool's name is known on an rpm-family target -----------------------


@pytest.mark.parametrize(
    ("template", "said", "name"),
    [
        (AZL, "Packages: nginx, openssl, curl.", "openssl"),
        (AZL, "please also install openssl and jq", "openssl"),
        (EL10, "the nodes need environment-modules, numactl and gcc", "environment-modules"),
        (EL10, "add hwloc plus environment-modules", "environment-modules"),
        (EL10, "openssl and rsync should be in there too", "openssl"),
    ],
)
def test_an_upstream_name_is_a_package_on_an_rpm_target(
    template: str, said: str, name: str
) -> None:
    result = plan_on(template, said)
    assert name in added(result), result
    assert not result.not_applied, result


def test_a_name_debian_alone_spells_so_is_not_taken_on_an_rpm_target() -> None:
    # nfs-common is Debian's half of nfs-utils: the catalog spells it otherwise on rpm
    from oic_ai.tools.planner.rules.package_known import upstream_names

    assert "nfs-common" not in upstream_names()
    assert "apache2" not in upstream_names()
    assert "openssl" in upstream_names()


# --- a language's modules named by their own names ----------------------------------


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("python3 with numpy, scipy and matplotlib", ["python3-numpy", "python3-scipy"]),
        ("add numpy and pandas for python3, plus htop", ["python3-numpy", "python3-pandas"]),
        ("install the python modules: scipy and matplotlib", ["python3-scipy"]),
        ("we want Python 3 with pandas please", ["python3-pandas"]),
    ],
)
def test_a_language_module_is_its_packaged_name(said: str, names: list[str]) -> None:
    result = plan_on(UBUNTU, said)
    for name in names:
        assert name in added(result), result
    assert not {"numpy", "scipy", "matplotlib", "pandas"} & set(added(result)), result


def test_a_name_outside_the_language_list_stays_as_written() -> None:
    result = plan_on(UBUNTU, "python3 with numpy and scipy, gnuplot, htop")
    assert "gnuplot" in added(result), result
    assert "python3-gnuplot" not in added(result), result
    assert "python3-htop" not in added(result), result


def test_no_language_no_prefix() -> None:
    result = plan_on(UBUNTU, "add gnuplot and htop")
    assert not [n for n in added(result) if n.startswith("python3-")], result


# --- "change X to Y" swaps one package for another ---------------------------------

INSTALLED = "add apache2, nano and chrony"


@pytest.mark.parametrize(
    ("said", "gone", "new"),
    [
        ("change apache to nginx + php-fpm", "apache2", "nginx"),
        ("switch apache over to caddy", "apache2", "caddy"),
        ("move the web server from apache to nginx", "apache2", "nginx"),
        ("could you change our timesync from chrony to ntp", "chrony", "ntp"),
        ("change nano to vim", "nano", "vim"),
    ],
)
def test_change_one_package_to_another_swaps_them(said: str, gone: str, new: str) -> None:
    result = plan_after(DEBIAN, INSTALLED, said)
    assert gone in removed(result), result
    assert new in added(result), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said", ["change the hostname to gw1", "change the disk to 8GiB", "switch the image to raw"]
)
def test_change_a_field_to_a_value_is_no_swap(said: str) -> None:
    result = plan_after(DEBIAN, INSTALLED, said)
    assert not removed(result), result
    assert not added(result), result


# --- a job done elsewhere, and the tool it is done with ------------------------------


@pytest.mark.parametrize(
    ("template", "said", "kept", "never"),
    [
        (EL10, "add htop, the fstab we do with ansible", "htop", {"fstab", "ansible"}),
        (DEBIAN, "install jq, we manage the hosts with ansible anyway", "jq", {"ansible"}),
        (DEBIAN, "add git, the config they deploy with salt", "git", {"salt"}),
        (EL10, "put curl in; the mounts we handle with puppet", "curl", {"mounts", "puppet"}),
    ],
)
def test_a_job_done_elsewhere_names_no_package(
    template: str, said: str, kept: str, never: set[str]
) -> None:
    result = plan_on(template, said)
    assert kept in added(result), result
    assert not never & set(added(result)), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said", ["we want an image with ansible and git", "add ansible, we need it on the box"]
)
def test_a_tool_asked_for_is_still_added(said: str) -> None:
    assert "ansible" in added(plan_on(DEBIAN, said))


# --- "X itself": that very package -------------------------------------------------


@pytest.mark.parametrize(
    "said",
    ["and wordpress itself, if debian has it", "also add wordpress itself", "wordpress itself too"],
)
def test_a_name_itself_is_that_package(said: str) -> None:
    assert "wordpress" in added(plan_on(DEBIAN, said))


def test_an_unknown_name_itself_adds_nothing() -> None:
    assert not added(plan_on(DEBIAN, "and qzviewer itself"))


# --- putting back what a swap replaced undoes the swap -----------------------------


def test_putting_back_the_replaced_package_takes_out_its_replacements() -> None:
    from oic_ai.tools.applier import apply_plan
    from oic_ai.tools.restores import restored_request
    from tests.tools.planner.helpers import template_text

    first = apply_plan(template_text(DEBIAN), plan_on(DEBIAN, "add apache2 and php")).text
    second = apply_plan(
        first, plan_after(DEBIAN, "add apache2 and php", "change apache to nginx + php-fpm")
    ).text
    for said in (
        "bring apache2 back",
        "put the apache web server back",
    ):
        request = restored_request(said, second, [template_text(DEBIAN), first])
        assert "add apache2" in request, request
        assert "remove nginx, php-fpm" in request, request
    # "like before" right after a turn that was only the swap: kept as written, so the
    # conversation routes it as an undo of that turn (round 23, p7)
    said = "put apache back like before"
    assert restored_request(said, second, [template_text(DEBIAN), first]) == said


def test_putting_back_a_plain_removal_removes_nothing() -> None:
    from oic_ai.tools.applier import apply_plan
    from oic_ai.tools.restores import restored_request
    from tests.tools.planner.helpers import template_text

    first = apply_plan(template_text(DEBIAN), plan_on(DEBIAN, "add htop and jq")).text
    second = apply_plan(first, plan_after(DEBIAN, "add htop and jq", "remove htop")).text
    request = restored_request("put htop back", second, [template_text(DEBIAN), first])
    assert request.startswith("add htop"), request
    assert "remove" not in request, request


def test_putting_back_what_a_turn_removed_beside_an_unrelated_addition_keeps_the_addition() -> None:
    from oic_ai.tools.applier import apply_plan
    from oic_ai.tools.restores import restored_request
    from tests.tools.planner.helpers import template_text

    first = apply_plan(template_text(DEBIAN), plan_on(DEBIAN, "add mdadm")).text
    second = apply_plan(
        first, plan_after(DEBIAN, "add mdadm", "remove mdadm and add ipmitool")
    ).text
    request = restored_request("could you put mdadm back", second, [template_text(DEBIAN), first])
    assert "add mdadm" in request, request
    assert "ipmitool" not in request, request


# --- packages in a pasted list beside a repository ----------------------------------


@pytest.mark.parametrize(
    ("said", "names"),
    [
        (
            "- OS: Debian 13\n- Grafana from the Grafana repo: deb https://apt.grafana.com "
            "stable main\n- packages: grafana, mosquitto",
            ["grafana", "mosquitto"],
        ),
        (
            "use the Acme repo, deb https://apt.acme.example stable main\nPackages: acme-agent, jq",
            ["acme-agent", "jq"],
        ),
        ("* extra packages: htop and grafana\n* the grafana repo is fine", ["htop", "grafana"]),
        (
            "add the grafana repo: deb https://apt.grafana.com stable main\ninstall grafana and jq",
            ["grafana", "jq"],
        ),
    ],
)
def test_a_packages_header_lists_packages_beside_a_repository(said: str, names: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    for name in names:
        assert name in added(result), result
    assert not result.not_applied, result


def test_a_sources_line_ends_at_its_line() -> None:
    result = plan_on(DEBIAN, "deb https://apt.grafana.com stable main\ninstall grafana")
    repos = [op for op in result.operations if op.op == "add_repository"]
    assert repos and getattr(repos[0], "component", None) == "main", result


@pytest.mark.parametrize(
    "said",
    [
        "They now also want InfluxDB. The mail says: install influxdb2",
        "we'd like Telegraf as well, so install telegraf",
        "Also Grafana please; the package is grafana-server",
    ],
)
def test_a_product_whose_package_the_request_installs_is_read(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert added(result), result
    assert not result.not_applied, result


def test_a_product_with_no_package_in_the_request_is_still_reported() -> None:
    result = plan_on(DEBIAN, "We need Foobarix too. install htop")
    assert result.not_applied, result


# --- needs named by what they do ------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "with file sharing for the windows pcs and sharing the printer",
        "we need sharing the printers too",
        "add printer sharing",
        "and also the print sharing please",
    ],
)
def test_sharing_the_printer_is_printing(said: str) -> None:
    assert "cups" in added(plan_on(DEBIAN, said))


@pytest.mark.parametrize("said", ["add monitoring of the nodes", "add sharing the cake"])
def test_a_gerund_whose_turned_phrase_names_nothing_adds_no_printing(said: str) -> None:
    assert "cups" not in added(plan_on(DEBIAN, said))


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("It will be a little home server for sharing the photos with samba", "samba"),
        ("it will be a server with samba and htop", "samba"),
        ("This is a gateway with node monitoring", "prometheus-node-exporter"),
        ("a kiosk for showing the menu with chromium", "chromium"),
    ],
)
def test_what_the_machine_comes_with_is_added(said: str, name: str) -> None:
    result = plan_on(DEBIAN, said, mode="create")
    assert name in added(result), result


@pytest.mark.parametrize(
    "said", ["it was a mess with ansible", "It is a box with two nics", "it is a mess with git"]
)
def test_a_statement_of_something_else_adds_nothing(said: str) -> None:
    assert not added(plan_on(DEBIAN, said, mode="create"))


@pytest.mark.parametrize(
    ("said", "names"),
    [
        (
            "Also we need the NVIDIA driver for the cards, and the CUDA toolkit",
            ["nvidia-driver-550"],
        ),
        ("install cuda please", ["nvidia-cuda-toolkit"]),
        ("add the nvidia drivers", ["nvidia-driver-550"]),
        ("put a lightweight desktop on it", ["xfce4"]),
        # Ubuntu's Chromium is chromium-browser (the deb that installs the snap)
        ("ubuntu with a light desktop and chromium", ["xfce4", "chromium-browser"]),
    ],
)
def test_named_by_what_it_is_on_ubuntu(said: str, names: list[str]) -> None:
    result = plan_on(UBUNTU, said)
    for name in names:
        assert name in added(result), result


def test_the_nvidia_driver_on_an_rpm_target_is_reported_not_guessed() -> None:
    result = plan_on(EL10, "add the nvidia driver")
    assert not added(result), result
    assert result.not_applied, result


@pytest.mark.parametrize(
    "said",
    ["for the analysis: R, python3 with numpy", "install R and gnuplot", "add python3 and R"],
)
def test_r_in_a_list_of_programs_is_r_base(said: str) -> None:
    assert "r-base" in added(plan_on(UBUNTU, said))


@pytest.mark.parametrize("said", ["plan R for later", "we call it plan R, add htop"])
def test_a_capital_r_outside_a_list_adds_no_r(said: str) -> None:
    assert "r-base" not in added(plan_on(UBUNTU, said))


def test_a_capability_word_naming_a_mirror_is_not_reported() -> None:
    said = "add our cuda mirror: url https://mirror.example.org/cuda/el10 call it cuda"
    result = plan_on(EL10, said)
    assert not result.not_applied, result


def test_a_hyphenated_name_from_a_repository_keeps_its_spelling() -> None:
    first = "add our cuda mirror: url https://mirror.example.org/cuda/el10 call it cuda"
    for said in ("and from that repo install cuda-toolkit", "install cuda-toolkit from it"):
        result = plan_after(EL10, first, said)
        assert "cuda-toolkit" in added(result), result


# --- a role of a client/server pair: "no broker" ------------------------------------

MQTT = "add mosquitto, mosquitto-clients and nginx"


@pytest.mark.parametrize(
    "said",
    [
        "there only mosquitto-clients, no broker",
        "no broker please",
        "we only need mosquitto-clients there, drop the broker",
        "remove the broker, the gateway has one",
    ],
)
def test_no_broker_removes_the_broker_and_keeps_the_clients(said: str) -> None:
    result = plan_after(DEBIAN, MQTT, said)
    assert "mosquitto" in removed(result), result
    assert "mosquitto-clients" not in removed(result), result


def test_no_broker_where_none_is_installed_removes_nothing() -> None:
    assert not removed(plan_after(DEBIAN, "add nginx", "no broker please"))


@pytest.mark.parametrize(
    ("said", "name"),
    [
        (
            "drop that, we're going with node exporter straight from debian",
            "prometheus-node-exporter",
        ),
        ("I'm going with htop then", "htop"),
        ("ok we'll go with chrony", "chrony"),
        ("we are going with caddy", "caddy"),
    ],
)
def test_a_choice_said_of_oneself_adds_it(said: str, name: str) -> None:
    assert name in added(plan_on(DEBIAN, said))


def test_a_past_choice_adds_nothing() -> None:
    assert not added(plan_on(DEBIAN, "we went with ansible last year"))


@pytest.mark.parametrize(
    ("template", "said", "name"),
    [
        (EL10, "OK, then add at least the nfs client package", "nfs-utils"),
        (DEBIAN, "add at least the nfs client package", "nfs-common"),
        (EL10, "install at least curl and jq", "curl"),
        (DEBIAN, "at the very least put htop in", "htop"),
    ],
)
def test_a_hedge_on_how_much_is_no_place(template: str, said: str, name: str) -> None:
    result = plan_on(template, said)
    assert name in added(result), result
    assert not result.not_applied, result


DOCKER_REPO = (
    "add docker's repo: deb https://download.docker.com/linux/debian bookworm stable, "
    "key is https://download.docker.com/linux/debian/gpg. "
)


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("then take docker-ce from there, no docker.io", "docker-ce"),
        ("grab docker-ce and containerd.io out of that repo", "containerd.io"),
        ("get docker-buildx-plugin from it", "docker-buildx-plugin"),
        ("use docker-ce from docker's repo please", "docker-ce"),
    ],
)
def test_a_name_taken_from_a_repository_is_added(said: str, name: str) -> None:
    result = plan_on(DEBIAN, DOCKER_REPO + said)
    assert name in added(result), result
    assert not result.not_applied, result


def test_taking_from_a_repository_that_is_not_there_adds_nothing() -> None:
    assert not added(plan_on(DEBIAN, "take qzviewer from there"))
