"""The whole ``oic-ai`` argument definition: every command, action and flag.

Each command names its handler as ``"MODULE:FUNCTION"`` of :mod:`oic_ai.cli.commands`;
:func:`oic_ai.cli.main.main` imports that one module when the command runs, so parsing
(and ``oic-ai --help``, and shell completion, which reads this parser) never imports a
command's code. A few handlers that only print a usage error are built here, beside the
parser they describe.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from oic_ai import __version__
from oic_ai.cli.common import (
    EXIT_USAGE,
    PROVIDER_CHOICES,
    SHARED_FLAGS,
    Parser,
    add_shared,
    command_group,
    common_parser,
    server_parser,
)
from oic_ai.cli.help import finish_top_level

SHELLS = ("bash", "zsh", "fish")
DEFAULT_PORT = 8123


def build_parser() -> argparse.ArgumentParser:
    """Build the ``oic-ai`` argument parser with every subcommand."""
    parser = Parser(
        prog="oic-ai",
        description="Write, check and refine os-image-composer templates.",
    )
    parser.add_argument("--version", action="version", version=f"oic-ai {__version__}")
    add_shared(parser, *SHARED_FLAGS)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    common = common_parser()
    _library_commands(commands, common)
    _agent_commands(commands)
    _ai_command(commands)
    _build_commands(commands)
    _packages_commands(commands)
    _sessions_commands(commands)
    _serve_command(commands)
    _users_commands(commands)
    _config_commands(commands, common)
    _completion_command(commands, common_parser(json_flag=False, library=False))
    finish_top_level(parser, commands)
    return parser


def _library_commands(commands: Any, common: Parser) -> None:
    """``validate``, ``index``, ``search``, ``cache`` and ``eval retrieval``."""
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
    validate.set_defaults(handler="library:validate")

    index = commands.add_parser(
        "index", parents=[common], help="embed new and changed templates into the index"
    )
    index.set_defaults(handler="library:index")

    search = commands.add_parser(
        "search", parents=[common], help="find templates for a request, with the score breakdown"
    )
    search.add_argument("query", help="what you are looking for, in words")
    search.add_argument("--top-k", type=int, default=5, metavar="N", help="results (default 5)")
    search.add_argument("--os", help="only this os (e.g. ubuntu)")
    search.add_argument("--dist", help="only this dist (e.g. ubuntu24)")
    search.add_argument("--arch", help="only this arch (x86_64, aarch64)")
    search.add_argument("--image-type", help="only this image type (raw, iso, img)")
    search.set_defaults(handler="library:search")

    cache = commands.add_parser("cache", parents=[common], help="embedding cache: stats, clear")
    cache.add_argument(
        "action",
        choices=("stats", "clear"),
        help="stats: entries, models and size of this library's embedding cache; clear: "
        "empty it (asks first on a Chroma server)",
    )
    cache.add_argument("--yes", action="store_true", help="clear on a Chroma server without asking")
    cache.set_defaults(handler="library:cache")

    evaluate = commands.add_parser("eval", help="measure quality")
    eval_kinds = evaluate.add_subparsers(dest="kind", metavar="KIND", parser_class=Parser)
    retrieval = eval_kinds.add_parser(
        "retrieval", parents=[common], help="hit@1, hit@3 and MRR over labelled queries"
    )
    retrieval.add_argument(
        "--queries", metavar="FILE", help="labelled queries (default tests/eval/retrieval.yaml)"
    )
    retrieval.add_argument("--top-k", type=int, default=5, metavar="N", help=argparse.SUPPRESS)
    retrieval.set_defaults(handler="library:evaluate")


def add_verbosity(parser: argparse.ArgumentParser) -> None:
    """``-v/--verbose`` and ``-q/--quiet`` for the commands that run turns."""
    loudness = parser.add_mutually_exclusive_group()
    loudness.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="show every step with its time, and each model call (never secrets)",
    )
    loudness.add_argument(
        "--quiet", "-q", action="store_true", help="print only the result (the template)"
    )


def add_session_choice(parser: argparse.ArgumentParser, session: str, latest: str) -> Any:
    """``--session ID`` or ``--continue`` (the latest session), not both; returns the group.

    ``session`` and ``latest`` are the two options' help texts.
    """
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--session", metavar="ID", help=session)
    which.add_argument("--continue", dest="continue_", action="store_true", help=latest)
    return which


def _agent_commands(commands: Any) -> None:
    """``generate`` and ``chat``."""
    agent_flags = argparse.ArgumentParser(add_help=False)
    add_shared(agent_flags, "provider")
    add_verbosity(agent_flags)
    agent_flags.add_argument(
        "--mode", choices=("plan", "yaml"), help="plan: edit plan (default); yaml: whole template"
    )

    generate = commands.add_parser(
        "generate",
        parents=[common_parser(), agent_flags, server_parser()],
        help="write or refine a template from a request",
    )
    generate.add_argument("request", help="what you want, in words")
    which = add_session_choice(
        generate,
        "continue this session",
        "continue the latest session (within the session timeout)",
    )
    which.add_argument("--new", action="store_true", help="start a new session (the default)")
    generate.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the template: a name (edge-gw: image-templates/edge-gw.yml) or a path "
        "(edge.yml, ./out/edge.yml)",
    )
    generate.add_argument("--force", action="store_true", help="replace an existing --output file")
    generate.set_defaults(handler="agent:generate")

    chat = commands.add_parser(
        "chat",
        parents=[common_parser(json_flag=False), agent_flags, server_parser()],
        help="refine a template interactively",
    )
    chat.add_argument(
        "--continue", dest="continue_", action="store_true", help="pick up the latest session"
    )
    chat.add_argument("--session", metavar="ID", help="continue this session")
    chat.set_defaults(handler="agent:chat")


def _ai_command(commands: Any) -> None:
    """``ai``: the composer's own command and flags (:mod:`oic_ai.cli.commands.ai`)."""
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
    ai.set_defaults(handler="ai:ai")


