"""``oic-ai build`` and ``oic-ai verify``: call the build service, render its report.

The work is :mod:`oic_ai.services.build` (run the composer, read the image, compare,
boot), which imports the composer runner, the image readers and the agent inside the
functions that need them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from oic_ai.cli.common import EXIT_INVALID, EXIT_OK, emit, settings_from
from oic_ai.cli.render.build import print_build, print_verify
from oic_ai.cli.render.terminal import terminal_text
from oic_ai.services.build import BuildRequest, build_image, read_template_text, verify_image
from oic_ai.stores.errors import UserInputError


def verify(args: argparse.Namespace) -> int:
    """``oic-ai verify IMAGE --template FILE``: exit 1 when a row is unexplained."""
    text = read_template_text(Path(args.template))
    report = verify_image(Path(args.image), text)
    emit(args, report.to_json(), lambda: print_verify(report))
    return EXIT_OK if report.explained else EXIT_INVALID


def build(args: argparse.Namespace) -> int:
    """``oic-ai build [TEMPLATE | --session ID | --continue]``: build, verify, boot."""
    if args.template and (args.session or args.continue_):
        raise UserInputError(
            "give a template file or --session/--continue, not both", fix="drop one of them"
        )
    if not args.template and not args.session and not args.continue_:
        raise UserInputError(
            "nothing to build", fix="give a template file, --session ID or --continue"
        )

    def progress(line: str) -> None:
        if not args.json:
            print(f"build: {terminal_text(line)}", file=sys.stderr, flush=True)

    request = BuildRequest(
        template=Path(args.template) if args.template else None,
        session=args.session,
        latest=args.continue_,
        composer=args.composer,
        composer_config=Path(args.composer_config) if args.composer_config else None,
        boot=args.boot,
        boot_timeout=args.boot_timeout,
    )
    report = build_image(settings_from(args), request, progress)
    emit(args, report.to_json(), lambda: print_build(report))
    if not report.run.ok and not args.json:
        print(
            f"oic-ai: the composer failed: {terminal_text(report.run.last_error or '')}",
            file=sys.stderr,
        )
    return report.exit_code
