"""Read the JSON in a model's reply the way a careful person would, never crashing.

Models wrap JSON in prose and fences, write two objects in a row, leave trailing commas,
emit lone UTF-16 surrogates (an escaped ``d83d`` alone) and, when they loop, nest brackets
a thousand deep. :func:`read_json` finds every JSON value in a reply, reads trailing commas
leniently, replaces invalid text with U+FFFD, and turns nesting too deep to read into a
reason, not a ``RecursionError``. Everything it had to do is said in :attr:`JsonValues.notes`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

MAX_DEPTH = 32  # a plan is 4 levels deep; a set value a few more
_START = re.compile(r"[\[{]")
_SURROGATE = re.compile("[\ud800-\udfff]")
# a JSON string, or a comma before a closing bracket (group 1 keeps the bracket)
_TRAILING = re.compile(r'"(?:[^"\\]|\\.)*"|,(\s*[}\]])', re.DOTALL)
_RUN = re.compile(r"[\[{\s]+")


class TooDeep(ValueError):
    """A value nests deeper than :data:`MAX_DEPTH` levels."""


@dataclass
class JsonValues:
    """What :func:`read_json` found.

    Attributes:
        values: Every JSON object and array in the reply, in order.
        notes: Lenient readings made (trailing commas, invalid text replaced), in words.
        too_deep: Some bracketed text nested too deep to read; its reason, else "".
        replaced: Invalid characters replaced inside the values' strings.
    """

    values: list[Any] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    too_deep: str = ""
    replaced: int = 0


def valid_text(text: str) -> tuple[str, int]:
    """``text`` with every lone surrogate replaced by U+FFFD, and how many there were."""
    if not _SURROGATE.search(text):
        return text, 0
    return _SURROGATE.subn("\ufffd", text)


def without_trailing_commas(text: str) -> tuple[str, int]:
    """``text`` without commas right before ``]`` or ``}`` outside strings, and the count."""
    count = 0

    def keep(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(1) is None:
            return match.group(0)
        count += 1
        return match.group(1)

    return _TRAILING.sub(keep, text), count


def _scan(text: str, found: JsonValues) -> None:
    decoder = json.JSONDecoder()
    index = 0
    while True:
        match = _START.search(text, index)
        if match is None:
            return
        start = match.start()
        try:
            value, end = decoder.raw_decode(text, start)
        except RecursionError:
            found.too_deep = "the reply nests brackets too deep to read"
            run = _RUN.match(text, start)
            index = run.end() if run else start + 1
            continue
        except ValueError:
            index = start + 1
            continue
        try:
            cleaned, replaced = clean_counted(value)
            found.values.append(cleaned)
            found.replaced += replaced
        except TooDeep as exc:
            found.too_deep = str(exc)
        index = end


def read_json(text: str) -> JsonValues:
    """Every JSON object and array in ``text``, read leniently (see the module doc)."""
    found = JsonValues()
    _scan(text, found)
    if not any(isinstance(v, dict) and "operations" in v for v in found.values):
        repaired, commas = without_trailing_commas(text)
        if commas:
            again = JsonValues()
            _scan(repaired, again)
            if _weight(again.values) > _weight(found.values):
                again.notes.append(f"read {commas} trailing comma(s) leniently")
                found = again
    return found


def _weight(values: list[Any]) -> int:
    """How much of a plan ``values`` hold: whole plans first, then top-level values."""
    plans = sum(isinstance(v, dict) and "operations" in v for v in values)
    return plans * 1_000_000 + sum(len(json.dumps(v)) for v in values[:50])


def clean(value: Any) -> Any:
    """``value`` with invalid text replaced in every string (keys too).

    Raises:
        TooDeep: ``value`` nests deeper than :data:`MAX_DEPTH` levels.
    """
    return clean_counted(value)[0]


def clean_counted(value: Any) -> tuple[Any, int]:
    """:func:`clean`, and how many characters it replaced."""
    count = [0]
    return _clean(value, 0, count), count[0]


def _text(text: str, count: list[int]) -> str:
    fixed, replaced = valid_text(text)
    count[0] += replaced
    return fixed


def _clean(value: Any, depth: int, count: list[int]) -> Any:
    if depth > MAX_DEPTH:
        raise TooDeep(f"the reply nests values more than {MAX_DEPTH} levels deep")
    if isinstance(value, str):
        return _text(value, count)
    if isinstance(value, list):
        return [_clean(item, depth + 1, count) for item in value]
    if isinstance(value, dict):
        return {_text(str(k), count): _clean(v, depth + 1, count) for k, v in value.items()}
    return value