def _build_commands(commands: Any) -> None:
    """``build`` and ``verify`` (:mod:`oic_ai.cli.commands.build`)."""
    common = common_parser(library=False)
    build = commands.add_parser(
        "build",
        parents=[common],
        help="build a template's image with the composer, then verify (and boot) it",
        description="Run image-composer-tool build on a template (a file, a session's or the "
        "latest session's), report its stages, artifacts and timings, then read the image "
        "and compare it with the template. Needs root and loop devices.",
    )
    build.add_argument("template", nargs="?", metavar="TEMPLATE", help="a template file")
    add_session_choice(
        build, "build this session's template", "build the latest session's template"
    )
    build.add_argument(
        "--composer", metavar="PATH", help="the composer to run (default: ai.composer.path, PATH)"
    )
    build.add_argument(
        "--composer-config",
        metavar="FILE",
        help="the composer's own config file (default: ai.composer.config, else its search)",
    )
    build.add_argument(
        "--boot", action="store_true", help="boot the image headless and wait for the login prompt"
    )
    build.add_argument(
        "--boot-timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="how long to wait for the login prompt (default 600)",
    )
    build.set_defaults(handler="build:build")

    verify = commands.add_parser(
        "verify",
        parents=[common],
        help="read a built image (no mounting) and compare it with its template",
        description="Read the partition table (sfdisk) and the root file system (debugfs) of "
        "a raw image, .raw.gz/.xz/.zst too, and compare them with the template, one row per "
        "check. Exit 0 when every row matches or is a known composer behaviour, 1 otherwise.",
    )
    verify.add_argument("image", metavar="IMAGE", help="a raw disk image")
    verify.add_argument(
        "--template", required=True, metavar="FILE", help="the template it was built from"
    )
    verify.set_defaults(handler="build:verify")


