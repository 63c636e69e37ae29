"""The ``oic-ai`` entry point: parse the arguments, run the command, map errors to exit codes.

Exit codes (DESIGN.md): 0 done, 1 a result that is not valid, 2 bad input (one line
naming the problem and the fix), 3 retry later (busy, unreachable), 130 interrupted.
A command's handler is ``"MODULE:FUNCTION"`` of :mod:`oic_ai.cli.commands` (see
:mod:`oic_ai.cli.parser`); only that module is imported, so ``oic-ai validate`` never
pays for Chroma, LangGraph or an embedding model.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib import import_module

from oic_ai.cli.common import EXIT_OK, EXIT_USAGE, fill_shared_defaults
from oic_ai.cli.parser import build_parser
from oic_ai.cli.render.terminal import terminal_text
from oic_ai.stores.errors import UserInputError

EXIT_INTERRUPTED = 130

Handler = Callable[[argparse.Namespace], int]


def resolve(handler: str | Handler) -> Handler:
    """The function a parser's ``handler`` names (``"sessions:list_"``), imported now."""
    if callable(handler):
        return handler
    module, _, name = handler.partition(":")
    function: Handler = getattr(import_module(f"oic_ai.cli.commands.{module}"), name)
    return function


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    parser = build_parser()
    args = fill_shared_defaults(parser.parse_args(argv))
    handler: str | Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return resolve(handler)(args)
    except UserInputError as exc:
        print(f"oic-ai: {terminal_text(str(exc))}", file=sys.stderr)
        return int(getattr(exc, "exit_code", EXIT_USAGE))  # 3: retry (busy, unreachable)
    except KeyboardInterrupt:
        print("oic-ai: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
