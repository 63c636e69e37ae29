"""Handlers for the system: hostname, kernel, bootloader, immutability and users."""

from __future__ import annotations

from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from oic_ai.stores.targets import load_targets
from oic_ai.tools.applier.comments import append, remove
from oic_ai.tools.applier.editor import AlreadySo, Editor, Skip
from oic_ai.tools.applier.yaml_values import flow, scalar, show
from oic_ai.tools.edit_plan import AddUser, SetBootloader, SetHostname, SetImmutability, SetKernel
from oic_ai.tools.template_keys import PASSWORD_PLACEHOLDER, SECURE_BOOT_PATHS


def set_hostname(ed: Editor, op: SetHostname) -> None:
    """SetHostname: set the system hostname."""
    hostname = op.hostname.strip()
    if not load_targets().pattern("hostname").match(hostname):
        raise Skip(f"{hostname!r} is not a valid hostname")
    system = ed.section("systemConfig")
    old = ed.set_key(system, "hostname", hostname, "systemConfig")
    if old == hostname:
        raise AlreadySo("the hostname is already set to that")
    ed.applied.append(f"hostname {show(old) if old is not None else 'unset'} -> {hostname}")


def set_kernel(ed: Editor, op: SetKernel) -> None:
    """SetKernel: set the kernel version and/or command line."""
    if op.version is None and op.cmdline is None and not op.append_cmdline:
        raise Skip("nothing to set")
    system = ed.section("systemConfig")
    kernel = ed.mapping(system, "kernel", "systemConfig")
    changes: list[str] = []
    if op.version is not None:
        version = op.version.strip()
        old = ed.set_key(kernel, "version", version, "systemConfig.kernel", quoted=True)
        if old != version:
            changes.append(f"version {show(old) if old is not None else 'unset'} -> {version}")
    if op.cmdline is not None:
        cmdline = " ".join(op.cmdline.split())
        old = ed.set_key(kernel, "cmdline", cmdline, "systemConfig.kernel", quoted=True)
        if old != cmdline:
            changes.append(f'cmdline -> "{cmdline}"')
    if op.append_cmdline:
        current = kernel.get("cmdline")
        args = str(current).split() if isinstance(current, str) else []
        added: list[str] = []
        for raw in op.append_cmdline:
            for arg in raw.split():
                key = arg.split("=", 1)[0]
                if arg in args:
                    continue
                same_key = [
                    i for i, a in enumerate(args) if "=" in arg and a.split("=", 1)[0] == key
                ]
                if same_key and key != "console":
                    old_arg = args[same_key[-1]]
                    args[same_key[-1]] = arg
                    added.append(f"{old_arg} -> {arg}")
                else:
                    args.append(arg)
                    added.append(arg)
        if added:
            ed.set_key(kernel, "cmdline", " ".join(args), "systemConfig.kernel", quoted=True)
            changes.append("cmdline " + ", ".join(added))
    if not changes:
        raise AlreadySo("the kernel already has those settings")
    ed.applied.append("kernel " + "; ".join(changes))


def set_bootloader(ed: Editor, op: SetBootloader) -> None:
    """SetBootloader: set the bootloader."""
    if op.provider is None and op.boot_type is None:
        raise Skip("nothing to set")
    system = ed.section("systemConfig")
    current = system.get("bootloader")
    current_type = current.get("bootType") if isinstance(current, CommentedMap) else None
    current_provider = current.get("provider") if isinstance(current, CommentedMap) else None
    boot_type = op.boot_type or current_type
    provider = op.provider or current_provider
    if provider == "systemd-boot" and boot_type == "legacy":
        raise Skip("systemd-boot only boots with efi")
    bootloader = ed.mapping(system, "bootloader", "systemConfig")
    changes: list[str] = []
    if op.boot_type is not None:
        ed.update(
            bootloader, "bootType", op.boot_type, "systemConfig.bootloader", changes, unset=True
        )
    if op.provider is not None:
        ed.update(
            bootloader, "provider", op.provider, "systemConfig.bootloader", changes, unset=True
        )
    if not changes:
        raise AlreadySo("the bootloader is already set that way")
    ed.applied.append("bootloader " + ", ".join(changes))


def set_immutability(ed: Editor, op: SetImmutability) -> None:
    """SetImmutability: turn immutability (dm-verity root) and secure boot on or off."""
    if op.secure_boot and not op.enabled:
        raise Skip("secure boot keys need immutability enabled")
    system = ed.section("systemConfig")
    node = ed.mapping(system, "immutability", "systemConfig")
    changes: list[str] = []
    old = ed.set_key(node, "enabled", op.enabled, "systemConfig.immutability")
    if old is not op.enabled:
        changes.append(f"immutability {'enabled' if op.enabled else 'disabled'}")
    has_keys = [k for k in SECURE_BOOT_PATHS if k in node]
    if op.secure_boot or (op.secure_boot is None and op.enabled and has_keys):
        added = [key for key in SECURE_BOOT_PATHS if key not in node]
        for key in added:
            path = SECURE_BOOT_PATHS[key]
            ed.set_key(node, key, path, "systemConfig.immutability", quoted=True)
            changes.append(f"{key} {path}")
        if added:
            ed.warnings.append(
                "secure boot: point SB_KEYS at a directory holding your db.key, db.crt and "
                "db.cer when you build; never commit the keys"
            )
    elif has_keys and (op.secure_boot is False or not op.enabled):
        for key in has_keys:
            remove(node, key)
        changes.append("removed the secure boot keys")
    if not changes:
        raise AlreadySo("immutability is already set that way")
    ed.applied.append("; ".join(changes))


def add_user(ed: Editor, op: AddUser) -> None:
    """AddUser: add a user. Never carries a password: the applier writes a placeholder and warns."""
    name = op.name.strip()
    if not load_targets().pattern("user_name").match(name):
        raise Skip(f"user name {name!r} must be lower-case letters, digits, '_' or '-'")
    system = ed.section("systemConfig")
    existing = system.get("users")
    if isinstance(existing, list) and any(
        isinstance(u, dict) and u.get("name") == name for u in existing
    ):
        raise Skip(f"user {name} already exists")
    groups = list(dict.fromkeys(g.strip() for g in op.groups if g.strip()))
    if op.sudo and not groups:
        family = ed.family()
        groups = ["sudo"] if family == "deb" else ["wheel"]
    users = ed.sequence(system, "users", "systemConfig")
    user = CommentedMap()
    user["name"] = name
    user["password"] = DoubleQuotedScalarString(PASSWORD_PLACEHOLDER)
    # without hash_algo the composer would take a pasted crypt hash for the password itself
    user["hash_algo"] = "sha512"
    if groups:
        user["groups"] = flow(scalar(g) for g in groups)
    if op.sudo:
        user["sudo"] = True
    if op.shell:
        user["shell"] = scalar(op.shell.strip())
    append(users, user)
    extra = f" in groups {', '.join(groups)}" if groups else ""
    ed.applied.append(f"added user {name}{extra}{' with sudo' if op.sudo else ''}")
    ed.warnings.append(
        f"user {name} has the placeholder password {PASSWORD_PLACEHOLDER}: replace it with a "
        "crypt hash (openssl passwd -6) or remove it and provide an SSH key at deploy time"
    )
