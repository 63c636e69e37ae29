r"""Text safe for a terminal: every line a human reads passes through here.

:func:`terminal_text` (plain lines) and :func:`safe_console` (rich output) show control
characters and bidirectional overrides in a request, a title, a file name or a
repository's data as ``\x1b`` or ``\u202e``, never sent to the terminal to act on.
Stored text and ``--json`` stay exact. Colour only when writing to a terminal.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional marks,
# embeddings, overrides and isolates (the "Trojan Source" characters).
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    r"""``text`` safe to print: each control or bidi-override character as an escape.

    ``ESC ] 0 ; title BEL`` becomes ``\x1b]0;title\x07`` and U+202E becomes
    ``\u202e``, the way ``repr`` shows them; tabs and newlines are kept.
    """
    return _UNSAFE.sub(_escaped, text)


@functools.cache
def _safe_console_class() -> type[Console]:
    # lazy: rich costs start-up; --json never draws
    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.segment import Segment
    from rich.text import Text

    class SafeConsole(Console):
        """A rich console that neutralises control characters in what it prints."""

        def render_str(self, text: str, **kwargs: Any) -> Text:
            # before rich parses markup and quietly drops a few controls (BEL, BS, CR)
            return super().render_str(terminal_text(text), **kwargs)

        def render(
            self, renderable: RenderableType, options: ConsoleOptions | None = None
        ) -> Iterable[Segment]:
            # Text, Syntax and tables built elsewhere: each piece of text, never a
            # control segment (the console's own cursor moves)
            for segment in super().render(renderable, options):
                if segment.control or not _UNSAFE.search(segment.text):
                    yield segment
                else:
                    yield Segment(terminal_text(segment.text), segment.style)

    return SafeConsole


def safe_console(**options: Any) -> Console:
    """A rich ``Console(**options)`` whose output passes through :func:`terminal_text`.

    Output to a pipe or a file is never wrapped: a long command hint stays one line that
    a script can read and a user can paste (rich would break it at 80 columns).
    """
    stream = options.get("file") or (sys.stderr if options.get("stderr") else sys.stdout)
    if not _is_terminal(stream):
        options["soft_wrap"] = True
    return _safe_console_class()(**options)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
