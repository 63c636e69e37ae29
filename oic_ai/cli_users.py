"""``oic-ai users add|list|remove``: who may use the served API (parsing and output only).

The work is :mod:`oic_ai.stores.users`. While no user exists, ``oic-ai serve`` and
``langgraph dev`` answer anyone who can reach them (the single-user default); once one
exists, every request needs ``Authorization: Bearer TOKEN`` (see
:mod:`oic_ai.web.auth`). Cheap to run: no LangGraph, no Chroma.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from oic_ai.cli_common import EXIT_OK, Parser, command_group, emit, settings_from


def add_users_commands(commands: Any) -> None:
    """Register ``users`` and its actions on the top-level parser's ``commands``."""
    text = "who may use the served API: add (prints a token once), list, remove"
    users, actions = command_group(commands, "users", text, "users_action")
    users.set_defaults(handler=_missing_action(users))
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
    add.set_defaults(handler=_cmd_add)
    listing = actions.add_parser("list", parents=[common], help="users and when they were added")
    listing.set_defaults(handler=_cmd_list)
    remove = actions.add_parser(
        "remove", parents=[common], help="delete a user; its token stops working at once"
    )
    remove.add_argument("name", metavar="NAME")
    remove.set_defaults(handler=_cmd_remove)


def _missing_action(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        parser.error("choose an action: add, list or remove")

    return handler


def _store(args: argparse.Namespace) -> Any:
    from oic_ai.stores.users import UserStore, tokens_file

    return UserStore(tokens_file(settings_from(args).data_dir))


def _cmd_add(args: argparse.Namespace) -> int:
    created = _store(args).add(args.name)

    def render() -> None:
        print(f"Created user {created.name!r}. Its token, shown only this once (keep it secret):")
        print(created.token)
        print("Send it as 'Authorization: Bearer TOKEN'; only its hash is stored.")

    emit(args, created.to_json(), render)
    return EXIT_OK


def _cmd_list(args: argparse.Namespace) -> int:
    store = _store(args)
    users = store.list()
    path: Path = store.path

    def render() -> None:
        if not users:
            print(
                f"No users in {path}: a served API answers anyone who can reach it. "
                "Add one with 'oic-ai users add NAME'."
            )
            return
        width = max(len("NAME"), *(len(u.name) for u in users))
        print(f"{'NAME':<{width}}  CREATED")
        for user in users:
            print(f"{user.name:<{width}}  {user.created}")

    emit(args, {"file": str(path), "users": [u.to_json() for u in users]}, render)
    return EXIT_OK


def _cmd_remove(args: argparse.Namespace) -> int:
    store = _store(args)
    store.remove(args.name)
    left = len(store.list())
    note = "" if left else " No users are left: a served API now answers anyone."
    emit(
        args,
        {"removed": args.name, "users_left": left},
        lambda: print(f"Removed user {args.name!r}; its token no longer works.{note}"),
    )
    return EXIT_OK
