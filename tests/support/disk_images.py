"""Small real disk images for the verifier's tests, made without root.

A file system is made from a folder with ``mkfs.ext4 -d`` (or ``mkfs.fat``/``mkswap``),
the disk is partitioned with ``sfdisk`` on a plain file, and each file system is copied
to its partition's offset. No loop device, no mount, no root; each program is looked up
with :func:`tests.support.system.require_program` (a skip outside CI, a failure under
``CI=true``).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.system import require_program

MIB = 1024 * 1024
ESP = "c12a7328-f81f-11d2-ba4b-00a0c93ec93b"
LINUX = "0fc63daf-8483-4772-8e79-3d69d8477de4"
ROOT_X86_64 = "4f68bce3-e8cd-4db1-96e7-fbcaf984b709"


@dataclass
class Part:
    """One partition to make: its GPT name, place, type and what goes in it."""

    name: str
    start_mib: int
    size_mib: int | None  # None: the rest of the disk
    type: str
    fs: str | None = None  # ext4, fat32, swap or None
    files: dict[str, str | bytes] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    uuid: str | None = None  # the file system's UUID
    label: str | None = None  # the file system's label
    partuuid: str | None = None  # the GPT partition's UUID


def _tree(folder: Path, files: dict[str, str | bytes], links: dict[str, str]) -> None:
    folder.mkdir(parents=True)
    for path, content in files.items():
        target = folder / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    for path, points_to in links.items():
        link = folder / path.lstrip("/")
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(points_to)


def _filesystem(part: Part, size: int, work: Path) -> Path | None:
    image = work / f"{part.name}.fs"
    if part.fs == "ext4":
        tree = work / f"{part.name}.tree"
        _tree(tree, part.files, part.links)
        command = [str(require_program("mkfs.ext4")), "-q", "-F", "-d", str(tree)]
        if part.uuid:
            command += ["-U", part.uuid]
        if part.label:
            command += ["-L", part.label]
        subprocess.run([*command, str(image), f"{size // 1024}k"], check=True, capture_output=True)
    elif part.fs == "fat32":
        mkfs = str(require_program("mkfs.fat"))
        named = ["-n", part.label] if part.label else []
        subprocess.run([mkfs, "-F", "32", *named, "-C", str(image), str(size // 1024)],
                       check=True, capture_output=True)  # fmt: skip
    elif part.fs == "swap":
        image.write_bytes(b"")
        with image.open("r+b") as handle:
            handle.truncate(size)
        subprocess.run([str(require_program("mkswap")), str(image)], check=True,
                       capture_output=True)  # fmt: skip
    else:
        return None
    return image


def make_disk(path: Path, size_mib: int, parts: list[Part], *, label: str = "gpt") -> Path:
    """A raw disk image at ``path`` holding ``parts``; returns ``path``."""
    sfdisk = str(require_program("sfdisk"))
    with path.open("wb") as handle:
        handle.truncate(size_mib * MIB)
    lines = [f"label: {label}"]
    for part in parts:
        size = f", size={part.size_mib * 2048}" if part.size_mib else ""
        name = f', name="{part.name}"' if label == "gpt" else ""
        uuid = f", uuid={part.partuuid}" if part.partuuid and label == "gpt" else ""
        lines.append(f"start={part.start_mib * 2048}{size}, type={part.type}{name}{uuid}")
    subprocess.run(
        [sfdisk, "--no-reread", "--no-tell-kernel", "-q", str(path)],
        input="\n".join(lines) + "\n",
        text=True,
        check=True,
        capture_output=True,
    )
    work = path.parent / f"{path.name}.parts"
    work.mkdir(exist_ok=True)
    for part in parts:
        end_mib = part.start_mib + part.size_mib if part.size_mib else size_mib - 1
        fs = _filesystem(part, (end_mib - part.start_mib) * MIB, work)
        if fs is None:
            continue
        with fs.open("rb") as source, path.open("r+b") as disk:
            disk.seek(part.start_mib * MIB)
            while chunk := source.read(MIB):
                disk.write(chunk)
    return path


ROOT_UUID = "0b1c6a3e-2f4d-4c5b-9a8e-7d6c5b4a3f21"
DATA_UUID = "5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716"
ROOT_PARTUUID = "a1b2c3d4-0000-4000-8000-000000000003"
DATA_PARTUUID = "a1b2c3d4-0000-4000-8000-000000000002"
ESP_PARTUUID = "a1b2c3d4-0000-4000-8000-000000000001"

# What the composer's Debian image holds, in miniature (the real one: tests/e2e/).
DPKG_STATUS = """Package: htop
Status: install ok installed
Architecture: amd64
Version: 3.4.1-5

Package: jq
Status: install ok installed
Architecture: amd64
Version: 1.7.1-6
Description: lightweight and flexible command-line JSON processor
 jq is like sed for JSON data

