"""A vendor's pasted repository instructions become the repository they set up.

The key is the URL the keyring file was fetched from (followed from the fetching command to
the ``signed-by=`` that names the file), the suite is the sources line's (or the release's
own when the line computes it), and the housekeeping lines ask for nothing. The
instructions are written here in the shapes vendors publish, with example hosts.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner.vendor_repos import read_vendor_repositories
from tests.tools.planner.helpers import added, plan_on, the_repository

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
EL = "el10-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"


COMPUTED = "computed"  # a suite the line computes: the release's own codename, or none


_INSTALL_PAGE = (
    "an image for the field kits, they use the acme vpn. the vendor page says:\n\n"
    "curl -fsSL https://pkgs.acme.example/deb/trixie.gpg | sudo tee "
    "/usr/share/keyrings/acme.gpg >/dev/null\n"
    "curl -fsSL https://pkgs.acme.example/deb/trixie.list | sudo tee "
    "/etc/apt/sources.list.d/acme.list\n"
    "sudo apt-get update && sudo apt-get install acme-vpnd\n\n"
    "the list file has this one line in it\n"
    "deb [signed-by=/usr/share/keyrings/acme.gpg] https://pkgs.acme.example/deb trixie main\n"
)


@pytest.mark.parametrize(
    ("template", "request_text", "repository", "package", "clean"),
    [
        # the keyring fetched by curl is the key of the line that names it
        (
            UBUNTU,
            "add the vendor's repo and their agent:\n"
            "sudo install -m 0755 -d /etc/apt/keyrings\n"
            "sudo curl -fsSL https://pkg.example.com/linux/gpg -o /etc/apt/keyrings/vendor.asc\n"
            "sudo chmod a+r /etc/apt/keyrings/vendor.asc\n"
            'echo "deb [arch=$(dpkg --print-architecture) signed-by=/etc/apt/keyrings/vendor.asc] '
            'https://pkg.example.com/linux/ubuntu $(. /etc/os-release && echo "$VERSION_CODENAME") '
            'stable" | sudo tee /etc/apt/sources.list.d/vendor.list > /dev/null\n'
            "sudo apt-get update\n"
            "sudo apt-get install -y vendor-agent\n",
            (
                "https://pkg.example.com/linux/ubuntu",
                COMPUTED,
                "stable",
                "https://pkg.example.com/linux/gpg",
            ),
            "vendor-agent",
            True,
        ),
        # a key piped through gpg into a keyring, and a named suite
        (
            UBUNTU,
            "wget -q -O - https://apt.example.org/gpg.key | gpg --dearmor | "
            "sudo tee /etc/apt/keyrings/metrics.gpg > /dev/null\n"
            'echo "deb [signed-by=/etc/apt/keyrings/metrics.gpg] https://apt.example.org stable '
            'main" | sudo tee -a /etc/apt/sources.list.d/metrics.list\n',
            ("https://apt.example.org", "stable", "main", "https://apt.example.org/gpg.key"),
            None,
            False,
        ),
        # a deb822 stanza is one repository, and its type no package
        (
            UBUNTU,
            "add this source and install acme-hmi from it\n"
            "Types: deb\n"
            "URIs: https://repo.example.net/apt\n"
            "Suites: noble\n"
            "Components: main contrib\n"
            "Signed-By: https://repo.example.net/apt/key.gpg\n",
            (
                "https://repo.example.net/apt",
                "noble",
                "main contrib",
                "https://repo.example.net/apt/key.gpg",
            ),
            "acme-hmi",
            False,
        ),
        # a sources line pasted after the file that holds it was fetched is used (round 13)
        (
            DEBIAN,
            _INSTALL_PAGE,
            (
                "https://pkgs.acme.example/deb",
                "trixie",
                "main",
                "https://pkgs.acme.example/deb/trixie.gpg",
            ),
            "acme-vpnd",
            False,
        ),
        # a sources line continued with a backslash is one line (round 13)
        (
            UBUNTU,
            "ubuntu 24.04 with the acme agent from their repo:\n"
            "sudo curl -fsSL https://dl.acme.example/ubuntu/gpg -o /etc/apt/keyrings/acme.asc\n"
            "echo \\\n"
            '  "deb [arch=$(dpkg --print-architecture) signed-by=/etc/apt/keyrings/acme.asc] '
            "https://dl.acme.example/ubuntu \\\n"
            '  $(. /etc/os-release && echo "${UBUNTU_CODENAME:-$VERSION_CODENAME}") stable" | \\\n'
            "  sudo tee /etc/apt/sources.list.d/acme.list > /dev/null\n"
            "sudo apt-get update\n"
            "sudo apt-get install acme-agent\n",
            (
                "https://dl.acme.example/ubuntu",
                COMPUTED,
                "stable",
                "https://dl.acme.example/ubuntu/gpg",
            ),
            "acme-agent",
            False,
        ),
        # a sources line's arch option is read and its slashed suite kept (round 13)
        (
            UBUNTU,
            "their docs give `deb [ arch=amd64,arm64 signed-by=/usr/share/keyrings/dbvendor.gpg ] "
            "https://repo.dbvendor.example/apt/ubuntu noble/dbvendor/7.2 multiverse` and the key "
            "is https://www.dbvendor.example/static/server-7.2.asc. install dbvendor-server",
            (
                "https://repo.dbvendor.example/apt/ubuntu",
                "noble/dbvendor/7.2",
                "multiverse",
                "https://www.dbvendor.example/static/server-7.2.asc",
            ),
            "dbvendor-server",
            True,
        ),
    ],
)
def test_pasted_instructions_become_the_repository_they_set_up(
    template: str,
    request_text: str,
    repository: tuple[str, str, str, str],
    package: str | None,
    clean: bool,
) -> None:
    assert read_vendor_repositories(request_text)[2] == []
    result = plan_on(template, request_text)
    url, codename, component, pkey = the_repository(result)
    if repository[1] == COMPUTED:
        assert codename in (None, "noble"), codename
        codename = COMPUTED
    assert (url, codename, component, pkey) == repository
    assert package is None or package in added(result), result.operations
    assert "deb" not in added(result)
    # the housekeeping lines (the computed release, the arch option) ask for nothing
    assert not any("os-release" in n or "arch=" in n for n in result.not_applied)
    assert not clean or result.not_applied == [], result.not_applied


def test_a_sources_file_of_another_host_is_still_reported() -> None:
    request = _INSTALL_PAGE.replace(
        "https://pkgs.acme.example/deb/trixie.list", "https://mirror.example.org/acme.list"
    )
    _, _, missed = read_vendor_repositories(request)
    assert len(missed) == 1 and "mirror.example.org/acme.list" in missed[0]


def test_a_yum_repo_stanza_and_an_imported_key() -> None:
    request = (
        "sudo rpm --import https://rpm.example.com/RPM-GPG-KEY-acme\n"
        "[acme]\n"
        "name=ACME tools\n"
        "baseurl=https://rpm.example.com/el10/x86_64\n"
        "enabled=1\n"
        "gpgcheck=1\n"
    )
    url, _, _, pkey = the_repository(plan_on(EL, request))
    assert url == "https://rpm.example.com/el10/x86_64"
    assert pkey == "https://rpm.example.com/RPM-GPG-KEY-acme"


def test_a_sources_file_fetched_whole_is_reported_not_guessed() -> None:
    text, notices, missed = read_vendor_repositories(
        "curl -fsSL https://pkgs.example.com/stable/noble.gpg | "
        "sudo tee /usr/share/keyrings/mesh.gpg >/dev/null\n"
        "curl -fsSL https://pkgs.example.com/stable/noble.mesh.list | "
        "sudo tee /etc/apt/sources.list.d/mesh.list\n"
        "sudo apt-get install mesh-agent"
    )
    assert missed and "noble.mesh.list" in missed[0]
    assert "apt-get install mesh-agent" in text
    assert "add repo" not in text  # no sources line was given: nothing is made up


def test_a_sources_line_said_in_a_sentence_is_left_to_the_repository_rule() -> None:
    said = "add deb https://mirror.example.com/debian trixie main please"
    assert read_vendor_repositories(said) == (said, [], [])


def test_the_vendors_spelling_replaces_the_distros_name_of_the_same_package() -> None:
    request = (
        "add docker from the vendor's repo:\n"
        "sudo curl -fsSL https://pkg.example.com/linux/gpg -o /etc/apt/keyrings/vendor.asc\n"
        'echo "deb [signed-by=/etc/apt/keyrings/vendor.asc] https://pkg.example.com/linux/ubuntu '
        '$(lsb_release -cs) stable" | sudo tee /etc/apt/sources.list.d/vendor.list\n'
        "sudo apt-get install -y docker-ce docker-ce-cli\n"
    )
    names = added(plan_on(UBUNTU, request))
    assert {"docker-ce", "docker-ce-cli"} <= set(names)
    assert "docker.io" not in names  # the distro's engine conflicts with the vendor's
    # without the vendor's repository, "docker" is the distro's own
    assert "docker.io" in added(plan_on(UBUNTU, "add docker"))
