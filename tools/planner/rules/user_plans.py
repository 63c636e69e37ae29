"""What a user read from a request becomes in the plan: a new user or changes to one.

Split from :mod:`oic_ai.tools.planner.rules.users` (which reads the sentence): a user the
template has gets its groups, sudo and shell changed; a new one is added; a login shell
the image lacks is installed when its package is known.
"""

from __future__ import annotations

import re

from oic_ai.tools.edit_plan import AddUser, DeleteValue, SetValue
from oic_ai.tools.planner.rules.package_known import known
from oic_ai.tools.planner.state import PlanState


def a_package(state: PlanState, name: str) -> bool:
    """True when ``name`` is a package the index, the catalog or the library knows."""
    from oic_ai.tools.planner.rules.capability_words import real_names
    from oic_ai.tools.planner.state import family_of

    if state.packages is not None and state.packages.is_package(name):
        return True
    family = family_of(state.target.os, state.target.dist)
    if name in state.known_names() or bool(family) and name in real_names(family):
        return True
    return any(name in (c.name, *c.synonyms) for c in state.catalog.capabilities.values())


def install_shell(state: PlanState, shell: str, names: list[str]) -> None:
    """Install the package of a login shell the image does not have ("zsh as the shell").

    A user whose login shell is missing cannot log in. The package is named after the
    shell (zsh, fish, ksh, tcsh, mksh) in every family, and is added only when the
    index, the catalog or the library knows it: never invented.
    """
    package = shell.rsplit("/", 1)[-1]
    if package in ("sh", "bash", "dash", "nologin", "false") or not package:
        return  # every image has these
    if package in state.facts.packages or package in state.add:
        return
    if not (a_package(state, package) or known(state, package, as_written=False)):
        return  # (Debian's list of tools knows zsh where no template installs it)
    state.add.append(package)
    state.notes.append(f"added {package}: the login shell of {', '.join(names)}")


_SUDO_GROUPS = frozenset(("sudo", "wheel", "admin"))


def leave_groups(state: PlanState, name: str, groups: list[str]) -> None:
    """Take user ``name`` (one the template has) out of ``groups``; it keeps the others.

    Leaving the group that gives sudo (sudo, wheel, admin) takes sudo away too.
    """
    existing = next(u for u in state.facts.users if u.name == name)
    path = f"systemConfig.users[name={name}]"
    kept = [g for g in existing.groups if g not in groups]
    if kept == list(existing.groups):
        state.notes.append(f"user {name} is not in {', '.join(groups)}")
        return
    state.values.append(SetValue(path=f"{path}.groups", value=kept))
    if existing.sudo and _SUDO_GROUPS & set(groups) and not _SUDO_GROUPS & set(kept):
        state.values.append(SetValue(path=f"{path}.sudo", value=False))


_RENAMED = re.compile(r"systemConfig\.users\[name=(?P<old>[^\]]+)\]\.name")


def renamed_users(state: PlanState) -> dict[str, str]:
    """The users this request renames, new name to old ("rename ops to sre": sre -> ops)."""
    return {
        str(v.value): m["old"]
        for v in state.values
        if isinstance(v, SetValue) and (m := _RENAMED.fullmatch(v.path))
    }


def plan_user(
    state: PlanState,
    name: str,
    groups: list[str],
    sudo: bool | None,
    shell: str | None,
    leave: list[str] | None = None,
) -> None:
    """Plan user ``name``: add it, or change the groups, sudo and shell of the one there is.

    ``leave`` are groups the user must not be in ("but not in wheel"): they are taken
    out, and leaving the group that gives sudo takes sudo away unless sudo was asked for.
    """
    leave = leave or []
    groups = [g for g in groups if g not in leave]
    if sudo is None and _SUDO_GROUPS & set(leave):
        sudo = False
    # a user renamed earlier in the request is changed under its new name
    was = renamed_users(state).get(name, name)
    existing = next((u for u in state.facts.users if u.name == was), None)
    path = f"systemConfig.users[name={name}]"
    if any(isinstance(v, DeleteValue) and v.path == path for v in state.values):
        return  # "no sudo-capable 'service' account ... Remove it": removed, not changed
    if existing is None:
        planned = next((u for u in state.users if u.name == name), None)
        if planned is not None:
            planned.groups = [
                g for g in dict.fromkeys([*planned.groups, *groups]) if g not in leave
            ]
            planned.sudo = planned.sudo if sudo is None else sudo
            planned.shell = shell or planned.shell
            return
        state.users.append(AddUser(name=name, groups=groups, sudo=bool(sudo), shell=shell))
        return
    changed = False
    # groups an earlier sentence of this request already set start from there
    earlier = [v for v in state.values if isinstance(v, SetValue) and v.path == f"{path}.groups"]
    current = list(earlier[-1].value) if earlier else list(existing.groups)
    merged = [g for g in dict.fromkeys([*current, *groups]) if g not in leave]
    if sudo is False:
        # no sudo: not in the groups that give it either
        merged = [g for g in merged if g not in _SUDO_GROUPS or g in groups]
    if merged != current:
        state.values[:] = [v for v in state.values if v not in earlier]
        state.values.append(SetValue(path=f"{path}.groups", value=merged))
        changed = True
    if sudo is not None and sudo != existing.sudo:
        state.values.append(SetValue(path=f"{path}.sudo", value=sudo))
        changed = True
    if shell and shell != existing.shell:
        state.values.append(SetValue(path=f"{path}.shell", value=shell))
        changed = True
    if not changed:
        state.notes.append(f"user {name} already exists as asked")
