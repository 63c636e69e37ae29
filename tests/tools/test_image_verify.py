"""The verifier on small real images: every row kind, known behaviours, and what differs.

The images are made by the test itself (``mkfs.ext4 -d``, ``mkfs.fat``, ``sfdisk`` on a
plain file; tests/support/disk_images.py), laid out and filled like the composer's Debian
image, so ``make test-fast`` covers the reading and the comparison without the composer.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from oic_ai.services.build import verify_image
from oic_ai.stores.composer_behaviour import load_behaviours
from oic_ai.stores.errors import UserInputError
from oic_ai.tools.composer_fit import PREDICATES
from oic_ai.tools.image_verify import CHECK_KINDS, VerifyReport, template_data
from tests.support.disk_images import (
    BUILT_ROOT,
    ROOT_PARTUUID,
    TEMPLATE,
    built_image,
)


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("image")
    return built_image(folder / "fixture-image-1.0.raw")


def _rows(report: VerifyReport) -> dict[str, Any]:
    return {check.what: check for check in report.checks}


def test_a_faithful_build_matches_on_every_row_but_the_known_ones(image: Path) -> None:
    report = verify_image(image, TEMPLATE)
    rows = _rows(report)
    differing = {c.what: c.known for c in report.checks if not c.ok}
    assert differing == {
        "user ops password": "user-password-deleted",
        "kernel root device": "cmdline-stray-loop-root",
        "kernel version": "kernel-version-ignored",
    }
    assert report.explained and not report.matches
    assert rows["image name"].ok and rows["hostname"].found == "fixture-host"
    assert rows["partitions"].expected == rows["partitions"].found == "3"
    assert rows["partition data size"].found == "16MiB at 41MiB"
    assert rows["partition data mount point"].found == "/data"  # fstab UUID= to the partition
    assert rows["partition boot file system"].found == "fat32"
    assert rows["partition rootfs size"].ok  # "0": to the end of the disk
    assert rows["partition boot file system label"].found == "ESP"
    assert rows["partition rootfs file system label"].found == "debian-root"
    assert rows["partition boot mount options"].found == "umask=0077"
    assert rows["user ops groups"].found == "ops, sudo"
    assert rows["user ops sudo"].found.startswith("yes (%sudo")
    assert rows["package jq"].found == "1.7.1-6"
    assert rows["package awk"].found == "provided by mawk"
    assert rows["os"].ok and rows["architecture"].found == "amd64"
    assert rows["kernel root device"].found == f"root=/dev/loop0p3 root=PARTUUID={ROOT_PARTUUID}"
    assert set(report.known) == set(differing.values())


def test_what_the_composer_did_not_do_is_an_unexplained_difference(
    image: Path, tmp_path: Path
) -> None:
    asked = (
        TEMPLATE.replace("hostname: fixture-host", "hostname: edge-07")
        .replace("    - htop\n", "    - htop\n    - tmux\n")  # in dpkg status, but removed
        .replace("end: 57MiB", "end: 65MiB")
        .replace("groups: [sudo]", "groups: [sudo, docker]")
        .replace("fsLabel: debian-root", "fsLabel: root")
        .replace("mountOptions: defaults", "mountOptions: defaults,noatime")
    )
    report = verify_image(image, asked)
    unexplained = {c.what: (c.expected, c.found) for c in report.unexplained}
    assert unexplained == {
        "hostname": ("edge-07", "fixture-host"),
        "package tmux": ("installed", "not installed"),
        "partition data size": ("24MiB at 41MiB", "16MiB at 41MiB"),
        "user ops groups": ("docker, sudo", "ops, sudo"),
        "partition rootfs file system label": ("root", "debian-root"),
        "partition rootfs mount options": ("defaults,noatime", "defaults"),
    }
    assert not report.explained


def test_a_template_without_a_hostname_is_explained_by_the_build_host(image: Path) -> None:
    report = verify_image(image, TEMPLATE.replace("  hostname: fixture-host\n", ""))
    row = _rows(report)["hostname"]
    assert (row.expected, row.found, row.ok, row.known) == (
        "not set by the template",
        "fixture-host",
        False,
        "hostname-from-build-host",
    )


def test_a_password_hash_is_compared_and_never_shown(image: Path) -> None:
    crypt = BUILT_ROOT["/etc/shadow"].split("builder:", 1)[1].split(":", 1)[0]  # type: ignore[union-attr]
    asked = TEMPLATE.replace(
        "    - name: ops\n",
        f'    - name: builder\n      password: "{crypt}"\n      hash_algo: sha512\n'
        "      passwordMaxAge: 90\n      shell: /bin/zsh\n    - name: ops\n",
    )
    report = verify_image(image, asked)
    rows = _rows(report)
    assert rows["user builder password"].ok
    assert rows["user builder password"].found == "the template's hash"
    assert rows["user builder password max age"].ok
    shell = rows["user builder shell"]
    assert (shell.found, shell.known) == ("/bin/bash", "user-shell-ignored")
    assert crypt not in json.dumps(report.to_json())
    other_text = asked.replace(crypt, "$6$othersalt$Different0123456789")
    other = verify_image(image, other_text)
    assert not _rows(other)["user builder password"].ok
    assert _rows(other)["user builder password"].known is None  # a hash that was set
    # measured: without hash_algo the composer makes the hash itself the password
    bare_text = other_text.replace("      hash_algo: sha512\n", "")
    bare = _rows(verify_image(image, bare_text))
    assert bare["user builder password"].known == "password-hash-without-hash-algo"


def test_sudo_rules_come_from_sudoers_d_but_not_from_files_sudo_skips(
    image: Path, tmp_path: Path
) -> None:
    asked = TEMPLATE.replace("groups: [sudo]", "sudo: true")
    asked = asked.replace("- name: ops", "- name: builder")
    report = verify_image(image, asked)
    sudo = _rows(report)["user builder sudo"]
    assert not sudo.ok and sudo.found == "no sudoers rule for the user or its groups"
    root = dict(BUILT_ROOT)
    root["/etc/sudoers.d/builder"] = "builder ALL=(ALL) ALL\n"
    granted = built_image(tmp_path / "fixture-image-1.0.raw", root)
    assert _rows(verify_image(granted, asked))["user builder sudo"].found == (
        "yes (builder ALL=(ALL) ALL)"
    )


def test_a_compressed_image_is_unpacked_sparse_and_removed(image: Path, tmp_path: Path) -> None:
    packed = tmp_path / "fixture-image-1.0.raw.gz"
    with image.open("rb") as source, gzip.open(packed, "wb", compresslevel=1) as out:
        shutil.copyfileobj(source, out)
    scratch = tmp_path / "scratch"
    report = verify_image(packed, TEMPLATE, scratch=scratch)
    plain = verify_image(image, TEMPLATE)
    assert [c.to_json() for c in report.checks[1:]] == [c.to_json() for c in plain.checks[1:]]
    assert _rows(report)["image name"].found == "fixture-image-1.0.raw.gz"
    assert list(scratch.iterdir()) == []  # the unpacked copy is gone


def test_an_rpm_image_says_its_packages_are_not_checked(tmp_path: Path) -> None:
    root = {k: v for k, v in BUILT_ROOT.items() if k != "/var/lib/dpkg/status"}
    root["/var/lib/rpm/rpmdb.sqlite"] = b"SQLite format 3\x00"
    rpm = built_image(tmp_path / "fixture-image-1.0.raw", root)
    report = verify_image(rpm, TEMPLATE)
    assert not any(c.kind == "package" for c in report.checks)
    assert any("RPM" in line and "not read yet" in line for line in report.not_checked)
    assert any(line.startswith("packages (4 listed)") for line in report.not_checked)


def test_every_known_behaviour_names_a_predicate_and_a_row_kind() -> None:
    catalog = load_behaviours()
    assert catalog.behaviours
    for behaviour in catalog.behaviours:
        assert behaviour.when in PREDICATES, behaviour.id
        assert behaviour.check in CHECK_KINDS, behaviour.id
        assert behaviour.code.startswith("composer-"), behaviour.id
        assert behaviour.evidence.kind in ("measured", "source")
    assert len({b.code for b in catalog.behaviours}) == len(catalog.behaviours)


def test_a_root_the_template_sets_is_the_one_expected(tmp_path: Path) -> None:
    # measured: the composer writes the template's root= in place of its root=PARTUUID=
    root = dict(BUILT_ROOT)
    root["/boot/grub/grub.cfg"] = (
        "menuentry 'Debian' {\n\tlinux\t/boot/vmlinuz-6.12.118+deb13-amd64 root=/dev/loop0p3 "
        "ro root=/dev/vda3 console=ttyS0,115200\n}\n"
    )
    image = built_image(tmp_path / "fixture-image-1.0.raw", root)
    asked = TEMPLATE.replace('cmdline: "console=', 'cmdline: "root=/dev/vda3 console=')
    row = _rows(verify_image(image, asked))["kernel root device"]
    assert (row.expected, row.ok, row.known) == ("root=/dev/vda3", False, "cmdline-stray-loop-root")
    plain = _rows(verify_image(image, TEMPLATE))["kernel root device"]
    assert not plain.ok and plain.known is None  # root=PARTUUID of / was expected


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("image: [unclosed\n", "the template is not valid YAML ("),
        ("- a\n- b\n", "not a YAML mapping"),
    ],
    ids=["bad-yaml", "a-list"],
)
def test_a_template_that_is_no_yaml_mapping_is_one_user_error(text: str, words: str) -> None:
    # verify and build read the template through this one function
    with pytest.raises(UserInputError) as caught:
        template_data(text)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    assert template_data("image: {name: t}\n") == {"image": {"name": "t"}}
