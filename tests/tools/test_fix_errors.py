"""Deterministic fixes: each fixable finding is gone after applying the plan, nothing worse."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import yaml

from oic_ai.tools.applier import AppliedPlan, apply_plan
from oic_ai.tools.edit_plan import AddPackages, DeleteValue, RemovePackages, SetValue
from oic_ai.tools.fix_errors import plan_fixes
from oic_ai.tools.validate_template import FileReport, validate_text
from tests.conftest import FIXTURES, OUR_TEMPLATES
from tests.support.cli import modules_after

INVALID = FIXTURES / "invalid"
LINT = FIXTURES / "lint"
MINIMAL = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text()


def fix(text: str, **kwargs: Any) -> tuple[FileReport, AppliedPlan, FileReport]:
    before = validate_text(text)
    plan = plan_fixes(text, [*before.errors, *before.warnings], **kwargs)
    applied = apply_plan(text, plan)
    return before, applied, validate_text(applied.text)


def codes(report: FileReport) -> Counter[str]:
    return Counter(f.code for f in report.errors)


# Every fixture whose error has one right answer, and the code that must disappear.
FIXABLE = {
    "duplicate-packages.yml": "package-duplicate",
    "versioned-package-ge.yml": "package-versioned",
    "versioned-package-eq.yml": "package-versioned",
    "overlapping-partitions.yml": "partition-overlap",
    "two-rest-of-disk.yml": "partition-overlap",
    "partition-past-disk.yml": "partition-exceeds-disk",
    "partition-decimal-units.yml": "partition-exceeds-disk",
    "root-type-wrong-arch.yml": "root-type-arch-mismatch",
    "root-guid-wrong-arch.yml": "root-type-arch-mismatch",
    "legacy-systemconfigs.yml": "legacy-systemconfigs",
    "metadata-adr-keys.yml": "metadata-unsupported-key",
    "missing-target-os.yml": "missing-key",
    "unquoted-image-version.yml": "image-version-invalid",
    "bad-arch.yml": "target-arch-unknown",
    "repository-without-key.yml": "repository-key-missing",
    "secureboot-incomplete.yml": "secureboot-keys-incomplete",
}


@pytest.mark.parametrize("name", sorted(FIXABLE))
def test_each_fixable_fixture_becomes_valid(name: str) -> None:
    before, applied, after = fix((INVALID / name).read_text())
    assert FIXABLE[name] in codes(before)
    assert codes(after) == Counter(), (name, applied.diff, after.errors)
    assert applied.not_applied == []
    assert applied.applied, name


NOT_FIXABLE = sorted(
    p.name for p in INVALID.glob("*.yml") if p.name not in FIXABLE and p.name != "expected.txt"
)


@pytest.mark.parametrize("name", NOT_FIXABLE)
def test_errors_without_one_right_answer_are_left_alone(name: str) -> None:
    text = (INVALID / name).read_text()
    before = validate_text(text)
    plan = plan_fixes(text, before.errors)
    assert plan.operations == []
    assert len(plan.not_applied) == len(before.errors)
    assert all("not fixed deterministically" in line for line in plan.not_applied)
    assert apply_plan(text, plan).text == text


def test_a_missing_package_is_replaced_by_the_first_suggestion() -> None:
    missing = {"ubuntu-minimal": ["ubuntu-server-minimal", "ubuntu-standard"]}
    before, applied, after = fix(MINIMAL, missing_packages=missing)
    packages = yaml.safe_load(applied.text)["systemConfig"]["packages"]
    assert "ubuntu-minimal" not in packages and packages[-1] == "ubuntu-server-minimal"
    plan = plan_fixes(MINIMAL, [], missing_packages=missing)
    assert plan.operations == [
        RemovePackages(packages=["ubuntu-minimal"]),
        AddPackages(packages=["ubuntu-server-minimal"]),
    ]
    assert "replaced ubuntu-minimal (not in the package index) with ubuntu-server-minimal" in (
        plan.summary
    )
    assert codes(after) == Counter()


def test_a_missing_package_without_suggestions_is_removed_with_a_warning() -> None:
    plan = plan_fixes(MINIMAL, [], missing_packages={"systemd-resolved": []})
    assert plan.operations == [RemovePackages(packages=["systemd-resolved"])]
    assert "systemd-resolved is not in the package index" in plan.warnings[0]
    applied = apply_plan(MINIMAL, plan)
    assert "systemd-resolved" not in yaml.safe_load(applied.text)["systemConfig"]["packages"]
    assert applied.warnings == plan.warnings


def test_a_missing_kernel_package_is_replaced_in_the_kernel_list() -> None:
    kernel = yaml.safe_load(MINIMAL)["systemConfig"]["kernel"]["packages"][0]
    plan = plan_fixes(MINIMAL, [], missing_packages={kernel: ["linux-image-generic"]})
    assert plan.operations[1] == AddPackages(packages=["linux-image-generic"], kernel=True)
    applied = apply_plan(MINIMAL, plan)
    assert yaml.safe_load(applied.text)["systemConfig"]["kernel"]["packages"] == [
        "linux-image-generic"
    ]


def test_a_suggestion_already_listed_only_removes_the_missing_name() -> None:
    plan = plan_fixes(MINIMAL, [], missing_packages={"systemd-resolved": ["openssh-server"]})
    assert plan.operations == [RemovePackages(packages=["systemd-resolved"])]
    assert apply_plan(MINIMAL, plan).not_applied == []


def test_names_not_in_the_template_are_ignored() -> None:
    assert plan_fixes(MINIMAL, [], missing_packages={"nothere": ["x"]}).operations == []


def test_several_duplicates_and_pins_in_one_list_are_fixed_in_one_plan() -> None:
    text = MINIMAL.replace(
        "    - openssh-server\n",
        "    - openssh-server\n    - curl\n    - openssh-server\n    - curl=8.5\n    - curl\n"
        "    - nginx>=1.24\n",
        1,
    )
    before, applied, after = fix(text)
    assert codes(before) == Counter({"package-duplicate": 2, "package-versioned": 2})
    assert codes(after) == Counter()
    packages = yaml.safe_load(applied.text)["systemConfig"]["packages"]
    assert packages.count("curl") == 1 and packages.count("openssh-server") == 1
    assert "nginx" in packages
    deletes = [op for op in plan_fixes(text, before.errors).operations if op.op == "delete"]
    indices = [int(op.path.rsplit("[", 1)[1].rstrip("]")) for op in deletes]
    assert indices == sorted(indices, reverse=True)


def test_overlap_that_pushes_past_the_disk_grows_it_to_a_whole_gib() -> None:
    text = (INVALID / "overlapping-partitions.yml").read_text()
    text = text.replace('end: "0"', "end: 4000MiB")
    before, applied, after = fix(text)
    assert codes(before) == Counter({"partition-overlap": 1})
    disk = yaml.safe_load(applied.text)["disk"]
    assert disk["partitions"][1]["start"] == "257MiB"
    assert disk["partitions"][1]["end"] == "4057MiB"
    assert disk["size"] == "4GiB"
    grown = fix(text.replace("size: 4GiB", "size: 3GiB"))[1]
    assert yaml.safe_load(grown.text)["disk"]["size"] == "4GiB"


def test_a_plaintext_password_becomes_the_placeholder_with_a_warning() -> None:
    before, applied, after = fix((LINT / "plaintext-password.yml").read_text())
    user = yaml.safe_load(applied.text)["systemConfig"]["users"][0]
    assert user["password"] == "<PASSWORD_HASH>"
    assert any("placeholder password" in w for w in applied.warnings)
    assert codes(after) == Counter()
    warnings = {f.code for f in after.warnings}
    assert "plaintext-password" in {f.code for f in before.warnings}
    assert "plaintext-password" not in warnings and "placeholder-value" in warnings


@pytest.mark.parametrize(
    ("before", "after", "where"),
    [
        ("arch: x86_64", "arch: amd64", ("target", "arch", "x86_64")),
        ("partitionTableType: gpt", "partitionTableType: GPT", ("disk", None, "gpt")),
        ("compression: zstd", "compression: zst", ("disk", None, "zstd")),
    ],
)
def test_enum_values_with_a_known_spelling_are_normalised(
    before: str, after: str, where: tuple[str, str | None, str]
) -> None:
    text = (INVALID / "overlapping-partitions.yml").read_text().replace("200MiB", "257MiB")
    # with a hostname, the composer-hostname-unset fix leaves the text alone too
    text = text.replace(
        "systemConfig:\n  name: fixture\n", "systemConfig:\n  name: fixture\n  hostname: fixture\n"
    )
    broken = text.replace(before, after)
    report, applied, fixed = fix(broken)
    assert codes(report) and codes(fixed) == Counter()
    assert applied.text == text


def test_no_hostname_gets_one_named_after_the_image() -> None:
    text = (LINT / "composer-behaviours.yml").read_text()
    before, applied, after = fix(text)
    assert "composer-hostname-unset" in {f.code for f in before.warnings}
    assert yaml.safe_load(applied.text)["systemConfig"]["hostname"] == "fixture"
    assert "composer-hostname-unset" not in {f.code for f in after.warnings}


def test_a_typo_in_a_key_name_is_renamed_when_the_right_key_is_absent() -> None:
    text = MINIMAL.replace("\nsystemConfig:\n", "\nsystemconfig:\n")
    before, applied, after = fix(text)
    assert codes(before)["unknown-key"] == 1
    assert codes(after) == Counter()
    assert yaml.safe_load(applied.text)["systemConfig"] == yaml.safe_load(MINIMAL)["systemConfig"]


def test_missing_keys_with_one_sound_default_are_filled() -> None:
    text = MINIMAL.replace("  imageType: raw\n", "").replace("  arch: x86_64\n", "")
    text = text.replace("disk:\n  name: ubuntu24-minimal\n", "disk:\n")
    before, applied, after = fix(text)
    assert codes(before)["missing-key"] == 3
    assert codes(after) == Counter()
    new = yaml.safe_load(applied.text)
    assert new["target"]["imageType"] == "raw" and new["target"]["arch"] == "x86_64"
    assert new["disk"]["name"] == new["systemConfig"]["name"]


def test_a_missing_image_version_is_not_guessed() -> None:
    text = (INVALID / "missing-image-version.yml").read_text()
    plan = plan_fixes(text, validate_text(text).errors)
    assert plan.operations == [] and plan.summary == "no deterministic fixes"


def test_text_that_is_not_a_mapping_gives_an_empty_plan() -> None:
    for text in ("image: [broken\n", "- a\n", ""):
        plan = plan_fixes(text, validate_text(text).errors)
        assert plan.operations == []
        assert apply_plan(text, plan).text == text


def test_the_operations_are_plain_plan_operations() -> None:
    text = (INVALID / "root-guid-wrong-arch.yml").read_text()
    plan = plan_fixes(text, validate_text(text).errors)
    assert plan.operations == [
        SetValue(path="disk.partitions[1].type", value="linux-root-amd64"),
        SetValue(path="disk.partitions[1].typeUUID", value="4f68bce3-e8cd-4db1-96e7-fbcaf984b709"),
    ]
    legacy = (INVALID / "legacy-systemconfigs.yml").read_text()
    ops = plan_fixes(legacy, validate_text(legacy).errors).operations
    assert ops[-1] == DeleteValue(path="systemConfigs")


def test_fixing_and_validating_never_import_ruamel() -> None:
    code = "import oic_ai.tools.fix_errors, oic_ai.tools.validate_template"
    loaded = modules_after(f"{code}, oic_ai.tools.partition_layout")
    assert not any(m.startswith("ruamel") for m in loaded)
