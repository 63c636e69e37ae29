"""``oic-ai chat`` in a real terminal (tmux): line editing, history across runs, /undo.

The screen is read with ``tmux capture-pane``, as a person would read it.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import PROJECT
from tests.support.cli import cli_env
from tests.support.system import require_program

WAIT_SECONDS = 120.0


class Pane:
    """A tmux session running one command; keys in, screen text out."""

    def __init__(self, base: list[str], name: str) -> None:
        self.base, self.name = base, name

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> str:
        return subprocess.run(
            [*self.base, "capture-pane", "-p", "-J", "-S", "-200", "-t", self.name],
            capture_output=True,
            text=True,
        ).stdout

    def wait_for(self, check: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            screen = self.screen()
            if check(screen):
                return screen
            time.sleep(0.2)
        pytest.fail(f"never saw {what}; the screen was:\n{self.screen()}")

    def prompt_line(self) -> str:
        lines = [line for line in self.screen().splitlines() if line.startswith("oic-ai>")]
        return lines[-1].rstrip() if lines else ""


@pytest.fixture
def chat(tmp_path: Path) -> Iterator[Callable[[], Pane]]:
    """Start ``oic-ai chat`` in a fresh tmux window (same data folder every time)."""
    tmux = require_program("tmux")
    base = [str(tmux), "-S", str(tmp_path / "tmux.sock")]
    env = cli_env(tmp_path / "data", TERM="xterm", OIC_AI_PROVIDER="builtin")
    assignments = [f"{k}={shlex.quote(v)}" for k, v in env.items() if k != "TMUX"]
    command = " ".join(
        ["env", "-i", *assignments, shlex.quote(sys.executable), "-m", "oic_ai", "chat"]
    )

    def start() -> Pane:
        name = f"chat-{uuid.uuid4().hex[:6]}"
        subprocess.run(
            [*base, "new-session", "-d", "-s", name, "-x", "160", "-y", "50",
             "-c", str(PROJECT), command],
            check=True,
        )  # fmt: skip
        pane = Pane(base, name)
        pane.wait_for(lambda s: "oic-ai>" in s, "the chat prompt")
        return pane

    try:
        yield start
    finally:
        subprocess.run([*base, "kill-server"], capture_output=True)


def test_history_recall_and_undo_in_a_real_terminal(chat: Callable[[], Pane]) -> None:
    pane = chat()
    pane.keys("a minimal ubuntu 24.04 image for x86_64", "Enter")
    pane.wait_for(lambda s: s.count("oic-ai>") >= 2, "the first answer")
    pane.keys("add htop", "Enter")
    pane.wait_for(lambda s: s.count("oic-ai>") >= 3 and "htop" in s, "the refinement")
    pane.keys("/undo", "Enter")
    pane.wait_for(lambda s: "restored the template from before the last turn" in s, "/undo")
    # arrow up recalls the previous lines, newest first
    pane.keys("Up")
    pane.wait_for(lambda s: pane.prompt_line() == "oic-ai> /undo", "/undo recalled")
    pane.keys("Up")
    pane.wait_for(lambda s: pane.prompt_line() == "oic-ai> add htop", "recall")
    pane.keys("C-u", "/quit", "Enter")
    pane.wait_for(lambda s: "saved; continue with" in s, "the goodbye line")

    # a new run remembers the last one's lines (history in the data folder), and Ctrl-R
    # searches them
    again = chat()
    again.keys("Up")
    again.wait_for(lambda s: again.prompt_line() == "oic-ai> /quit", "history")
    again.keys("C-u", "C-r", "htop")
    again.wait_for(lambda s: "(reverse-i-search)`htop': add htop" in s, "Ctrl-R")
