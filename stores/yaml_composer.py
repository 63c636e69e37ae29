"""Read YAML scalars the way the composer does (Go's gopkg.in/yaml.v3), not as PyYAML does.

PyYAML follows YAML 1.1: ``yes``, ``no``, ``on`` and ``off`` are booleans, ``1:20`` is
the sexagesimal 80, ``017`` is octal, ``1e3`` is a string and ``2024-01-01`` is a date.
The composer loads a template with yaml.v3 into generic data, turns it into JSON and
checks that against its schema, so a template means what yaml.v3 reads: ``yes`` is the
string "yes" (and fails a boolean field), ``1e3`` is the number 1000, ``0o17`` and ``017``
are 15, ``08`` is the number 8, a timestamp is a time that JSON writes as RFC 3339, and
``!!binary`` is the decoded string. :class:`ComposerLoader` resolves plain scalars with
yaml.v3's rules (its ``resolve.go``) and builds them as yaml.v3 does, so the validator
judges the same values the composer judges.
"""

from __future__ import annotations

import base64
import math
import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import yaml

_Base: type[yaml.SafeLoader]
try:  # the C loader is ~10x faster; fall back quietly where libyaml is missing
    _Base = yaml.CSafeLoader  # type: ignore[assignment,unused-ignore]
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Base = yaml.SafeLoader

_TAG = "tag:yaml.org,2002:"
_WORDS: dict[str, str] = {
    **dict.fromkeys(("true", "True", "TRUE", "false", "False", "FALSE"), "bool"),
    **dict.fromkeys(("", "~", "null", "Null", "NULL"), "null"),
    **dict.fromkeys(
        (".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"), "float"
    ),
    **dict.fromkeys(("-.inf", "-.Inf", "-.INF"), "float"),
    "<<": "merge",
}
_SPECIAL_FLOATS = {
    ".nan": math.nan,
    ".inf": math.inf,
    "+.inf": math.inf,
    "-.inf": -math.inf,
}
_YAML_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_GO_FLOAT = re.compile(r"^[-+]?(?:[0-9]*\.?[0-9]+|[0-9]+\.)(?:[eE][-+]?[0-9]+)?$")
_TIMESTAMP = re.compile(
    r"^(?P<y>[0-9]{4})-(?P<m>[0-9]{1,2})-(?P<d>[0-9]{1,2})"
    r"(?:(?P<sep>[Tt ])(?P<H>[0-9]{1,2}):(?P<M>[0-9]{1,2}):(?P<S>[0-9]{1,2})"
    r"(?:\.(?P<frac>[0-9]+))?(?P<tz>Z|[-+][0-9]{2}:[0-9]{2})?)?$"
)
_INT64 = (-(2**63), 2**63 - 1)
_UINT64 = 2**64 - 1


def go_int(text: str) -> int | None:
    """Go's ``strconv.ParseInt(text, 0, 64)``, then ``ParseUint``: the int, or None.

    Base prefixes ``0x``, ``0o``, ``0b`` and a bare leading ``0`` (octal) are read as Go
    reads them; the value must fit in int64 (or, without a sign, uint64).
    """
    body = text
    sign = 1
    if body[:1] in "+-":
        sign = -1 if body[0] == "-" else 1
        body = body[1:]
    if not body:
        return None
    lowered = body.lower()
    base, digits = 10, body
    if lowered.startswith("0x"):
        base, digits = 16, body[2:]
    elif lowered.startswith("0o"):
        base, digits = 8, body[2:]
    elif lowered.startswith("0b"):
        base, digits = 2, body[2:]
    elif len(body) > 1 and body[0] == "0":
        base, digits = 8, body[1:]
    allowed = "0123456789abcdef"[:base]
    if not digits or any(c not in allowed for c in digits.lower()):
        return None
    value = sign * int(digits, base)
    if _INT64[0] <= value <= _INT64[1]:
        return value
    if text[:1] not in "+-" and value <= _UINT64:
        return value
    return None


def resolve_plain(value: str) -> str:
    """The tag yaml.v3 gives a plain (unquoted, untagged) scalar: bool, null, int, ..."""
    if value in _WORDS:
        return _WORDS[value]
    hint = value[:1]
    if hint == ".":
        return "float" if _GO_FLOAT.match(value) else "str"
    if hint and (hint.isdigit() and hint.isascii() or hint in "+-"):
        if _timestamp(value) is not None:
            return "timestamp"
        plain = value.replace("_", "")
        if go_int(plain) is not None:
            return "int"
        if _YAML_FLOAT.match(plain):
            return "float"
    return "str"


