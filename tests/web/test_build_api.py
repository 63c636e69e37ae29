"""``/api/v1/build``: off by default, users only, one build at a time, stages then the report.

In-process through Starlette's TestClient. The composer is a recorded real run replayed
(tests/support/replay_composer.py) that "builds" a small real image; the host check
(root, loop devices) is the CLI's and is tested there.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from oic_ai.services import build as service
from oic_ai.stores.settings import load_settings
from oic_ai.web.app import create_app
from tests.conftest import FIXTURES
from tests.services.test_build_service import RECORDED_TEMPLATE
from tests.stores.test_composer_run import replay_composer
from tests.support.disk_images import built_image


class _User:
    is_authenticated = True
    identity = "alice"


def _as_user(app: Any) -> Any:
    """The app as LangGraph's custom-route auth hands it a request from user alice."""

    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            scope["user"] = _User()
        await app(scope, receive, send)

    return asgi


def _events(text: str) -> list[tuple[str, dict[str, Any]]]:
    frames = [f for f in text.split("\n\n") if f.strip()]
    out = []
    for frame in frames:
        kind = frame.split("\n")[0].removeprefix("event: ")
        out.append((kind, json.loads(frame.split("\n")[1].removeprefix("data: "))))
    return out


@pytest.fixture
def composer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("OIC_REPLAY_LOG", str(FIXTURES / "composer" / "build-ok.log"))
    monkeypatch.setenv("OIC_REPLAY_ARTIFACTS", str(tmp_path / "artifacts"))
    monkeypatch.setenv("OIC_REPLAY_IMAGE", str(built_image(tmp_path / "made.raw")))
    monkeypatch.setattr(service, "check_host", lambda: None)
    return replay_composer(tmp_path)


@pytest.fixture
def client(composer: Path, tmp_path: Path) -> Iterator[TestClient]:
    settings = load_settings(data_dir=tmp_path / "data", env={}, composer_path=str(composer))
    with TestClient(_as_user(create_app(lambda: settings))) as client:
        yield client


def test_builds_are_off_unless_the_server_names_a_composer(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", env={})
    with TestClient(_as_user(create_app(lambda: settings))) as client:
        assert client.get("/api/v1/build").json() == {"enabled": False, "running": False}
        refused = client.post("/api/v1/build", json={"template": RECORDED_TEMPLATE})
    assert refused.status_code == 404 and "ai.composer.path" in refused.json()["fix"]


def test_only_users_may_build(composer: Path, tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", env={}, composer_path=str(composer))
    with TestClient(create_app(lambda: settings)) as anonymous:  # a server without users
        assert anonymous.get("/api/v1/build").json()["enabled"] is True
        refused = anonymous.post("/api/v1/build", json={"template": RECORDED_TEMPLATE})
    assert refused.status_code == 403 and refused.json()["error"] == "only users may start builds"


def test_a_build_streams_its_stages_then_the_verify_table(client: TestClient) -> None:
    response = client.post("/api/v1/build", json={"template": RECORDED_TEMPLATE})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = _events(response.text)
    kinds = [kind for kind, _ in events]
    assert kinds[-1] == "report" and set(kinds[:-1]) == {"stage"}
    assert any("install packages" in data["line"] for kind, data in events if kind == "stage")
    report = events[-1][1]
    assert report["ok"] and report["verify"]["explained"]
    assert {"what", "expected", "found", "ok"} <= set(report["verify"]["checks"][0])
    assert client.get("/api/v1/build").json()["running"] is False


def test_one_build_at_a_time(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    started, release = threading.Event(), threading.Event()
    real = service.build_image

    def slow(*args: Any, **kwargs: Any) -> Any:
        started.set()
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(service, "build_image", slow)
    first: dict[str, Any] = {}
    worker = threading.Thread(
        target=lambda: first.update(
            r=client.post("/api/v1/build", json={"template": RECORDED_TEMPLATE})
        )
    )
    worker.start()
    assert started.wait(30)
    assert client.get("/api/v1/build").json()["running"] is True
    second = client.post("/api/v1/build", json={"template": RECORDED_TEMPLATE})
    release.set()
    worker.join(60)
    assert second.status_code == 409 and "a build is running" in second.json()["error"]
    assert _events(first["r"].text)[-1][0] == "report"


def test_a_build_error_is_one_event(client: TestClient) -> None:
    text = RECORDED_TEMPLATE.replace(
        "- name: ops\n", '- name: ops\n      password: "<PASSWORD_HASH>"\n'
    )
    events = _events(client.post("/api/v1/build", json={"template": text}).text)
    assert [kind for kind, _ in events] == ["error"]
    assert "placeholder" in events[0][1]["error"]
