"""Help text: commands in groups, two or three real examples per command, and defaults.

The examples live here, one table for the whole command line, and are attached to the
parsers after every command is registered, so ``oic-ai X --help`` always ends with them.
"""

from __future__ import annotations

import argparse
from typing import Any

# `oic-ai --help` lists the commands in these groups, in this order.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("write", ("generate", "chat", "ai", "validate")),
    ("build", ("build", "verify")),
    ("library", ("search", "index", "cache", "eval")),
    ("packages", ("packages",)),
    ("sessions", ("sessions",)),
    ("serve", ("serve", "users")),
    ("setup", ("config", "completion")),
)

# Each command (a line of its own), then its examples (indented), in the order shown.
_EXAMPLES_TABLE = """
validate
    oic-ai validate image-templates/
    oic-ai validate my-image.yml --json
    oic-ai validate my-image.yml --schema os-image-template.schema.json
build
    sudo -E oic-ai build my-image.yml --boot
    sudo -E oic-ai build --continue --composer ./image-composer-tool --json
    sudo -E oic-ai build --session 3f2a --composer-config ~/ict/config.yml
verify
    oic-ai verify my-image-13.0.raw.gz --template my-image.yml
    oic-ai verify my-image-13.0.raw --template my-image.yml --json
index
    oic-ai index
    oic-ai index --templates-dir ./my-templates
search
    oic-ai search "cloud elxr raw image"
    oic-ai search "image with nginx and docker-ce" --top-k 3 --json
    oic-ai search "minimal edge" --dist ubuntu24 --arch aarch64
cache
    oic-ai cache stats
    oic-ai cache clear
eval
    oic-ai eval retrieval
    oic-ai eval retrieval --queries my-queries.yaml --json
eval retrieval
    oic-ai eval retrieval
    oic-ai eval retrieval --queries my-queries.yaml --json
generate
    oic-ai generate "a minimal Ubuntu 24.04 edge image for arm64 with docker"
    oic-ai generate --continue "make the disk 32GiB" --output edge-gw
    oic-ai generate --provider ollama "an azure linux 3 pxe image" > pxe.yml
chat
    oic-ai chat
    oic-ai chat --continue
    oic-ai chat --provider openai -v
ai
    oic-ai ai "a minimal edge image for elxr"
    oic-ai ai "image with nginx and docker-ce" --search-only
    oic-ai ai "add htop" --continue --output edge.yml
packages
    oic-ai packages sync --repo-config config/osv/
    oic-ai packages check image-templates/
    oic-ai packages status
packages sync
    oic-ai packages sync --repo-config config/osv/ubuntu/ubuntu24/providerconfigs/
    oic-ai packages sync --index Packages.gz --dist ubuntu24 --arch x86_64
    oic-ai packages sync --template my-image.yml
packages check
    oic-ai packages check my-image.yml
    oic-ai packages check image-templates/ --json
packages status
    oic-ai packages status
    oic-ai packages status --dist azl3 --json
sessions
    oic-ai sessions list
    oic-ai sessions replay 3f2a
    oic-ai sessions prune --older-than 30d
sessions list
    oic-ai sessions list
    oic-ai sessions list --limit 5 --json
sessions show
    oic-ai sessions show 3f2a
    oic-ai sessions show 3f2a --json
sessions replay
    oic-ai sessions replay 3f2a
    oic-ai sessions replay 3f2a --no-diff
sessions fork
    oic-ai sessions fork 3f2a --turn 1
    oic-ai sessions fork 3f2a --turn 2 --json
sessions rerun
    oic-ai sessions rerun 3f2a --provider builtin
    oic-ai sessions rerun 3f2a --provider ollama --json
sessions delete
    oic-ai sessions delete 3f2a7c1e-0b9d-4f7e-9c43-5d2e8a1b6f00
    oic-ai sessions delete 3f2a --yes
sessions prune
    oic-ai sessions prune --older-than 30d --dry-run
    oic-ai sessions prune --older-than 2w
sessions repair
    oic-ai sessions repair
    oic-ai sessions repair --json
sessions migrate
    oic-ai sessions migrate --to postgresql://oic@db/oic
    oic-ai sessions migrate --to postgresql://oic@db/oic --json
serve
    oic-ai serve
    oic-ai serve --host 0.0.0.0 --port 8123 --no-browser
users
    oic-ai users add alice
    oic-ai users list
    oic-ai users remove alice
users add
    oic-ai users add alice
    oic-ai users add ci-bot --json
users list
    oic-ai users list
    oic-ai users list --json
users remove
    oic-ai users remove alice
    oic-ai users remove ci-bot --json
config
    oic-ai config show
    oic-ai config show --json
config show
    oic-ai config show
    oic-ai config show --json
completion
    source <(oic-ai completion bash)
    oic-ai completion fish > oic-ai.fish
"""


