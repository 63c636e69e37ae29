"""The agent's ``@tool`` functions, called the way a chat model calls them: ``.invoke``."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from oic_ai.services.packages import SyncRequest, sync_packages
from oic_ai.stores.settings import load_settings
from oic_ai.tools.agent_tools import (
    AGENT_TOOLS,
    fix_errors,
    suggest_packages,
    validate_template,
    verify_packages,
)
from tests.conftest import FIXTURES, OUR_TEMPLATES
from tests.stores.package_repos import DEB_PACKAGES

MINIMAL = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text()
ELXR = {"os": "wind-river-elxr", "dist": "elxr12", "arch": "x86_64", "imageType": "raw"}


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder with an elxr12 index; the tools find it through the environment."""
    for name in ("OIC_AI_CONFIG", "OIC_AI_PROVIDER", "OIC_AI_EMBEDDING_PROVIDER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no ./config.yaml
    data = tmp_path / "data"
    monkeypatch.setenv("OIC_AI_DATA_DIR", str(data))
    outcome = sync_packages(
        load_settings(), SyncRequest(index=str(DEB_PACKAGES), dist="elxr12", arch="x86_64")
    )
    assert outcome.ok, outcome.to_json()
    return data


def elxr_template(*packages: str) -> str:
    data = {
        "image": {"name": "t", "version": "1.0.0"},
        "target": ELXR,
        "systemConfig": {"name": "t", "packages": list(packages)},
    }
    return yaml.safe_dump(data, sort_keys=False)


def test_the_tools_have_the_names_and_arguments_a_model_sees() -> None:
    assert {t.name: sorted(t.args) for t in AGENT_TOOLS} == {
        "validate_template": ["template"],
        "verify_packages": ["template"],
        "suggest_packages": ["dist", "name"],
        "fix_errors": ["template"],
    }
    for t in AGENT_TOOLS:
        assert t.description and all(a.get("description") for a in t.args.values())


def test_validate_template_reports_the_validate_json_entry() -> None:
    assert validate_template.invoke({"template": MINIMAL}) == {
        "path": "<template>",
        "valid": True,
        "errors": [],
        "warnings": [],
    }
    broken = validate_template.invoke({"template": "image: [unclosed"})
    assert broken["valid"] is False
    assert broken["errors"][0]["code"] == "yaml-syntax"


def test_verify_packages_checks_against_the_index(data_dir: Path) -> None:
    result = verify_packages.invoke({"template": elxr_template("openssh-server", "docker-ce")})
    assert result["checked"] is True
    assert result["found"] == ["openssh-server"]
    assert result["missing"] == ["docker-ce"]
    assert "docker.io" in result["suggestions"]["docker-ce"]
    not_yaml = verify_packages.invoke({"template": "- just\n- a list\n"})
    assert not_yaml["checked"] is False and "not a mapping" in not_yaml["reason"]


def test_suggest_packages_ranks_alternatives(data_dir: Path) -> None:
    assert suggest_packages.invoke({"name": "docker-ce", "dist": "elxr12"})[0] == "docker.io"
    # A bad dist is an answer the model can read, not a crash.
    answer = suggest_packages.invoke({"name": "docker-ce", "dist": "nodist9"})
    assert isinstance(answer, str) and "unknown dist 'nodist9'" in answer


def test_fix_errors_applies_the_deterministic_fixes() -> None:
    text = (FIXTURES / "invalid" / "duplicate-packages.yml").read_text()
    result = fix_errors.invoke({"template": text})
    assert result["changed"] is True and result["applied"]
    assert result["validation"]["valid"] is True
    assert result["template"] != text and result["diff"]
    unchanged = fix_errors.invoke({"template": MINIMAL})
    assert unchanged["changed"] is False and unchanged["template"] == MINIMAL
