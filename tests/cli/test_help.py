"""Help: commands in groups, every command with real examples and its defaults."""

from __future__ import annotations

import argparse
import shlex

import pytest

from oic_ai.cli.help import EXAMPLES, GROUPS
from oic_ai.cli.parser import build_parser
from tests.support.cli import oic


def commands(parser: argparse.ArgumentParser, path: str = "") -> list[tuple[str, object]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                here = f"{path} {name}".strip()
                found.append((here, child))
                found += commands(child, here)
    return found


ALL = commands(build_parser())


@pytest.mark.parametrize("path", [path for path, _ in ALL])
def test_every_command_has_two_or_more_examples_that_parse(path: str) -> None:
    examples = EXAMPLES.get(path, ())
    assert len(examples) >= 2, f"'{path}' needs two or three examples in oic_ai/cli/help.py"
    for example in examples:
        example = example.removeprefix("sudo -E ")  # build needs root; the command is the same
        if not example.startswith("oic-ai ") or any(c in example for c in "<>|"):
            continue  # a shell line around the command (source <(...), > file)
        words = shlex.split(example)[1:]
        try:
            build_parser().parse_args(words)
        except SystemExit as exc:  # pragma: no cover - the failure message is the point
            pytest.fail(f"example does not parse: {example} ({exc})")


def test_help_shows_examples_and_defaults() -> None:
    text = oic("search", "--help").stdout
    assert "examples:\n  oic-ai search" in text
    assert "(default 5)" in text or "(default: 5)" in text
    sync = oic("packages", "sync", "--help").stdout
    assert "(default: 3)" in sync and "(default: 30.0)" in sync  # retries, timeout
    cache = oic("cache", "--help").stdout
    assert "stats: entries" in cache and "clear:" in cache
    assert "a name (edge-gw" in oic("generate", "--help").stdout  # -o takes a name or a path


def test_top_level_help_groups_every_command() -> None:
    text = oic("--help").stdout
    for title, _ in GROUPS:
        if title in ("serve",) and "\nserve:" not in text:
            continue  # the serve group appears once its commands exist
    top = [path for path, _ in ALL if " " not in path]
    grouped = {name for _, names in GROUPS for name in names}
    assert set(top) <= grouped, set(top) - grouped
    assert "other:" not in text
    assert text.index("write:") < text.index("library:") < text.index("sessions:")
