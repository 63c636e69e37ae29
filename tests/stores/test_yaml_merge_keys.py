"""Overriding a key brought in by a ``<<`` merge is standard YAML, not a duplicate key."""

from __future__ import annotations

from oic_ai.stores.yaml_document import load_document
from oic_ai.tools.validate_template import validate_text
from tests.conftest import OUR_TEMPLATES

PARTITIONS = """\
base: &base
  id: root
  type: linux
  fsType: ext4
partitions:
  - <<: *base
    id: boot
    fsType: vfat
"""


def test_a_key_that_overrides_a_merged_one_is_not_a_duplicate() -> None:
    doc = load_document(PARTITIONS)
    assert doc.duplicate_keys() == []
    assert doc.data["partitions"][0] == {"id": "boot", "type": "linux", "fsType": "vfat"}


def test_overrides_after_several_merged_mappings_are_not_duplicates() -> None:
    text = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*a, *b]\n  x: 3\n  z: 3\n"
    assert load_document(text).duplicate_keys() == []


def test_a_key_written_twice_next_to_a_merge_is_still_a_duplicate() -> None:
    doc = load_document(PARTITIONS + "    id: again\n")
    (duplicate,) = doc.duplicate_keys()
    assert (duplicate.path, duplicate.key, duplicate.line) == (("partitions", 0), "id", 9)


def test_the_line_of_an_overriding_key_is_its_own() -> None:
    doc = load_document(PARTITIONS)
    assert doc.key_line(("partitions", 0), "id") == 7
    assert doc.line_of(("partitions", 0, "fsType")) == 8


def test_a_template_whose_partitions_merge_a_base_has_no_duplicate_key_finding() -> None:
    template = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text()
    text = "x-base: &base\n  fsType: ext4\n  mountOptions: defaults\n" + template.replace(
        "      fsType: ext4\n", "      <<: *base\n      fsType: ext4\n", 1
    )
    assert "<<: *base" in text
    report = validate_text(text)
    assert "duplicate-key" not in [f.code for f in report.errors + report.warnings]