def _print_usage(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """A handler for a command given without its action: its help on stderr, exit 2."""

    def handler(_args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return EXIT_USAGE

    return handler


def _missing_action(
    parser: argparse.ArgumentParser, actions: str
) -> Callable[[argparse.Namespace], int]:
    """A handler for a command given without its action: one line naming them, exit 2."""

    def handler(_args: argparse.Namespace) -> int:
        parser.error(f"choose an action: {actions}")

    return handler


def _packages_commands(commands: Any) -> None:
    """``packages sync|check|status``."""
    text = "package indexes: sync them, check templates against them"
    packages, actions = command_group(commands, "packages", text, "packages_command")
    packages.set_defaults(handler=_print_usage(packages))

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
    sync.set_defaults(handler="packages:sync")

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
    check.set_defaults(handler="packages:check")

    status = actions.add_parser(
        "status",
        parents=[common_parser(library=False), target],
        help="list the indexed targets and repositories",
    )
    status.set_defaults(handler="packages:status")


def _sessions_commands(commands: Any) -> None:
    """``sessions list|show|replay|fork|rerun|delete|prune|repair|migrate``."""
    text = "conversations kept under the data folder: list, replay, fork, prune"
    sessions, actions = command_group(commands, "sessions", text, "sessions_action")
    sessions.set_defaults(
        handler=_missing_action(
            sessions, "list, show, replay, fork, rerun, delete, prune, repair or migrate"
        )
    )
    # name, help, takes a session id
    table: list[tuple[str, str, bool]] = [
        ("list", "sessions, newest first", False),
        ("show", "a session's current template and conversation", True),
        (
            "replay",
            "every turn's request, route, diff and status, from checkpoint history",
            True,
        ),
        ("fork", "a new session that starts from a session's turn N", True),
        (
            "rerun",
            "send a session's requests again through a provider and compare the outcomes",
            True,
        ),
        ("delete", "delete a session and its checkpoints", True),
        ("prune", "delete sessions not updated for a while, then compact the database", False),
        ("repair", "move a damaged sessions database aside and keep what can still be read", False),
        ("migrate", "copy every session (checkpoints and index) to a PostgreSQL database", False),
    ]
    parsers: dict[str, argparse.ArgumentParser] = {}
    for name, text, with_id in table:
        parser = parsers[name] = actions.add_parser(
            name, parents=[common_parser(library=name == "rerun"), server_parser()], help=text
        )
        if with_id:
            parser.add_argument("id", metavar="ID", help="session id (a unique prefix is enough)")
        parser.set_defaults(handler=f"sessions:{name}_")
    parsers["list"].add_argument("--limit", type=int, metavar="N", help="show at most N sessions")
    parsers["delete"].add_argument(
        "--yes", "-y", action="store_true", help="delete without asking, even for an id prefix"
    )
    parsers["replay"].add_argument("--no-diff", action="store_true", help="leave the diffs out")
    parsers["fork"].add_argument(
        "--turn", type=int, required=True, metavar="N", help="fork after this turn (1 = first)"
    )
    parsers["rerun"].add_argument(
        "--provider",
        required=True,
        choices=PROVIDER_CHOICES,
        help="the planner to use this time",
    )
    parsers["migrate"].add_argument(
        "--to",
        required=True,
        metavar="URL",
        help="the target database, postgresql://USER@HOST:PORT/DATABASE",
    )
    prune = parsers["prune"]
    prune.add_argument("--older-than", required=True, metavar="AGE", help="e.g. 7d, 12h, 30m, 2w")
    prune.add_argument("--dry-run", action="store_true", help="only show which sessions would go")


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"{value} is not a port number (1-65535)")
    return value


def _serve_command(commands: Any) -> None:
    """``serve``."""
    serve: Parser = commands.add_parser(
        "serve",
        parents=[common_parser(json_flag=False)],
        help="serve the browser UI, the REST API and the LangGraph API (Studio, SDK)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"port ({DEFAULT_PORT})", metavar="N"
    )
    serve.add_argument("--no-browser", action="store_true", help="do not open the browser")
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let web pages of ORIGIN (https://app.example.com) call the server; repeatable",
    )
    serve.add_argument(
        "--no-auth",
        action="store_true",
        help="serve other machines with no users (anyone who can reach it gets in)",
    )
    serve.add_argument(
        "--check",
        action="store_true",
        help="print the engine, database, Redis and Chroma in use and whether each answers "
        "(exit 3 when one does not), then stop",
    )
    serve.set_defaults(handler="serve:serve")


def _users_commands(commands: Any) -> None:
    """``users add|list|remove``."""
    text = "who may use the served API: add (prints a token once), list, remove"
    users, actions = command_group(commands, "users", text, "users_action")
    users.set_defaults(handler=_missing_action(users, "add, list or remove"))
    common = Parser(add_help=False)
    common.add_argument("--config", metavar="FILE", help="config file (default ./config.yaml)")
    common.add_argument(
        "--data-dir",
        metavar="DIR",
        help="state folder holding users.json (env OIC_AI_DATA_DIR; OIC_AI_TOKENS_FILE wins)",
    )
    common.add_argument("--json", action="store_true", help="print machine-readable JSON")

    add = actions.add_parser(
        "add", parents=[common], help="create a user and print its new token (shown only once)"
    )
    add.add_argument("name", metavar="NAME", help="letters, digits, '.', '_' or '-'")
    add.set_defaults(handler="users:add")
    listing = actions.add_parser("list", parents=[common], help="users and when they were added")
    listing.set_defaults(handler="users:list_")
    remove = actions.add_parser(
        "remove", parents=[common], help="delete a user; its token stops working at once"
    )
    remove.add_argument("name", metavar="NAME")
    remove.set_defaults(handler="users:remove")


def _config_commands(commands: Any, common: Parser) -> None:
    """``config show``."""
    _, actions = command_group(commands, "config", "show the resolved settings", "config_action")
    show = actions.add_parser(
        "show",
        parents=[common],
        help="every setting, its value and where it came from (secrets hidden)",
        description="Print every setting with its value and its source: default, a config "
        "file, an environment variable or the command line. Secrets are never shown.",
        epilog="examples:\n  oic-ai config show\n  oic-ai config show --json\n"
        "  OIC_AI_DATA_DIR=/srv/oic oic-ai config show",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    show.set_defaults(handler="config:show")


def _completion_command(commands: Any, state: argparse.ArgumentParser) -> None:
    """``completion bash|zsh|fish``."""
    completion = commands.add_parser(
        "completion",
        parents=[state],
        help="print a shell completion script (bash, zsh, fish)",
        description="Print a completion script for your shell. It completes commands, "
        "actions, flags, file paths and session ids.",
        epilog="examples:\n"
        "  source <(oic-ai completion bash)            # this shell\n"
        "  oic-ai completion bash > ~/.local/share/bash-completion/completions/oic-ai\n"
        "  oic-ai completion fish > ~/.config/fish/completions/oic-ai.fish\n"
        "  oic-ai completion zsh > ~/.zfunc/_oic-ai",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    completion.add_argument("shell", nargs="?", choices=SHELLS, help="the shell")
    completion.add_argument("--list", choices=("sessions",), help=argparse.SUPPRESS)
    completion.set_defaults(handler="completion:completion")
