"""``oic-ai generate`` and ``oic-ai chat``: a turn's display and output; the agent does the work.

:func:`oic_ai.services.session_access.open_agent` picks the agent (a local
``TemplateAgent``, or a server's with ``--server``); writing ``--output`` and ``/save``
goes through :mod:`oic_ai.services.library`.
"""

from __future__ import annotations

import argparse
import atexit
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from oic_ai.cli.common import EXIT_INVALID, EXIT_OK, print_json, settings_from
from oic_ai.cli.render.agent import (
    console,
    describe_provider,
    model_call_logger,
    print_diff,
    print_turn,
    step_printer,
    terminal_spinner,
)
from oic_ai.cli.render.terminal import terminal_text
from oic_ai.services.library import check_output, output_path, write_output
from oic_ai.services.session_access import open_agent
from oic_ai.services.sessions import pick_session
from oic_ai.stores.errors import UserInputError


def check_request(request: str) -> None:
    """Refuse an empty or blank request: there is nothing to do.

    Raises:
        UserInputError: ``request`` holds nothing but white space.
    """
    if not request.strip():
        raise UserInputError(
            "the request is empty", fix='say what you want, e.g. oic-ai generate "add htop"'
        )


def check_session_id(session: str | None) -> None:
    """Refuse ``--session ""``: an empty id must not quietly start a new session.

    Raises:
        UserInputError: ``session`` is given but blank.
    """
    if session is not None and not session.strip():
        raise UserInputError(
            "--session is empty",
            fix="give a session id (see 'oic-ai sessions list'), or leave --session out",
        )


def _pick_session(agent: Any, args: argparse.Namespace, err: Any) -> str | None:
    latest = bool(getattr(args, "continue_", False))
    session = pick_session(agent.sessions, agent.settings, getattr(args, "session", None), latest)
    if latest and session is None:
        err.print(
            f"no session was updated in the last {agent.settings.session_timeout}; "
            "starting a new one"
        )
    return session


def _turn_display(args: argparse.Namespace, err: Any, settings: Any) -> tuple[Any, Any]:
    """The step printer and model-call logger a turn gets from ``-v``/``-q``/a terminal.

    Steps are shown on a terminal (stderr) unless ``--quiet`` or ``--json``; ``--verbose``
    shows them anywhere, with each step's time, the provider, and each model call.
    """
    verbose = getattr(args, "verbose", False)
    quiet = getattr(args, "quiet", False) or (getattr(args, "json", False) and not verbose)
    if verbose:
        err.print(f"[dim]{describe_provider(settings)}[/]")
        return step_printer(err, timings=True), [model_call_logger(err)]
    if not quiet and sys.stderr.isatty():
        return step_printer(err, timings=False), None
    return None, None


def generate(args: argparse.Namespace) -> int:
    """``oic-ai generate REQUEST``: one turn; the template on stdout or ``--output``."""
    # on a terminal, a spinner on stderr covers start-up, indexing and model calls
    spinner = terminal_spinner("working", enabled=not (args.quiet or args.json))
    if spinner is not None:
        spinner.start()
    try:
        return _generate(args, spinner)
    finally:
        if spinner is not None:
            spinner.stop()


def _generate(args: argparse.Namespace, spinner: Any) -> int:
    check_request(args.request)
    check_session_id(args.session)
    settings = settings_from(args)
    target = output_path(args.output, settings) if args.output else None
    if target is not None:
        check_output(target, force=args.force)  # before the turn, not after it
    err = console(stderr=True) if spinner is None else spinner.out
    progress, callbacks = _turn_display(args, err, settings)
    if spinner is not None:
        progress = spinner.on_step(progress)
        callbacks = [*(callbacks or []), spinner.model_calls()]
    with open_agent(
        settings, provider=getattr(args, "provider", None), mode=getattr(args, "mode", None)
    ) as agent:
        session = _pick_session(agent, args, err)
        result = agent.generate(
            args.request, session=session, on_step=progress, callbacks=callbacks
        )
    if spinner is not None:
        spinner.stop()
    written = None
    if target is not None and result.ok and result.template:
        write_output(target, result.template, force=args.force)
        written = str(target)
    if args.json:
        print_json({**result.to_json(), "output": written})
    else:
        out = console(stderr=target is None)
        if not args.quiet:  # --quiet: only the result, the template on stdout or the file
            print_turn(out, result)
            if written:
                out.print(f"[bold]wrote[/] {written}")
            elif target is not None:
                out.print(f"[red]not written[/]: the template is {result.status}")
        if target is None and result.template:
            # exact into a pipe or file; on a terminal, shown rather than acted on
            tty = sys.stdout.isatty()
            sys.stdout.write(terminal_text(result.template) if tty else result.template)
    return EXIT_OK if result.ok else EXIT_INVALID


