"""Users and token hashes in PostgreSQL (``stores/users_pg.py``), on a real cluster.

One fresh database per test (``tests/support/postgres.py``). What the token file's store
promises holds here too: only the token's hash is stored, names are checked, a duplicate
or unknown name is one line; the first time the table is made, the token file's users are
copied in (a server moving to PostgreSQL does not open up), and only that time; the
verifier follows additions and removals and refuses everyone when the database is gone,
naming the problem without the password. ``oic-ai users`` with ``OIC_AI_DATABASE_URL``
writes there, and ``users list --json`` says where the users are.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import psycopg
import pytest

from oic_ai.stores import users_pg
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.users import UserStore
from oic_ai.stores.users_pg import PgTokenVerifier, PgUserStore
from tests.support.cli import cli_env, oic, oic_json, one_line_error

UNREACHABLE = "postgresql://alice:pw-s3cret-words@127.0.0.1:1/oic"


def _rows(url: str) -> list[tuple[str, str, str]]:
    with psycopg.connect(url) as conn:
        found = conn.execute("SELECT name, created, token_sha256 FROM oic_users ORDER BY name")
        return [(str(a), str(b), str(c)) for a, b, c in found.fetchall()]


def test_the_table_holds_the_hash_and_never_the_token(postgres_url: str) -> None:
    store = PgUserStore(postgres_url)
    alice = store.add("alice")
    ((name, created, digest),) = _rows(postgres_url)
    assert (name, created) == ("alice", alice.created)
    assert digest == hashlib.sha256(alice.token.encode()).hexdigest()
    assert alice.token not in str(_rows(postgres_url))
    assert [u.name for u in store.list()] == ["alice"]
    assert "token" not in str(store.list()[0].to_json())


def test_invalid_duplicate_and_unknown_names_are_one_line(postgres_url: str) -> None:
    store = PgUserStore(postgres_url)
    store.add("alice")
    with pytest.raises(UserInputError, match="already exists"):
        store.add("alice")
    with pytest.raises(UserInputError, match="no user 'bob'"):
        store.remove("bob")
    with pytest.raises(UserInputError):
        store.add("not a name!")
    assert [u.name for u in store.list()] == ["alice"]


def test_the_token_files_users_are_copied_in_once_when_the_table_is_made(
    postgres_url: str, tmp_path: Path
) -> None:
    tokens = tmp_path / "tokens.json"
    file_store = UserStore(tokens)
    alice = file_store.add("alice")
    verifier = PgTokenVerifier(postgres_url, tokens)
    assert verifier.has_users()  # the server stays closed after the move
    assert verifier.user_for(alice.token) == "alice"
    file_store.add("bob")  # after the table exists: not copied again
    assert [u.name for u in PgUserStore(postgres_url, tokens).list()] == ["alice"]


def test_the_verifier_follows_additions_and_removals(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(users_pg, "REFRESH_SECONDS", 0.0)
    store = PgUserStore(postgres_url)
    verifier = PgTokenVerifier(postgres_url)
    assert not verifier.has_users()
    alice = store.add("alice")
    bob = store.add("bob")
    assert verifier.user_for(alice.token) == "alice"
    assert verifier.user_for(bob.token) == "bob"
    assert verifier.user_for("not-a-token") is None
    store.remove("alice")
    assert verifier.user_for(alice.token) is None
    assert verifier.user_for(bob.token) == "bob"


def test_an_unreachable_database_refuses_everyone_without_the_password() -> None:
    verifier = PgTokenVerifier(UNREACHABLE)
    with pytest.raises(UserInputError) as refused:
        verifier.has_users()
    text = f"{refused.value.problem} {refused.value.fix}"
    assert "users table cannot be read" in text and "pw-s3cret-words" not in text
    with pytest.raises(UserInputError):
        verifier.user_for("any-token")  # closed, not open


def test_users_commands_write_to_the_database_and_list_says_where(
    postgres_url: str, tmp_path: Path
) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_DATABASE_URL=postgres_url)
    added = oic_json("users", "add", "alice", env=env)
    assert {"user", "token"} <= set(added) and added["user"] == "alice"
    assert [row[0] for row in _rows(postgres_url)] == ["alice"]
    listed = oic_json("users", "list", env=env)
    assert listed["file"] is None and listed["database"].startswith("postgresql://")
    assert [u["user"] for u in listed["users"]] == ["alice"]
    assert not (tmp_path / "data" / "tokens.json").exists()
    on_file = oic_json("users", "list", env=cli_env(tmp_path / "other"))
    assert "database" not in on_file and on_file["file"].endswith(".json")
    done = oic("users", "list", env=cli_env(tmp_path / "data", OIC_AI_DATABASE_URL=UNREACHABLE))
    line = one_line_error(done, code=3)  # unreachable: retryable
    assert "pw-s3cret-words" not in line and "alice:***@" in line, line
