"""Debian and RPM version comparison, and matching a version pinned onto a package name.

- :func:`deb_compare` follows dpkg (``epoch:upstream-revision``; ``~`` sorts before
  everything, even the end of the string; letters before other symbols; digit runs
  compare as numbers).
- :func:`rpm_compare` follows rpm's ``rpmvercmp`` over ``epoch:version-release``
  (alphanumeric segments, ``~`` before anything, ``^`` after the base version but
  before any further segment).
- :func:`pin_matches` decides whether an index version satisfies a pin written in a
  template (``docker-ce=5:27.1.1-1``, ``kernel-6.17.11``, ``nginx>=1.24``): it compares
  versions, never string prefixes, so ``1.2`` does not match ``1.20``.

Pure functions, no imports beyond the standard library: cheap to load anywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "Pin",
    "compare",
    "deb_compare",
    "parse_pin",
    "pin_matches",
    "rpm_compare",
]

_DIGITS = frozenset("0123456789")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


# --- Debian ----------------------------------------------------------------------------


def _deb_order(char: str) -> int:
    """The weight dpkg gives one non-digit character (the end of the string is 0)."""
    if not char or char in _DIGITS:
        return 0
    if char in _LETTERS:
        return ord(char)
    if char == "~":
        return -1
    return ord(char) + 256


def _deb_part(a: str, b: str) -> int:
    """Dpkg's ``verrevcmp``: compare two upstream versions or two revisions."""
    i = j = 0
    while i < len(a) or j < len(b):
        while (i < len(a) and a[i] not in _DIGITS) or (j < len(b) and b[j] not in _DIGITS):
            ac = _deb_order(a[i] if i < len(a) else "")
            bc = _deb_order(b[j] if j < len(b) else "")
            if ac != bc:
                return _sign(ac - bc)
            i += 1
            j += 1
        while i < len(a) and a[i] == "0":
            i += 1
        while j < len(b) and b[j] == "0":
            j += 1
        first_diff = 0
        while i < len(a) and a[i] in _DIGITS and j < len(b) and b[j] in _DIGITS:
            if not first_diff:
                first_diff = ord(a[i]) - ord(b[j])
            i += 1
            j += 1
        if i < len(a) and a[i] in _DIGITS:
            return 1
        if j < len(b) and b[j] in _DIGITS:
            return -1
        if first_diff:
            return _sign(first_diff)
    return 0


@dataclass(frozen=True)
class _Evr:
    epoch: int
    version: str
    release: str | None  # None: no revision/release was written


def _split_evr(text: str) -> _Evr:
    """Split ``[epoch:]version[-release]``; the release starts at the last hyphen."""
    text = text.strip()
    epoch = 0
    head, colon, rest = text.partition(":")
    if colon and head.isdigit():
        epoch, text = int(head), rest
    version, hyphen, release = text.rpartition("-")
    if not hyphen:
        return _Evr(epoch, text, None)
    return _Evr(epoch, version, release)


def deb_compare(a: str, b: str) -> int:
    """Compare two Debian versions the way ``dpkg --compare-versions`` does.

    Returns:
        -1, 0 or 1 as ``a`` sorts before, equal to or after ``b``.
    """
    x, y = _split_evr(a), _split_evr(b)
    if x.epoch != y.epoch:
        return _sign(x.epoch - y.epoch)
    return _deb_part(x.version, y.version) or _deb_part(x.release or "", y.release or "")


# --- RPM -------------------------------------------------------------------------------


def _rpm_alnum(char: str) -> bool:
    return char in _DIGITS or char in _LETTERS


def _rpm_mark_order(ca: str, cb: str) -> int:
    """How two characters sort where one is a tilde or a caret: -1, 1, or 0 when both are it.

    A tilde sorts before everything, even the end; a caret after the end, before anything else.
    """
    mark = "~" if "~" in (ca, cb) else "^"
    if mark == "^" and not (ca and cb):
        return -1 if not ca else 1
    if ca == cb:
        return 0
    return -1 if ca == mark else 1


def rpm_vercmp(a: str, b: str) -> int:
    """Compare two version (or two release) strings: -1, 0 or 1."""
    if a == b:
        return 0
    i = j = 0
    while i < len(a) or j < len(b):
        while i < len(a) and not _rpm_alnum(a[i]) and a[i] not in "~^":
            i += 1
        while j < len(b) and not _rpm_alnum(b[j]) and b[j] not in "~^":
            j += 1
        ca = a[i] if i < len(a) else ""
        cb = b[j] if j < len(b) else ""
        if "~" in (ca, cb) or "^" in (ca, cb):
            order = _rpm_mark_order(ca, cb)
            if order:
                return order
            i += 1
            j += 1
            continue
        if not (ca and cb):
            break
        numeric = ca in _DIGITS
        kind = _DIGITS if numeric else _LETTERS
        start_a, start_b = i, j
        while i < len(a) and a[i] in kind:
            i += 1
        while j < len(b) and b[j] in kind:
            j += 1
        seg_a, seg_b = a[start_a:i], b[start_b:j]
        if not seg_b:  # different kinds of segment: a number beats letters
            return 1 if numeric else -1
        if numeric:
            seg_a, seg_b = seg_a.lstrip("0"), seg_b.lstrip("0")
            if len(seg_a) != len(seg_b):
                return 1 if len(seg_a) > len(seg_b) else -1
        if seg_a != seg_b:
            return 1 if seg_a > seg_b else -1
    rest_a, rest_b = i < len(a), j < len(b)
    if not rest_a and not rest_b:
        return 0
    return 1 if rest_a else -1


