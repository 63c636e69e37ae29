"""Command-line entry point. Parses arguments and hands off; no logic lives here.

Handlers import what they need when they run, so ``oic-ai validate`` never pays for
Chroma, LangGraph or an embedding model.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from oic_ai import __version__

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        """Print one line naming the problem and where to look, then exit 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def _print_json(payload: Any) -> None:
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _cmd_validate(args: argparse.Namespace) -> int:
    from oic_ai.render import print_validation
    from oic_ai.stores.errors import UserInputError
    from oic_ai.stores.template_library import iter_template_files
    from oic_ai.tools.validate_template import TemplateSchema, validate_file

    files: list[Path] = []
    for raw in args.files:
        path = Path(raw)
        if path.is_dir():
            found = list(iter_template_files(path))
            if not found:
                raise UserInputError(
                    f"{path} holds no .yml or .yaml files",
                    fix="pass template files or a folder of them",
                )
            files.extend(found)
        elif not path.exists():
            raise UserInputError(f"{path} does not exist", fix="check the path")
        else:
            files.append(path)
    schema = TemplateSchema.from_file(args.schema) if args.schema else TemplateSchema.ours()
    reports = [validate_file(f, schema=schema) for f in files]
    if args.json:
        _print_json({"files": [r.to_json() for r in reports]})
    else:
        print_validation(reports)
    return EXIT_OK if all(r.valid for r in reports) else EXIT_INVALID


def _settings(args: argparse.Namespace) -> Any:
    from oic_ai.stores.settings import load_settings

    return load_settings(
        getattr(args, "config", None),
        data_dir=getattr(args, "data_dir", None),
        templates_dir=getattr(args, "templates_dir", None),
        chroma_url=getattr(args, "chroma_url", None),
        embedding_provider=getattr(args, "embedding_provider", None),
    )


def _progress(enabled: bool) -> Any:
    """A progress callback drawing a bar on a terminal, or None."""
    if not enabled or not sys.stderr.isatty():
        return None
    from rich.progress import Progress

    bar = Progress(transient=True)
    task = bar.add_task("embedding templates", total=None)
    bar.start()

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)
        if done >= total:
            bar.stop()

    return update


def _open_search(args: argparse.Namespace) -> Any:
    from oic_ai.stores.hybrid_search import TemplateSearch

    return TemplateSearch.open(_settings(args))


def _cmd_index(args: argparse.Namespace) -> int:
    search = _open_search(args)
    report = search.index.sync(search.templates_dir, progress=_progress(not args.json))
    if args.json:
        _print_json(report.to_json())
    else:
        from oic_ai.render import print_index_report

        print_index_report(report, search)
    return EXIT_OK


def _cmd_search(args: argparse.Namespace) -> int:
    search = _open_search(args)
    search.index.sync(search.templates_dir, progress=_progress(not args.json))
    filters = {"os": args.os, "dist": args.dist, "arch": args.arch, "image_type": args.image_type}
    response = search.search(args.query, top_k=args.top_k, filters=filters)
    if args.json:
        _print_json(response.to_json())
    else:
        from oic_ai.render import print_search

        print_search(response)
    return EXIT_OK


def _cmd_cache(args: argparse.Namespace) -> int:
    from oic_ai.stores.template_index import cache_stats, clear_cache

    settings = _settings(args)
    if args.action == "clear":
        removed = clear_cache(settings.data_dir, settings.chroma_url)
        if args.json:
            _print_json({"cleared": removed})
        else:
            print(f"Cleared the embedding cache ({removed} entries).")
        return EXIT_OK
    stats = cache_stats(settings.data_dir, settings.chroma_url)
    if args.json:
        _print_json(stats)
    else:
        from oic_ai.render import print_cache_stats

        print_cache_stats(stats)
    return EXIT_OK


def _cmd_eval(args: argparse.Namespace) -> int:
    from oic_ai.stores.retrieval_eval import evaluate, load_queries

    queries_file = Path(args.queries) if args.queries else _default_queries()
    queries = load_queries(queries_file)
    search = _open_search(args)
    search.index.sync(search.templates_dir, progress=_progress(not args.json))
    ranked = [
        (q, [r.template for r in search.search(q.q, top_k=args.top_k).results]) for q in queries
    ]
    result = evaluate(ranked)
    if args.json:
        _print_json(result)
    else:
        from oic_ai.render import print_eval

        print_eval(result, queries_file)
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


def _common(json_flag: bool = True) -> _Parser:
    common = _Parser(add_help=False)
    common.add_argument("--config", metavar="FILE", help="config file (default ./config.yaml)")
    common.add_argument("--data-dir", metavar="DIR", help="state folder (env OIC_AI_DATA_DIR)")
    common.add_argument("--templates-dir", metavar="DIR", help="template library to search")
    common.add_argument(
        "--chroma-url", metavar="URL", help="use a Chroma server, not the embedded store"
    )
    common.add_argument(
        "--embedding-provider",
        choices=("local", "ollama", "openai"),
        help="embedding backend (default local, offline)",
    )
    if json_flag:
        common.add_argument("--json", action="store_true", help="print machine-readable JSON")
    return common


def build_parser() -> argparse.ArgumentParser:
    """Build the ``oic-ai`` argument parser with every subcommand."""
    parser = _Parser(
        prog="oic-ai",
        description="Write, check and refine os-image-composer templates.",
    )
    parser.add_argument("--version", action="version", version=f"oic-ai {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    validate = commands.add_parser(
        "validate", help="check templates against the schema, semantic rules and security lint"
    )
    validate.add_argument(
        "files", nargs="+", metavar="FILE", help="template files, or folders of them"
    )
    validate.add_argument(
        "--schema", metavar="FILE", help="validate against this JSON Schema instead of oic-ai's own"
    )
    validate.add_argument("--json", action="store_true", help="print machine-readable JSON")
    validate.set_defaults(handler=_cmd_validate)

    common = _common()
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
    cache.add_argument("action", choices=("stats", "clear"))
    cache.set_defaults(handler=_cmd_cache)

    evaluate = commands.add_parser("eval", help="measure quality")
    eval_kinds = evaluate.add_subparsers(dest="kind", metavar="KIND", parser_class=_Parser)
    retrieval = eval_kinds.add_parser(
        "retrieval", parents=[common], help="hit@1, hit@3 and MRR over labelled queries"
    )
    retrieval.add_argument(
        "--queries", metavar="FILE", help="labelled queries (default tests/eval/retrieval.yaml)"
    )
    retrieval.add_argument("--top-k", type=int, default=5, metavar="N", help=argparse.SUPPRESS)
    retrieval.set_defaults(handler=_cmd_eval)

    from oic_ai.cli_agent import add_agent_commands
    from oic_ai.cli_packages import add_packages_commands

    add_agent_commands(commands, _common)

    add_packages_commands(commands, _common)
    from oic_ai.cli_sessions import add_sessions_commands

    add_sessions_commands(commands, _common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from oic_ai.stores.errors import UserInputError

    try:
        return handler(args)
    except UserInputError as exc:
        print(f"oic-ai: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("oic-ai: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
