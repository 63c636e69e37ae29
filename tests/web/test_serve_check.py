"""``oic-ai serve --check``: what a server would use, whether each part answers, exit 3 if not.

Unreachable parts are closed loopback ports; the reachable ones are a real PostgreSQL
(``tests/support/postgres.py``) and a real ``redis-server``. Passwords in every URL are
shown as ``***``. The all-reachable replica (with a ``chroma run``) is checked in
``tests/integration/test_replicas.py``.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import cli_env, oic, one_line_error
from tests.support.cluster import redis_server
from tests.support.processes import free_port

SECRET = "pw-s3cret-words"


def _lines(stdout: str) -> dict[str, str]:
    """``{part: rest of its line}`` of the check's output."""
    found = {}
    for line in stdout.splitlines():
        part, _, rest = line.partition(":")
        found[part.strip()] = rest.strip()
    return found


def test_one_server_with_embedded_parts_is_fine(tmp_path: Path) -> None:
    done = oic("serve", "--check", env=cli_env(tmp_path / "data"))
    assert done.returncode == 0, done.stderr
    lines = _lines(done.stdout)
    assert lines["engine"].startswith("langgraph-api in-memory runtime")
    assert "SQLite" in lines["database"] and lines["database"].endswith("ok")
    assert lines["redis"].startswith("not set")
    assert lines["chroma"].startswith("embedded") and lines["chroma"].endswith("ok")


def test_a_replica_whose_parts_are_unreachable_exits_3_naming_each_without_passwords(
    tmp_path: Path,
) -> None:
    closed = free_port()
    env = cli_env(
        tmp_path / "data",
        OIC_AI_DATABASE_URL=f"postgresql://alice:{SECRET}@127.0.0.1:{closed}/oic",
        OIC_AI_REDIS_URL=f"redis://:{SECRET}@127.0.0.1:{closed}/0",
        OIC_AI_CHROMA_URL=f"http://127.0.0.1:{closed}",
    )
    done = oic("serve", "--check", env=env)
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert SECRET not in done.stdout + done.stderr
    lines = _lines(done.stdout)
    assert lines["engine"].startswith("aegra") and lines["engine"].endswith("ok")
    for part in ("database", "redis", "chroma"):
        assert "UNREACHABLE" in lines[part], (part, done.stdout)
    assert "***@127.0.0.1" in lines["database"] and "***@127.0.0.1" in lines["redis"]


def test_one_unreachable_part_is_enough_for_exit_3(postgres_url: str, tmp_path: Path) -> None:
    with redis_server(tmp_path) as redis_url:
        env = cli_env(
            tmp_path / "data",
            OIC_AI_DATABASE_URL=postgres_url,
            OIC_AI_REDIS_URL=redis_url,
            OIC_AI_CHROMA_URL=f"http://127.0.0.1:{free_port()}",
        )
        done = oic("serve", "--check", env=env)
        assert done.returncode == 3, (done.stdout, done.stderr)
        lines = _lines(done.stdout)
        assert lines["database"].endswith("ok") and lines["redis"].endswith("ok"), lines
        assert "UNREACHABLE" in lines["chroma"]
        no_chroma = oic("serve", "--check", env={**env, "OIC_AI_CHROMA_URL": ""})
        assert no_chroma.returncode == 3
        assert "replicas need a shared Chroma server" in _lines(no_chroma.stdout)["chroma"]


def test_serve_on_another_address_counts_the_users_of_a_database_named_in_the_config(
    postgres_url: str, tmp_path: Path
) -> None:
    """``ai.sessions.url`` puts the users in PostgreSQL for the server; the check agrees."""
    from oic_ai.stores.users_pg import PgUserStore

    config = tmp_path / "config.yaml"
    config.write_text(f"ai:\n  sessions:\n    url: {postgres_url}\n")
    assert PgUserStore(postgres_url).list() == []  # the server's users: none
    env = cli_env(tmp_path / "data")
    assert oic("users", "add", "alice", env=env).returncode == 0  # the token file: ignored
    done = oic(
        "serve", "--no-browser", "--host", "0.0.0.0", "--port", str(free_port()),
        "--config", str(config), env=env,
    )  # fmt: skip
    line = one_line_error(done)
    assert "no users" in line and "oic-ai users add NAME" in line
