"""Sizes as people say them: "16 gig", "half a gig", "thirty-two GiB", "1.5 TB", "512 megs".

:func:`read_sizes` rewrites each size of a request into one canonical token (``16GiB``,
``512MiB``, ``1500GB``) before the rules read it, so every rule that takes a size reads
the same forms. GB and GiB keep their meaning exactly: ``GB``, ``MB``, ``TB`` and the
words "gigabytes", "megabytes", "terabytes" count in 1000s and stay decimal; ``GiB``,
``MiB``, ``TiB``, the informal "gig", "meg" and the bare letters (``16G``) count in 1024s,
as the library and the composer write sizes. A fraction of a unit is written in the next
smaller unit of the same kind (half a gig is ``512MiB``, 1.5 TB is ``1500GB``). Thousands
may be grouped with commas ("20,000 megs"); a comma before one or two digits is a
decimal comma ("1,5 TB").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

_UNITS: dict[str, tuple[str, int]] = {}
for _names, _unit, _factor in (
    ("tib tebibyte tebibytes t", "TiB", 1024**4),
    ("gib gibibyte gibibytes gig gigs g", "GiB", 1024**3),
    ("mib mebibyte mebibytes meg megs m", "MiB", 1024**2),
    ("kib kibibyte kibibytes k", "KiB", 1024),
    ("tb terabyte terabytes", "TB", 1000**4),
    ("gb gigabyte gigabytes", "GB", 1000**3),
    ("mb megabyte megabytes", "MB", 1000**2),
    ("kb kilobyte kilobytes", "KB", 1000),
):
    for _name in _names.split():
        _UNITS[_name] = (_unit, _factor)

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_NUMBER_WORDS = {word: n for n, word in enumerate(_ONES)} | {
    word: 20 + 10 * n for n, word in enumerate(_TENS)
}
_SMALL_NUMBER = rf"(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(_ONES[1:10])}))?|(?:{'|'.join(_ONES)})"
_WORD_NUMBER = rf"(?:{_SMALL_NUMBER})(?:\s+hundred(?:\s+(?:and\s+)?(?:\d+|{_SMALL_NUMBER}))?)?"
_FRACTION = (
    r"(?P<half>(?:a\s+|one\s+)?half(?:\s+(?:a|an|of\s+a|of\s+an))?)"
    r"|(?P<quarter>(?:a\s+|one\s+)?quarter(?:\s+(?:a|an|of\s+a|of\s+an))?)"
    r"|(?P<three_quarters>three\s+quarters\s+of\s+(?:a|an))"
)
_WORD_UNITS = "|".join(sorted((name for name in _UNITS if len(name) > 1), key=len, reverse=True))
_LETTER_UNITS = "|".join(name for name in _UNITS if len(name) == 1)
# "16G" only when the letter sticks to the digits; "a 2 m cable" is not a size. A value
# inside a ``key=value`` option ("cma=256M", "hugepagesz=1G") is the
# option's own text, never rewritten.
SIZE_PHRASE = re.compile(
    r"(?<![\w.+/=-])(?:"
    rf"(?P<digits>\d{{1,3}}(?:,\d{{3}})+(?![\d,])|\d{{1,7}}(?:[.,]\d{{1,3}})?)"
    r"(?:\s*(?P<and_half>and\s+a\s+half))?"
    r"(?:\s+(?P<more>more|extra|additional)(?=\s))?"
    rf"(?:\s*-?\s*(?P<unit>{_WORD_UNITS})|(?P<letter>{_LETTER_UNITS}))"
    rf"|(?:{_FRACTION})\s*(?P<funit>{_WORD_UNITS})"
    rf"|(?P<a>an?)\s+(?P<aunit>gig|meg)"
    rf"|(?P<words>{_WORD_NUMBER})(?:\s+(?P<words_half>and\s+a\s+half))?\s*[\s-]\s*"
    rf"(?P<wunit>{_WORD_UNITS})"
    r")(?![\w+-]|\.\w|/\w)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Size:
    """A size read from a request.

    Attributes:
        bytes: The exact number of bytes.
        text: How a template writes it: ``16GiB``, ``512MiB``, ``40GB``, ``1500GB``.
        decimal: True for GB, MB, TB and KB (counted in 1000s).
    """

    bytes: int
    text: str
    decimal: bool


def _words_value(words: str) -> int | None:
    total = 0
    parts = re.split(r"\s+hundred\s*(?:and\s+)?", words.lower().strip())
    if len(parts) == 2:
        head = _words_value(parts[0])
        tail = _words_value(parts[1]) if parts[1] else 0
        if head is None or tail is None:
            return None
        return head * 100 + tail
    for word in re.split(r"[\s-]+", words.lower()):
        if word.isdigit():
            total += int(word)
        elif word in _NUMBER_WORDS:
            total += _NUMBER_WORDS[word]
        else:
            return None
    return total


def write_size(number: Fraction, unit: str) -> Size | None:
    """The exact size of ``number`` ``unit``, written in the largest unit of its kind.

    Returns None for a size that is no whole number of bytes or is zero.
    """
    factor = _UNITS[unit.lower()][1]
    decimal = _UNITS[unit.lower()][0] in ("TB", "GB", "MB", "KB")
    exact = number * factor
    if exact.denominator != 1 or exact <= 0:
        return None
    size = int(exact)
    units = ("TB", "GB", "MB", "KB") if decimal else ("TiB", "GiB", "MiB", "KiB")
    for name in units:
        step = _UNITS[name.lower()][1]
        if size % step == 0:
            return Size(size, f"{size // step}{name}", decimal)
    return Size(size, f"{size}B", decimal)


def size_of(match: re.Match[str]) -> Size | None:
    """The size one :data:`SIZE_PHRASE` match names."""
    groups = match.groupdict()
    number: Fraction | None
    if groups["digits"]:
        digits = groups["digits"]
        # "20,000 megs": thousands; "1,5 TB": a decimal comma (never three digits after it)
        thousands = re.fullmatch(r"\d{1,3}(?:,\d{3})+", digits)
        number = Fraction(digits.replace(",", "") if thousands else digits.replace(",", "."))
        if groups["and_half"]:
            number += Fraction(1, 2)
        unit = groups["unit"] or groups["letter"]
    elif groups["funit"]:
        if groups["half"]:
            number = Fraction(1, 2)
        elif groups["quarter"]:
            number = Fraction(1, 4)
        else:
            number = Fraction(3, 4)
        unit = groups["funit"]
    elif groups["aunit"]:
        number, unit = Fraction(1), groups["aunit"]
    else:
        value = _words_value(groups["words"])
        number = None if value is None else Fraction(value)
        if number is not None and groups["words_half"]:
            number += Fraction(1, 2)
        unit = groups["wunit"]
    if number is None or unit is None:
        return None
    return write_size(number, unit)


# a mobile network's generation, not a size: "4G modem", "5G uplink", "the 4G/LTE router"
_GENERATION = re.compile(r"[2-6]\s?G", re.IGNORECASE)
_CELLULAR = re.compile(
    r"(?:\s*/\s*lte)?\s*(?:lte\s+)?(?:modems?|networks?|connectivity|connections?|uplinks?|"
    r"routers?|sims?|cellular|mobile|signal|coverage|card|dongles?|module)\b",
    re.IGNORECASE,
)


def _network_generation(text: str, match: re.Match[str]) -> bool:
    """True for "4G" before a modem or a network: "a 4G modem", "5G connectivity"."""
    return bool(_GENERATION.fullmatch(match.group().strip()) and _CELLULAR.match(text, match.end()))


def read_sizes(text: str) -> tuple[str, list[str]]:
    """Rewrite every size in ``text`` as its canonical token.

    Returns:
        The rewritten text, and one notice per size written informally ("read 'half a
        gig' as 512MiB"); a size only spaced or capitalised differently gets none.
    """
    notices: list[str] = []
    parts: list[str] = []
    last = 0
    for match in SIZE_PHRASE.finditer(text):
        size = size_of(match)
        if size is None or _network_generation(text, match):
            continue
        written = match.group()
        parts.append(text[last : match.start()])
        parts.append(f"{size.text} more" if match.group("more") else size.text)
        last = match.end()
        compact = re.sub(r"[\s-]+", "", written).lower().replace("more", "")
        if compact != size.text.lower():
            notices.append(f"read '{written}' as {size.text}")
    parts.append(text[last:])
    rewritten, corrected = _corrected_sizes("".join(parts))
    return rewritten, notices + corrected


# "a 1 GiB /opt partition ... no wait, make that 1.5 GiB": the later size replaces the
# size said last before it, in the same line, and the correction itself asks nothing more
_TOKEN = r"(?<![\w.])\d+(?:\.\d+)?(?:TiB|TB|GiB|GB|MiB|MB|KiB|KB|T|G|M|K)(?![\w])"
_CORRECTED = re.compile(
    rf"(?P<old>{_TOKEN})(?P<between>(?:(?!{_TOKEN})[^\n])*?)(?P<gap>[\s,;.]*)(?P<take>\b(?:no\s*,?\s*wait|wait\s*,?\s*no|"
    r"sorry|oops|correction|actually|i\s+mean)\s*[,:]?\s*(?:,\s*)?(?:make|change)\s+(?:that|it)\s+"
    rf"(?:to\s+|into\s+)?)(?P<new>{_TOKEN}|(?<![\w.])\d+(?:\.\d+)?(?![\w.]))(?P<end>\s*(?:instead|then)?)(?=$|[\s,;.!?)])",
    re.IGNORECASE,
)


def _corrected_sizes(text: str) -> tuple[str, list[str]]:
    notices: list[str] = []

    def fix(match: re.Match[str]) -> str:
        between, new = match.group("between"), match.group("new")
        said = f"{match.group('take')}{new}".strip()
        if new[-1].isdigit():  # "8 gig. no wait make it 12": the number keeps the unit
            new += re.sub(r"^[\d.]+", "", match.group("old"))
        notices.append(f"read '{said}' as correcting {match.group('old')} to {new}")
        stop = "." if "." in match.group("gap") else ""
        return f"{new}{between}{stop}"

    return _CORRECTED.sub(fix, text), notices


def parse_token(token: str) -> Size | None:
    """The size of one canonical token (``16GiB``, ``40GB``, ``16G``), or None."""
    match = SIZE_PHRASE.fullmatch(token.strip())
    return size_of(match) if match else None
