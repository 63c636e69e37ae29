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

from oic_ai.cli.commands import agent, library
from oic_ai.stores.errors import UserInputError


def ai(args: argparse.Namespace) -> int:
    """``oic-ai ai [QUERY]``: the command its flags name, with its output and exit code."""
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
        args.action = "stats" if mode == "--cache-stats" else "clear"
        return library.cache(args)
    if mode == "--interactive":
        args.session = None
        return agent.chat(args)
    query = " ".join(args.query).strip()
    if not query:
        raise UserInputError(
            "no query given",
            fix='say what you want, e.g. oic-ai ai "a minimal edge image for elxr", '
            "or use --interactive",
        )
    if mode == "--search-only":
        args.query = query
        args.top_k, args.os, args.dist, args.arch, args.image_type = 5, None, None, None, None
        return library.search(args)
    args.request, args.session, args.new = query, None, not args.continue_
    return agent.generate(args)
