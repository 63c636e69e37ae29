"""``oic-ai generate`` and ``oic-ai chat``: argument parsing and output; the agent does the work."""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from typing import Any

from oic_ai.cli_common import (
    EXIT_INVALID,
    EXIT_OK,
    add_shared,
    common_parser,
    print_json,
    server_parser,
    settings_from,
)


def add_agent_commands(commands: Any) -> None:
    """Register ``generate`` and ``chat`` on the top-level parser's ``commands``."""
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
    which = generate.add_mutually_exclusive_group()
    which.add_argument("--session", metavar="ID", help="continue this session")
    which.add_argument(
        "--continue",
        dest="continue_",
        action="store_true",
        help="continue the latest session (within the session timeout)",
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
    generate.set_defaults(handler=_cmd_generate)

    chat = commands.add_parser(
        "chat",
        parents=[common_parser(json_flag=False), agent_flags, server_parser()],
        help="refine a template interactively",
    )
    chat.add_argument(
        "--continue", dest="continue_", action="store_true", help="pick up the latest session"
    )
    chat.add_argument("--session", metavar="ID", help="continue this session")
    chat.set_defaults(handler=_cmd_chat)


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


def check_request(request: str) -> None:
    """Refuse an empty or blank request: there is nothing to do.

    Raises:
        UserInputError: ``request`` holds nothing but white space.
    """
    from oic_ai.stores.errors import UserInputError

    if not request.strip():
        raise UserInputError(
            "the request is empty", fix='say what you want, e.g. oic-ai generate "add htop"'
        )


def check_session_id(session: str | None) -> None:
    """Refuse ``--session ""``: an empty id must not quietly start a new session.

    Raises:
        UserInputError: ``session`` is given but blank.
    """
    from oic_ai.stores.errors import UserInputError

    if session is not None and not session.strip():
        raise UserInputError(
            "--session is empty",
            fix="give a session id (see 'oic-ai sessions list'), or leave --session out",
        )


def _pick_session(agent: Any, args: argparse.Namespace, err: Any) -> str | None:
    from oic_ai.services.sessions import pick_session

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
    from oic_ai.render_agent import describe_provider, model_call_logger, step_printer

    verbose = getattr(args, "verbose", False)
    quiet = getattr(args, "quiet", False) or (getattr(args, "json", False) and not verbose)
    if verbose:
        err.print(f"[dim]{describe_provider(settings)}[/]")
        return step_printer(err, timings=True), [model_call_logger(err)]
    if not quiet and sys.stderr.isatty():
        return step_printer(err, timings=False), None
    return None, None


def _cmd_generate(args: argparse.Namespace) -> int:
    from oic_ai.render_agent import terminal_spinner

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
    from oic_ai.cli_remote import open_agent
    from oic_ai.render_agent import console, print_turn
    from oic_ai.services.library import output_path

    check_request(args.request)
    check_session_id(args.session)
    settings = settings_from(args)
    target = output_path(args.output, settings) if args.output else None
    if target is not None:
        from oic_ai.stores.template_output import check_target

        check_target(target, force=args.force)  # before the turn, not after it
    err = console(stderr=True) if spinner is None else spinner.out
    progress, callbacks = _turn_display(args, err, settings)
    if spinner is not None:
        progress = spinner.on_step(progress)
        callbacks = [*(callbacks or []), spinner.model_calls()]
    with open_agent(settings, args) as agent:
        session = _pick_session(agent, args, err)
        result = agent.generate(
            args.request, session=session, on_step=progress, callbacks=callbacks
        )
    if spinner is not None:
        spinner.stop()
    written = None
    if target is not None and result.ok and result.template:
        from oic_ai.stores.template_output import write_template

        write_template(target, result.template, force=args.force)
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
            from oic_ai.render import terminal_text

            # exact into a pipe or file; on a terminal, shown rather than acted on
            tty = sys.stdout.isatty()
            sys.stdout.write(terminal_text(result.template) if tty else result.template)
    return EXIT_OK if result.ok else EXIT_INVALID


_HELP = """commands: /save FILE [--force]  /undo  /diff  /sources  /explain  /quit
anything else is a request ("add docker", "make the disk 16GiB", "what packages are included?")"""


def _cmd_chat(args: argparse.Namespace) -> int:
    from oic_ai.cli_remote import open_agent
    from oic_ai.render_agent import (
        console,
        describe_provider,
        model_call_logger,
        print_diff,
        print_turn,
        step_printer,
        terminal_spinner,
    )
    from oic_ai.stores.errors import UserInputError

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
    with open_agent(settings, args) as agent:
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
        import readline
    except ImportError:  # pragma: no cover - Python without GNU readline or libedit
        return
    import atexit
    from pathlib import Path

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
    from oic_ai.services.library import output_path
    from oic_ai.stores.errors import UserInputError
    from oic_ai.stores.template_output import write_template

    parts = rest.split()
    force = "--force" in parts
    names = [p for p in parts if p != "--force"]
    if not names:
        raise UserInputError("/save needs a file name", fix="e.g. /save edge-gw")
    template = agent.current_template(session) if session else None
    if not template:
        raise UserInputError("there is no template to save yet", fix="make a request first")
    path = output_path(names[0], agent.settings)
    write_template(path, template, force=force)
    out.print(f"wrote {path}")