def _timestamp(value: str) -> datetime | None:
    """yaml.v3's timestamp formats (RFC 3339 with short fields, space-separated, date)."""
    match = _TIMESTAMP.match(value)
    if match is None:
        return None
    parts = match.groupdict()
    if parts["sep"] == " " and parts["tz"]:
        return None  # "2006-1-2 15:4:5" takes no zone
    if parts["sep"] in ("T", "t") and not parts["tz"]:
        return None  # the RFC 3339 forms need one
    try:
        zone = UTC
        if parts["tz"] and parts["tz"] != "Z":
            sign = -1 if parts["tz"][0] == "-" else 1
            hours, minutes = int(parts["tz"][1:3]), int(parts["tz"][4:6])
            zone = timezone(sign * timedelta(hours=hours, minutes=minutes))
        frac = (parts["frac"] or "")[:6].ljust(6, "0")
        return datetime(
            int(parts["y"]),
            int(parts["m"]),
            int(parts["d"]),
            int(parts["H"] or 0),
            int(parts["M"] or 0),
            int(parts["S"] or 0),
            int(frac),
            tzinfo=zone,
        )
    except ValueError:
        return None


def _go_time_json(moment: datetime) -> str:
    """How Go's ``json.Marshal`` writes a ``time.Time`` (RFC 3339, trailing zeros cut)."""
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if moment.microsecond:
        text += "." + f"{moment.microsecond:06d}".rstrip("0")
    offset = moment.utcoffset() or timedelta(0)
    if not offset:
        return text + "Z"
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{text}{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


class ComposerLoader(_Base):  # type: ignore[misc,valid-type]
    """A safe loader that reads scalars as the composer's yaml.v3 does."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        """The tag of a node: yaml.v3's rules for plain scalars, PyYAML's otherwise."""
        if kind is yaml.ScalarNode and implicit[0]:
            return _TAG + resolve_plain(value)
        return super().resolve(kind, value, implicit)

    def construct_go_int(self, node: yaml.ScalarNode) -> int:
        """An int as Go parses it (underscores dropped, ``017`` octal)."""
        text = str(self.construct_scalar(node))
        value = go_int(text.replace("_", ""))
        if value is None:
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot decode {text!r} as an int", node.start_mark
            )
        return value

    def construct_go_float(self, node: yaml.ScalarNode) -> float:
        """A float as Go parses it (``1e3``, ``.5``, ``.inf``, a too large int)."""
        text = str(self.construct_scalar(node))
        special = _SPECIAL_FLOATS.get(text.lower())
        if special is not None:
            return special
        try:
            return float(text.replace("_", "") if text[:1] != "." else text)
        except ValueError:
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot decode {text!r} as a float", node.start_mark
            ) from None

    def construct_go_bool(self, node: yaml.ScalarNode) -> bool:
        """``true``/``false`` in any of yaml.v3's three spellings."""
        text = str(self.construct_scalar(node))
        if text.lower() not in ("true", "false"):
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot decode {text!r} as a bool", node.start_mark
            )
        return text.lower() == "true"

    def construct_go_timestamp(self, node: yaml.ScalarNode) -> str:
        """A timestamp as the JSON string the composer's schema sees."""
        text = str(self.construct_scalar(node))
        moment = _timestamp(text)
        if moment is None:
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot decode {text!r} as a timestamp", node.start_mark
            )
        return _go_time_json(moment)

    def construct_go_binary(self, node: yaml.ScalarNode) -> str:
        """``!!binary``: the decoded bytes as a string (invalid UTF-8 kept as escapes)."""
        text = str(self.construct_scalar(node))
        try:
            data = base64.b64decode("".join(text.split()), validate=True)
        except ValueError:
            raise yaml.constructor.ConstructorError(
                None, None, "!!binary value contains invalid base64 data", node.start_mark
            ) from None
        return data.decode("utf-8", "surrogateescape")


ComposerLoader.add_constructor(_TAG + "int", ComposerLoader.construct_go_int)
ComposerLoader.add_constructor(_TAG + "float", ComposerLoader.construct_go_float)
ComposerLoader.add_constructor(_TAG + "bool", ComposerLoader.construct_go_bool)
ComposerLoader.add_constructor(_TAG + "timestamp", ComposerLoader.construct_go_timestamp)
ComposerLoader.add_constructor(_TAG + "binary", ComposerLoader.construct_go_binary)
