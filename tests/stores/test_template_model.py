"""The template model reads both metadata spellings and infers what is missing."""

from __future__ import annotations

import hashlib

import pytest

from oic_ai.stores.disk_units import format_size, parse_size
from oic_ai.stores.template_model import DiskArtifact, User, parse_template, template_from_text
from oic_ai.stores.yaml_document import YamlSyntaxError, load_document

COMPOSER_STYLE = b"""
metadata:
  description: Edge gateway with containers
  use_cases: [IoT gateway, container workloads]
  keywords: [Edge, IoT]
image: {name: gw, version: "1.0.0"}
target: {os: ubuntu, dist: ubuntu24, arch: aarch64, imageType: raw}
disk:
  name: gw
  size: 8GiB
  artifacts: [{type: qcow2, compression: zstd}]
  partitions:
    - {id: root, type: linux-root-arm64, start: 1MiB, end: "0", mountPoint: /}
systemConfig:
  name: gw
  hostname: gw-01
  immutability: {enabled: true}
  bootloader: {bootType: efi, provider: systemd-boot}
  packages: [docker.io, prometheus-node-exporter]
  kernel: {version: "6.12", cmdline: quiet, packages: [linux-image-generic-hwe-24.04]}
packageRepositories:
  - {codename: noble, url: "https://example.invalid/ubuntu", pkey: "https://k", priority: 10,
     allowPackages: [docker.io]}
"""

ADR_STYLE = b"""
metadata:
  useCase: cloud-deployment
  description: Cloud-ready image
  keywords: [cloud, aws]
  capabilities: [security, monitoring]
  recommendedFor: ["cloud VM deployment", "auto-scaling environments"]
image: {name: c, version: "1"}
target: {os: wind-river-elxr, dist: elxr12, arch: x86_64, imageType: raw}
"""

NO_METADATA = b"""
image: {name: plain, version: "1"}
target: {os: debian, dist: debian13, arch: x86_64, imageType: img}
systemConfig:
  packages: [docker.io, nginx, cloud-init, openssh-server]
"""


def test_composer_metadata_and_every_section_are_parsed() -> None:
    t = parse_template(COMPOSER_STYLE, "edge/gw.yml")
    assert t.file_name == "gw.yml"
    assert t.metadata.description == "Edge gateway with containers"
    assert t.metadata.use_cases == ("IoT gateway", "container workloads")
    assert t.metadata.keywords == ("edge", "iot")  # lower-cased
    assert (t.target.os, t.target.dist, t.target.arch, t.target.image_type) == (
        "ubuntu",
        "ubuntu24",
        "aarch64",
        "raw",
    )
    assert t.disk is not None and t.disk.size == "8GiB" and t.disk.artifacts == ("qcow2+zstd",)
    assert t.disk.partitions[0].type == "linux-root-arm64"
    assert t.packages == ("docker.io", "prometheus-node-exporter")
    assert t.kernel.packages == ("linux-image-generic-hwe-24.04",)
    assert t.all_packages[-1] == "linux-image-generic-hwe-24.04"
    assert t.repositories[0].priority == 10 and t.repositories[0].allow_packages == ("docker.io",)
    assert t.immutable and t.bootloader == "systemd-boot" and t.hostname == "gw-01"
    assert {"container", "monitoring"} <= set(t.capabilities)


def test_adr_metadata_spelling_is_understood() -> None:
    t = parse_template(ADR_STYLE, "elxr-cloud-amd64.yml")
    assert t.metadata.use_cases[0] == "cloud-deployment"
    assert t.metadata.capabilities == ("security", "monitoring")
    assert t.metadata.recommended_for == ("cloud VM deployment", "auto-scaling environments")
    assert "auto-scaling environments" in t.use_cases
    assert "monitoring" in t.use_cases


def test_missing_metadata_is_inferred_from_name_packages_and_image_type() -> None:
    t = parse_template(NO_METADATA, "debian13-x86_64-edge-web-netboot.yml")
    assert t.metadata.is_empty
    keywords = set(t.keywords)
    assert {"debian13", "edge", "web", "netboot"} <= keywords  # file-name parts
    assert {"container", "web-server", "cloud"} <= keywords  # docker, nginx, cloud-init
    assert {"network boot", "pxe"} <= keywords  # img means network boot
    assert {"debian", "trixie", "amd64"} <= keywords
    assert "network boot" in t.use_cases and "web server" in t.use_cases


def test_searchable_text_is_built_from_fields_not_raw_yaml() -> None:
    text = parse_template(COMPOSER_STYLE, "gw.yml").searchable_text()
    assert text.splitlines()[0] == "Template: gw.yml"
    assert "Description: Edge gateway with containers" in text
    assert "Packages: docker.io, prometheus-node-exporter" in text
    assert "arm64" in text and "noble" in text
    assert "{" not in text and "partitions" not in text


