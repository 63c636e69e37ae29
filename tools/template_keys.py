"""What template mappings hold, in the order templates write them, and arch-bound values.

Shared by the plan applier and the deterministic fixer; no YAML library is imported.
"""

from __future__ import annotations

PASSWORD_PLACEHOLDER = "<PASSWORD_HASH>"
PUBLIC_KEY_PLACEHOLDER = "<PUBLIC_KEY_URL>"
SECURE_BOOT_PATHS = {
    "secureBootDBKey": "${SB_KEYS}/db.key",
    "secureBootDBCrt": "${SB_KEYS}/db.crt",
    "secureBootDBCer": "${SB_KEYS}/db.cer",
}

# Root partition type names and GPT type GUIDs (Discoverable Partitions Specification).
ROOT_TYPE_FOR_ARCH = {
    "x86_64": "linux-root-amd64",
    "aarch64": "linux-root-arm64",
    "armv7hl": "linux-root-arm",
}
ROOT_GUID_FOR_ARCH = {
    "x86_64": "4f68bce3-e8cd-4db1-96e7-fbcaf984b709",
    "aarch64": "b921b045-1df0-41c3-af44-4c6f280d3fae",
    "armv7hl": "69dad710-2ce4-4e3c-b16c-21a1d49abed3",
}
ROOT_TYPES = {
    "linux-root-amd64": "x86_64",
    "linux-root-x86-64": "x86_64",
    "linux-root-arm64": "aarch64",
    "linux-root-arm": "armv7hl",
}
ROOT_GUIDS = {guid: arch for arch, guid in ROOT_GUID_FOR_ARCH.items()}

ARTIFACT_TYPES = ("raw", "qcow2", "vhd", "vhdx", "vmdk", "vdi")
COMPRESSIONS = ("gz", "gzip", "xz", "zstd", "bz2")
_DEB_FAMILY = frozenset({"ubuntu", "debian", "wind-river-elxr"})
_RPM_FAMILY = frozenset({"azure-linux", "edge-microvisor-toolkit", "redhat-compatible-distro"})

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
    if os_name in _DEB_FAMILY:
        return "deb"
    if os_name in _RPM_FAMILY:
        return "rpm"
    return None
