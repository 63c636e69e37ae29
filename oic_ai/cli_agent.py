"""``oic-ai generate`` and ``oic-ai chat``: argument parsing and output; the agent does the work."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from oic_ai.cli_common import (
    EXIT_INVALID,
    EXIT_OK,
    common_parser,
    print_json,
    server_parser,
    settings_from,
)


def add_agent_commands(commands: Any) -> None:
    """Register ``generate`` and ``chat`` on the top-level parser's ``commands``."""
    agent_flags = argparse.ArgumentParser(add_help=False)
    agent_flags.add_argument(
        "--provider",
        choices=("auto", "builtin", "ollama", "openai"),
        help="planner (env OIC_AI_PROVIDER; default auto)",
    )
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
        help="write the template (a bare name goes to image-templates/)",
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
    from oic_ai.graph.services.sessions import pick_session

    latest = bool(getattr(args, "continue_", False))
    session = pick_session(agent.sessions, agent.settings, getattr(args, "session", None), latest)
    if latest and session is None:
        err.print(
            f"no session was updated in the last {agent.settings.session_timeout}; "
            "starting a new one"
        )
    return session


def _cmd_generate(args: argparse.Namespace) -> int:
    from oic_ai.cli_remote import open_agent
    from oic_ai.graph.services.library import output_path
    from oic_ai.render_agent import console, describe_step, print_turn

    check_request(args.request)
    check_session_id(args.session)
    settings = settings_from(args)
    target = output_path(args.output, settings) if args.output else None
    if target is not None:
        from oic_ai.stores.template_output import check_target

        check_target(target, force=args.force)  # before the turn, not after it
    err = console(stderr=True)
    progress = None
    if not args.json and sys.stderr.isatty():

        def progress(node: str, update: dict[str, Any]) -> None:
            err.print(f"[dim]· {describe_step(node, update)}[/]")

    with open_agent(settings, args) as agent:
        session = _pick_session(agent, args, err)
        result = agent.generate(args.request, session=session, on_step=progress)
    written = None
    if target is not None and result.ok and result.template:
        from oic_ai.stores.template_output import write_template

        write_template(target, result.template, force=args.force)
        written = str(target)
    if args.json:
        print_json({**result.to_json(), "output": written})
    else:
        out = console(stderr=target is None)
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
    from oic_ai.render_agent import console, describe_step, print_diff, print_turn
    from oic_ai.stores.errors import UserInputError

    check_session_id(args.session)
    settings = settings_from(args)
    out = console()

    def progress(node: str, update: dict[str, Any]) -> None:
        out.print(f"[dim]· {describe_step(node, update)}[/]")

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
                            last = agent.generate(question, session=session, on_step=progress)
                            print_turn(out, last, show_diff=False)
                    elif command == "/help":
                        out.print(_HELP)
                    else:
                        out.print(f"unknown command {command}; /help lists them")
                    continue
                last = agent.generate(line, session=session, on_step=progress)
                session = last.session
                print_turn(out, last)
            except UserInputError as exc:
                out.print(f"[red]oic-ai: {exc}[/]")
        if session:
            out.print(f"session {session} saved; continue with: oic-ai chat --continue")
    return EXIT_OK


def _chat_save(agent: Any, session: str | None, rest: str, out: Any) -> None:
    from oic_ai.graph.services.library import output_path
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
