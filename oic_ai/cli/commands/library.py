"""``oic-ai validate``, ``index``, ``search``, ``cache`` and ``eval retrieval``.

The work is :mod:`oic_ai.services.library`, which the web app and the REST API call too;
the output is :mod:`oic_ai.cli.render.library`. The service imports Chroma and the
embedding model only inside the functions that need them, so ``validate`` stays quick.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from oic_ai.cli.common import EXIT_INVALID, EXIT_OK, emit, settings_from
from oic_ai.cli.render.agent import terminal_spinner
from oic_ai.cli.render.library import (
    print_cache_stats,
    print_eval,
    print_index_report,
    print_search,
    print_validation,
)
from oic_ai.cli.render.terminal import safe_console, terminal_text
from oic_ai.services import library
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.secrets import mask_url


def validate(args: argparse.Namespace) -> int:
    """``oic-ai validate FILE...``: exit 1 when a template is not valid."""
    reports = library.validate_files(args.files, schema_file=args.schema)
    emit(args, {"files": [r.to_json() for r in reports]}, lambda: print_validation(reports))
    return EXIT_OK if all(r.valid for r in reports) else EXIT_INVALID


def _progress(enabled: bool, spinner: Any = None) -> Any:
    """A progress callback drawing a bar on a terminal, or None.

    The bar starts at the first update, so a command that fails before embedding
    anything leaves no bar behind. A ``spinner`` gives way to the bar while it runs.
    """
    if not enabled or not sys.stderr.isatty():
        return None
    from rich.progress import Progress  # lazy: rich's progress costs start-up; a terminal only

    # drawn on stderr, like every progress display: stdout is the result, maybe a pipe
    bar = Progress(transient=True, console=safe_console(stderr=True))
    task = bar.add_task("embedding templates", total=None)

    def update(done: int, total: int) -> None:
        if not bar.live.is_started:
            if spinner is not None:
                spinner.stop()
            bar.start()
        bar.update(task, completed=done, total=total)
        if done >= total:
            bar.stop()
            if spinner is not None:
                spinner.start()

    return update


@contextmanager
def _spinner(label: str, enabled: bool) -> Iterator[Any]:
    """A spinner on stderr (a terminal only) while the block runs longer than a moment."""
    spinner = terminal_spinner(label, enabled)
    if spinner is None:
        yield None
        return
    with spinner:
        yield spinner


def index(args: argparse.Namespace) -> int:
    """``oic-ai index``: embed new and changed templates."""
    with _spinner("indexing the template library", not args.json) as spinner:
        outcome = library.index_library(
            settings_from(args), progress=_progress(not args.json, spinner)
        )
    emit(args, outcome.to_json(), lambda: print_index_report(outcome))
    return EXIT_OK


def search(args: argparse.Namespace) -> int:
    """``oic-ai search QUERY``: ranked templates with their score breakdown."""
    filters = {"os": args.os, "dist": args.dist, "arch": args.arch, "image_type": args.image_type}
    with _spinner("searching", not args.json) as spinner:
        response = library.search_library(
            settings_from(args),
            args.query,
            top_k=args.top_k,
            filters=filters,
            progress=_progress(not args.json, spinner),
        )
    emit(args, response.to_json(), lambda: print_search(response))
    return EXIT_OK


def cache(args: argparse.Namespace) -> int:
    """``oic-ai cache stats|clear``: this library's embedding cache."""
    settings = settings_from(args)
    if args.action == "clear":
        if settings.chroma_url and not args.yes and not _confirm_server_clear(settings):
            emit(args, {"cleared": 0}, lambda: print("Nothing cleared."))
            return EXIT_OK
        removed = library.clear_cache(settings)
        message = f"Cleared the embedding cache ({removed} entries)."
        emit(args, {"cleared": removed}, lambda: print(message))
    else:
        stats = library.cache_stats(settings)
        emit(args, stats, lambda: print_cache_stats(stats))
    return EXIT_OK


def _confirm_server_clear(settings: Any) -> bool:
    """Ask on the terminal before deleting this library's vectors from a shared server.

    Raises:
        UserInputError: no terminal to ask on (a script must pass ``--yes``).
    """
    where = f"the Chroma server at {mask_url(settings.chroma_url or '')}"
    if not sys.stdin.isatty():
        raise UserInputError(
            f"cache clear would delete this library's vectors from {where}",
            fix="pass --yes to confirm (no terminal to ask on)",
        )
    stats = library.cache_stats(settings)
    names = ", ".join(c["name"] for c in stats["collections"]) or "none yet"
    question = (
        f"Delete {stats['entries']} entries of library {stats['library']} "
        f"(collections: {names}) from {where}? Other libraries' are kept. [y/N] "
    )
    print(terminal_text(question), end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes")


def evaluate(args: argparse.Namespace) -> int:
    """``oic-ai eval retrieval``: hit@1, hit@3 and MRR over labelled queries."""
    queries_file = Path(args.queries) if args.queries else _default_queries()
    queries = library.load_labelled_queries(queries_file)
    with _spinner("evaluating retrieval", not args.json) as spinner:
        result = library.evaluate_retrieval(
            settings_from(args),
            queries,
            top_k=args.top_k,
            progress=_progress(not args.json, spinner),
        )
    emit(args, result, lambda: print_eval(result, queries_file))
    return EXIT_OK


def _default_queries() -> Path:
    for candidate in (
        Path("tests/eval/retrieval.yaml"),
        Path(__file__).resolve().parents[3] / "tests" / "eval" / "retrieval.yaml",
    ):
        if candidate.is_file():
            return candidate
    raise UserInputError("no queries file found", fix="pass --queries FILE")
