"""Template fragments pasted into a request, read as what they say.

People paste a piece of a template ("target:" with its keys, "kernel:" with a
"cmdline:", a "users:" list) and expect it applied. :func:`read_pasted` finds each run of
YAML-shaped lines whose top key is a template field, parses it, and writes it as the plain
request the rules read ("kernel cmdline: console=ttyS0,115200", "add user deploy with
sudo in groups adm"). A run that does not parse, or names no field this module knows, is
left as written (the leftovers report it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml

# a line of a YAML mapping or list: "key: value", "key:", "- name: x", "  - htop"
_LINE = re.compile(r"^[ \t]*(?:-[ \t]+)?(?:[A-Za-z_][\w.-]*[ \t]*:(?:[ \t].*)?|-[ \t]*\S.*)$")
_TOP = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)[ \t]*:")


def _words(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, (str, int, float)) and str(v).strip()]
    if isinstance(value, str):
        return [w for w in re.split(r"[\s,]+", value) if w]
    return []


def _target(value: Any) -> list[str]:
    if not isinstance(value, dict):
        return []
    said = [str(value[k]) for k in ("dist", "arch", "imageType") if value.get(k)]
    if not value.get("dist") and value.get("os"):
        said.insert(0, str(value["os"]))
    return [" ".join(said)] if said else []


def _kernel(value: Any) -> list[str]:
    if not isinstance(value, dict):
        return []
    said = []
    if value.get("version"):
        said.append(f"kernel {value['version']}")
    if isinstance(value.get("cmdline"), str) and value["cmdline"].strip():
        said.append(f"kernel cmdline: {' '.join(value['cmdline'].split())}")
    return said


def _users(value: Any) -> list[str]:
    said = []
    for user in value if isinstance(value, list) else []:
        if not isinstance(user, dict) or not isinstance(user.get("name"), str):
            continue
        words = [f"add a user {user['name']}"]
        if user.get("sudo") is True:
            words.append("with sudo")
        elif user.get("sudo") is False:
            words.append("without sudo")
        groups = _words(user.get("groups"))
        if groups:
            words.append(f"in the groups {', '.join(groups)}")
        if isinstance(user.get("shell"), str):
            words.append(f"with shell {user['shell']}")
        said.append(" ".join(words))
    return said


def _packages(value: Any) -> list[str]:
    names = _words(value)
    return [f"add the packages {', '.join(names)}"] if names else []


def _hostname(value: Any) -> list[str]:
    return [f"hostname {value}"] if isinstance(value, str) and value.strip() else []


def _disk(value: Any) -> list[str]:
    if isinstance(value, dict) and isinstance(value.get("size"), (str, int)):
        return [f"disk size {value['size']}"]
    return []


_FIELDS: dict[str, Callable[[Any], list[str]]] = {
    "target": _target,
    "kernel": _kernel,
    "users": _users,
    "packages": _packages,
    "hostname": _hostname,
    "disk": _disk,
}


def _render(data: dict[str, Any]) -> list[str] | None:
    """The plain request for a parsed fragment, or None when a key is not understood."""
    inner = data.get("systemConfig")
    if isinstance(inner, dict):
        data = {**{k: v for k, v in data.items() if k != "systemConfig"}, **inner}
    said: list[str] = []
    for key, value in data.items():
        reader = _FIELDS.get(str(key))
        if reader is None:
            return None
        found = reader(value)
        if not found:
            return None
        said += found
    return said or None


def _runs(lines: list[str]) -> list[tuple[int, int]]:
    """``(first, end)`` line ranges that look like a YAML mapping with a template key."""
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(lines):
        top = _TOP.match(lines[index])
        if top is None or top.group("key") not in (*_FIELDS, "systemConfig"):
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end][:1] in (" ", "\t", "-") and _LINE.match(lines[end]):
            end += 1
        if end > index + 1 or lines[index].split(":", 1)[1].strip():
            runs.append((index, end))
        index = end
    return runs


def read_pasted(text: str) -> tuple[str, list[str]]:
    """Rewrite each pasted template fragment in ``text`` as a plain request.

    Returns:
        The rewritten text, and one notice per fragment ("read the pasted 'users:' as
        'add a user deploy with sudo in the groups adm'").
    """
    if "\n" not in text or ":" not in text:
        return text, []
    lines = text.split("\n")
    notices: list[str] = []
    for first, end in reversed(_runs(lines)):
        try:
            data = yaml.safe_load("\n".join(lines[first:end]))
        except yaml.YAMLError:
            continue
        if not isinstance(data, dict):
            continue
        said = _render(data)
        if said is None:
            continue
        sentence = ". ".join(said) + "."
        key = _TOP.match(lines[first])
        notices.append(f"read the pasted '{key.group('key') if key else ''}:' as '{sentence}'")
        lines[first:end] = [sentence]
    return "\n".join(lines), list(reversed(notices))