def _examples(table: str) -> dict[str, tuple[str, ...]]:
    """``{command: examples}`` from :data:`_EXAMPLES_TABLE`."""
    found: dict[str, list[str]] = {}
    command = ""
    for line in table.strip().splitlines():
        if line.startswith(" "):
            found[command].append(line.strip())
        else:
            command = line.strip()
            found[command] = []
    return {name: tuple(examples) for name, examples in found.items()}


EXAMPLES: dict[str, tuple[str, ...]] = _examples(_EXAMPLES_TABLE)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples' line breaks, and adds ``(default: X)`` where a default is set."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "%(default)" in text
            or "default" in text
            or f"({default})" in text
            or default in (None, False, argparse.SUPPRESS)
            or not action.option_strings
        ):
            return text
        return f"{text} (default: %(default)s)"


def _subparsers(
    parser: argparse.ArgumentParser,
) -> argparse._SubParsersAction[argparse.ArgumentParser] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def attach_help(parser: argparse.ArgumentParser, path: str = "") -> None:
    """Give every command its examples and the defaults formatter, recursively."""
    sub = _subparsers(parser)
    if sub is None:
        return
    for name, child in sub.choices.items():
        here = f"{path} {name}".strip()
        child.formatter_class = HelpFormatter
        examples = EXAMPLES.get(here)
        if examples and "examples:" not in (child.epilog or ""):
            lines = "\n".join(f"  {example}" for example in examples)
            child.epilog = ((child.epilog or "").rstrip() + "\n\n" if child.epilog else "") + (
                f"examples:\n{lines}"
            )
        attach_help(child, here)


def grouped_commands(parser: argparse.ArgumentParser) -> str:
    """The top-level help's command list, in :data:`GROUPS` (others under "other")."""
    sub = _subparsers(parser)
    if sub is None:
        return ""
    helps = {choice.dest: choice.help or "" for choice in sub._choices_actions}
    width = max(len(name) for name in helps) + 2
    seen: set[str] = set()
    blocks = []
    for title, names in GROUPS:
        present = [n for n in names if n in helps]
        seen.update(present)
        if present:
            rows = "\n".join(f"  {n:<{width}}{helps[n]}" for n in present)
            blocks.append(f"{title}:\n{rows}")
    rest = [n for n in helps if n not in seen]
    if rest:
        blocks.append("other:\n" + "\n".join(f"  {n:<{width}}{helps[n]}" for n in rest))
    return "\n\n".join(blocks)


def finish_top_level(parser: argparse.ArgumentParser, commands: Any) -> None:
    """Show the commands in groups, and list them once (not also as a positional)."""
    commands.help = argparse.SUPPRESS
    parser.usage = "oic-ai [OPTIONS] COMMAND [ARGS...]"
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        grouped_commands(parser)
        + "\n\nshared options (--config, --data-dir, --templates-dir, --chroma-url,\n"
        "--provider, --json) work before or after the command.\n"
        "'oic-ai COMMAND --help' shows a command's options, defaults and examples."
    )
    attach_help(parser)
