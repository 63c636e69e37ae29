"""``oic-ai packages sync|check|status``: call the package service, render its result.

The work is :mod:`oic_ai.services.packages`, which imports SQLite, network and index
code inside the functions that need them.
"""

from __future__ import annotations

import argparse

from oic_ai.cli.common import EXIT_INVALID, EXIT_OK, emit, settings_from
from oic_ai.cli.render.packages import (
    download_progress,
    print_check,
    print_status,
    print_sync_results,
)
from oic_ai.services.packages import (
    SyncRequest,
    check_json,
    check_templates,
    package_status,
    sync_packages,
)


def sync(args: argparse.Namespace) -> int:
    """``oic-ai packages sync``: fetch or import package indexes."""
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


def check(args: argparse.Namespace) -> int:
    """``oic-ai packages check TEMPLATE...``: exit 1 when a package is missing."""
    reports = check_templates(settings_from(args), args.templates, suggest=not args.no_suggest)
    emit(args, check_json(reports), lambda: print_check(reports))
    if not all(report.ok for report in reports):
        return EXIT_INVALID
    if args.strict and not all(report.checked for report in reports):
        return EXIT_INVALID  # --strict: a template that could not be checked is a failure
    return EXIT_OK


def status(args: argparse.Namespace) -> int:
    """``oic-ai packages status``: the indexed targets and repositories."""
    status = package_status(settings_from(args), args.dist, args.arch)
    emit(args, status.to_json(), lambda: print_status(status.sources, status.database))
    return EXIT_OK
