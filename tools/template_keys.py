"""What template mappings hold, in the order templates write them, and arch-bound values.

Shared by the plan applier and the deterministic fixer.
Target facts (root partition types, families) come from :mod:`oic_ai.stores.targets`.
"""

from __future__ import annotations

from oic_ai.stores.targets import load_targets

PASSWORD_PLACEHOLDER = "<PASSWORD_HASH>"
PUBLIC_KEY_PLACEHOLDER = "<PUBLIC_KEY_URL>"
SECURE_BOOT_PATHS = {
    "secureBootDBKey": "${SB_KEYS}/db.key",
    "secureBootDBCrt": "${SB_KEYS}/db.crt",
    "secureBootDBCer": "${SB_KEYS}/db.cer",
}

# Root partition type names and GPT type GUIDs, from the target registry
# (oic_ai.stores.targets); new code should ask the registry directly.
ROOT_TYPE_FOR_ARCH: dict[str, str] = {
    name: arch.root.type for name, arch in load_targets().arches.items()
}
ROOT_GUID_FOR_ARCH: dict[str, str] = {
    name: arch.root.guid for name, arch in load_targets().arches.items()
}
ROOT_TYPES: dict[str, str] = load_targets().root_types()
ROOT_GUIDS: dict[str, str] = load_targets().root_guids()

ARTIFACT_TYPES = ("raw", "qcow2", "vhd", "vhdx", "vmdk", "vdi")
COMPRESSIONS = ("gz", "gzip", "xz", "zstd", "bz2")

# Known keys per mapping, in the order templates write them. "[]" marks list items.
KEY_ORDER: dict[str, tuple[str, ...]] = {
    "": ("metadata", "image", "target", "disk", "systemConfig", "packageRepositories"),
    "metadata": ("description", "use_cases", "keywords"),
    "image": ("name", "version"),
    "target": ("os", "dist", "arch", "imageType"),
    "disk": ("name", "path", "artifacts", "size", "partitionTableType", "partitions"),
    "disk.partitions[]": (
        "id",
        "index",
        "name",
        "type",
        "typeUUID",
        "fsType",
        "fsLabel",
        "start",
        "end",
        "mountPoint",
        "mountOptions",
        "flags",
    ),
    "disk.artifacts[]": ("type", "compression"),
    "systemConfig": (
        "name",
        "description",
        "hostname",
        "initramfs",
        "immutability",
        "users",
        "bootloader",
        "packages",
        "kernel",
        "additionalFiles",
        "configurations",
    ),
    "systemConfig.immutability": ("enabled", *SECURE_BOOT_PATHS),
    "systemConfig.users[]": (
        "name",
        "password",
        "hash_algo",
        "passwordMaxAge",
        "groups",
        "sudo",
        "home",
        "shell",
        "startupScript",
    ),
    "systemConfig.bootloader": ("bootType", "provider"),
    "systemConfig.kernel": (
        "name",
        "version",
        "cmdline",
        "enableExtraModules",
        "uki",
        "packages",
    ),
    "packageRepositories[]": (
        "codename",
        "url",
        "path",
        "pkey",
        "pkeys",
        "component",
        "priority",
        "allowPackages",
    ),
}


def os_family(os_name: object) -> str | None:
    """Return ``"deb"`` or ``"rpm"`` for a ``target.os``, or None when it is unknown."""
    return load_targets().os_family(os_name)