def rpm_compare(a: str, b: str) -> int:
    """Compare two RPM ``[epoch:]version[-release]`` strings.

    The release is compared only when both sides have one (as rpm does when one side
    names no release).

    Returns:
        -1, 0 or 1.
    """
    x, y = _split_evr(a), _split_evr(b)
    if x.epoch != y.epoch:
        return _sign(x.epoch - y.epoch)
    result = rpm_vercmp(x.version, y.version)
    if result or x.release is None or y.release is None:
        return result
    return rpm_vercmp(x.release, y.release)


def compare(a: str, b: str, family: str) -> int:
    """Compare two versions of a ``deb`` or ``rpm`` family: -1, 0 or 1."""
    return rpm_compare(a, b) if family == "rpm" else deb_compare(a, b)


# --- pins --------------------------------------------------------------------------------

_OPERATORS = ("==", ">=", "<=", "!=", "<<", ">>", "=", ">", "<")
_OPERATOR_TEXT = "|".join(re.escape(op) for op in _OPERATORS)
_PIN_FORMS = (
    # nginx (>= 1.24)
    re.compile(
        rf"^(?P<name>[^\s<>=!()]+)\s*\(\s*(?P<op>{_OPERATOR_TEXT})\s*(?P<version>[^\s)]+)\s*\)$"
    ),
    # docker-ce=5:27.1.1-1, nginx>=1.24, nginx >= 1.24
    re.compile(rf"^(?P<name>[^\s<>=!()]+)\s*(?P<op>{_OPERATOR_TEXT})\s*(?P<version>\S+)$"),
)


@dataclass(frozen=True)
class Pin:
    """A package name with a version constraint.

    Attributes:
        name: The package name.
        op: ``=``, ``!=``, ``<``, ``<=``, ``>`` or ``>=`` (Debian's ``<<``/``>>`` are
            read as ``<``/``>``, ``==`` as ``=``).
        version: The version written.
    """

    name: str
    op: str
    version: str


def parse_pin(text: str) -> Pin | None:
    """Read ``name=version``, ``name>=version`` or ``name (>= version)``; None otherwise.

    The composer's ``name-version`` form is ambiguous on its own (``gcc-14-base`` is a
    name): callers that have an index try each split with :func:`pin_matches`.
    """
    text = text.strip()
    for form in _PIN_FORMS:
        match = form.match(text)
        if match:
            op = {"==": "=", "<<": "<", ">>": ">"}.get(match["op"], match["op"])
            return Pin(match["name"], op, match["version"])
    return None


def _truncated(candidate: str, parts: int) -> str:
    """The first ``parts`` dot-separated components of a version."""
    return ".".join(candidate.split(".")[:parts])


def _equal_to_pin(pin: str, candidate: str, family: str) -> bool:
    """True when ``candidate`` is the version ``pin`` names.

    A pin without an epoch ignores the candidate's epoch; a pin without a revision
    (release) matches any revision; a pin with fewer dot components than the candidate
    matches the candidate's leading components (``2025.2`` matches ``2025.2.0`` but
    ``1.2`` never matches ``1.20``), each compared as a version.
    """
    want, have = _split_evr(pin), _split_evr(candidate)
    has_epoch = ":" in pin and pin.split(":", 1)[0].isdigit()
    if has_epoch and want.epoch != have.epoch:
        return False
    compare_part = rpm_vercmp if family == "rpm" else _deb_part
    upstream_equal = compare_part(want.version, have.version) == 0 or (
        want.version.count(".") < have.version.count(".")
        and compare_part(want.version, _truncated(have.version, want.version.count(".") + 1)) == 0
    )
    if not upstream_equal:
        return False
    if want.release is None:
        return True
    return compare_part(want.release, have.release or "") == 0


def pin_matches(op: str, pin: str, candidate: str, family: str) -> bool:
    """Whether an index version ``candidate`` satisfies ``op pin`` for a package family.

    Args:
        op: ``=`` (a pinned version, see :func:`_equal_to_pin`), ``!=``, ``<``, ``<=``,
            ``>``, ``>=``.
        pin: The version written in the template.
        candidate: A version from the index (``5:27.1.1-1``, ``6.17.11-1.emt3``).
        family: ``deb`` or ``rpm``.
    """
    if op in ("=", "=="):
        return _equal_to_pin(pin, candidate, family)
    if op == "!=":
        return not _equal_to_pin(pin, candidate, family)
    if ":" not in pin:  # a pin without an epoch compares within the candidate's epoch
        candidate = candidate.split(":", 1)[1] if ":" in candidate else candidate
    order = compare(candidate, pin, family)
    return {
        "<": order < 0,
        "<<": order < 0,
        "<=": order <= 0,
        ">": order > 0,
        ">>": order > 0,
        ">=": order >= 0,
    }.get(op, False)
