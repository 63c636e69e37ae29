"""``POST /api/v1/summary``: the page's structured view of a template (issue 25, points 9, 14).

In-process through Starlette's TestClient; the composer's config is a real file in the
places the composer looks (``os-image-composer.yml`` in the working folder), with the
upstream ``osv/<os>/<dist>/providerconfigs/`` layout under its ``config_dir``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from oic_ai.stores.settings import load_settings
from oic_ai.web.app import create_app
from oic_ai.web.page import PROVIDERCONFIG_PLACEHOLDER, sync_advice, template_summary
from tests.conftest import OUR_TEMPLATES

MINIMAL = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"
TARGET = {"os": "ubuntu", "dist": "ubuntu24", "arch": "x86_64"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = load_settings(data_dir=tmp_path / "data", provider="builtin", env={})
    with TestClient(create_app(lambda: settings)) as test_client:
        yield test_client


def composer_home(root: Path, config_dir: str = "composer-config") -> dict[str, Path]:
    """A composer config in ``root`` (the working folder) with amd64 and generic files."""
    folder = root / "composer-config" / "osv" / "ubuntu" / "ubuntu24" / "providerconfigs"
    folder.mkdir(parents=True)
    for name in ("amd64_repo.yml", "arm64_repo.yml", "repo.yml"):
        (folder / name).write_text("name: main\ntype: deb\nbaseURL: http://example.com/u\n")
    (root / "os-image-composer.yml").write_text(f"config_dir: {config_dir}\n")
    return {name: folder / f"{name}_repo.yml" for name in ("amd64", "arm64")}


def test_the_summary_has_target_disk_packages_users_and_repositories(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no composer config here
    answer = client.post("/api/v1/summary", json={"template": MINIMAL.read_text()})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["target"] == {**TARGET, "image_type": "raw"}
    disk = body["disk"]
    assert (disk["size"], disk["partition_table"]) == ("3584MiB", "gpt")
    assert [(p["id"], p["mount"], p["start_mib"], p["end_mib"]) for p in disk["partitions"]] == [
        ("boot", "/boot/efi", 1.0, 257.0),
        ("rootfs", "/", 257.0, None),
    ]
    assert "openssh-server" in body["packages"] and body["kernel_packages"]
    assert body["users"] == [] and body["repositories"] == []
    assert body["sync"]["providerconfig"] is None
    assert PROVIDERCONFIG_PLACEHOLDER in body["sync"]["command"]
    assert "composer's config was not found" in body["sync"]["note"]


def test_the_summary_refuses_text_that_is_not_a_template(client: TestClient) -> None:
    for text, words in (("a: [", "not valid YAML"), ("- a list", "not a YAML mapping")):
        answer = client.post("/api/v1/summary", json={"template": text})
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text
    assert client.post("/api/v1/summary", json={}).status_code == 400


def test_the_providerconfig_comes_from_the_composers_config_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = composer_home(tmp_path)
    monkeypatch.chdir(tmp_path)
    env = {"HOME": str(tmp_path / "home")}
    amd64 = sync_advice(TARGET, env)
    assert amd64["providerconfig"] == str(files["amd64"])
    assert amd64["composer_config"] == str(tmp_path / "os-image-composer.yml")
    assert amd64["command"] == (
        f"oic-ai packages sync --repo-config {files['amd64']} --dist ubuntu24 --arch x86_64"
    )
    arm = sync_advice({**TARGET, "arch": "aarch64"}, env)
    assert arm["providerconfig"] == str(files["arm64"])
    other = sync_advice({"os": "debian", "dist": "debian13", "arch": "x86_64"}, env)
    assert other["providerconfig"] is None and "no providerconfig for debian13" in other["note"]
    summary = template_summary(MINIMAL.read_text(), env)
    assert summary["sync"]["providerconfig"] == str(files["amd64"])
