"""A vendor's pasted repository instructions become the repository they set up.

The key is the URL the keyring file was fetched from (followed from the fetching command to
the ``signed-by=`` that names the file), the suite is the sources line's (or the release's
own when the line computes it), and the housekeeping lines ask for nothing. The
instructions are written here in the shapes vendors publish, with example hosts.
"""

from __future__ import annotations

from oic_ai.tools.planner.vendor_repos import read_vendor_repositories
from tests.tools.planner.helpers import added, plan_on, the_repository

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
EL = "el10-x86_64-minimal-raw.yml"


def test_the_keyring_fetched_by_curl_is_the_key_of_the_line_that_names_it() -> None:
    request = (
        "add the vendor's repo and their agent:\n"
        "sudo install -m 0755 -d /etc/apt/keyrings\n"
        "sudo curl -fsSL https://pkg.example.com/linux/gpg -o /etc/apt/keyrings/vendor.asc\n"
        "sudo chmod a+r /etc/apt/keyrings/vendor.asc\n"
        'echo "deb [arch=$(dpkg --print-architecture) signed-by=/etc/apt/keyrings/vendor.asc] '
        'https://pkg.example.com/linux/ubuntu $(. /etc/os-release && echo "$VERSION_CODENAME") '
        'stable" | sudo tee /etc/apt/sources.list.d/vendor.list > /dev/null\n'
        "sudo apt-get update\n"
        "sudo apt-get install -y vendor-agent\n"
    )
    result = plan_on(UBUNTU, request)
    url, codename, component, pkey = the_repository(result)
    assert (url, component, pkey) == (
        "https://pkg.example.com/linux/ubuntu",
        "stable",
        "https://pkg.example.com/linux/gpg",
    )
    assert codename in (None, "noble")  # the release's own codename, computed
    assert "vendor-agent" in added(result)
    assert result.not_applied == [], result.not_applied


def test_a_key_piped_through_gpg_into_a_keyring_and_a_named_suite() -> None:
    request = (
        "wget -q -O - https://apt.example.org/gpg.key | gpg --dearmor | "
        "sudo tee /etc/apt/keyrings/metrics.gpg > /dev/null\n"
        'echo "deb [signed-by=/etc/apt/keyrings/metrics.gpg] https://apt.example.org stable main"'
        " | sudo tee -a /etc/apt/sources.list.d/metrics.list\n"
    )
    assert the_repository(plan_on(UBUNTU, request)) == (
        "https://apt.example.org",
        "stable",
        "main",
        "https://apt.example.org/gpg.key",
    )


def test_a_deb822_stanza_is_one_repository_and_its_type_no_package() -> None:
    request = (
        "add this source and install acme-hmi from it\n"
        "Types: deb\n"
        "URIs: https://repo.example.net/apt\n"
        "Suites: noble\n"
        "Components: main contrib\n"
        "Signed-By: https://repo.example.net/apt/key.gpg\n"
    )
    result = plan_on(UBUNTU, request)
    assert the_repository(result) == (
        "https://repo.example.net/apt",
        "noble",
        "main contrib",
        "https://repo.example.net/apt/key.gpg",
    )
    assert "deb" not in added(result)
    assert "acme-hmi" in added(result)


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
