"""``oic-ai users add|list|remove``: who may use the served API (output only).

The work is :mod:`oic_ai.stores.users` (the token file) or, with ``OIC_AI_DATABASE_URL``,
:mod:`oic_ai.stores.users_pg` (chosen by :mod:`oic_ai.stores.user_access`).
While no user exists, ``oic-ai serve`` and
``langgraph dev`` answer anyone who can reach them (the single-user default); once one
exists, every request needs ``Authorization: Bearer TOKEN`` (see
:mod:`oic_ai.web.auth`). Cheap to run: no LangGraph, no Chroma.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from oic_ai.cli.common import EXIT_OK, emit, settings_from
from oic_ai.stores.secrets import mask_url
from oic_ai.stores.user_access import user_store

if TYPE_CHECKING:
    from oic_ai.stores.users import UserStore
    from oic_ai.stores.users_pg import PgUserStore


def _store(args: argparse.Namespace) -> UserStore | PgUserStore:
    return user_store(settings_from(args))


def add(args: argparse.Namespace) -> int:
    """``oic-ai users add NAME``: its token, shown only this once."""
    created = _store(args).add(args.name)

    def render() -> None:
        print(f"Created user {created.name!r}. Its token, shown only this once (keep it secret):")
        print(created.token)
        print("Send it as 'Authorization: Bearer TOKEN'; only its hash is stored.")

    emit(args, created.to_json(), render)
    return EXIT_OK


def list_(args: argparse.Namespace) -> int:
    """``oic-ai users list``."""
    store = _store(args)
    users = store.list()
    path = str(store.path)

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

    database = getattr(store, "url", None)  # users in PostgreSQL: no file, the masked URL
    where: dict[str, str | None] = (
        {"file": str(path)} if database is None else {"file": None, "database": mask_url(database)}
    )
    emit(args, {**where, "users": [u.to_json() for u in users]}, render)
    return EXIT_OK


def remove(args: argparse.Namespace) -> int:
    """``oic-ai users remove NAME``: its token stops working at once."""
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
