"""The REST API and the page's static files, in-process through Starlette's TestClient.

Every route runs the real services on a real data folder: SQLite sessions written by a
real agent, a real Chroma index of a template folder the test owns, real validation and
a real package index imported from a Debian ``Packages`` file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from oic_ai.cli.main import main
from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.session_lock import session_lock
from oic_ai.stores.settings import Settings, load_settings
from oic_ai.web.app import create_app
from tests.conftest import FIXTURES, OUR_TEMPLATES
from tests.stores.package_repos import DEB_PACKAGES

MINIMAL = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"
BROKEN = FIXTURES / "invalid" / "duplicate-packages.yml"
ELXR = """\
image: {name: probe, version: "1"}
target: {os: wind-river-elxr, dist: elxr12, arch: x86_64, imageType: raw}
systemConfig:
  name: probe
  packages: [openssh-server, docker-ce]
"""


@dataclass
class Api:
    client: TestClient
    settings: Settings
    templates: Path
    data: Path


@pytest.fixture
def api(small_library: Path, tmp_path: Path) -> Iterator[Api]:
    data = tmp_path / "data"
    settings = load_settings(data_dir=data, templates_dir=small_library, provider="builtin", env={})
    with TestClient(create_app(lambda: settings)) as client:
        yield Api(client, settings, small_library, data)


def assert_error(response: object, status: int, words: str) -> dict[str, str]:
    """One error answer: the status, ``{"error": one line, "fix": ...}``, naming ``words``."""
    assert response.status_code == status, response.text  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert set(body) >= {"error", "fix"}
    assert "\n" not in body["error"] and words in body["error"], body
    assert "Traceback" not in response.text  # type: ignore[attr-defined]
    return dict(body)


# --- validate ----------------------------------------------------------------------------


def test_validate_answers_the_validate_json_entry(api: Api) -> None:
    good = api.client.post("/api/v1/validate", json={"template": MINIMAL.read_text()})
    assert good.status_code == 200
    assert good.json() == {"path": "template.yml", "valid": True, "errors": [], "warnings": []}

    bad = api.client.post("/api/v1/validate", json={"template": BROKEN.read_text(), "name": "b"})
    report = bad.json()
    assert bad.status_code == 200 and report["valid"] is False and report["path"] == "b"
    codes = {e["code"] for e in report["errors"]}
    assert "package-duplicate" in codes
    assert all(set(e) >= {"path", "line", "message", "code"} for e in report["errors"])
    assert all(isinstance(e["line"], int) for e in report["errors"])


def test_validate_marks_a_finding_on_its_line(api: Api) -> None:
    lines = MINIMAL.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if line.strip().startswith("arch:"))
    lines[index] = lines[index].split(":")[0] + ": sparc64"
    report = api.client.post("/api/v1/validate", json={"template": "\n".join(lines)}).json()
    assert report["valid"] is False
    assert [e["line"] for e in report["errors"] if "arch" in e["path"]] == [index + 1]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"", "body is empty"),
        (b"{not json", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b"{}", '"template" is missing'),
        (b'{"template": 7}', '"template" is not a string'),
    ],
)
def test_validate_refuses_a_bad_body_with_one_line(api: Api, body: bytes, words: str) -> None:
    response = api.client.post("/api/v1/validate", content=body)
    assert_error(response, 400, words)


def test_a_body_over_two_mib_is_refused(api: Api) -> None:
    huge = json.dumps({"template": "a" * (2 * 1024 * 1024 + 10)})
    assert_error(api.client.post("/api/v1/validate", content=huge), 400, "over 2 MiB")


# --- search and templates ----------------------------------------------------------------


def test_search_answers_the_search_json_shape(api: Api) -> None:
    response = api.client.get("/api/v1/search", params={"q": "minimal ubuntu raw", "top_k": 3})
    assert response.status_code == 200
    body = response.json()
    assert body["query"] == "minimal ubuntu raw" and body["query_type"]
    assert 1 <= len(body["results"]) <= 3
    for result in body["results"]:
        assert set(result) >= {"template", "path", "score", "semantic", "keyword", "package"}
    names = {p.name for p in api.templates.glob("*.yml")}
    assert {r["template"] for r in body["results"]} <= names


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({}, "q is empty"),
        ({"q": "x", "top_k": "many"}, "not a number"),
        ({"q": "x", "top_k": 0}, "out of range"),
    ],
)
def test_search_refuses_bad_parameters(api: Api, params: dict[str, object], words: str) -> None:
    assert_error(api.client.get("/api/v1/search", params=params), 400, words)  # type: ignore[arg-type]


def test_templates_lists_the_library_with_its_targets(api: Api) -> None:
    body = api.client.get("/api/v1/templates").json()
    files = sorted(p.name for p in api.templates.glob("*.yml"))
    assert sorted(t["path"] for t in body["templates"]) == files
    first = body["templates"][0]
    assert set(first) >= {"name", "path", "os", "dist", "arch", "image_type", "description"}
    assert first["name"] == Path(first["path"]).stem and first["dist"]


def test_a_template_is_read_by_name_and_nothing_outside_the_library(api: Api) -> None:
    path = sorted(api.templates.glob("*.yml"))[0]
    body = api.client.get(f"/api/v1/templates/{path.stem}").json()
    assert body["name"] == path.stem and body["path"] == path.name
    assert body["template"] == path.read_text()
    assert_error(api.client.get("/api/v1/templates/no-such-template"), 404, "no template")
    (api.templates.parent / "secret.yml").write_text("image: {name: secret}\n")
    for escape in ("../secret", "..%2Fsecret", "/etc/passwd", "%2E%2E/secret.yml"):
        response = api.client.get(f"/api/v1/templates/{escape}")
        assert response.status_code == 404 and "secret" not in response.text.split('"error"')[0]
        assert "image: {name: secret}" not in response.text


# --- save --------------------------------------------------------------------------------


def test_save_writes_atomically_refuses_to_clobber_and_indexes(api: Api) -> None:
    text = MINIMAL.read_text().replace(
        "systemConfig:", "# saved from the browser\nsystemConfig:", 1
    )
    text = text.replace("description:", "description: quokka telemetry appliance;", 1)
    query = {"q": "quokka telemetry appliance"}
    before = api.client.get("/api/v1/search", params=query).json()["results"]  # a warm search
    assert "quokka-edge.yml" not in {r["template"] for r in before}
    listed = [t["name"] for t in api.client.get("/api/v1/templates").json()["templates"]]
    assert "quokka-edge" not in listed  # the listing is kept warm too
    created = api.client.post("/api/v1/templates", json={"name": "quokka-edge", "template": text})
    assert created.status_code == 201, created.text
    body = created.json()
    assert (body["name"], body["path"], body["indexed"]) == ("quokka-edge", "quokka-edge.yml", True)
    saved = api.templates / "quokka-edge.yml"
    assert saved.read_text() == text and body["file"] == str(saved.resolve())
    assert body["validation"]["valid"] is True
    assert not [p for p in api.templates.iterdir() if p.name.startswith(".")]  # no temp file

    again = api.client.post("/api/v1/templates", json={"name": "quokka-edge", "template": "x: 1"})
    assert_error(again, 422, "not a valid template")  # an invalid template is refused first
    clash = api.client.post("/api/v1/templates", json={"name": "quokka-edge", "template": text})
    assert_error(clash, 409, "already exists")
    assert saved.read_text() == text

    replaced = text.replace("# saved from the browser", "# saved twice")
    response = api.client.post(
        "/api/v1/templates", json={"name": "quokka-edge", "template": replaced, "overwrite": True}
    )
    assert response.status_code == 201 and saved.read_text() == replaced

    # the index knows it at once: the library lists it and a search ranks it first
    names = [t["name"] for t in api.client.get("/api/v1/templates").json()["templates"]]
    assert "quokka-edge" in names
    found = api.client.get("/api/v1/search", params=query).json()
    assert found["results"][0]["template"] == "quokka-edge.yml"


def test_an_invalid_template_is_refused_with_its_findings(api: Api) -> None:
    response = api.client.post(
        "/api/v1/templates", json={"name": "broken", "template": BROKEN.read_text()}
    )
    body = assert_error(response, 422, "not a valid template")
    validation = body["validation"]  # type: ignore[index]
    assert validation["valid"] is False  # type: ignore[index]
    assert "package-duplicate" in {e["code"] for e in validation["errors"]}  # type: ignore[index]
    assert not (api.templates / "broken.yml").exists()


@pytest.mark.parametrize(
    "name",
    [
        "../evil",
        "a/b",
        "/tmp/evil",
        "..",
        ".hidden",
        ".hidden.yml",
        "evil\\..\\x",
        "",
        "  ",
        "é",
        "x" * 129,
        "a\x00b",
        "a\nb",
        "a\u202eb",
        "../../config.yaml",
    ],
)
def test_a_name_that_could_leave_the_folder_is_refused(api: Api, name: str) -> None:
    before = {p.name for p in api.templates.parent.rglob("*")}
    response = api.client.post(
        "/api/v1/templates",
        json={"name": name, "template": MINIMAL.read_text(), "overwrite": True},
    )
    assert_error(response, 422, "template name")
    assert {p.name for p in api.templates.parent.rglob("*")} == before


def test_a_yaml_file_name_is_a_library_name_never_a_path_from_the_server(
    api: Api, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "config.yaml").write_text("ai: {provider: builtin}\n")
    monkeypatch.chdir(work)  # the server's working folder holds its own config.yaml
    text = MINIMAL.read_text()
    saved = api.client.post(
        "/api/v1/templates", json={"name": "config.yaml", "template": text, "overwrite": True}
    )
    assert saved.status_code == 201, saved.text
    assert (work / "config.yaml").read_text() == "ai: {provider: builtin}\n"
    assert (api.templates / "config.yaml").read_text() == text
    longest = "n" * 124 + ".yml"  # 128 characters: still a name
    assert (
        api.client.post("/api/v1/templates", json={"name": longest, "template": text}).status_code
        == 201
    )


def test_a_link_in_the_library_is_never_written_through(api: Api, tmp_path: Path) -> None:
    outside = tmp_path / "outside.yml"
    outside.write_text("precious: true\n")
    (api.templates / "linked.yml").symlink_to(outside)
    for name in ("linked", "linked.yml"):
        response = api.client.post(
            "/api/v1/templates",
            json={"name": name, "template": MINIMAL.read_text(), "overwrite": True},
        )
        assert_error(response, 422, "symbolic link")
    assert outside.read_text() == "precious: true\n"
    assert (api.templates / "linked.yml").is_symlink()


def test_save_refuses_a_bad_overwrite_flag(api: Api) -> None:
    response = api.client.post(
        "/api/v1/templates", json={"name": "x", "template": "a: 1", "overwrite": "yes"}
    )
    assert_error(response, 400, "overwrite")


# --- packages ----------------------------------------------------------------------------


def test_packages_check_without_an_index_says_why(api: Api) -> None:
    body = api.client.post("/api/v1/packages/check", json={"template": ELXR}).json()
    assert body["checked"] is False and "elxr12" in body["reason"] and body["fix"]


def test_packages_check_names_the_missing_with_suggestions(
    api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["packages", "sync", "--index", str(DEB_PACKAGES), "--dist", "elxr12"]
        + ["--arch", "x86_64", "--data-dir", str(api.data)]
    )
    assert code == 0
    capsys.readouterr()
    response = api.client.post("/api/v1/packages/check", json={"template": ELXR, "name": "p.yml"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) >= {"path", "checked", "found", "missing", "suggestions"}
    assert body["checked"] is True and body["path"] == "p.yml"
    assert "openssh-server" in body["found"] and body["missing"] == ["docker-ce"]
    assert isinstance(body["suggestions"], dict)
    broken = api.client.post("/api/v1/packages/check", json={"template": "image: [unclosed"})
    assert_error(broken, 400, "not valid YAML")


# --- sessions ----------------------------------------------------------------------------


@pytest.fixture
def session(api: Api) -> str:
    """A session with two turns: started from a library template, then edited."""
    with TemplateAgent(api.settings) as agent:
        first = agent.start_from(sorted(api.templates.glob("*.yml"))[0].stem)
        edited = (first.template or "") + "# edited\n"
        second = agent.apply_edit(first.session, edited)
        assert second.status in ("valid", "valid_with_warnings"), second.message
        return first.session


def test_sessions_list_show_rename_fork_delete(api: Api, session: str) -> None:
    listed = api.client.get("/api/v1/sessions").json()["sessions"]
    assert [s["id"] for s in listed] == [session]
    assert set(listed[0]) >= {"id", "title", "created", "updated", "turns", "template"}
    assert listed[0]["turns"] == 2

    shown = api.client.get(f"/api/v1/sessions/{session}").json()
    assert shown["id"] == session and shown["state"]["template"].endswith("# edited\n")
    history = shown["history"]
    assert [(t["turn"], t["intent"]) for t in history] == [(1, "edit"), (2, "edit")]
    assert history[1]["request"] == "apply my edit" and "+# edited" in history[1]["diff"]
    assert history[0]["changes"][0].startswith("started from ")

    renamed = api.client.patch(f"/api/v1/sessions/{session}", json={"title": "edge box"})
    assert renamed.status_code == 200 and renamed.json()["title"] == "edge box"
    assert api.client.get("/api/v1/sessions").json()["sessions"][0]["title"] == "edge box"

    forked = api.client.post(f"/api/v1/sessions/{session}/fork", json={"turn": 1})
    assert forked.status_code == 201, forked.text
    new = forked.json()["session"]
    assert new != session and forked.json()["source"] == session
    fork_state = api.client.get(f"/api/v1/sessions/{new}").json()["state"]
    assert not fork_state["template"].endswith("# edited\n")  # as it was after turn 1

    assert api.client.delete(f"/api/v1/sessions/{session}").status_code == 204
    assert_error(api.client.get(f"/api/v1/sessions/{session}"), 404, "no session")
    assert [s["id"] for s in api.client.get("/api/v1/sessions").json()["sessions"]] == [new]


def test_session_errors_are_one_line_with_the_right_status(api: Api, session: str) -> None:
    for method in ("get", "delete"):
        assert_error(getattr(api.client, method)("/api/v1/sessions/nope"), 404, "no session")
    assert_error(api.client.patch("/api/v1/sessions/nope", json={"title": "x"}), 404, "no session")
    prefix = session[:8]  # a REST path names a session exactly, never by prefix
    assert_error(api.client.get(f"/api/v1/sessions/{prefix}"), 404, "no session")
    assert_error(api.client.patch(f"/api/v1/sessions/{session}", json={"title": " "}), 400, "title")
    for turn in (0, "1", True, None):
        response = api.client.post(f"/api/v1/sessions/{session}/fork", json={"turn": turn})
        assert_error(response, 400, "turn")
    assert_error(api.client.post(f"/api/v1/sessions/{session}/fork", json={"turn": 9}), 400, "9")


def test_a_session_busy_with_a_turn_answers_409(
    api: Api, session: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OIC_AI_SESSION_WAIT", "0.2")
    with session_lock(api.data, session, timeout=5):
        response = api.client.delete(f"/api/v1/sessions/{session}")
    assert_error(response, 409, "session is busy")
    assert api.client.get(f"/api/v1/sessions/{session}").status_code == 200


def test_sessions_list_on_a_fresh_data_folder_is_empty(api: Api) -> None:
    assert api.client.get("/api/v1/sessions").json() == {"sessions": []}
    assert not (api.data / "sessions.sqlite").exists()  # reading never creates it


# --- the page ----------------------------------------------------------------------------


@pytest.fixture
def page(tmp_path: Path) -> Iterator[TestClient]:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>t</title>")
    (static / "app.js").write_text("export const x = 1;\n")
    (static / "app.css").write_text("body {}\n")
    settings = load_settings(data_dir=tmp_path / "data", env={})
    with TestClient(create_app(lambda: settings, static_dir=static)) as client:
        yield client


def test_the_page_is_served_with_its_types_and_no_cache(page: TestClient) -> None:
    index = page.get("/ui/")
    assert index.status_code == 200 and index.text.startswith("<!doctype html>")
    assert index.headers["content-type"].startswith("text/html")
    assert index.headers["cache-control"] == "no-cache"
    expected = {"app.js": "text/javascript", "app.css": "text/css"}
    for name, kind in expected.items():
        answer = page.get(f"/ui/{name}")
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(kind)
        assert answer.headers["x-content-type-options"] == "nosniff"
    again = page.get(
        "/ui/app.js", headers={"if-none-match": page.get("/ui/app.js").headers["etag"]}
    )
    assert again.status_code == 304
    moved = page.get("/ui", follow_redirects=False)
    assert moved.status_code == 307 and moved.headers["location"] == "ui/"
    assert page.get("/ui/missing.js").status_code == 404
    assert page.get("/ui/../pyproject.toml").status_code == 404


def test_the_shipped_page_folder_has_an_index() -> None:
    from oic_ai.web.app import STATIC_DIR, app

    assert (STATIC_DIR / "index.html").is_file()
    paths = {getattr(route, "path", "") for route in app.routes}
    assert {"/ui", "/api/v1/validate", "/api/v1/sessions/{session}/fork"} <= paths


def test_langgraph_json_and_serve_mount_the_same_app_graph_and_checkpointer() -> None:
    from oic_ai.cli.commands.serve import server_config
    from tests.conftest import PROJECT

    config = json.loads((PROJECT / "langgraph.json").read_text())
    served = server_config()
    assert config["http"] == served["http"]
    assert served["http"]["app"] == "oic_ai.web.app:app"
    assert config["graphs"] == served["graphs"]
    # one spelling: both name the checkpointer by its module path
    assert config["checkpointer"] == served["checkpointer"]
    assert served["checkpointer"]["path"] == "oic_ai.graph.checkpointer.session_checkpointer"
