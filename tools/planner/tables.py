"""Markdown tables pasted into a request, read row by row as "key: value".

People paste a requirements table from a wiki or a change ticket:

    | # | Requirement | Value    | Owner |
    |---|-------------|----------|-------|
    | 4 | Hostname    | gw-01    | infra |

Each row says one field (the key column) and what it should be (the value column); a
row number, an owner, a status or a date says who and when, not what. :func:`read_tables`
writes each row as the line the rules read ("Hostname: gw-01") and leaves out the header,
the rule of dashes and the columns of who and when. A table with no value column (a
partition layout, "| mount | size | fs |") is left as written for the rules that read it.
"""

from __future__ import annotations

import re

# a row of cells between bars, and the row of dashes under a header
_ROW = re.compile(r"^[ \t]*\|(?P<cells>.*)\|[ \t]*$")
_RULE = re.compile(r"^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*(?::?-{3,}:?[ \t]*)?$")

# headers of the column that names the field
_KEY_HEADERS = frozenset(
    "item items requirement requirements setting settings field fields key keys parameter "
    "parameters property properties attribute attributes option options category aspect "
    "component what config configuration name".split()
)
# headers of the column that says what the field should be
_VALUE_HEADERS = frozenset(
    "value values setting choice spec specification specs detail details target wanted "
    "desired expected required answer selection decision".split()
)
# headers of columns that say who, when or where it is tracked: never a request
_WHO_AND_WHEN = frozenset(
    "# no no. nr number id ref owner owners assignee assigned responsible team who by status "
    "state priority prio due date deadline updated approved approver reviewer sprint ticket "
    "jira link source done".split()
)


def _cells(line: str) -> list[str] | None:
    match = _ROW.match(line)
    if match is None or _RULE.match(line):
        return None
    return [cell.strip() for cell in match.group("cells").split("|")]


def _header_word(cell: str) -> str:
    return " ".join(re.sub(r"[^\w#. ]+", " ", cell.lower()).split())


def _columns(header: list[str]) -> tuple[int, int, list[int]] | None:
    """The key column, the value column and the other columns kept, or None."""
    words = [_header_word(cell) for cell in header]
    values = [i for i, word in enumerate(words) if word in _VALUE_HEADERS]
    if not values:
        return None
    value = values[-1] if len(values) > 1 and words[values[0]] == "setting" else values[0]
    keys = [i for i, word in enumerate(words) if word in _KEY_HEADERS and i != value]
    if keys:
        key = keys[0]
    else:
        # no header names it: the first column before the value that is no who or when
        before = [i for i in range(value) if words[i] not in _WHO_AND_WHEN]
        if not before:
            return None
        key = before[0]
    others = [
        i for i, word in enumerate(words) if i not in (key, value) and word not in _WHO_AND_WHEN
    ]
    return key, value, others


def read_tables(text: str) -> tuple[str, list[str]]:
    """Rewrite each pasted key-and-value table in ``text`` as "key: value" lines.

    Returns:
        The rewritten text, and one notice per table rewritten.
    """
    if "|" not in text:
        return text, []
    lines = text.split("\n")
    notices: list[str] = []
    index = 0
    while index + 1 < len(lines):
        header = _cells(lines[index])
        if header is None or not _RULE.match(lines[index + 1]):
            index += 1
            continue
        columns = _columns(header)
        end = index + 2
        while end < len(lines) and _cells(lines[end]) is not None:
            end += 1
        if columns is None or end == index + 2:
            index = end
            continue
        key, value, others = columns
        said = []
        for line in lines[index + 2 : end]:
            cells = _cells(line) or []
            if max(key, value) >= len(cells) or not cells[key] or not cells[value]:
                said.append(line)  # a row of another shape: left as written
                continue
            asides = [cells[i] for i in others if i < len(cells) and cells[i]]
            aside = f" ({'; '.join(asides)})" if asides else ""
            said.append(f"{cells[key]}: {cells[value]}{aside}")
        left_out = [
            header[i] for i in range(len(header)) if i not in (key, value, *others) and header[i]
        ]
        notice = f"read the pasted table by its {header[key]} and {header[value]} columns"
        if left_out:
            notice += f" ({', '.join(left_out)} left out: who and when, not what)"
        notices.append(notice)
        lines[index:end] = said
        index += len(said)
    return "\n".join(lines), notices


# a table row of column names, with the row of dashes under it: "| mount | size | fs |"
_TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
_TABLE_RULE = re.compile(r"^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*(?::?-{3,}:?[ \t]*)?$")


def table_header(original: str, at: int) -> bool:
    """True when ``at`` is on a table's header row (a row of dashes follows it)."""
    start = original.rfind("\n", 0, at) + 1
    end = original.find("\n", at)
    end = len(original) if end < 0 else end
    after = original.find("\n", end + 1)
    below = original[end + 1 : len(original) if after < 0 else after]
    return bool(_TABLE_ROW.match(original[start:end]) and _TABLE_RULE.match(below))
