"""Terminal escapes are shown, never acted on (issue 12, item 8): the renderers.

A request holding ``ESC ] 0 ; ... BEL`` (sets the window title), ``ESC [ 2 J`` (clears the
screen), backspaces or a right-to-left override must not reach the terminal raw: not in
the "not applied" line, ``sessions list`` titles, ``sessions show`` or ``sessions replay``.
The stored text and ``--json`` stay exact. The CLI side is
``tests/reliability/test_terminal_escapes.py``.
"""

from __future__ import annotations

import io
import time
from types import SimpleNamespace

import pytest

from oic_ai.cli.render.agent import print_turn
from oic_ai.cli.render.terminal import safe_console, terminal_text
from oic_ai.stores.session_store import SessionSummary

HOSTILE = "add htop and \x1b]0;pwned\x07 \x1b[2J bad\b\b\u202eevil \x9b31m"
RAW = ("\x1b", "\x07", "\b", "\u202e", "\x9b")  # must never be printed as they are
SHOWN = ("\\x1b]0;pwned\\x07", "\\x1b[2J", "\\x08\\x08", "\\u202eevil", "\\x9b31m")


def assert_neutral(text: str) -> None:
    """No raw control or bidi-override character, and each one shown as its escape."""
    assert not [c for c in RAW if c in text], text
    for escaped in SHOWN:
        assert escaped in text, (escaped, text)


# --- the function every renderer uses ---------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2J", "\\x1b[2J"),
        ("a\x07b\x08c\rd\x7fe", "a\\x07b\\x08c\\x0dd\\x7fe"),
        ("\x00\x9b\x85", "\\x00\\x9b\\x85"),
        ("\u202eevil\u202c \u2066x\u2069 \u200f", "\\u202eevil\\u202c \\u2066x\\u2069 \\u200f"),
    ],
)
def test_terminal_text_shows_controls_and_bidi_overrides(raw: str, shown: str) -> None:
    assert terminal_text(raw) == shown


def test_terminal_text_keeps_ordinary_text() -> None:
    text = "line one\n\tindented: café, 日本語, emoji 🙂, [bold] \\x1b as typed"
    assert terminal_text(text) == text


def test_the_console_neutralises_strings_and_renderables() -> None:
    from rich.syntax import Syntax
    from rich.table import Table
    from rich.text import Text

    buffer = io.StringIO()
    out = safe_console(file=buffer, force_terminal=True, width=200, highlight=False)
    out.print(f"[bold]request[/] {HOSTILE}")
    out.print(Text(HOSTILE))
    table = Table()
    table.add_column("title")
    table.add_row(HOSTILE)
    out.print(table)
    out.print(Syntax(f"name: '{HOSTILE}'\n", "yaml"))
    out.rule(HOSTILE)
    printed = buffer.getvalue()
    # the console's own colours are still escape sequences (ESC [ ... m); nothing else is
    assert not [c for c in ("\x07", "\b", "\u202e", "\x9b") if c in printed]
    assert "\x1b]" not in printed and "\x1b[2J" not in printed
    assert printed.count("\\u202eevil") == 5  # each one shown (rich drops BEL and BS itself)
    assert "\\x1b]0;pwned\\x07" in printed


def test_the_not_applied_line_is_neutral() -> None:
    buffer = io.StringIO()
    result = SimpleNamespace(
        session="s1",
        status="valid_with_warnings",
        provider="builtin",
        route={"intent": "refine"},
        sources=[],
        message=f"Status: valid. not applied: '{HOSTILE}' — no rule for this",
        diff=f"+  description: '{HOSTILE}'\n",
    )
    print_turn(safe_console(file=buffer, width=400), result)
    assert_neutral(buffer.getvalue())


def test_the_sessions_table_title_is_neutral(capsys: pytest.CaptureFixture[str]) -> None:
    from oic_ai.cli.render.sessions import print_session_table

    now = time.time()
    print_session_table([SessionSummary("abc-1", HOSTILE, now, now, 1, "t", "valid")])
    assert_neutral(capsys.readouterr().out)
