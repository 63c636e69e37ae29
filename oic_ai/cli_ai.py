"""``oic-ai ai "QUERY"``: the composer's own ``ai`` command, with its flags and meanings.

Someone who knows ``image-composer-tool ai`` can use ours at once; each flag maps onto
the oic-ai command that does the same thing, so output, ``--json`` and exit codes are
theirs:

- ``ai "QUERY"``: write a template (``generate --new``); with ``--continue``, refine
  the latest session instead;
- ``--search-only``: rank templates for the query (``search``);
- ``--interactive``: a conversation (``chat``; with ``--continue``, the latest session);
- ``--cache-stats`` / ``--clear-cache``: the embedding cache (``cache stats|clear``);
- ``--output x.yml`` writes ``./x.yml``; a bare ``--output name`` goes into
  ``image-templates/name.yml``.
"""

from __future__ import annotations

import argparse
from typing import Any

from oic_ai.cli_agent import add_verbosity
from oic_ai.cli_common import add_shared, common_parser


def _cmd_ai(args: argparse.Namespace) -> int:
    from oic_ai.stores.errors import UserInputError

    modes = [
        flag
        for flag, on in (
            ("--search-only", args.search_only),
            ("--interactive", args.interactive),
            ("--cache-stats", args.cache_stats),
            ("--clear-cache", args.clear_cache),
        )
        if on
    ]
    if len(modes) > 1:
        raise UserInputError(f"{' and '.join(modes)} do different things", fix="give one of them")
    mode = modes[0] if modes else None
    if mode in ("--cache-stats", "--clear-cache"):
        from oic_ai.cli import _cmd_cache

        args.action = "stats" if mode == "--cache-stats" else "clear"
        return _cmd_cache(args)
    if mode == "--interactive":
        from oic_ai.cli_agent import _cmd_chat

        args.session = None
        return _cmd_chat(args)
    query = " ".join(args.query).strip()
    if not query:
        raise UserInputError(
            "no query given",
            fix='say what you want, e.g. oic-ai ai "a minimal edge image for elxr", '
            "or use --interactive",
        )
    if mode == "--search-only":
        from oic_ai.cli import _cmd_search

        args.query = query
        args.top_k, args.os, args.dist, args.arch, args.image_type = 5, None, None, None, None
        return _cmd_search(args)
    from oic_ai.cli_agent import _cmd_generate

    args.request, args.session, args.new = query, None, not args.continue_
    return _cmd_generate(args)


def add_ai_command(commands: Any) -> None:
    """Register ``oic-ai ai``."""
    ai = commands.add_parser(
        "ai",
        parents=[common_parser()],
        help="the composer's 'ai' command and flags: generate, search, chat, cache",
        description="The composer's own 'ai' command: write a template for a query, or "
        "search, converse, or manage the embedding cache with its flags.",
        epilog="examples:\n"
        '  oic-ai ai "a minimal edge image for elxr"\n'
        '  oic-ai ai "image with nginx and docker-ce" --search-only\n'
        '  oic-ai ai "add htop" --continue --output edge.yml     # writes ./edge.yml\n'
        "  oic-ai ai --interactive\n"
        "  oic-ai ai --cache-stats",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ai.add_argument("query", nargs="*", help="what you want, in words")
    ai.add_argument("--search-only", action="store_true", help="only rank templates (search)")
    ai.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the template: x.yml writes ./x.yml; a bare name goes to image-templates/",
    )
    ai.add_argument("--force", action="store_true", help="replace an existing --output file")
    add_shared(ai, "provider")
    add_verbosity(ai)
    ai.add_argument("--mode", choices=("plan", "yaml"), help=argparse.SUPPRESS)
    ai.add_argument("--cache-stats", action="store_true", help="show embedding cache statistics")
    ai.add_argument(
        "--clear-cache", action="store_true", help="clear this library's embedding cache"
    )
    ai.add_argument("--yes", "-y", action="store_true", help="with --clear-cache: don't ask")
    ai.add_argument("--interactive", "-i", action="store_true", help="a conversation (oic-ai chat)")
    ai.add_argument(
        "--continue",
        dest="continue_",
        action="store_true",
        help="continue the latest session instead of starting one",
    )
    ai.set_defaults(handler=_cmd_ai)
