"""A list of users under its header, read as one line of users with their attributes.

A header "users:" over the lines "- admin (sudo, wheel)" and "- backup" is read as
"users: admin (sudo, wheel), backup".
The items may be bulleted ("-", "*", "•") or numbered ("1.", "2)", "(3)", "a)"), and an
item may set its name off from its attributes with a dash or a colon ("1. ops - sudo,
group dialout", "- svc-plc: no sudo, shell /sbin/nologin"): such an item is read as the
name with its attributes in parentheses ("ops (sudo, group dialout)"), the form the user
rule reads for one user at a time.
"""

from __future__ import annotations

import re

# an item's marker: a bullet, or a number or letter with its dot or parenthesis
_MARKER = r"(?:[-*\u2022]|\(?(?:\d{1,2}|[a-z])[.)])"
_USER_LIST = re.compile(
    r"^([ \t]*(?:users?|accounts?|logins?)"
    r"(?:[ \t]+(?:to\s+(?:add|create)|needed|wanted|required))?[ \t]*:)[ \t]*\n"
    rf"((?:[ \t]*{_MARKER}[ \t]+[^\n]+(?:\n|$))+)",
    re.IGNORECASE | re.MULTILINE,
)
_ITEM_MARKER = re.compile(rf"^\s*{_MARKER}\s+")
# a name set off from its attributes: "ops - sudo", "svc-plc: no sudo", "ops — sudo"
_NAME_AND_ATTRIBUTES = re.compile(
    r"^(?P<quote>[\"'`]?)(?P<name>[a-z_][a-z0-9_-]*)(?P=quote)"
    r"(?:[ \t]+[-\u2013\u2014]+[ \t]+|[ \t]*:[ \t]+)(?P<rest>[^()]+?)[ \t.;]*$",
    re.IGNORECASE,
)


# a field's label opening an item ("- name: azureuser", "- groups: [sudo]"): a pasted
# config's key, not a user's name
_LABELS = frozenset(
    "name names username user login groups group secondarygroups shell sudo password "
    "passwordhash uid gid home homedir".split()
)


def _item(line: str) -> str:
    item = _ITEM_MARKER.sub("", line).strip()
    said = _NAME_AND_ATTRIBUTES.match(item)
    if said is None or said["name"].lower() in _LABELS:
        return item
    return f"{said['quote']}{said['name']}{said['quote']} ({said['rest'].strip()})"


def _joined(match: re.Match[str]) -> str:
    items = [_item(line) for line in match[2].splitlines()]
    return f"{match[1]} {', '.join(i for i in items if i)}\n"


def join_user_lists(text: str) -> str:
    """``text`` with every list of users under its header on one line (module docstring)."""
    return _USER_LIST.sub(_joined, text)
