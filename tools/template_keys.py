"""What template mappings hold, in the order templates write them, and placeholder values.

Shared by the plan applier and the deterministic fixer. Target facts (root partition
types, families) are the target registry's (:mod:`oic_ai.stores.targets`).
"""

from __future__ import annotations

PASSWORD_PLACEHOLDER = "<PASSWORD_HASH>"
PUBLIC_KEY_PLACEHOLDER = "<PUBLIC_KEY_URL>"
SECURE_BOOT_PATHS = {
    "secureBootDBKey": "${SB_KEYS}/db.key",
    "secureBootDBCrt": "${SB_KEYS}/db.crt",
    "secureBootDBCer": "${SB_KEYS}/db.cer",
}

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