def test_content_hash_is_sha256_of_the_whole_file() -> None:
    t = parse_template(COMPOSER_STYLE, "gw.yml")
    assert t.content_hash == hashlib.sha256(COMPOSER_STYLE).hexdigest()
    changed = parse_template(COMPOSER_STYLE + b"# a comment changes the hash\n", "gw.yml")
    assert changed.content_hash != t.content_hash


def test_odd_values_never_raise() -> None:
    t = parse_template(
        b"image: [1, 2]\ntarget: 7\nsystemConfig: {packages: [true, 3, null, x]}\n", "odd.yml"
    )
    assert t.image.name == "" and t.target.os == ""
    assert t.packages == ("3", "x")


@pytest.mark.parametrize("text", [b"- a\n- b\n", b"just text\n"])
def test_non_mapping_documents_are_refused(text: bytes) -> None:
    with pytest.raises(ValueError, match="not a mapping"):
        parse_template(text, "x.yml")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("4GiB", 4 * 1024**3),
        ("4GB", 4 * 1000**3),
        ("512MiB", 512 * 1024**2),
        ("1.5GiB", int(1.5 * 1024**3)),
        ("4096 MiB", 4096 * 1024**2),
        ("2T", 2 * 1024**4),
        ("0", 0),
        (1024, 1024),
        ("1KB", 1000),
        ("100KiB", 102400),
    ],
)
def test_sizes_parse_with_binary_and_decimal_units(value: object, expected: int) -> None:
    assert parse_size(value) == expected


@pytest.mark.parametrize("value", ["lots", "-1GiB", "4 GiBs", "", None, True, 3.5, "GiB"])
def test_non_sizes_are_none(value: object) -> None:
    assert parse_size(value) is None


def test_format_size_uses_the_largest_exact_unit() -> None:
    assert format_size(8 * 1024**3) == "8GiB"
    assert format_size(513 * 1024**2) == "513MiB"
    assert format_size(1000) == "1000B"


def test_yaml_document_reports_lines_and_duplicates() -> None:
    doc = load_document("a:\n  b: 1\n  b: 2\nc:\n  - x\n  - y\n")
    assert doc.data == {"a": {"b": 2}, "c": ["x", "y"]}
    assert doc.line_of(("c", 1)) == 6
    assert doc.line_of(("a", "missing")) == 2  # nearest parent that exists
    assert doc.key_line((), "c") == 4
    (dup,) = doc.duplicate_keys()
    assert (dup.path, dup.key, dup.line) == (("a",), "b", 3)


def test_yaml_syntax_errors_carry_line_and_column() -> None:
    with pytest.raises(YamlSyntaxError) as info:
        load_document("a: 1\nb: [1, 2\nc: 3\n")
    assert info.value.line is not None and info.value.line >= 2
    assert info.value.column is not None


def test_multiple_documents_are_a_syntax_error() -> None:
    with pytest.raises(YamlSyntaxError):
        load_document("a: 1\n---\nb: 2\n")


def test_read_template_reads_what_the_planner_and_explain_need() -> None:
    t = template_from_text(COMPOSER_STYLE.decode())
    assert t.readable and t.error == ""
    assert t.description == "Edge gateway with containers"
    assert t.disk_size_bytes == 8 * 1024**3
    (root,) = t.partitions
    assert (root.ref, root.start_bytes, root.end_bytes) == ("root", 1024**2, 0)
    assert root.size_bytes(t.disk_size_bytes) == 8 * 1024**3 - 1024**2
    assert root.size_bytes(None) is None  # runs to the end of a disk of unknown size
    assert t.artifact_specs == (DiskArtifact("qcow2", "zstd"),)
    assert str(t.artifact_specs[0]) == "qcow2+zstd"
    assert (t.boot_type, t.immutability_enabled, t.secure_boot) == ("efi", True, False)
    assert t.kernel.cmdline == "quiet"
    assert t.repository_locations == ("https://example.invalid/ubuntu",)


def test_read_template_is_forgiving_about_odd_values() -> None:
    t = template_from_text(
        "systemConfig:\n"
        "  hostname: true\n"
        "  immutability: {enabled: maybe, secureBootDBKey: {cert: x}}\n"
        "  users: [{name: ops, sudo: true, groups: [docker, {x: 1}]}, {sudo: true}, bob]\n"
        "disk: {size: lots, partitions: [{id: r, start: 1MiB, end: [0]}], artifacts: [{}, raw]}\n"
    )
    assert t.readable and t.hostname == ""
    assert t.users == (User(name="ops", groups=("docker",), sudo=True),)
    assert (t.immutability_enabled, t.secure_boot) == (None, True)
    assert t.disk_size_bytes is None and t.partitions[0].end_bytes is None
    assert t.artifact_specs == ()


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "no template text"),
        ("a: [", "the template is not valid YAML"),
        ("- a\n- b\n", "the template is not a YAML mapping"),
    ],
)
def test_read_template_never_raises(text: str, error: str) -> None:
    t = template_from_text(text)
    assert not t.readable and t.error.startswith(error)
    assert t.packages == () and t.partitions == () and t.disk is None
