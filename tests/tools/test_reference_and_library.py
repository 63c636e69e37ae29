"""The upstream templates pass our validator; ours pass ours, upstream's and the semantics."""

from __future__ import annotations

from pathlib import Path

import pytest

from oic_ai.stores.targets import load_targets
from oic_ai.stores.template_library import TemplateLibrary
from oic_ai.tools.validate_template import TemplateSchema, validate_file
from tests.conftest import OUR_TEMPLATES

OURS = sorted(OUR_TEMPLATES.glob("*.yml"))


def test_every_upstream_template_is_accepted(reference_templates: Path) -> None:
    files = sorted(reference_templates.glob("*.yml"))
    assert len(files) == 48
    rejected = {f.name: [e.to_json() for e in validate_file(f).errors] for f in files}
    assert {k: v for k, v in rejected.items() if v} == {}


def test_upstream_templates_also_pass_their_own_schema(
    reference_templates: Path, reference_schema: Path
) -> None:
    upstream = TemplateSchema.from_file(reference_schema)
    for file in sorted(reference_templates.glob("*.yml")):
        assert validate_file(file, schema=upstream).valid, file.name


def test_our_library_is_large_enough_and_covers_the_families() -> None:
    library = TemplateLibrary.scan(OUR_TEMPLATES)
    assert library.skipped == []
    assert len(library.templates) >= 36
    targets = {(t.target.os, t.target.dist, t.target.arch) for t in library.templates}
    registry = load_targets()
    assert len(registry.dists) == 7
    for os_name, dist in [(d.os, d.id) for d in registry.dists.values()]:
        assert (os_name, dist, "x86_64") in targets, f"{dist} has no x86_64 template"
        assert (os_name, dist, "aarch64") in targets, f"{dist} has no aarch64 template"
    assert {t.target.image_type for t in library.templates} >= set(registry.image_types)
    assert all(not t.metadata.is_empty for t in library.templates)


USE_CASES = {
    "minimal": "minimal",
    "edge": "edge",
    "iot": "iot",
    "container": "container",
    "cloud": "qcow2",
    "inference": "inference",
    "robotics": "ros",
    "real-time": "real-time",
    "kiosk": "kiosk",
    "virtualization": "virtualization",
    "secure boot": "secure",
    "network boot": "initrd",
    "installer": "installer",
    "web server": "web",
    "monitoring": "monitoring",
}


@pytest.mark.parametrize("use_case", sorted(USE_CASES))
def test_our_library_covers_each_use_case(use_case: str) -> None:
    word = USE_CASES[use_case]
    library = TemplateLibrary.scan(OUR_TEMPLATES)
    hits = [t.path for t in library.templates if word in t.path or word in " ".join(t.keywords)]
    assert hits, f"no template for {use_case}"


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_our_template_passes_our_schema_and_semantics(path: Path) -> None:
    report = validate_file(path)
    assert report.errors == []
    lint = [f for f in report.warnings if not f.code.startswith("composer-")]
    assert lint == [], "our own templates should not trip the security lint"
    # Library templates are bases: the agent names the host when it writes from one and
    # warns about a user without a password; nothing else the composer ignores is used.
    composer = {f.code for f in report.warnings} - {f.code for f in lint}
    assert composer <= {"composer-hostname-unset", "composer-user-no-password"}


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_our_template_passes_the_upstream_schema(path: Path, reference_schema: Path) -> None:
    report = validate_file(path, schema=TemplateSchema.from_file(reference_schema))
    assert report.errors == []


def test_our_templates_are_not_copies_of_upstream(reference_templates: Path) -> None:
    import yaml

    def fingerprint(path: Path) -> str:
        data = yaml.safe_load(path.read_text())
        return repr(data.get("systemConfig")) + repr(data.get("disk"))

    upstream = {fingerprint(p) for p in reference_templates.glob("*.yml")}
    assert [p.name for p in OURS if fingerprint(p) in upstream] == []
