"""What every ``oic-ai`` command shares.

Exit codes, the parser class, the common flags, settings from flags, and JSON output.
Cheap to import: nothing here loads settings, SQLite, Chroma or LangGraph until called.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from oic_ai.stores.settings import Settings

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        """Print one line naming the problem and where to look, then exit 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def common_parser(json_flag: bool = True) -> Parser:
    """The parent parser for ``--config/--data-dir/--templates-dir/...`` (and ``--json``)."""
    common = Parser(add_help=False)
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


def server_parser() -> Parser:
    """The parent parser for ``--server`` and ``--token`` (commands that can use a server)."""
    flags = Parser(add_help=False)
    flags.add_argument(
        "--server", metavar="URL", help="an oic-ai server to work on (env OIC_AI_SERVER_URL)"
    )
    flags.add_argument(
        "--token", metavar="TOKEN", help="its bearer token (env OIC_AI_TOKEN, which is safer)"
    )
    return flags


def command_group(commands: Any, name: str, text: str, dest: str) -> tuple[Parser, Any]:
    """Add a command with actions (``oic-ai NAME ACTION``) and return it and its actions.

    Args:
        commands: The subparsers action of the top-level parser.
        name: The command's name.
        text: The command's help line.
        dest: The attribute the chosen action is stored in.
    """
    group: Parser = commands.add_parser(name, help=text)
    actions = group.add_subparsers(dest=dest, metavar="ACTION", parser_class=Parser)
    return group, actions


def settings_from(args: argparse.Namespace) -> Settings:
    """Resolve settings from the command's flags (defaults, config file, env, flags).

    Raises:
        UserInputError: the config file or a value is bad.
    """
    from oic_ai.stores.settings import load_settings

    return load_settings(
        getattr(args, "config", None),
        data_dir=getattr(args, "data_dir", None),
        templates_dir=getattr(args, "templates_dir", None),
        chroma_url=getattr(args, "chroma_url", None),
        embedding_provider=getattr(args, "embedding_provider", None),
        provider=getattr(args, "provider", None),
        generation_mode=getattr(args, "mode", None),
        server_url=getattr(args, "server", None),
        token=getattr(args, "token", None),
    )


def print_json(payload: Any) -> None:
    """Print ``payload`` as indented JSON on stdout."""
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def emit(args: argparse.Namespace, payload: Any, render: Callable[[], None]) -> None:
    """Print ``payload`` as JSON when ``--json`` was given, else call ``render``."""
    if getattr(args, "json", False):
        print_json(payload)
    else:
        render()
