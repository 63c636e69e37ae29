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
    from stores.errors import UserInputError
    from stores.template_library import iter_template_files
    from tools.validate_template import TemplateSchema, validate_file

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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from stores.errors import UserInputError

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
