"""Unsupported targets get no template: status ``unsupported``, the session left as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.session_store import SessionStore, sessions_db_path
from tests.graph.runner import Run, builtin_settings


@pytest.fixture
def run(agent_data_dir: Path) -> Any:
    runner = Run(builtin_settings(agent_data_dir))
    yield runner
    runner.agent.close()


def test_windows_server_gets_no_template_and_no_alternative(run: Run) -> None:
    result = run.turn("a Windows Server image with IIS")
    assert run.nodes == ["classify", "respond"]
    assert result.status == "unsupported" and not result.ok
    assert result.template is None and result.diff == "" and result.changes == []
    assert result.route["intent"] == "unsupported"
    assert "Windows Server" in result.message
    assert "Ubuntu 24.04 (ubuntu24)" in result.message and "Debian 13 (debian13)" in result.message
    assert "nearest" not in result.message.lower()
    payload = result.to_json()
    assert payload["status"] == "unsupported" and payload["template"] is None


def test_arch_linux_names_the_nearest_supported_alternative(run: Run) -> None:
    result = run.turn("Arch Linux with docker")
    assert result.status == "unsupported" and result.template is None
    assert "Nearest supported: Ubuntu 26.04" in result.message
    assert "'Ubuntu 26.04 with docker'" in result.message


def test_the_sessions_template_is_untouched_and_the_turn_is_recorded(
    run: Run, agent_data_dir: Path
) -> None:
    first = run.turn("a minimal ubuntu 24.04 image with docker")
    assert first.status in ("valid", "valid_with_warnings")
    before = run.agent.current_template(first.session)
    second = run.turn("switch it to FreeBSD", session=first.session)
    assert second.status == "unsupported" and second.template is None
    assert run.nodes == ["classify", "respond"]
    assert run.agent.current_template(first.session) == before
    assert second.turn == 2
    store = SessionStore(sessions_db_path(agent_data_dir))
    try:
        row = next(s for s in store.list() if s.id == first.session)
    finally:
        store.close()
    assert row.turns == 2 and row.status == "unsupported"
    third = run.turn("make the disk 16GiB", session=first.session)
    assert third.status in ("valid", "valid_with_warnings") and third.route["intent"] == "refine"


def test_a_maintenance_window_is_not_windows(run: Run) -> None:
    result = run.turn("an ubuntu 24.04 image with maintenance windows configured")
    assert result.status != "unsupported"
    assert result.template
