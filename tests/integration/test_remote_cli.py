"""The command line as a client of a real server (``langgraph dev`` on this checkout).

The same commands run locally and through ``OIC_AI_SERVER_URL`` must print the same
``--json`` (the same keys; with the builtin planner, the same templates and changes).
The client's own data folder stays empty: its sessions live on the server. At the end a
user is added to the running server, which from then on refuses a wrong token (401:
exit 2, one line) and answers the right one.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import copy_index
from tests.support.cli import cli_env, oic, one_line_error
from tests.support.loopback import LoopbackHandler, LoopbackServer, down_url
from tests.support.servers import Server, langgraph_dev

pytestmark = pytest.mark.integration

CANARY = "tok-canary-7f3a9c"
CREATE = "a minimal ubuntu 24.04 raw image for x86_64"
REFINE = "add htop"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, indexed_data: Path) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("remote-cli")
    copy_index(indexed_data, root / "data")  # the server's library index, embedded once
    with langgraph_dev(root) as running:
        yield running


@pytest.fixture(scope="module")
def client_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("client") / "data"


@pytest.fixture(scope="module")
def local_dir(tmp_path_factory: pytest.TempPathFactory, indexed_data: Path) -> Path:
    return copy_index(indexed_data, tmp_path_factory.mktemp("local") / "data")


def remote(server: Server, client_dir: Path, *args: str, token: str | None = CANARY) -> Any:
    """Run a command against the server; the token is sent though the server has no users."""
    extra = {"OIC_AI_SERVER_URL": server.url}
    if token:
        extra["OIC_AI_TOKEN"] = token
    return oic(*args, env=cli_env(client_dir, **extra), timeout=300)


def local(local_dir: Path, *args: str) -> Any:
    return oic(*args, env=cli_env(local_dir, OIC_AI_PROVIDER="builtin"), timeout=300)


def as_json(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert CANARY not in done.stdout + done.stderr
    return json.loads(done.stdout)


def keys(value: Any) -> Any:
    """The key structure of a JSON value (lists by their first item)."""
    if isinstance(value, dict):
        return {k: keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [keys(value[0])] if value else []
    return None


@pytest.fixture(scope="module")
def turns(server: Server, client_dir: Path, local_dir: Path) -> dict[str, Any]:
    """The same two turns, on the server and locally: generate --new, then --continue."""
    out: dict[str, Any] = {}
    for where, run in (
        ("remote", lambda *a: remote(server, client_dir, *a)),
        ("local", lambda *a: local(local_dir, *a)),
    ):
        first = as_json(run("generate", CREATE, "--new", "--json"))
        second = as_json(run("generate", REFINE, "--continue", "--json"))
        out[where] = (first, second)
    return out


def test_generate_new_and_continue_match_a_local_run(
    turns: dict[str, Any], client_dir: Path
) -> None:
    (r1, r2), (l1, l2) = turns["remote"], turns["local"]
    assert keys(r1) == keys(l1) and keys(r2) == keys(l2)
    assert r2["session"] == r1["session"], "--continue picked the server's latest session"
    for got, want in ((r1, l1), (r2, l2)):
        for field in ("status", "provider", "template", "changes", "diff", "turn", "message"):
            assert got[field] == want[field], field
    assert "htop" in r2["template"] and r2["turn"] == 2
    assert not client_dir.exists() or not any(client_dir.rglob("*.sqlite*")), "no local store"


def test_sessions_list_show_replay_match_a_local_run(
    server: Server, client_dir: Path, local_dir: Path, turns: dict[str, Any]
) -> None:
    session = turns["remote"][0]["session"]
    local_session = turns["local"][0]["session"]
    listed = as_json(remote(server, client_dir, "sessions", "list", "--json"))
    assert keys(listed) == keys(as_json(local(local_dir, "sessions", "list", "--json")))
    (row,) = [r for r in listed["sessions"] if r["id"] == session]
    assert (row["turns"], row["title"]) == (2, CREATE)

    for action in ("show", "replay"):
        got = as_json(remote(server, client_dir, "sessions", action, session[:8], "--json"))
        want = as_json(local(local_dir, "sessions", action, local_session, "--json"))
        assert keys(got) == keys(want), action
    replay = as_json(remote(server, client_dir, "sessions", "replay", session, "--json"))
    local_replay = as_json(local(local_dir, "sessions", "replay", local_session, "--json"))
    assert [(t["turn"], t["request"], t["intent"], t["status"]) for t in replay["turns"]] == [
        (t["turn"], t["request"], t["intent"], t["status"]) for t in local_replay["turns"]
    ]
    assert [t["changes"] for t in replay["turns"]] == [t["changes"] for t in local_replay["turns"]]

    text = remote(server, client_dir, "sessions", "show", session)
    assert text.returncode == 0 and "htop" in text.stdout and CANARY not in text.stdout


def test_fork_and_delete_match_a_local_run(
    server: Server, client_dir: Path, local_dir: Path, turns: dict[str, Any]
) -> None:
    session = turns["remote"][0]["session"]
    local_session = turns["local"][0]["session"]
    fork = as_json(remote(server, client_dir, "sessions", "fork", session, "--turn", "1", "--json"))
    local_fork = as_json(
        local(local_dir, "sessions", "fork", local_session, "--turn", "1", "--json")
    )
    assert keys(fork) == keys(local_fork)
    assert (fork["source"], fork["turn"], fork["turns"]) == (session, 1, 1)
    shown = as_json(remote(server, client_dir, "sessions", "show", fork["session"], "--json"))
    assert "htop" not in (shown["state"]["template"] or ""), "the fork is the first turn's"

    deleted = as_json(remote(server, client_dir, "sessions", "delete", fork["session"], "--json"))
    local_deleted = as_json(local(local_dir, "sessions", "delete", local_fork["session"], "--json"))
    assert deleted == {"deleted": [fork["session"]]} and keys(deleted) == keys(local_deleted)
    line = one_line_error(remote(server, client_dir, "sessions", "show", fork["session"]), 2)
    assert "no session" in line and "sessions list" in line


def test_chat_runs_its_turns_and_commands_on_the_server(
    server: Server, client_dir: Path, turns: dict[str, Any], tmp_path: Path
) -> None:
    session = turns["remote"][1]["session"]
    script = "add nginx\n/sources\n/undo\n/save chat-copy\n/quit\n"
    extra = {"OIC_AI_SERVER_URL": server.url, "OIC_AI_TOKEN": CANARY}
    done = oic(
        "chat",
        "--session",
        session[:8],
        stdin=script,
        cwd=tmp_path,
        env=cli_env(client_dir, OIC_AI_TEMPLATES_DIR=str(tmp_path / "lib"), **extra),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert f"continuing session {session}" in done.stdout
    assert "ubuntu24-x86_64-minimal-raw" in done.stdout, "/sources read the server's state"
    assert "restored the template from before the last turn" in done.stdout
    saved = (tmp_path / "lib" / "chat-copy.yml").read_text()
    assert "htop" in saved and "nginx" not in saved, "/undo took back the nginx turn"
    assert CANARY not in done.stdout + done.stderr
    state = as_json(remote(server, client_dir, "sessions", "show", session, "--json"))
    assert "nginx" not in state["state"]["template"]


def test_a_turn_reports_its_own_result_when_another_run_follows_at_once(server: Server) -> None:
    """Another client's run queued behind ours ends before we could read the thread back.

    The replicas test caught this: ``generate "add curl"`` printed the next turn ("make the
    disk 21GiB", no changes) and exited 1. The turn's result is the state its run streamed.
    """
    from oic_ai.services.remote import GRAPH_ID, RemoteServer

    with RemoteServer(server.url) as remote_server:
        first = remote_server.run_turn(CREATE)
        queued: list[str] = []

        def queue_the_next(node: str, update: dict[str, Any]) -> None:
            if not queued:  # another client's turn, queued behind the running one
                run = remote_server.client.runs.create(
                    first.session,
                    GRAPH_ID,
                    input={"messages": [{"role": "user", "content": "add vim"}]},
                    multitask_strategy="enqueue",
                )
                queued.append(run["run_id"])

        read_thread = remote_server.client.threads.get_state

        def read_after_the_next(*args: Any, **kwargs: Any) -> Any:
            remote_server.client.runs.join(first.session, queued[0])
            return read_thread(*args, **kwargs)

        remote_server.client.threads.get_state = read_after_the_next  # type: ignore[method-assign]
        mine = remote_server.run_turn(REFINE, first.session, on_step=queue_the_next)
        remote_server.client.threads.get_state = read_thread  # type: ignore[method-assign]
        remote_server.client.runs.join(first.session, queued[0])

        assert mine.turn == first.turn + 1
        assert mine.template and "htop" in mine.template and "vim" not in mine.template
        assert any("htop" in str(change) for change in mine.changes), mine.changes
        after = remote_server.state(first.session)
        assert after["turn"] == first.turn + 2 and "vim" in after["template"]


def test_store_maintenance_is_refused_through_a_server(server: Server, client_dir: Path) -> None:
    line = one_line_error(remote(server, client_dir, "sessions", "prune", "--older-than", "1d"))
    assert server.url in line and "OIC_AI_SERVER_URL" in line


def test_an_unreachable_server_is_exit_3_and_one_line(tmp_path: Path) -> None:
    with down_url() as url:
        for args in (("generate", CREATE), ("sessions", "list"), ("sessions", "show", "abc")):
            done = oic(*args, "--server", url, "--token", CANARY, env=cli_env(tmp_path / "d"))
            line = one_line_error(done, 3)
            assert url in line and "oic-ai serve" in line and CANARY not in line


class _Failing(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 - the http.server name
        self.owner.hits += 1
        body = json.dumps({"error": "the sessions database is locked", "fix": "retry"}).encode()
        self.send_bytes(503, body, "application/json")


class _FailingServer(LoopbackServer):
    handler = _Failing

    def __init__(self) -> None:
        super().__init__()
        self.hits = 0


def test_a_server_that_keeps_failing_is_exit_3_after_retries(tmp_path: Path) -> None:
    """A loopback fake: a real server cannot be made to answer 503 on demand."""
    with _FailingServer() as failing:
        done = oic("sessions", "list", "--server", failing.url, env=cli_env(tmp_path / "d"))
        line = one_line_error(done, 3)
        assert failing.url in line and "503" in line and "locked" in line
        assert failing.hits == 3, "a read is tried three times"


def test_with_a_user_on_the_server_a_wrong_token_is_exit_2(
    server: Server, client_dir: Path, turns: dict[str, Any]
) -> None:
    """Adding a user turns auth on at once (the server re-reads its token file)."""
    added = oic("users", "add", "alice", "--json", env=cli_env(server.data_dir))
    assert added.returncode == 0, added.stderr
    token = json.loads(added.stdout)["token"]

    for bad in (CANARY, None):
        done = remote(server, client_dir, "sessions", "list", token=bad)
        line = one_line_error(done, 2)
        assert "401" in line and "OIC_AI_TOKEN" in line and "oic-ai users add" in line
        assert server.url in line and CANARY not in line
    done = remote(server, client_dir, "generate", "a debian 13 raw image", token=CANARY)
    assert "401" in one_line_error(done, 2)

    mine = as_json(remote(server, client_dir, "generate", CREATE, "--json", token=token))
    assert mine["status"] in ("valid", "valid_with_warnings")
    assert token not in json.dumps(mine)
    replay = remote(server, client_dir, "sessions", "replay", mine["session"], token=token)
    assert replay.returncode == 0, replay.stderr
    assert token not in replay.stdout + replay.stderr
