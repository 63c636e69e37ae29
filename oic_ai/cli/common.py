"""What every ``oic-ai`` command shares.

Exit codes, the parser class, the common flags, settings from flags, and JSON output.
Cheap to import: the settings loader is standard library only; nothing here opens
SQLite, Chroma or LangGraph.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from oic_ai.stores.settings import Settings, load_settings

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        """Print one line naming the problem and where to look, then exit 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see '{self.prog} --help')\n")


PROVIDER_CHOICES = ("auto", "builtin", "ollama", "openai")

# Flags that work on either side of the command: `oic-ai --data-dir X sessions list` and
# `oic-ai sessions list --data-dir X` are the same. Every parser that declares one uses
# argparse.SUPPRESS as its default, so a command's parser never overwrites a value given
# before the command; `oic_ai.cli.main` fills in SHARED_DEFAULTS for the flags given nowhere.
SHARED_FLAGS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "config": (
        ("--config",),
        {
            "metavar": "FILE",
            "help": "config file (default ./config.yaml, then $XDG_CONFIG_HOME/oic-ai/config.yaml)",
        },
    ),
    "data_dir": (
        ("--data-dir",),
        {
            "metavar": "DIR",
            "help": "state folder (env OIC_AI_DATA_DIR; default ./.ai-cache when it exists, "
            "else $XDG_DATA_HOME/oic-ai)",
        },
    ),
    "templates_dir": (
        ("--templates-dir",),
        {"metavar": "DIR", "help": "template library (env OIC_AI_TEMPLATES_DIR)"},
    ),
    "chroma_url": (
        ("--chroma-url",),
        {"metavar": "URL", "help": "a Chroma server instead of the embedded store"},
    ),
    "provider": (
        ("--provider",),
        {"choices": PROVIDER_CHOICES, "help": "planner (env OIC_AI_PROVIDER; default auto)"},
    ),
    "json": (("--json",), {"action": "store_true", "help": "print machine-readable JSON"}),
}
SHARED_DEFAULTS: dict[str, Any] = {name: None for name in SHARED_FLAGS} | {"json": False}


def add_shared(parser: argparse.ArgumentParser, *names: str) -> None:
    """Declare shared flags on ``parser`` (see :data:`SHARED_FLAGS`)."""
    for name in names:
        flags, options = SHARED_FLAGS[name]
        parser.add_argument(*flags, default=argparse.SUPPRESS, **options)


def fill_shared_defaults(args: argparse.Namespace) -> argparse.Namespace:
    """Give every shared flag that was given nowhere its default."""
    for name, default in SHARED_DEFAULTS.items():
        if not hasattr(args, name):
            setattr(args, name, default)
    return args


def common_parser(json_flag: bool = True, *, library: bool = True) -> Parser:
    """The parent parser of a command's shared flags.

    Args:
        json_flag: the command prints ``--json``.
        library: the command reads the template library (``--templates-dir``,
            ``--chroma-url``, ``--embedding-provider``); commands that don't, such as
            ``sessions``, list only ``--config`` and ``--data-dir``.
    """
    common = Parser(add_help=False)
    add_shared(common, "config", "data_dir")
    if library:
        add_shared(common, "templates_dir", "chroma_url")
        common.add_argument(
            "--embedding-provider",
            choices=("local", "ollama", "openai"),
            help="embedding backend (default local, offline)",
        )
    if json_flag:
        add_shared(common, "json")
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
