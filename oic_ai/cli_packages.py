"""``oic-ai packages sync|check``: argument parsing only; handlers import lazily."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def add_packages_commands(commands: Any, common: Callable[..., argparse.ArgumentParser]) -> None:
    """Register ``packages`` and its subcommands on the ``oic-ai`` parser.

    Args:
        commands: The subparsers action of the top-level parser.
        common: Factory for the shared ``--config/--data-dir/...`` parent parser.
    """
    return None
