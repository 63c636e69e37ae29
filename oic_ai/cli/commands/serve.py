"""``oic-ai serve``: the LangGraph API server with the browser UI and the REST API.

It runs the same in-memory LangGraph API server as ``langgraph dev`` (graph id
``oic-ai``, the sessions checkpointer of ``graph/checkpointer.py``), with the Starlette
app of :mod:`oic_ai.web.app` mounted as its custom routes (``/ui/`` and ``/api/v1/``).
The server's configuration is built from module paths, so an installed package serves
without the repository's ``langgraph.json``. Reload is off.

The server runs in this process: uvicorn stops it on Ctrl-C (exit 130) or SIGTERM
(exit 0), finishing open requests for up to 5 s and closing the checkpointer. A watcher
thread prints ``serving on http://HOST:PORT/ui/`` once ``/ok`` answers, then opens the
browser unless ``--no-browser``. Nothing heavy is imported until the command runs.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import ipaddress
import logging
import os
import signal
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
import webbrowser
from importlib.util import find_spec
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

from oic_ai.cli.common import EXIT_OK, settings_from
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_check import check_database
from oic_ai.stores.session_store import sessions_db_path
from oic_ai.stores.users import TokenVerifier, tokens_file
from oic_ai.web.front_door import NO_AUTH_ENV, is_loopback
from oic_ai.web.replica import replica_urls

EXIT_INTERRUPTED = 130

GRAPH_ID = "oic-ai"
GRAPHS = {GRAPH_ID: "oic_ai.graph.served:graph"}
# langgraph-api splits a module-path checkpointer at its last dot (module.function).
CHECKPOINTER = {"path": "oic_ai.graph.checkpointer.session_checkpointer"}
HTTP = {"app": "oic_ai.web.app:app", "enable_custom_route_auth": True}
# Per-user access (oic_ai.web.auth): open while no user exists; Studio's header is no bypass.
AUTH = {"path": "oic_ai.web.auth:auth", "disable_studio_auth": True}
READY_SECONDS = 120.0
QUIET_ENV = {"LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGGRAPH_NO_VERSION_CHECK": "1"}
INSTALL_FIX = "install the server: pip install 'langgraph-cli[inmem]'"


def server_config() -> dict[str, Any]:
    """The ``run_server`` keywords for the graph, its checkpointer, the web app and auth."""
    return {
        "graphs": dict(GRAPHS),
        "checkpointer": dict(CHECKPOINTER),
        "http": dict(HTTP),
        "auth": dict(AUTH),
    }


def url_host(host: str) -> str:
    """``host`` as it goes into a URL (IPv6 addresses in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def ui_url(host: str, port: int) -> str:
    """The URL ``serve`` prints: ``http://HOST:PORT/ui/``."""
    return f"http://{url_host(host)}:{port}/ui/"


def _probe_host(host: str) -> str:
    """Where to ask ``/ok``: a wildcard address is reached over loopback."""
    return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)


