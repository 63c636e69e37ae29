"""Terminal escapes in a request are shown, never acted on (issue 12, item 8): the CLI.

``generate``'s "not applied" line, ``sessions show`` and ``sessions replay`` print the
request neutralised; the stored text and ``--json`` keep it exact.
"""

from __future__ import annotations

import json

import pytest

from oic_ai.stores.session_store import make_title
from tests.cli.test_terminal_text import HOSTILE, RAW, assert_neutral
from tests.support.cli import cli_env, oic

# --- the CLI as a user runs it ----------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile_session(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str, str]:
    """One turn whose request is :data:`HOSTILE`: (env, session id, the human stderr)."""
    env = cli_env(tmp_path_factory.mktemp("escapes"), OIC_AI_PROVIDER="builtin")
    done = oic("generate", HOSTILE, env=env)
    assert done.returncode == 0, done.stderr
    listed = json.loads(oic("sessions", "list", "--json", env=env).stdout)
    return env, listed["sessions"][0]["id"], done.stderr


def test_generate_prints_the_not_applied_line_neutrally(
    hostile_session: tuple[dict[str, str], str, str],
) -> None:
    _, _, stderr = hostile_session
    assert "not applied" in stderr
    assert not [c for c in RAW if c in stderr], stderr
    assert "\\u202eevil" in stderr


def test_sessions_show_and_replay_are_neutral(
    hostile_session: tuple[dict[str, str], str, str],
) -> None:
    env, sid, _ = hostile_session
    for command in (("show", sid), ("replay", sid, "--no-diff")):
        done = oic("sessions", *command, env=env)
        assert done.returncode == 0, done.stderr
        assert_neutral(done.stdout)


def test_stored_text_and_json_stay_exact(
    hostile_session: tuple[dict[str, str], str, str],
) -> None:
    env, sid, _ = hostile_session
    listed = json.loads(oic("sessions", "list", "--json", env=env).stdout)
    assert listed["sessions"][0]["title"] == make_title(HOSTILE)
    shown = json.loads(oic("sessions", "show", sid, "--json", env=env).stdout)
    assert shown["state"]["messages"][0]["content"] == HOSTILE
    replay = json.loads(oic("sessions", "replay", sid, "--json", env=env).stdout)
    assert replay["turns"][0]["request"] == HOSTILE
