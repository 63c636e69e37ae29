"""The domain facts the operation handlers need: per-arch words, codenames, field patterns.

Kept together, as they are, so the target registry in ``stores/`` can replace them in
one place.
"""

from __future__ import annotations

import re

CONSOLE_FOR_ARCH = {"x86_64": "ttyS", "aarch64": "ttyAMA"}
# Words in names and package names that carry the architecture, per arch.
ARCH_NAME_WORDS = {"x86_64": ("x86_64", "amd64"), "aarch64": ("aarch64", "arm64")}
ARCH_PACKAGE_WORDS = {"x86_64": ("amd64", "x64"), "aarch64": ("arm64", "aa64")}
DEB_CODENAMES = {"ubuntu24": "noble", "debian13": "trixie"}
DEFAULT_RAW_SIZE = "8GiB"
ESP_END = "513MiB"

HOSTNAME = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"
)
IMAGE_NAME = re.compile(r"^[a-zA-Z0-9]([a-zA-Z0-9\-_]*[a-zA-Z0-9])?$")
IMAGE_VERSION = re.compile(
    r"^[0-9]+(\.([0-9]+|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)){0,2}(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$"
)
USER_NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
PACKAGE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9+_.:~*?\[\]-]*$")