def check_port(host: str, port: int) -> None:
    """Fail with one line when ``host:port`` cannot be listened on (taken, or no such host).

    Raises:
        UserInputError: the port is taken, or the address is not this machine's.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        raise UserInputError(
            f"cannot listen on {host!r}: no such address", fix="pass --host 127.0.0.1"
        ) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except PermissionError:
            raise UserInputError(
                f"port {port} needs privileges on this machine", fix="pick a port above 1023"
            ) from None
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise UserInputError(
                    f"port {port} on {host} is taken", fix="pick another with --port N"
                ) from None
            raise UserInputError(
                f"cannot listen on {host}:{port} ({exc.strerror or exc})",
                fix="pass --host 127.0.0.1 or another --port",
            ) from None


def check_installed() -> None:
    """Fail with one line when the LangGraph API server (``langgraph-cli[inmem]``) is missing.

    Raises:
        UserInputError: ``langgraph_api`` or its in-memory runtime cannot be found.
    """
    for module in ("langgraph_api", "langgraph_runtime_inmem", "uvicorn", "starlette"):
        try:
            found = find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise UserInputError(
                f"the LangGraph API server is not installed ({module} is missing)",
                fix=INSTALL_FIX,
            )


def _export_settings(args: argparse.Namespace) -> None:
    """Put the command's flags into the environment the server's graph reads.

    The served graph and the checkpointer resolve settings themselves (config file,
    environment), so flags reach them as the matching ``OIC_AI_*`` variables; the data
    folder is made absolute so it never depends on where a worker looks from.
    """
    settings = settings_from(args)  # a bad config or value fails here, as one line
    os.environ["OIC_AI_DATA_DIR"] = str(Path(settings.data_dir).resolve())
    if args.config:
        os.environ["OIC_AI_CONFIG"] = str(Path(args.config).resolve())
    if args.templates_dir:
        os.environ["OIC_AI_TEMPLATES_DIR"] = str(Path(args.templates_dir).resolve())
    if args.chroma_url:
        os.environ["OIC_AI_CHROMA_URL"] = args.chroma_url
    if args.embedding_provider:
        os.environ["OIC_AI_EMBEDDING_PROVIDER"] = args.embedding_provider
    origins = [*settings.serve_allowed_origins, *(check_origin(o) for o in args.allow_origin)]
    os.environ["OIC_AI_ALLOWED_ORIGINS"] = ",".join(dict.fromkeys(origins))
    hosts = list(settings.serve_allowed_hosts)
    if not _is_address(args.host) and args.host not in WILDCARDS:
        hosts.append(args.host)  # a name to listen on is a name to answer for
    os.environ["OIC_AI_ALLOWED_HOSTS"] = ",".join(dict.fromkeys(hosts))

    check_database(sessions_db_path(Path(settings.data_dir)))  # damaged: one line, exit 2


WILDCARDS = ("0.0.0.0", "::", "")


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def check_origin(origin: str) -> str:
    """An ``--allow-origin`` value: ``scheme://host[:port]``, nothing after it.

    Raises:
        UserInputError: it is not an origin (a path, no scheme, ``*``).
    """
    text = origin.strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path or parts.query:
        raise UserInputError(
            f"--allow-origin {origin!r} is not an origin",
            fix="pass scheme://host[:port], e.g. --allow-origin https://app.example.com",
        )
    return text.lower()


def check_exposure(
    host: str, data_dir: Path, *, no_auth: bool, database_url: str | None = None
) -> None:
    """Refuse a non-loopback ``--host`` on a server with no users, unless ``--no-auth``.

    Args:
        host: The address to listen on.
        data_dir: The data folder (its token file holds the users without a database).
        no_auth: ``--no-auth``: serve other machines without users, on purpose.
        database_url: The sessions database (``OIC_AI_DATABASE_URL`` or ``ai.sessions.url``);
            its ``oic_users`` table holds the users when set, as the server reads them.

    Raises:
        UserInputError: the address reaches other machines and nobody would need a token.
    """
    if is_loopback(host):
        return
    if database_url:  # users live beside the sessions (stores/user_access.py)
        from oic_ai.stores.users_pg import PgTokenVerifier

        users = PgTokenVerifier(database_url, tokens_file(data_dir)).has_users()
    else:
        users = TokenVerifier(tokens_file(data_dir)).has_users()
    if users:
        return
    if not no_auth:
        raise UserInputError(
            f"--host {host} reaches other machines, and this server has no users: "
            "anyone could read and change every session",
            fix="add a user first: oic-ai users add NAME (or pass --no-auth on purpose)",
        )
    os.environ[NO_AUTH_ENV] = "1"
    print(
        f"oic-ai: warning: serving {host} with no users (--no-auth): anyone who can reach "
        "this machine can read and change every session",
        file=sys.stderr,
    )


def _announce_when_ready(
    host: str, port: int, open_browser: bool, stop: threading.Event, started: float
) -> None:
    """Print the UI's URL once ``/ok`` answers, then open the browser if asked."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    probe = f"http://{url_host(_probe_host(host))}:{port}/ok"
    deadline = started + READY_SECONDS
    while not stop.is_set() and time.monotonic() < deadline:
        try:
            with opener.open(probe, timeout=2) as answer:
                if answer.status == 200:
                    break
        except (OSError, urllib.error.URLError):
            pass
        stop.wait(0.05)
    else:
        return
    url = ui_url(host, port)
    print(f"serving on {url}", flush=True)
    if open_browser and has_desktop():
        try:
            webbrowser.open(url)
        except Exception:  # no browser here: the printed URL is enough
            pass


def has_desktop(env: dict[str, str] | None = None) -> bool:
    """Whether a graphical browser can open: not over SSH or on a console without X/Wayland.

    Without a display, Python's ``webbrowser`` falls back to a text browser (lynx, w3m),
    which would take over the terminal the server logs to.
    """
    environ = os.environ if env is None else env
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