Package: mawk
Status: install ok installed
Architecture: amd64
Provides: awk
Version: 1.3.4.20250131-1

Package: sudo
Status: install ok installed
Architecture: amd64
Version: 1.9.16p2-3

Package: tmux
Status: deinstall ok config-files
Architecture: amd64
Version: 3.5a-3

Package: base-files
Status: install ok installed
Architecture: all
Version: 13.8
"""
BUILT_ROOT: dict[str, str | bytes] = {
    "/etc/hostname": "fixture-host\n",
    "/etc/passwd": "root:x:0:0:root:/root:/bin/bash\n"
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    "ops:x:1000:1000::/home/ops:/bin/bash\n"
    "builder:x:1001:1001::/home/builder:/bin/bash\n",
    "/etc/group": "root:x:0:\nsudo:x:27:ops\nops:x:1000:\nbuilder:x:1001:\ndocker:x:990:builder\n",
    "/etc/shadow": "root:*:20782:0:99999:7:::\nnobody:*:20782:0:99999:7:::\n"
    "ops::20782:0:99999:7:::\n"
    "builder:$6$fixturesalt$Zx9fakeHashForTestsOnly0123456789abcdefABCDEF.:20782:0:90:7:::\n",
    "/etc/sudoers": "Defaults\tenv_reset\nroot\tALL=(ALL:ALL) ALL\n%sudo\tALL=(ALL:ALL) ALL\n"
    "@includedir /etc/sudoers.d\n",
    "/etc/sudoers.d/README": "# a file sudo reads; no rules\n",
    "/etc/sudoers.d/skipped.conf": "builder ALL=(ALL) NOPASSWD: ALL\n",
    "/etc/fstab": f"PARTUUID={ESP_PARTUUID} /boot/efi vfat umask=0077 0 2\n"
    f"UUID={DATA_UUID} /data ext4 defaults 0 2\n"
    f"PARTUUID={ROOT_PARTUUID} / ext4 defaults 0 1\n",
    "/usr/lib/os-release": 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n'
    'VERSION_ID="13"\n',
    "/var/lib/dpkg/status": DPKG_STATUS,
    "/boot/grub/grub.cfg": "set default=0\nmenuentry 'Debian' {\n"
    "\tlinux\t/boot/vmlinuz-6.12.118+deb13-amd64 root=/dev/loop0p3 ro"
    f" root=PARTUUID={ROOT_PARTUUID} console=ttyS0,115200 quiet\n"
    "\tinitrd\t/boot/initrd.img-6.12.118+deb13-amd64\n}\n",
    "/boot/vmlinuz-6.12.118+deb13-amd64": b"\x7fkernel",
}

TEMPLATE = """image:
  name: fixture-image
  version: "1.0"
target:
  os: debian
  dist: debian13
  arch: x86_64
  imageType: raw
disk:
  name: fixture
  size: 96MiB
  partitionTableType: gpt
  artifacts:
    - type: raw
  partitions:
    - id: boot
      type: esp
      fsType: fat32
      fsLabel: ESP
      start: 1MiB
      end: 41MiB
      mountPoint: /boot/efi
      mountOptions: umask=0077
    - id: data
      type: linux
      fsType: ext4
      start: 41MiB
      end: 57MiB
      mountPoint: /data
    - id: rootfs
      type: linux-root-amd64
      fsType: ext4
      fsLabel: debian-root
      start: 57MiB
      end: "0"
      mountPoint: /
      mountOptions: defaults
systemConfig:
  name: fixture
  hostname: fixture-host
  users:
    - name: ops
      groups: [sudo]
  bootloader:
    bootType: efi
    provider: grub
  packages:
    - htop
    - jq
    - awk
  kernel:
    version: "6.12.74"
    cmdline: "console=ttyS0,115200"
    packages:
      - sudo
"""


def built_image(path: Path, root: dict[str, str | bytes] | None = None) -> Path:
    """A 96 MiB image laid out as :data:`TEMPLATE` asks, holding :data:`BUILT_ROOT`."""
    files = dict(BUILT_ROOT if root is None else root)
    return make_disk(
        path,
        96,
        [
            Part("boot", 1, 40, ESP, "fat32", partuuid=ESP_PARTUUID, label="ESP"),
            Part(
                "data",
                41,
                16,
                LINUX,
                "ext4",
                {"/lost+found/.keep": ""},
                uuid=DATA_UUID,
                partuuid=DATA_PARTUUID,
            ),  # fmt: skip
            Part(
                "rootfs",
                57,
                None,
                ROOT_X86_64,
                "ext4",
                files,
                {"/etc/os-release": "../usr/lib/os-release"},
                uuid=ROOT_UUID,
                partuuid=ROOT_PARTUUID,
                label="debian-root",
            ),  # fmt: skip
        ],
    )
