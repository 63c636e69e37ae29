"""What the browser page shows of a template beyond the CLI's shapes: its summary.

``POST /api/v1/summary`` answers with a structured view of a template (target, disk
layout, packages, users, repositories) for the page's Summary and Packages tabs, and the
``packages sync`` command for its target, with the composer's providerconfig file where
the composer's own config is found (``config_dir`` in it, then
``osv/<os>/<dist>/providerconfigs/``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oic_ai.stores.errors import UserInputError

PROVIDERCONFIG_PLACEHOLDER = "PROVIDERCONFIG"


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(value: Any) -> str | None:
    return None if value is None or isinstance(value, dict | list) else str(value)


def _partitions(disk: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each partition with its place in MiB (``end_mib`` None: to the end of the disk)."""
    from oic_ai.stores.disk_units import parse_size

    rows: list[dict[str, Any]] = []
    for index, part in enumerate(_list(disk.get("partitions"))):
        part = _mapping(part)
        start = parse_size(part.get("start"))
        end = parse_size(part.get("end"))
        rows.append(
            {
                "id": _text(part.get("id")) or f"#{index + 1}",
                "type": _text(part.get("type")),
                "fs": _text(part.get("fsType")),
                "mount": _text(part.get("mountPoint")),
                "start": _text(part.get("start")),
                "end": _text(part.get("end")),
                "start_mib": None if start is None else start / 2**20,
                "end_mib": None if not end else end / 2**20,
            }
        )
    return rows


def composer_config_dir(environ: Mapping[str, str]) -> tuple[Path | None, Path | None]:
    """The composer's config file and its ``config_dir`` (relative to the file's folder).

    Returns ``(None, None)`` when no composer config is found, and ``(file, None)`` when it
    cannot be read.
    """
    import yaml

    from oic_ai.stores.settings import composer_config_path

    found = composer_config_path(environ)
    if found is None:
        return None, None
    found = found.absolute()
    try:
        data = yaml.safe_load(found.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return found, None
    folder = str(_mapping(data).get("config_dir") or ".config")
    path = Path(folder).expanduser()
    return found, path if path.is_absolute() else found.parent / path


def providerconfig_for(
    os_name: str, dist: str, arch: str, environ: Mapping[str, str]
) -> tuple[Path | None, Path | None]:
    """The composer's providerconfig for a target, and the composer config it came from."""
    from oic_ai.stores.package_repos import find_providerconfigs

    config, root = composer_config_dir(environ)
    if root is None or not (os_name and dist):
        return None, config
    folder = root / "osv" / os_name / dist / "providerconfigs"
    if not folder.is_dir():
        return None, config
    try:
        picks = find_providerconfigs(folder, None, dist, arch or None)
    except UserInputError:
        return None, config
    return (picks[0].path if picks else None), config


def sync_advice(target: Mapping[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    """The ``packages sync`` command for a target, with its providerconfig where known."""
    os_name = str(target.get("os") or "")
    dist = str(target.get("dist") or "")
    arch = str(target.get("arch") or "")
    path, config = providerconfig_for(os_name, dist, arch, environ)
    repo = str(path) if path else PROVIDERCONFIG_PLACEHOLDER
    command = f"oic-ai packages sync --repo-config {repo}"
    if dist:
        command += f" --dist {dist}"
    if arch:
        command += f" --arch {arch}"
    if path:
        note = f"the composer's providerconfig for {dist}/{arch} (from {config})"
    elif config:
        note = (
            f"no providerconfig for {dist or 'this target'} under the composer's config_dir "
            f"(from {config}); pass the file from config/osv/<os>/<dist>/providerconfigs/"
        )
    else:
        note = (
            "the composer's config was not found; pass its "
            "config/osv/<os>/<dist>/providerconfigs/<arch>_repo.yml"
        )
    return {
        "providerconfig": str(path) if path else None,
        "composer_config": str(config) if config else None,
        "command": command,
        "note": note,
    }


def template_summary(text: str, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A structured view of a template: target, disk, packages, users, repositories.

    Raises:
        UserInputError: the text is not a YAML mapping.
    """
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        raise UserInputError(
            "the template is not valid YAML", fix="correct it in the editor"
        ) from None
    if not isinstance(data, Mapping):
        raise UserInputError("the template is not a YAML mapping", fix="start from a template")
    target = _mapping(data.get("target"))
    disk = _mapping(data.get("disk"))
    system = _mapping(data.get("systemConfig"))
    kernel = _mapping(system.get("kernel"))
    packages = [str(p) for p in _list(system.get("packages")) if _text(p)]
    kernel_packages = [str(p) for p in _list(kernel.get("packages")) if _text(p)]
    users = [
        {
            "name": _text(_mapping(u).get("name")),
            "sudo": bool(_mapping(u).get("sudo")),
            "groups": [str(g) for g in _list(_mapping(u).get("groups"))],
        }
        for u in _list(system.get("users"))
    ]
    repositories = [
        {
            "codename": _text(_mapping(r).get("codename")),
            "url": _text(_mapping(r).get("url") or _mapping(r).get("path")),
        }
        for r in _list(data.get("packageRepositories"))
    ]
    from oic_ai.stores.disk_units import parse_size

    size = parse_size(disk.get("size"))
    target_row = {
        "os": _text(target.get("os")),
        "dist": _text(target.get("dist")),
        "arch": _text(target.get("arch")),
        "image_type": _text(target.get("imageType")),
    }
    return {
        "name": _text(_mapping(data.get("image")).get("name")),
        "description": _text(_mapping(data.get("metadata")).get("description"))
        or _text(system.get("description")),
        "target": target_row,
        "hostname": _text(system.get("hostname")),
        "disk": {
            "size": _text(disk.get("size")),
            "size_mib": None if size is None else size / 2**20,
            "partition_table": _text(disk.get("partitionTableType")),
            "partitions": _partitions(disk),
        },
        "packages": packages,
        "kernel_packages": kernel_packages,
        "users": users,
        "repositories": repositories,
        "sync": sync_advice(target_row, os.environ if environ is None else environ),
    }
