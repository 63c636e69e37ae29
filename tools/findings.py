"""The finding record every check produces, and how paths are written."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning"]
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


@dataclass(frozen=True)
class Finding:
    """One problem in a template: where it is, what it is, and a stable code."""

    path: str
    line: int | None
    message: str
    code: str
    severity: Severity = "error"
    column: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the shape DESIGN.md promises: path, line, message, code."""
        out: dict[str, Any] = {
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "code": self.code,
        }
        if self.column is not None:
            out["column"] = self.column
        return out


def json_path(parts: Sequence[str | int]) -> str:
    """Write a path like ``$.systemConfig.packages[3]``."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_KEY.match(part):
            out += f".{part}"
        else:
            out += f"[{part!r}]"
    return out