class _Signals:
    """Which stop signals arrived; uvicorn passes them on once the server has stopped."""

    def __init__(self) -> None:
        self.received: list[int] = []

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.received.append(signum)
        if frame is None or frame.f_code.co_name != "capture_signals":
            # uvicorn has not taken the signals over yet (start-up): stop right here
            if signum == signal.SIGINT:
                raise KeyboardInterrupt
            raise SystemExit(EXIT_OK)


def _quiet_logging() -> None:
    """Keep the server's start-up banner and info logs off the terminal (warnings stay)."""
    logging.getLogger().setLevel(logging.WARNING)
    for name in ("langgraph_api", "langgraph_runtime_inmem", "langgraph_api.cli"):
        logging.getLogger(name).setLevel(logging.WARNING)


# The in-memory runtime behind `langgraph dev` looks for a new run every 0.5 s when it is
# idle, so a run waits up to half a second before its first step. The page promises the
# first step within 300 ms of Send: `oic-ai serve` looks every 50 ms instead (about half a
# percent of a core while idle). Only the wait between looks changes; the pick-up itself
# is the runtime's own.
RUN_PICKUP_SECONDS = 0.05


def quicker_run_pickup(interval: float = RUN_PICKUP_SECONDS) -> bool:
    """Make the in-memory runtime look for new runs every ``interval`` seconds.

    Returns:
        True when the runtime's pick-up was wrapped (False when it was already, or when
        the runtime has no such hook in this version: then nothing changes).
    """
    try:
        from langgraph_runtime_inmem import ops  # lazy: only a starting server patches it
    except ImportError:  # pragma: no cover - another runtime: leave it alone
        return False
    original = getattr(ops.Runs, "next", None)
    if original is None or getattr(original, "_oic_quick", False):
        return False

    async def next_run(wait: bool, limit: int = 1) -> Any:
        if wait:
            await asyncio.sleep(interval)
        async for item in original(False, limit):
            yield item

    next_run._oic_quick = True  # type: ignore[attr-defined]
    ops.Runs.next = staticmethod(next_run)
    return True


def serve(args: argparse.Namespace) -> int:
    """``oic-ai serve``: exit 0 on SIGTERM, 130 on Ctrl-C, 3 when the server cannot start.

    With ``OIC_AI_DATABASE_URL`` and ``OIC_AI_REDIS_URL`` set, one replica of a cluster
    (:mod:`oic_ai.cli.commands.serve_replica`); ``--check`` only reports what it would use.
    """
    from oic_ai.cli.commands import serve_replica as replica

    if getattr(args, "check", False):
        return replica.check(args)
    urls = replica_urls()
    if urls is None:
        check_installed()
    else:
        replica.check_engine_installed()
        replica.check_shared_chroma(settings_from(args).chroma_url)
    _export_settings(args)
    check_port(args.host, args.port)
    check_exposure(
        args.host,
        Path(os.environ["OIC_AI_DATA_DIR"]),
        no_auth=args.no_auth,
        database_url=settings_from(args).database_url,
    )
    os.environ.update(QUIET_ENV)
    if urls is not None:
        return replica.serve_replica(args, *urls)
    # lazy: the API server takes seconds to import; check_installed says first if it is missing
    from langgraph_api.cli import run_server

    quicker_run_pickup()
    _quiet_logging()
    stop = threading.Event()
    watcher = threading.Thread(
        target=_announce_when_ready,
        args=(args.host, args.port, not args.no_browser, stop, time.monotonic()),
        name="oic-ai-serve-ready",
        daemon=True,
    )
    signals = _Signals()
    previous = {sig: signal.signal(sig, signals) for sig in (signal.SIGINT, signal.SIGTERM)}
    watcher.start()
    try:
        run_server(
            args.host,
            args.port,
            reload=False,
            open_browser=False,
            server_level="WARNING",
            timeout_graceful_shutdown=5,
            **server_config(),
        )
    except SystemExit as exc:  # uvicorn exits 3 when the app cannot start
        if exc.code not in (None, 0):
            print("oic-ai: the server did not start (see the log above)", file=sys.stderr)
            return 3
    finally:
        stop.set()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if signal.SIGINT in signals.received:  # Ctrl-C: the DESIGN's "interrupted"
        return EXIT_INTERRUPTED
    return EXIT_OK
