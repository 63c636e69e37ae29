"""``oic-ai packages sync|check|status``: argument parsing and output only.

The work is :mod:`oic_ai.services.packages`. Nothing here imports SQLite, network
or index code at module level, so the start-up of other commands (``oic-ai validate``)
does not pay for it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from oic_ai.cli_common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    command_group,
    common_parser,
    emit,
    settings_from,
)


def add_packages_commands(commands: Any) -> None:
    """Register ``packages`` and its actions on the top-level parser's ``commands``."""
    text = "package indexes: sync them, check templates against them"
    packages, actions = command_group(commands, "packages", text, "packages_command")
    packages.set_defaults(handler=_usage(packages))

    target = argparse.ArgumentParser(add_help=False)
    target.add_argument("--os", help="target os (follows from --dist when left out)")
    target.add_argument("--dist", help="target dist, e.g. elxr12, ubuntu24, azl3")
    target.add_argument("--arch", help="target arch: x86_64 (default) or aarch64")

    sync = actions.add_parser(
        "sync",
        parents=[common_parser(library=False), target],
        help="fetch repository indexes into the local cache, or import a local index",
        description=(
            "Fetch package indexes (conditional requests, retries) into the cache under "
            "the data folder. With no source option, every remote repository synced "
            "before is checked again."
        ),
    )
    source = sync.add_mutually_exclusive_group()
    source.add_argument(
        "--repo-config",
        metavar="PATH",
        help="a composer providerconfig file, or a folder above them (config/osv)",
    )
    source.add_argument(
        "--index",
        metavar="FILE",
        help="import a local Packages/primary.xml file or repository folder ('-' = stdin)",
    )
    source.add_argument(
        "--template",
        metavar="FILE",
        action="append",
        help="sync a template's own packageRepositories (repeatable)",
    )
    sync.add_argument("--retries", type=int, default=3, metavar="N", help="retries per file")
    sync.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds per connect or read; one file's whole download may take 10 x S",
    )
    sync.add_argument(
        "--insecure",
        action="store_true",
        help="skip signature and checksum verification (the index is marked unverified)",
    )
    sync.add_argument(
        "--accept-change",
        action="store_true",
        help="accept a repository's new signing key or changed Origin/Label/Suite/Codename",
    )
    sync.add_argument("--backoff", type=float, default=0.5, help=argparse.SUPPRESS)
    sync.set_defaults(handler=_cmd_sync)

    check = actions.add_parser(
        "check",
        parents=[common_parser(library=False)],
        help="check templates' packages against the indexes of their targets",
    )
    check.add_argument("templates", nargs="+", metavar="TEMPLATE", help="template files or folders")
    check.add_argument(
        "--no-suggest", action="store_true", help="skip suggestions for missing packages"
    )
    check.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when a template could not be checked (no index for its target)",
    )
    check.set_defaults(handler=_cmd_check)

    status = actions.add_parser(
        "status",
        parents=[common_parser(library=False), target],
        help="list the indexed targets and repositories",
    )
    status.set_defaults(handler=_cmd_status)


def _usage(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def handler(_args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return EXIT_USAGE

    return handler


def _cmd_sync(args: argparse.Namespace) -> int:
    from oic_ai.render_packages import download_progress, print_sync_results
    from oic_ai.services.packages import SyncRequest, sync_packages

    request = SyncRequest(
        index=args.index,
        repo_config=args.repo_config,
        templates=tuple(args.template or ()),
        os=args.os,
        dist=args.dist,
        arch=args.arch,
        retries=args.retries,
        timeout=args.timeout,
        backoff=args.backoff,
        insecure=args.insecure,
        accept_change=args.accept_change,
    )
    progress, stop = download_progress(not args.json)
    try:
        outcome = sync_packages(settings_from(args), request, progress=progress)
    finally:
        stop()
    emit(args, outcome.to_json(), lambda: print_sync_results(outcome.results, outcome.database))
    outcome.raise_for_failure()
    return EXIT_OK


def _cmd_check(args: argparse.Namespace) -> int:
    from oic_ai.render_packages import print_check
    from oic_ai.services.packages import check_json, check_templates

    reports = check_templates(settings_from(args), args.templates, suggest=not args.no_suggest)
    emit(args, check_json(reports), lambda: print_check(reports))
    if not all(report.ok for report in reports):
        return EXIT_INVALID
    if args.strict and not all(report.checked for report in reports):
        return EXIT_INVALID  # --strict: a template that could not be checked is a failure
    return EXIT_OK


def _cmd_status(args: argparse.Namespace) -> int:
    from oic_ai.render_packages import print_status
    from oic_ai.services.packages import package_status

    status = package_status(settings_from(args), args.dist, args.arch)
    emit(args, status.to_json(), lambda: print_status(status.sources, status.database))
    return EXIT_OK
