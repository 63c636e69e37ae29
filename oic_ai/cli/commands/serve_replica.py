"""``oic-ai serve`` as one replica of a cluster, and ``oic-ai serve --check``.

With ``OIC_AI_DATABASE_URL`` (PostgreSQL) and ``OIC_AI_REDIS_URL`` both set, ``serve`` runs
:mod:`oic_ai.web.replica` (Aegra with our graph, auth, routes and front door) under
uvicorn instead of the in-memory runtime. A replica refuses an embedded Chroma folder:
replicas must share one ``chroma run`` server (``OIC_AI_CHROMA_URL``).

``--check`` prints the engine, the database, Redis and the Chroma in use, and whether this
host reaches each (passwords shown as ``***``); exit 3 when one is unreachable.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import urllib.error
import urllib.request
from importlib.util import find_spec
from pathlib import Path

from oic_ai.cli.common import EXIT_OK, settings_from
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.secrets import mask_url
from oic_ai.web.replica import INSTALL_FIX, REDIS_URL_ENV, replica_urls

EXIT_UNREACHABLE = 3
EXIT_INTERRUPTED = 130
CHROMA_FIX = (
    "start one Chroma server for every replica (chroma run --path DIR --host H --port P) "
    "and set OIC_AI_CHROMA_URL=http://H:P"
)


def check_engine_installed() -> None:
    """Fail with one line when Aegra (the ``[replicas]`` extra) is missing.

    Raises:
        UserInputError: ``aegra_api`` cannot be found.
    """
    try:
        found = find_spec("aegra_api") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise UserInputError("the replicas' engine (aegra-api) is not installed", fix=INSTALL_FIX)


def check_shared_chroma(chroma_url: str | None) -> None:
    """Refuse an embedded Chroma folder on a replica.

    Raises:
        UserInputError: no ``OIC_AI_CHROMA_URL`` (``ai.chroma.url``) is set.
    """
    if not chroma_url:
        raise UserInputError(
            "several replicas cannot share an embedded Chroma folder", fix=CHROMA_FIX
        )


def reach_postgres(url: str) -> str | None:
    """None when PostgreSQL answers at ``url``, else why not (one line, no password)."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install 'oic-ai[postgres]')"
    try:
        with psycopg.connect(url, connect_timeout=3, application_name="oic-ai-check") as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        return mask_url(str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc))
    return None


def reach_redis(url: str) -> str | None:
    """None when Redis answers ``PING`` at ``url``, else why not."""
    try:
        import redis
    except ImportError:
        return "the redis package is not installed (pip install 'oic-ai[replicas]')"
    try:
        client = redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        return mask_url(str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc))
    return None


def reach_chroma(url: str) -> str | None:
    """None when a Chroma server answers its heartbeat at ``url``, else why not."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url.rstrip("/") + "/api/v2/heartbeat", timeout=3) as answer:
            if answer.status == 200:
                return None
            return f"HTTP {answer.status}"
    except (OSError, urllib.error.URLError) as exc:
        return str(getattr(exc, "reason", exc))


def check(args: argparse.Namespace) -> int:
    """``oic-ai serve --check``: what this server would use, and whether it is reachable."""
    settings = settings_from(args)
    urls = replica_urls()
    redis_url = os.environ.get(REDIS_URL_ENV, "").strip() or None
    lines: list[tuple[str, str, str | None]] = []  # (what, value, problem or None)
    if urls is not None:
        engine = "aegra (one replica of a cluster)"
        try:
            check_engine_installed()
            engine_problem = None
        except UserInputError as exc:
            engine_problem = exc.problem
        lines.append(("engine", engine, engine_problem))
    else:
        lines.append(("engine", "langgraph-api in-memory runtime (one server)", None))
    if settings.database_url:
        lines.append(
            ("database", mask_url(settings.database_url), reach_postgres(settings.database_url))
        )
    else:
        lines.append(("database", f"SQLite in {Path(settings.data_dir).resolve()}", None))
    if redis_url:
        lines.append(("redis", mask_url(redis_url), reach_redis(redis_url)))
    else:
        lines.append(("redis", f"not set ({REDIS_URL_ENV})", None))
    if settings.chroma_url:
        lines.append(("chroma", mask_url(settings.chroma_url), reach_chroma(settings.chroma_url)))
    elif urls is not None:
        lines.append(("chroma", "embedded folder", "replicas need a shared Chroma server"))
    else:
        lines.append(("chroma", f"embedded in {Path(settings.data_dir).resolve()}", None))
    failed = False
    for what, value, problem in lines:
        state = "ok" if problem is None else f"UNREACHABLE: {problem}"
        failed = failed or problem is not None
        print(f"{what + ':':<10}{value}  {state}")
    return EXIT_UNREACHABLE if failed else EXIT_OK


def serve_replica(args: argparse.Namespace, database_url: str, redis_url: str) -> int:
    """Run one replica under uvicorn (``serve`` has checked the port and the users).

    Returns 0 on SIGTERM, 130 on Ctrl-C, 3 when the replica could not start.
    """
    from oic_ai.web.replica import aegra_environment, write_config

    with tempfile.TemporaryDirectory(prefix="oic-ai-replica-") as folder:
        config = write_config(Path(folder))
        os.environ.update(
            aegra_environment(database_url, redis_url, config, args.host, args.port)
        )
        import uvicorn

        try:
            uvicorn.run(
                "oic_ai.web.replica:app",
                host=args.host,
                port=args.port,
                log_level="warning",
                timeout_graceful_shutdown=5,
                lifespan="on",
            )
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED
        except SystemExit as exc:
            if exc.code not in (None, 0):
                print("oic-ai: the replica did not start (see the log above)", file=sys.stderr)
                return EXIT_UNREACHABLE
    return EXIT_OK
