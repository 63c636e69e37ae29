"""``oic-ai users add|list|remove`` as a user runs them: fresh processes, real files."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from oic_ai.stores.users import hash_token
from tests.support.cli import cli_env, modules_after, oic, oic_json, one_line_error


def test_add_prints_the_token_once_and_stores_only_its_hash(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    done = oic("users", "add", "alice", env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    tokens = [line for line in lines if line.startswith("oic_")]
    assert len(tokens) == 1, done.stdout
    token = tokens[0]
    assert done.stdout.count(token) == 1 and token not in done.stderr
    assert "shown only this once" in done.stdout
    text = (tmp_path / "users.json").read_text(encoding="utf-8")
    assert token not in text and hash_token(token) in text
    assert stat.S_IMODE((tmp_path / "users.json").stat().st_mode) == 0o600


def test_json_of_add_has_the_token_and_list_never_does(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    alice = oic_json("users", "add", "alice", env=env)
    assert set(alice) == {"user", "token", "created"} and alice["user"] == "alice"
    bob = oic_json("users", "add", "bob", env=env)
    assert bob["token"] != alice["token"]
    listed = oic_json("users", "list", env=env)
    assert listed == {
        "file": str(tmp_path / "users.json"),
        "users": [
            {"user": "alice", "created": alice["created"]},
            {"user": "bob", "created": bob["created"]},
        ],
    }
    text = oic("users", "list", env=env).stdout
    assert "alice" in text and "bob" in text
    for secret in (alice["token"], bob["token"], hash_token(alice["token"])):
        assert secret not in text and secret not in json.dumps(listed)


def test_remove_forgets_the_user(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    token = oic_json("users", "add", "alice", env=env)["token"]
    oic_json("users", "add", "bob", env=env)
    done = oic("users", "remove", "alice", env=env)
    assert done.returncode == 0 and "Removed user 'alice'" in done.stdout
    assert [u["user"] for u in oic_json("users", "list", env=env)["users"]] == ["bob"]
    assert hash_token(token) not in (tmp_path / "users.json").read_text(encoding="utf-8")
    last = oic_json("users", "remove", "bob", env=env)
    assert last == {"removed": "bob", "users_left": 0}


def test_bad_names_and_duplicates_are_one_line_exit_2(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    oic_json("users", "add", "alice", env=env)
    line = one_line_error(oic("users", "add", "alice", env=env), 2)
    assert "user 'alice' already exists" in line and "users remove alice" in line
    line = one_line_error(oic("users", "add", "two words", env=env), 2)
    assert "invalid user name 'two words'" in line and "letters, digits" in line
    line = one_line_error(oic("users", "remove", "carol", env=env), 2)
    assert "no user 'carol'" in line and "users list" in line
    assert "choose an action" in one_line_error(oic("users", env=env), 2)


def test_the_tokens_file_variable_wins_over_the_data_folder(tmp_path: Path) -> None:
    elsewhere = tmp_path / "secrets" / "tokens.json"
    env = cli_env(tmp_path / "data", OIC_AI_TOKENS_FILE=str(elsewhere))
    oic_json("users", "add", "alice", env=env)
    assert elsewhere.is_file() and not (tmp_path / "data" / "users.json").exists()
    assert oic_json("users", "list", env=env)["file"] == str(elsewhere)


def test_no_users_says_the_server_is_open(tmp_path: Path) -> None:
    done = oic("users", "list", env=cli_env(tmp_path))
    assert done.returncode == 0 and "answers anyone" in done.stdout
    assert not (tmp_path / "users.json").exists()  # listing creates nothing


def test_a_damaged_token_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "users.json").write_text("[1, 2", encoding="utf-8")
    line = one_line_error(oic("users", "list", env=cli_env(tmp_path)), 2)
    assert "is not valid JSON" in line and "move it aside" in line


def test_users_commands_load_no_server_or_graph() -> None:
    loaded = modules_after(
        "from oic_ai.cli.main import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['users', 'list', '--data-dir', '/nonexistent-oic-ai-test'])\n"
    )
    heavy = {"langgraph", "langgraph_api", "langgraph_sdk", "chromadb", "starlette"}
    assert not {name.split(".")[0] for name in loaded} & heavy
