"""Command-line entry point: parse the arguments, call a service, render the result.

The work is in :mod:`oic_ai.services` (library, packages, sessions), which the web
app and the REST API call too; the renderers are ``oic_ai.render*``. Handlers import
what they need when they run, so ``oic-ai validate`` never pays for Chroma, LangGraph or
an embedding model.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from oic_ai import __version__
from oic_ai.cli_common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    SHARED_FLAGS,
    Parser,
    add_shared,
    common_parser,
    emit,
    fill_shared_defaults,
    settings_from,
)


def _cmd_validate(args: argparse.Namespace) -> int:
    from oic_ai.render import print_validation
    from oic_ai.services.library import validate_files

    reports = validate_files(args.files, schema_file=args.schema)
    emit(args, {"files": [r.to_json() for r in reports]}, lambda: print_validation(reports))
    return EXIT_OK if all(r.valid for r in reports) else EXIT_INVALID


def _progress(enabled: bool, spinner: Any = None) -> Any:
    """A progress callback drawing a bar on a terminal, or None.

    The bar starts at the first update, so a command that fails before embedding
    anything leaves no bar behind. A ``spinner`` gives way to the bar while it runs.
    """
    if not enabled or not sys.stderr.isatty():
        return None
    from rich.progress import Progress

    from oic_ai.render import safe_console

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
    from oic_ai.render_agent import terminal_spinner

    spinner = terminal_spinner(label, enabled)
    if spinner is None:
        yield None
        return
    with spinner:
        yield spinner


def _cmd_index(args: argparse.Namespace) -> int:
    from oic_ai.render import print_index_report
    from oic_ai.services.library import index_library

    with _spinner("indexing the template library", not args.json) as spinner:
        outcome = index_library(settings_from(args), progress=_progress(not args.json, spinner))
    emit(args, outcome.to_json(), lambda: print_index_report(outcome))
    return EXIT_OK


def _cmd_search(args: argparse.Namespace) -> int:
    from oic_ai.render import print_search
    from oic_ai.services.library import search_library

    filters = {"os": args.os, "dist": args.dist, "arch": args.arch, "image_type": args.image_type}
    with _spinner("searching", not args.json) as spinner:
        response = search_library(
            settings_from(args),
            args.query,
            top_k=args.top_k,
            filters=filters,
            progress=_progress(not args.json, spinner),
        )
    emit(args, response.to_json(), lambda: print_search(response))
    return EXIT_OK


def _cmd_cache(args: argparse.Namespace) -> int:
    from oic_ai.render import print_cache_stats
    from oic_ai.services import library

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
    from oic_ai.render import terminal_text
    from oic_ai.services import library
    from oic_ai.stores.errors import UserInputError
    from oic_ai.stores.secrets import mask_url

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


def _cmd_eval(args: argparse.Namespace) -> int:
    from oic_ai.render import print_eval
    from oic_ai.services.library import evaluate_retrieval, load_labelled_queries

    queries_file = Path(args.queries) if args.queries else _default_queries()
    queries = load_labelled_queries(queries_file)
    with _spinner("evaluating retrieval", not args.json) as spinner:
        result = evaluate_retrieval(
            settings_from(args),
            queries,
            top_k=args.top_k,
            progress=_progress(not args.json, spinner),
        )
    emit(args, result, lambda: print_eval(result, queries_file))
    return EXIT_OK


def _default_queries() -> Path:
    from oic_ai.stores.errors import UserInputError

    for candidate in (
        Path("tests/eval/retrieval.yaml"),
        Path(__file__).resolve().parent.parent / "tests" / "eval" / "retrieval.yaml",
    ):
        if candidate.is_file():
            return candidate
    raise UserInputError("no queries file found", fix="pass --queries FILE")


def build_parser() -> argparse.ArgumentParser:
    """Build the ``oic-ai`` argument parser with every subcommand."""
    parser = Parser(
        prog="oic-ai",
        description="Write, check and refine os-image-composer templates.",
    )
    parser.add_argument("--version", action="version", version=f"oic-ai {__version__}")
    add_shared(parser, *SHARED_FLAGS)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    validate = commands.add_parser(
        "validate", help="check templates against the schema, semantic rules and security lint"
    )
    validate.add_argument(
        "files", nargs="+", metavar="FILE", help="template files, or folders of them"
    )
    validate.add_argument(
        "--schema", metavar="FILE", help="validate against this JSON Schema instead of oic-ai's own"
    )
    add_shared(validate, "json")
    validate.set_defaults(handler=_cmd_validate)

    common = common_parser()
    index = commands.add_parser(
        "index", parents=[common], help="embed new and changed templates into the index"
    )
    index.set_defaults(handler=_cmd_index)

    search = commands.add_parser(
        "search", parents=[common], help="find templates for a request, with the score breakdown"
    )
    search.add_argument("query", help="what you are looking for, in words")
    search.add_argument("--top-k", type=int, default=5, metavar="N", help="results (default 5)")
    search.add_argument("--os", help="only this os (e.g. ubuntu)")
    search.add_argument("--dist", help="only this dist (e.g. ubuntu24)")
    search.add_argument("--arch", help="only this arch (x86_64, aarch64)")
    search.add_argument("--image-type", help="only this image type (raw, iso, img)")
    search.set_defaults(handler=_cmd_search)

    cache = commands.add_parser("cache", parents=[common], help="embedding cache: stats, clear")
    cache.add_argument(
        "action",
        choices=("stats", "clear"),
        help="stats: entries, models and size of this library's embedding cache; clear: "
        "empty it (asks first on a Chroma server)",
    )
    cache.add_argument("--yes", action="store_true", help="clear on a Chroma server without asking")
    cache.set_defaults(handler=_cmd_cache)

    evaluate = commands.add_parser("eval", help="measure quality")
    eval_kinds = evaluate.add_subparsers(dest="kind", metavar="KIND", parser_class=Parser)
    retrieval = eval_kinds.add_parser(
        "retrieval", parents=[common], help="hit@1, hit@3 and MRR over labelled queries"
    )
    retrieval.add_argument(
        "--queries", metavar="FILE", help="labelled queries (default tests/eval/retrieval.yaml)"
    )
    retrieval.add_argument("--top-k", type=int, default=5, metavar="N", help=argparse.SUPPRESS)
    retrieval.set_defaults(handler=_cmd_eval)

    from oic_ai.cli_agent import add_agent_commands
    from oic_ai.cli_ai import add_ai_command
    from oic_ai.cli_completion import add_completion_command
    from oic_ai.cli_config import add_config_commands
    from oic_ai.cli_packages import add_packages_commands
    from oic_ai.cli_serve import add_serve_command
    from oic_ai.cli_sessions import add_sessions_commands
    from oic_ai.cli_users import add_users_commands

    add_agent_commands(commands)
    add_ai_command(commands)
    add_packages_commands(commands)
    add_sessions_commands(commands)
    add_serve_command(commands)
    add_users_commands(commands)
    add_config_commands(commands, common)
    add_completion_command(commands, common_parser(json_flag=False, library=False))
    from oic_ai.cli_help import finish_top_level

    finish_top_level(parser, commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    parser = build_parser()
    args = fill_shared_defaults(parser.parse_args(argv))
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from oic_ai.stores.errors import UserInputError

    try:
        return handler(args)
    except UserInputError as exc:
        from oic_ai.render import terminal_text

        print(f"oic-ai: {terminal_text(str(exc))}", file=sys.stderr)
        return int(getattr(exc, "exit_code", EXIT_USAGE))  # 3: retry (busy, unreachable)
    except KeyboardInterrupt:
        print("oic-ai: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