_HELP = """commands: /save FILE [--force]  /undo  /diff  /sources  /explain  /quit
anything else is a request ("add docker", "make the disk 16GiB", "what packages are included?")"""


def chat(args: argparse.Namespace) -> int:
    """``oic-ai chat``: a conversation; ``/save``, ``/undo``, ``/diff`` and more."""
    check_session_id(args.session)
    settings = settings_from(args)
    out = console()
    progress = None if args.quiet else step_printer(out, timings=args.verbose)
    callbacks = [model_call_logger(out)] if args.verbose else None
    # a spinner on stderr while a turn runs; paused around the step lines (on stdout)
    spinner = terminal_spinner("working", enabled=not (args.quiet or args.verbose))
    if spinner is not None:
        progress = spinner.on_step(progress)
        callbacks = [spinner.model_calls()]
    if args.verbose:
        out.print(f"[dim]{describe_provider(settings)}[/]")

    _line_editing(settings.data_dir)
    with open_agent(
        settings, provider=getattr(args, "provider", None), mode=getattr(args, "mode", None)
    ) as agent:
        session = _pick_session(agent, args, out)
        if session:
            out.print(f"continuing session {session}")
        out.print(_HELP)
        last: Any = None
        while True:
            try:
                line = input("oic-ai> ").strip()
            except EOFError:
                break
            if not line:
                continue
            if line in ("/quit", "/exit", "/q"):
                break
            try:
                if line.startswith("/"):
                    command, _, rest = line.partition(" ")
                    if command == "/save":
                        _chat_save(agent, session, rest, out)
                    elif command == "/undo":
                        if session is None or agent.undo(session) is None:
                            out.print("nothing to undo")
                        else:
                            out.print("restored the template from before the last turn")
                    elif command == "/diff":
                        print_diff(out, last.diff if last else "")
                    elif command == "/sources":
                        state = agent.state(session) if session else {}
                        for source in state.get("sources", []):
                            out.print(f"  {source['template']}  score {source['score']:.3f}")
                        if not state.get("sources"):
                            out.print("no sources yet")
                    elif command == "/explain":
                        question = rest or "summarise it"
                        if session is None:
                            out.print("no template yet")
                        else:
                            with spinner or nullcontext():
                                last = agent.generate(
                                    question,
                                    session=session,
                                    on_step=progress,
                                    callbacks=callbacks,
                                )
                            print_turn(out, last, show_diff=False)
                    elif command == "/help":
                        out.print(_HELP)
                    else:
                        out.print(f"unknown command {command}; /help lists them")
                    continue
                with spinner or nullcontext():
                    last = agent.generate(
                        line, session=session, on_step=progress, callbacks=callbacks
                    )
                session = last.session
                print_turn(out, last)
            except UserInputError as exc:
                out.print(f"[red]oic-ai: {exc}[/]")
        if session:
            out.print(f"session {session} saved; continue with: oic-ai chat --continue")
    return EXIT_OK


HISTORY_FILE = "chat_history"
HISTORY_LENGTH = 1000


def _line_editing(data_dir: Any) -> None:
    """Turn on readline for ``chat`` on a terminal: arrows, Ctrl-R, history across runs.

    The history is ``<data dir>/chat_history`` (mode 0600), saved when the process ends,
    also after Ctrl-C. Does nothing when stdin is not a terminal.
    """
    if not sys.stdin.isatty():
        return
    try:
        import readline  # lazy: only a chat on a terminal edits lines; not every Python has it
    except ImportError:  # pragma: no cover - Python without GNU readline or libedit
        return
    path = Path(data_dir) / HISTORY_FILE
    readline.set_history_length(HISTORY_LENGTH)
    try:
        readline.read_history_file(path)
    except OSError:
        pass  # no history yet, or unreadable: start empty

    def save() -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(path)
            path.chmod(0o600)
        except OSError:
            pass  # a read-only data folder loses the history, never the session

    atexit.register(save)


def _chat_save(agent: Any, session: str | None, rest: str, out: Any) -> None:
    parts = rest.split()
    force = "--force" in parts
    names = [p for p in parts if p != "--force"]
    if not names:
        raise UserInputError("/save needs a file name", fix="e.g. /save edge-gw")
    template = agent.current_template(session) if session else None
    if not template:
        raise UserInputError("there is no template to save yet", fix="make a request first")
    path = output_path(names[0], agent.settings)
    write_output(path, template, force=force)
    out.print(f"wrote {path}")
