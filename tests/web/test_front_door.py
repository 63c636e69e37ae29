"""The front door middleware in-process: who it lets in, before any route runs.

The real servers (LangGraph's own CORS and routes behind it) are tested in
``tests/integration/test_front_door.py``; these cases need a client address or a body
shape that a loopback test server cannot produce.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from oic_ai.stores.settings import load_settings
from oic_ai.web import auth
from oic_ai.web.app import create_app
from oic_ai.web.front_door import NO_AUTH_ENV, host_name, is_remote


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "data"
    monkeypatch.setenv("OIC_AI_DATA_DIR", str(folder))
    monkeypatch.delenv(NO_AUTH_ENV, raising=False)
    monkeypatch.setattr(auth, "_verifier", None)  # the token file of this data folder
    yield folder
    auth._verifier = None


def _client(data: Path, remote: bool = False, **env: str) -> TestClient:
    settings = load_settings(data_dir=data, provider="builtin", env=env)
    client = ("203.0.113.7", 40000) if remote else ("127.0.0.1", 40000)
    return TestClient(create_app(lambda: settings), client=client)


def test_another_machine_is_refused_while_there_are_no_users(data: Path) -> None:
    with _client(data, remote=True) as client:
        refused = client.get("/api/v1/templates")
        assert refused.status_code == 403
        assert "oic-ai users add NAME" in refused.json()["fix"]
        assert client.get("/ui/").status_code in (200, 404)  # the page's files stay open
    with _client(data) as client:
        assert client.get("/api/v1/sessions").status_code == 200


def test_no_auth_serves_another_machine_on_purpose(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(NO_AUTH_ENV, "1")
    with _client(data, remote=True) as client:
        assert client.get("/api/v1/sessions").status_code == 200


def test_a_body_without_length_is_counted_as_it_arrives(data: Path) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(3):
            yield b"x" * (512 * 1024)

    with _client(data, OIC_AI_MAX_BODY_MB="1") as client:
        answer = client.post("/api/v1/validate", content=chunks())
        assert answer.status_code == 413 and "1 MiB" in answer.json()["error"]
        small = client.post("/api/v1/validate", json={"template": "image: {name: x}\n"})
        assert small.status_code == 200


def test_an_allowed_origin_may_reach_a_private_network(data: Path) -> None:
    origin = "https://app.example.com"
    with _client(data, OIC_AI_ALLOWED_ORIGINS=origin) as client:
        asked = {
            "Origin": origin,
            "Access-Control-Request-Method": "DELETE",
            "Access-Control-Request-Private-Network": "true",
        }
        granted = client.options("/api/v1/sessions/abc", headers=asked)
        assert granted.status_code == 204
        assert granted.headers["access-control-allow-private-network"] == "true"
        assert granted.headers["access-control-allow-origin"] == origin
        other = client.options("/api/v1/sessions/abc", headers={**asked, "Origin": "null"})
        assert other.status_code == 403
        assert "access-control-allow-origin" not in other.headers
        unknown = client.options("/internal/truncate", headers={**asked, "Origin": origin})
        assert unknown.status_code == 404


@pytest.mark.parametrize(
    ("header", "name"),
    [("LocalHost:8123", "localhost"), ("[::1]:8123", "::1"), ("example.com.", "example.com")],
)
def test_host_names_are_compared_without_port_case_or_dot(header: str, name: str) -> None:
    assert host_name(header) == name


def test_only_an_ip_of_another_machine_is_remote() -> None:
    assert is_remote("203.0.113.7") and is_remote("::ffff:203.0.113.7")
    assert not is_remote("127.0.0.1") and not is_remote("::1") and not is_remote("testclient")
