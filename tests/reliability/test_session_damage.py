"""The command line on a damaged sessions.sqlite: one line and exit 2, then ``repair``.

Issue 12 item 3. Every command that opens the sessions database names the problem and
the fix (``oic-ai sessions repair``) in one line, exits 2 and leaves the file as it
was; ``repair`` moves it aside, keeps what can be read, and the commands work again.
Chroma and the other files in the data folder are not touched.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oic_ai.stores.session_store import sessions_db_path
from tests.support.cli import cli_env, oic, oic_json, one_line_error
from tests.support.session_db import DAMAGES, damage, digest, make_sessions_db, tree_digest

COMMANDS = [
    ("sessions", "list"),
    ("sessions", "list", "--json"),
    ("sessions", "show", "session-001"),
    ("sessions", "replay", "session-001"),
    ("sessions", "delete", "session-001"),
    ("sessions", "prune", "--older-than", "1s"),
    ("generate", "add htop", "--session", "session-001", "--provider", "builtin"),
    ("generate", "a minimal ubuntu 24.04 image for x86_64", "--provider", "builtin"),
]


@pytest.mark.parametrize("how", DAMAGES)
def test_damaged_sessions_database_one_line_exit_2_then_repair(
    agent_data_dir: Path, how: str
) -> None:
    rows = make_sessions_db(agent_data_dir)
    path = sessions_db_path(agent_data_dir)
    damage(path, how)
    before, others = digest(path), tree_digest(agent_data_dir)
    env = cli_env(agent_data_dir)

    for command in COMMANDS:
        line = one_line_error(oic(*command, env=env), code=2)
        assert "sessions database" in line and "damaged" in line, (command, line)
        assert "oic-ai sessions repair" in line, (command, line)
        assert digest(path) == before, command  # never written

    done = oic("sessions", "repair", "--json", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["repaired"] is True and report["damaged"]
    assert digest(Path(report["moved_to"])) == before
    listed = oic_json("sessions", "list", env=env)["sessions"]
    assert len(listed) == report["sessions"]
    assert {s["id"] for s in listed} <= set(rows)
    if how != "garbage-at-start":
        assert listed  # the readable sessions are back
    assert tree_digest(agent_data_dir) == others  # Chroma and the rest untouched

    again = oic("sessions", "repair", env=env)
    assert again.returncode == 0 and "nothing to repair" in again.stdout
    fresh = oic_json("generate", "a minimal ubuntu 24.04 image for x86_64", env=env)
    assert fresh["turn"] == 1
