"""Read a YAML data file of the kind shipped in ``stores/data`` (or a test's stand-in)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any


def load_mapping(path: Path) -> Mapping[str, Any]:
    """The mapping the YAML file ``path`` holds, read with libyaml's safe loader if built.

    Raises:
        ValueError: The file holds something other than a mapping.
    """
    import yaml  # deferred: importing the modules that ship data must stay free

    with path.open(encoding="utf-8") as handle:
        data = yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506
    if not isinstance(data, Mapping):
        raise ValueError(f"{path} must hold a mapping")
    return data
