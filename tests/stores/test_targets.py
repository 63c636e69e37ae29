"""The target registry: one home for target facts, and the schema and detector that use it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.targets import TARGETS_PATH, load_targets, parse_targets
from oic_ai.stores.vocabulary import RegistryView
from oic_ai.tools.retrieval.query_classifier import TargetMention, detect_target_spans
from tests.conftest import PROJECT, REFERENCE_SCHEMA

SCHEMA = PROJECT / "tools" / "schemas" / "oic-template.schema.json"


def _schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return data


def test_every_dist_has_one_os_and_one_family() -> None:
    targets = load_targets()
    owned = [dist for os in targets.oses.values() for dist in os.dists]
    assert sorted(owned) == sorted(targets.dists)
    in_families = [dist for dists in targets.families.values() for dist in dists]
    assert sorted(in_families) == sorted(targets.dists)
    for dist in targets.dists.values():
        assert dist.id in targets.oses[dist.os].dists
        assert dist.id in targets.families[dist.family]
        # every dist of an os shares the os's family
        assert targets.os_family(dist.os) == dist.family


@pytest.mark.parametrize(
    ("lookup", "args", "expected"),
    [
        ("family_of", ("elxr12",), "deb"),
        ("family_of", ("el10",), "rpm"),
        ("family_of", ("fedora40",), None),
        ("os_of", ("ubuntu26",), "ubuntu"),
        ("os_of", (["not", "a", "dist"],), None),
        ("os_family", ("azure-linux",), "rpm"),
        ("title", ("elxr12",), "eLxr 12"),
        ("title", ("nonesuch",), "nonesuch"),
        ("codename", ("ubuntu24",), "noble"),
        ("codename", ("azl3",), ""),
        ("repository_codename", ("debian13",), "trixie"),
        ("repository_codename", ("elxr12",), ""),  # codename aria, not assumed
        ("repository_codename", (None,), ""),
        ("image_type_title", ("iso", "image"), "ISO installer"),
        ("image_type_title", ("qcow2", "image"), "image"),
        ("os_for_spelling", ("azurelinux",), "azure-linux"),
        ("canonical_arch", ("amd64",), "x86_64"),
        ("canonical_arch", ("arm64",), "aarch64"),
        ("canonical_arch", ("armhf",), "armv7hl"),
        ("canonical_arch", ("riscv64",), "riscv64"),
        ("arch_for_spelling", ("riscv64",), None),
        ("consoles", (), {"x86_64": "ttyS", "aarch64": "ttyAMA"}),
        # the root partitions follow the discoverable partitions spec
        ("root_guid", ("x86_64",), "4f68bce3-e8cd-4db1-96e7-fbcaf984b709"),
        ("root_guid", ("aarch64",), "b921b045-1df0-41c3-af44-4c6f280d3fae"),
        ("root_guid", ("armv7hl",), "69dad710-2ce4-4e3c-b16c-21a1d49abed3"),
        ("root_type", ("aarch64",), "linux-root-arm64"),
        ("arch_of_root_type", ("linux-root-x86-64",), "x86_64"),
        ("arch_of_root_type", ("linux",), None),
        ("arch_of_root_guid", ("B921B045-1DF0-41C3-AF44-4C6F280D3FAE",), "aarch64"),
        ("arch_of_root_guid", (42,), None),
    ],
)
def test_lookups(lookup: str, args: tuple[object, ...], expected: object) -> None:
    assert getattr(load_targets(), lookup)(*args) == expected


def test_other_lookups() -> None:
    targets = load_targets()
    assert targets.oses["ubuntu"].default_dist == "ubuntu24"
    assert targets.request_words("dist")["noble"] == "ubuntu24"
    with pytest.raises(KeyError):
        targets.request_words("colour")


def test_root_partitions_follow_the_discoverable_partitions_spec() -> None:
    targets = load_targets()
    assert len(set(targets.root_guids())) == len(targets.arches)


def test_schema_target_enums_equal_the_registry() -> None:
    targets = load_targets()
    schema = _schema()["$defs"]
    properties = schema["target"]["properties"]
    assert properties["os"]["enum"] == list(targets.oses)
    assert properties["arch"]["enum"] == list(targets.arches)
    assert sorted(properties["imageType"]["enum"]) == sorted(targets.image_types)
    refs = [ref["$ref"] for ref in schema["target"]["allOf"]]
    assert refs == [f"#/$defs/distOf/{os}" for os in targets.oses]
    for os_name, os in targets.oses.items():
        rule = schema["distOf"][os_name]
        assert rule["if"]["properties"]["os"]["const"] == os_name
        dist = rule["then"]["properties"]["dist"]
        assert dist["enum"] == list(os.dists)
        for dist_id in os.dists:
            assert dist_id in dist["x-messages"]["enum"]


def _patterns(node: Any, path: str = "") -> dict[str, str]:
    found: dict[str, str] = {}
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str) and "x-codes" in node:
            found[node["x-codes"]["pattern"]] = node["pattern"]
        for key, value in node.items():
            found.update(_patterns(value, f"{path}.{key}"))
    elif isinstance(node, list):
        for value in node:
            found.update(_patterns(value, path))
    return found


def test_schema_field_patterns_equal_the_registry() -> None:
    by_code = _patterns(_schema())
    patterns = load_targets().field_patterns
    assert by_code["hostname-invalid"] == patterns["hostname"]
    assert by_code["user-name-invalid"] == patterns["user_name"]
    assert by_code["image-name-invalid"] == patterns["image_name"]
    assert by_code["image-version-invalid"] == patterns["image_version"]
    assert by_code["package-name-invalid"] == patterns["package_name"]
    for name in patterns:
        assert load_targets().pattern(name).pattern == patterns[name]


def test_registry_agrees_with_the_composers_own_schema() -> None:
    if not REFERENCE_SCHEMA.is_file():
        pytest.skip(f"reference schema not found at {REFERENCE_SCHEMA}")
    upstream = json.loads(REFERENCE_SCHEMA.read_text(encoding="utf-8"))["$defs"]["Target"]
    targets = load_targets()
    assert set(upstream["properties"]["os"]["enum"]) == set(targets.oses)
    assert upstream["properties"]["arch"]["enum"] == list(targets.arches)
    assert set(upstream["properties"]["imageType"]["enum"]) == set(targets.image_types)
    for rule in upstream["allOf"]:
        os_name = rule["if"]["properties"]["os"]["const"]
        assert rule["then"]["properties"]["dist"]["enum"] == list(targets.oses[os_name].dists)


def test_malformed_data_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no family lists it"):
        parse_targets({"families": {}, "oses": {"x": {"dists": {"x1": {}}}}})
    with pytest.raises(ValueError, match="no os owns"):
        parse_targets({"families": {"deb": ["ghost"]}, "oses": {}})
    with pytest.raises(ValueError, match="needs a type and a guid"):
        parse_targets({"arches": {"x86_64": {"root": {"type": "linux-root-amd64"}}}})
    other = tmp_path / "targets.yaml"
    other.write_text("- a list\n", encoding="utf-8")
    with pytest.raises(ValueError, match="must hold a mapping"):
        load_targets(other)


def test_registry_view_reads_the_registry_on_first_use() -> None:
    calls: list[int] = []

    def build(targets: Any) -> dict[str, int]:
        calls.append(1)
        return {name: len(os.dists) for name, os in targets.oses.items()}

    view: RegistryView[str, int] = RegistryView(build)
    assert calls == []
    assert view["ubuntu"] == 2
    assert len(view) == len(load_targets().oses)
    assert "debian" in view and list(view)[0] == "azure-linux"
    assert calls == [1]
    assert "RegistryView" in repr(view)


def test_validate_imports_neither_the_registry_nor_its_file() -> None:
    code = (
        "import sys, oic_ai.stores.vocabulary, oic_ai.tools.template_checks;"
        "print('oic_ai.stores.targets' in sys.modules);"
        "import oic_ai.stores.targets as t;"
        "print(t.load_targets.cache_info().currsize)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=PROJECT,
    )
    assert result.stdout.split() == ["False", "0"]
    assert TARGETS_PATH.is_file()


def _spans(text: str) -> list[tuple[str, str, str, bool]]:
    return [(m.kind, m.value, text[m.start : m.end], m.source) for m in detect_target_spans(text)]


def test_detect_target_spans_reports_each_mention_with_its_text() -> None:
    text = "Move it from Ubuntu 24.04 to Debian 13 on arm64 as an ISO image"
    assert _spans(text) == [
        ("dist", "ubuntu24", "Ubuntu 24.04", True),
        ("dist", "debian13", "Debian 13", False),
        ("arch", "aarch64", "arm64", False),
        ("image_type", "iso", "an ISO image", False),
    ]


def test_detect_target_spans_prefers_phrases_and_keeps_names_whole() -> None:
    assert _spans("azure linux 3 on x86-64") == [
        ("dist", "azl3", "azure linux 3", False),
        ("arch", "x86_64", "x86-64", False),
    ]
    # "emt" inside a file name and "arm" inside "arm64-tools" are not mentions
    assert _spans("start from emt3-x86_64-minimal.yml with arm64-tools") == []


def test_detect_target_spans_flags_unsupported_targets_and_bare_os_words() -> None:
    assert _spans("ubuntu 22.04 please") == [
        ("unsupported", "Ubuntu 24.04 (ubuntu24) and 26.04 (ubuntu26)", "ubuntu 22.04", False)
    ]
    assert _spans("plain ubuntu") == [("os", "ubuntu", "ubuntu", False)]
    # a dist named only as the source still lets the bare os word count
    assert [m.kind for m in detect_target_spans("from trixie to ubuntu")] == ["dist", "os"]
    mention = detect_target_spans("noble")[0]
    assert mention == TargetMention("dist", "ubuntu24", 0, 5)
    assert mention.span == (0, 5)


def test_detect_target_spans_skips_blanked_spans() -> None:
    text = "\x1f" * 6 + " 24.04"
    assert _spans(text) == [("dist", "ubuntu24", "24.04", False)]


def test_os_words_must_name_a_known_os() -> None:
    with pytest.raises(ValueError, match="unknown os"):
        parse_targets({"request": {"os_words": {"ubuntu": "ubuntoo"}}})


def test_name_words_and_defaults() -> None:
    targets = load_targets()
    assert {name: arch.name_word for name, arch in targets.arches.items()} == {
        "x86_64": "amd64",
        "aarch64": "aarch64",
        "armv7hl": "armv7hl",
    }
    assert {name: kind.name_word for name, kind in targets.image_types.items()} == {
        "iso": "installer",
        "img": "netboot",
        "raw": "",
    }
    assert (targets.default_arch, targets.default_image_type) == ("x86_64", "raw")
