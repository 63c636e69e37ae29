"""The token file: only hashes stored, mode 0600, atomic and locked writes, live re-reads."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.users import (
    TOKEN_PREFIX,
    TokenVerifier,
    UserStore,
    hash_token,
    new_token,
    tokens_file,
)
from tests.conftest import PROJECT


@pytest.fixture
def store(tmp_path: Path) -> UserStore:
    return UserStore(tmp_path / "state" / "users.json")


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that would leave a file world-readable, so mode 0600 must be set on purpose."""
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def test_the_file_holds_the_hash_and_never_the_token(store: UserStore) -> None:
    alice = store.add("alice")
    text = store.path.read_text(encoding="utf-8")
    assert alice.token not in text
    entry = json.loads(text)["users"]["alice"]
    assert entry == {"created": alice.created, "token_sha256": hash_token(alice.token)}
    assert entry["token_sha256"] == hashlib.sha256(alice.token.encode()).hexdigest()


def test_tokens_are_long_random_and_distinct() -> None:
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        assert token.startswith(TOKEN_PREFIX)
        assert len(token) >= len(TOKEN_PREFIX) + 43  # 32 bytes, URL-safe base64
        assert token.isascii() and " " not in token


def test_the_file_and_its_lock_are_private_whatever_the_umask(
    store: UserStore, open_umask: None
) -> None:
    store.add("alice")
    store.add("bob")
    store.remove("bob")
    for path in (store.path, store.path.with_name("users.json.lock")):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_a_write_replaces_the_file_and_leaves_no_temporary_behind(store: UserStore) -> None:
    store.add("alice")
    before = store.path.stat().st_ino
    store.add("bob")
    assert store.path.stat().st_ino != before  # renamed over, never rewritten in place
    assert sorted(p.name for p in store.path.parent.iterdir()) == ["users.json", "users.json.lock"]


def test_a_failed_write_keeps_the_old_file_whole(
    store: UserStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.add("alice")
    before = store.path.read_bytes()

    def refuse(src: str, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(UserInputError, match="cannot write the token file .*No space left"):
        store.add("bob")
    monkeypatch.undo()
    assert store.path.read_bytes() == before
    assert [u.name for u in store.list()] == ["alice"]
    assert sorted(p.name for p in store.path.parent.iterdir()) == ["users.json", "users.json.lock"]


def test_users_added_at_once_by_many_processes_are_all_kept(store: UserStore) -> None:
    code = (
        "import sys; from pathlib import Path; from oic_ai.stores.users import UserStore; "
        "UserStore(Path(sys.argv[1])).add(sys.argv[2])"
    )
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    names = [f"user{i}" for i in range(8)]
    children = [
        subprocess.Popen([sys.executable, "-c", code, str(store.path), name], env=env)
        for name in names
    ]
    assert [child.wait(120) for child in children] == [0] * len(names)
    assert [u.name for u in store.list()] == sorted(names)


def test_list_shows_names_and_times_but_no_secret(store: UserStore) -> None:
    alice = store.add("alice")
    listed = [u.to_json() for u in store.list()]
    assert listed == [{"user": "alice", "created": alice.created}]
    assert alice.token not in json.dumps(listed)
    assert hash_token(alice.token) not in json.dumps(listed)


@pytest.mark.parametrize(
    "name", ["", "a b", "-x", ".hidden", "x" * 65, "ünï", "a/b", "a\nb", "name\x1b[2J"]
)
def test_an_invalid_name_is_one_line_with_the_rule(store: UserStore, name: str) -> None:
    with pytest.raises(UserInputError) as caught:
        store.add(name)
    message = str(caught.value)
    assert "invalid user name" in message and "letters, digits" in message
    assert "\n" not in message and "\x1b" not in message
    assert caught.value.exit_code == 2
    assert not store.path.exists()


def test_a_duplicate_or_unknown_name_is_refused(store: UserStore) -> None:
    store.add("alice")
    with pytest.raises(UserInputError, match="user 'alice' already exists; pick another"):
        store.add("alice")
    with pytest.raises(UserInputError, match="no user 'bob'"):
        store.remove("bob")


def test_a_damaged_file_is_reported_not_overwritten(store: UserStore) -> None:
    store.path.parent.mkdir(parents=True)
    store.path.write_text("{not json", encoding="utf-8")
    with pytest.raises(UserInputError, match="is not valid JSON; repair it, or move it aside"):
        store.add("alice")
    assert store.path.read_text(encoding="utf-8") == "{not json"
    store.path.write_text('{"users": {"alice": {"token": "plain"}}}', encoding="utf-8")
    with pytest.raises(UserInputError, match="not a token file"):
        store.list()


def test_the_verifier_knows_each_token_and_follows_the_file(store: UserStore) -> None:
    verifier = TokenVerifier(store.path)
    assert not verifier.has_users()  # no file: nobody, so the server stays open
    alice = store.add("alice")
    bob = store.add("bob")
    assert verifier.has_users()
    assert verifier.user_for(alice.token) == "alice"
    assert verifier.user_for(bob.token) == "bob"
    assert verifier.user_for(alice.token + "x") is None
    assert verifier.user_for("") is None
    assert verifier.user_for(hash_token(alice.token)) is None  # the hash is no token
    store.remove("alice")
    assert verifier.user_for(alice.token) is None  # re-read at once after the change
    assert verifier.user_for(bob.token) == "bob"
    store.remove("bob")
    assert not verifier.has_users()


def test_the_verifier_refuses_everyone_when_the_file_breaks(store: UserStore) -> None:
    alice = store.add("alice")
    verifier = TokenVerifier(store.path)
    assert verifier.user_for(alice.token) == "alice"
    store.path.write_text("garbage", encoding="utf-8")
    with pytest.raises(UserInputError):
        verifier.has_users()
    with pytest.raises(UserInputError):
        verifier.user_for(alice.token)


def test_the_token_file_comes_from_the_environment_or_the_data_folder(tmp_path: Path) -> None:
    assert tokens_file(tmp_path, {}) == tmp_path / "users.json"
    other = tmp_path / "elsewhere" / "tokens.json"
    assert tokens_file(tmp_path, {"OIC_AI_TOKENS_FILE": str(other)}) == other
    assert tokens_file(tmp_path, {"OIC_AI_TOKENS_FILE": "  "}) == tmp_path / "users.json"
