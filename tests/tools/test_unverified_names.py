"""Without an index, names nothing we know vouches for are ``unverified``, not silently fine."""

from __future__ import annotations

from pathlib import Path

from oic_ai.stores.settings import load_settings
from oic_ai.tools.verify_packages import known_package_names, unverified_names
from tests.conftest import OUR_TEMPLATES


def _known(tmp_path: Path) -> frozenset[str]:
    return known_package_names(load_settings(data_dir=tmp_path, env={}))


def test_catalog_library_and_alias_names_are_known(tmp_path: Path) -> None:
    known = _known(tmp_path)
    assert {"docker.io", "moby-engine", "prometheus-node-exporter"} <= known  # catalog
    assert "openssh-server" in known  # the template library
    assert "docker-ce" in known  # an alias spelling the planner translates
    assert "photoshop" not in known


def test_only_added_names_nothing_knows_are_unverified(tmp_path: Path) -> None:
    base = ["openssh-server", "my-inhouse-agent"]
    names = [*base, "docker.io", "photoshop", "grub-efi-*", "openssh-server-9.6"]
    assert unverified_names(names, base=base, known=_known(tmp_path)) == ["photoshop"]


def test_a_library_in_settings_counts_as_known(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    library.mkdir()
    text = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    (library / "t.yml").write_text(text.replace("- openssh-server", "- photoshop"))
    settings = load_settings(data_dir=tmp_path / "data", env={}, templates_dir=library)
    assert "photoshop" in known_package_names(settings)
