"""Configs and command lines pasted from other image tooling, read as what they say.

People moving to templates paste what they had: a kickstart, a preseed, a Dockerfile, an
mkosi.conf, a Yocto local.conf, shell lines (``apt-get install -y ...``, ``useradd ...``,
``debootstrap --include=...``), package listings (``dpkg -l``, ``rpm -qa``), Packer HCL.
:func:`read_configs` finds each such line (or `backticked` span), writes what a template
field holds as the plain request the rules read ("add the packages chrony, git", "add a
user ops in the groups wheel", "kernel cmdline: audit=1"), and collects what no template
field holds (timezone, keyboard, firewall, ...) so the planner reports it once per
format, by key — never clause by clause, and never with its value (a ``rootpw`` line
would show a password).

Flags, versions, architectures, paths and command names are never read as packages:
each format says where its package names are.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field

# a package name as the package managers write it (a listing's or a command's argument)
_PACKAGE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+_-]*$")
_ARCHES = {
    "amd64": "x86_64", "x86_64": "x86_64", "x86-64": "x86_64",
    "arm64": "aarch64", "aarch64": "aarch64",
}  # fmt: skip


@dataclass
class Found:
    """What the pasted lines of one request say, format by format."""

    said: list[str] = field(default_factory=list)  # plain requests for the rules
    unmapped: dict[str, list[str]] = field(default_factory=dict)  # format -> keys
    formats: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # keys the built image already satisfies
    preseed_groups: list[str] = field(default_factory=list)  # passwd/user-default-groups

    def skip(self, fmt: str, key: str) -> None:
        """Remember a key of ``fmt`` no template field holds."""
        keys = self.unmapped.setdefault(fmt, [])
        if key not in keys:
            keys.append(key)

    def saw(self, fmt: str) -> None:
        """Remember that ``fmt`` was pasted."""
        if fmt not in self.formats:
            self.formats.append(fmt)


# words that end a command said in a sentence ("apt install htop please")
_PROSE = frozenset("please pls and too also then thanks the a an for on in to".split())


def _names(words: list[str]) -> list[str]:
    """The package names among a command's arguments: no flags, no versions, no ``$VAR``."""
    names: list[str] = []
    for word in words:
        if word.lower().strip(",.;!") in _PROSE:
            break
        name = re.split(r"[=<>:]", word, maxsplit=1)[0].rstrip(",;")
        if word.startswith(("-", "$", "@")) or not name or not _PACKAGE.match(name):
            continue
        if name not in names:
            names.append(name)
    return names


def _packages(names: list[str]) -> list[str]:
    return [f"add the packages {', '.join(names)}"] if names else []


def _user(name: str, groups: list[str], shell: str | None, sudo: bool | None = None) -> str:
    words = [f"add a user {name}"]
    if sudo is True:
        words.append("with sudo")
    if shell:
        words.append(f"with shell {shell}")
    if groups:
        words.append(f"in the groups {', '.join(groups)}")
    return " ".join(words)


def _cmdline(value: str) -> list[str]:
    """Kernel options as requests: the consoles in a clause of their own.

    A console clause sets the serial console; the flags beside it ("no_timer_check")
    are appended in their own clause, so none is lost to the console's.
    """
    tokens = value.split()
    consoles = [t for t in tokens if t.startswith("console=")]
    rest = [t for t in tokens if not t.startswith("console=")]
    return [f"kernel cmdline: {' '.join(part)}" for part in (consoles, rest) if part]


def _split(line: str) -> list[str]:
    try:
        return shlex.split(line, comments=False)
    except ValueError:
        return line.split()


def _option(words: list[str], *names: str) -> str | None:
    """The value of a ``--name=value`` / ``--name value`` / ``-n value`` option."""
    for index, word in enumerate(words):
        for name in names:
            if word.startswith(f"{name}=") and name.startswith("--"):
                return word.split("=", 1)[1]
            if word == name and index + 1 < len(words):
                return words[index + 1]
    return None


# --- shell lines -------------------------------------------------------------------------

_INSTALLERS = frozenset("apt-get apt aptitude dnf yum tdnf microdnf zypper".split())
# a word's options that take a value, so the value is no argument
_SUBCOMMANDS = frozenset(
    "install reinstall remove purge erase update upgrade clean makecache autoremove".split()
)
_USERADD_VALUED = frozenset("-s -G -g -c -d -u -k -e -f -K -p -b".split())


def _useradd(words: list[str], found: Found) -> bool:
    rest: list[str] = []
    skip = False
    for word in words[1:]:
        if skip:
            skip = False
        elif (
            word in _USERADD_VALUED
            or word.startswith("--")
            and "=" not in word
            and word
            in ("--shell", "--groups", "--gid", "--comment", "--home-dir", "--uid", "--password")
        ):
            skip = True
        elif not word.startswith("-"):
            rest.append(word)
    if len(rest) != 1 or not re.match(r"^[a-z_][a-z0-9_-]*\$?$", rest[0]):
        return False
    groups = _option(words, "-G", "--groups")
    found.said.append(
        _user(
            rest[-1],
            [g for g in (groups or "").split(",") if g],
            _option(words, "-s", "--shell"),
        )
    )
    return True


def _command(line: str, found: Found) -> bool:
    """Read one shell command; False when it is no command this module knows."""
    words = _split(line)
    while words and words[0] in ("sudo", "RUN", "$", "#"):
        words = words[1:]
    if not words:
        return False
    command = words[0]
    if command in _INSTALLERS:
        verbs = [w for w in words[1:] if not w.startswith("-")]
        if not verbs or verbs[0] not in _SUBCOMMANDS:
            return False
        if verbs[0] in ("install", "reinstall"):
            found.said += _packages(_names(verbs[1:]))
        elif verbs[0] in ("remove", "purge", "erase"):
            names = _names(verbs[1:])
            if names:
                found.said.append(f"remove the packages {', '.join(names)}")
        return True  # update, upgrade, clean: nothing a template holds asks for them
    if command in ("useradd", "adduser"):
        return _useradd(words, found)
    if command == "usermod":
        groups = _option(words, "-G", "-aG", "--groups")
        name = words[-1] if len(words) > 2 else ""
        if groups and re.match(r"^[a-z_][a-z0-9_-]*$", name):
            found.said.append(f"add the user {name} to the groups {', '.join(groups.split(','))}")
        return True
    if command == "debootstrap" and any(w.startswith("--") for w in words):
        include = _option(words, "--include")
        found.said += _packages(_names((include or "").split(",")))
        return True  # the old suite, directory and mirror are the old build's, not asked
    if words[:2] == ["hostnamectl", "set-hostname"] and len(words) == 3:
        found.said.append(f"hostname {words[2]}")
        return True
    if command == "echo":
        match = re.match(r"^\s*(?:sudo\s+)?echo\s+(\S+)\s*>\s*\S*/etc/hostname\s*$", line)
        if match:
            found.said.append(f"hostname {match.group(1)}")
            return True
        return False
    if len(words) > 1 and words[1] in _REPORTED.get(command, ()):
        found.skip("shell", f"{command} {words[1]}")
        return True
    return False


# commands that change the system in ways no template field holds, by their subcommands
_REPORTED = {
    "systemctl": ("enable", "disable", "mask", "unmask", "set-default"),
    "ufw": ("allow", "deny", "enable", "default", "limit"),
    "timedatectl": ("set-timezone", "set-ntp"),
    "localectl": ("set-locale", "set-keymap", "set-x11-keymap"),
    "pip": ("install",),
    "pip3": ("install",),
}


# a user command inside a sentence, up to a dash, a semicolon, a sentence end or the line's end
_COMMAND_INLINE = re.compile(
    r"(?<![\w`/-])(?:useradd|adduser|usermod)\s+(?=\S*[-a-z])[^\n;`—]*?(?=\s+[—–-]{1,2}\s|[;`—]|\.\s|\.?$)",
    re.M,
)


# --- udev rules ----------------------------------------------------------------------------

# one udev key and its value: SUBSYSTEM=="usb", ATTRS{idVendor}=="04b8", SYMLINK+="gnss0"
_UDEV_PAIR = r'[A-Z][A-Z_]*(?:\{[\w.:-]+\})?\s*(?:==|!=|\+=|-=|:=|=)\s*"[^"\n]*"'
# a rule: pairs joined by commas
_UDEV_RULE = re.compile(rf"(?<![\w{{]){_UDEV_PAIR}(?:\s*,\s*{_UDEV_PAIR})*")
_UDEV_KEY = re.compile(r"([A-Z][A-Z_]*)(?:\{[\w.:-]+\})?\s*(?:==|!=|\+=|-=|:=|=)")


# formats whose lines belong in a file of the image, never a template field: what to do
_FILE_LINES = {
    "udev rule": "ship the rule as a file under /etc/udev/rules.d in the template's "
    "additional files, or write it at first boot",
}


def _udev(match: re.Match[str], found: Found) -> str:
    """A pasted udev rule is a line of a file: reported by its keys, read by no rule.

    At least one pair must match ("==" or "!="): an assignment alone ("MODE="0666"") may be
    anything.
    """
    if not re.search(r'(?:==|!=)\s*"', match[0]):
        return match[0]
    found.saw("udev rule")
    for key in _UDEV_KEY.findall(match[0]):
        found.skip("udev rule", key)
    return ""


def _shell(line: str, found: Found) -> bool:
    parts = [p for p in re.split(r"\s*(?:&&|\|\||;)\s*", line.strip()) if p]
    known = [_command(part, found) for part in parts]
    if any(known):
        found.saw("shell")
    return any(known)


# --- kickstart ----------------------------------------------------------------------------

_KS_COMMANDS = frozenset(
    "lang timezone keyboard bootloader part partition user rootpw network firewall selinux "
    "services autopart clearpart zerombr reboot poweroff text graphical url repo firstboot "
    "skipx logvol volgroup raid authselect sshkey eula install cdrom".split()
)
_KS_NEEDS_OPTIONS = frozenset("user part partition network repo url install".split())
_FS = {"efi": "vfat", "vfat": "vfat", "xfs": "xfs", "ext4": "ext4", "ext3": "ext3",
       "ext2": "ext2", "btrfs": "btrfs"}  # fmt: skip


def _kickstart(line: str, found: Found) -> bool:
    words = _split(line)
    if not words or words[0] not in _KS_COMMANDS:
        return False
    if not any(w.startswith("--") for w in words) and (
        words[0] in _KS_NEEDS_OPTIONS or len(words) > 4
    ):
        return False  # "user cashier, no sudo" is a sentence
    command = words[0]
    found.saw("kickstart")
    if command == "bootloader" and _option(words, "--append"):
        found.said += _cmdline(str(_option(words, "--append")))
    elif command == "user" and _option(words, "--name"):
        groups = [g for g in (_option(words, "--groups") or "").split(",") if g]
        found.said.append(_user(str(_option(words, "--name")), groups, _option(words, "--shell")))
    elif command in ("part", "partition", "logvol") and len(words) > 1 and words[1].startswith("/"):
        # a logical volume's mount point and size are a partition's: the template has no LVM
        fs = _FS.get((_option(words, "--fstype") or "").lower())
        size = _option(words, "--size")
        if "--grow" in words or not size:
            rest = f"the {words[1]} partition takes the rest"
            found.said.append(rest + (f", {fs}" if fs else ""))
        else:
            found.said.append(f"a {words[1]} partition of {size}MiB" + (f", {fs}" if fs else ""))
    elif command == "network" and _option(words, "--hostname"):
        found.said.append(f"hostname {_option(words, '--hostname')}")
        if len(words) > 2:
            found.skip("kickstart", "network")
    else:
        found.skip("kickstart", command)
    return True


# --- preseed ------------------------------------------------------------------------------

_PRESEED = re.compile(
    r"^\s*(?:d-i|(?P<owner>[a-z][\w.-]*)(?=\s+[\w.-]+/\S+\s+(?:string|select|boolean|multiselect)\b))"
    r"\s+(?P<key>\S+)\s+(?:(?:string|select|boolean|password|multiselect|note)\b|"
    # a password line whose type and value were cut before reading (see ..redact)
    r"(?=\s*$))\s*(?P<value>.*)$"
)
_PRESEED_READERS: dict[str, Callable[[str], list[str]]] = {
    "pkgsel/include": lambda v: _packages(_names(re.split(r"[\s,]+", v))),
    "passwd/username": lambda v: [f"add a user {v.split()[0]}"] if v.split() else [],
    "netcfg/get_hostname": lambda v: [f"hostname {v.split()[0]}"] if v.split() else [],
    "netcfg/hostname": lambda v: [f"hostname {v.split()[0]}"] if v.split() else [],
    "debian-installer/add-kernel-opts": lambda v: _cmdline(v),
}
# tasksel's tasks that are a priority, not a package ("standard": every standard package)
_PRIORITY_TASKS = frozenset({"standard", "required", "important"})
_TASK_PACKAGES = {"ssh-server": "openssh-server", "print-server": "cups"}


def _tasks(value: str) -> list[str]:
    """The packages of the tasks a ``tasksel/first`` line selects.

    A task that stands for one package is that package ("ssh-server": openssh-server, on
    Debian and Ubuntu alike); another is Debian's task package ("xfce-desktop":
    task-xfce-desktop). A priority ("standard") names no package.
    """
    return [
        _TASK_PACKAGES.get(task, f"task-{task}")
        for task in re.split(r"[\s,]+", value.strip())
        if task and task not in _PRIORITY_TASKS and _PACKAGE.match(f"task-{task}")
    ]


# "d-i passwd/user-default-groups string sudo docker": the groups of the user the preseed
# creates (passwd/username), read before the lines so either may come first
_PRESEED_GROUPS = re.compile(
    r"^\s*d-i\s+passwd/user-default-groups\s+string\s+(?P<groups>[^\n]*)$", re.MULTILINE
)


def _preseed_groups(text: str, found: Found) -> None:
    for match in _PRESEED_GROUPS.finditer(text):
        found.preseed_groups = [
            g
            for g in re.split(r"[\s,]+", match.group("groups"))
            if re.fullmatch(r"[a-z_][a-z0-9_-]*", g)
        ]


# "tasksel tasksel/first multiselect standard, ssh-server" (or owned by d-i): Debian's
# installer tasks
_TASKSEL = re.compile(r"^\s*(?:tasksel|d-i)\s+tasksel/first\s+multiselect\s+(?P<tasks>.*)$")


def _tasksel(line: str, found: Found) -> bool:
    match = _TASKSEL.match(line)
    if match is None:
        return False
    found.saw("preseed")
    tasks = re.split(r"[\s,]+", match.group("tasks").strip())
    for task in sorted(set(tasks) & _PRIORITY_TASKS):
        found.skip("preseed", f"tasksel task {task}")  # "standard" names no package
    found.said += _packages(_tasks(match.group("tasks")))
    return True


def _preseed(line: str, found: Found) -> bool:
    if _tasksel(line, found):
        return True
    match = _PRESEED.match(line)
    if match is None:
        return False
    found.saw("preseed")
    key, value = match.group("key"), match.group("value").strip()
    if key == "passwd/user-default-groups" and found.preseed_groups:
        return True  # given to the user with passwd/username
    if key == "passwd/username" and value.split() and found.preseed_groups:
        listed = ", ".join(found.preseed_groups)
        found.said.append(f"add a user {value.split()[0]} in the groups {listed}")
        return True
    reader = _PRESEED_READERS.get(key)
    said = reader(match.group("value").strip()) if reader else []
    if said:
        found.said += said
    elif not match.group("key").startswith(("passwd/user-password", "passwd/root-password")):
        found.skip("preseed", match.group("key"))
    else:
        found.skip("preseed", "passwords")
    return True


# --- mkosi ini ----------------------------------------------------------------------------

_MKOSI_KEYS = (
    "Distribution Release Architecture Format Packages KernelCommandLine Hostname "
    "Bootable BuildPackages RootPassword Autologin ImageId ImageVersion Output WithDocs "
    "CleanPackageMetadata RemoveFiles ExtraTrees SkeletonTrees Locale Keymap Timezone "
    "Ssh SplitArtifacts"
).split()
_MKOSI = re.compile(rf"\b(?P<key>{'|'.join(_MKOSI_KEYS)})=(?=\S)")  # "Release= would be" is prose
# one key in a sentence that names mkosi: "mkosi also has Hostname=ci-runner"
_MKOSI_ONE = re.compile(rf"(?<![\w=])(?:{'|'.join(_MKOSI_KEYS)})=[^\s,;]*[^\s,;.]")
_MKOSI_HINT = re.compile(r"\bmkosi\b", re.IGNORECASE)
# two or more mkosi keys in a row, from the first to the line's end
_MKOSI_INLINE = re.compile(
    rf"(?<![\w=])(?:{'|'.join(_MKOSI_KEYS)})=[^\n]*?(?:,[ \t]*|[ \t]+)"
    rf"(?:{'|'.join(_MKOSI_KEYS)})=[^\n]*"
)
_MKOSI_FORMATS = {"disk": "raw image", "uki": "", "esp": "", "cpio": "", "tar": "", "directory": ""}


def _mkosi_values(line: str) -> list[tuple[str, str]]:
    """``Key=value`` pairs on one line; several may share it, separated by ``, ``."""
    found = list(_MKOSI.finditer(line))
    pairs = []
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(line)
        value = line[match.end() : end].strip().rstrip(",;").strip()
        pairs.append((match.group("key"), value))
    return pairs


def _mkosi(line: str, found: Found) -> bool:
    stripped = line.strip()
    if not _MKOSI.match(stripped):
        return False
    found.saw("mkosi")
    target: list[str] = []
    for key, value in _mkosi_values(stripped):
        value = re.sub(r"\s*\([^)]*\)", "", value).strip()  # "resolute (26.04)"
        if key in ("Distribution", "Release") and value:
            target.append(value)
        elif key == "Architecture" and value in _ARCHES:
            target.append(_ARCHES[value])
        elif key == "Format" and _MKOSI_FORMATS.get(value):
            target.append(_MKOSI_FORMATS[value])
        elif key == "Packages":
            found.said += _packages(_names(re.split(r"[\s,]+", value)))
        elif key == "KernelCommandLine" and value:
            found.said += _cmdline(value)
        elif key == "Hostname" and value:
            found.said.append(f"hostname {value}")
        elif key == "Bootable" and value.lower() in ("yes", "true", "1", "auto"):
            found.notes.append("mkosi Bootable=yes: every image the composer builds boots")
        else:
            found.skip("mkosi", key)
    if target:
        found.said.append(" ".join(target))
    return True


def _ini_section(line: str, found: Found) -> bool:
    """An ini ``[Section]`` header says nothing a template holds."""
    return bool(re.match(r"^\s*\[[A-Z][A-Za-z]*\]\s*$", line))


# --- Yocto local.conf ---------------------------------------------------------------------

_BITBAKE = re.compile(
    r"^\s*(?P<var>[A-Z][A-Z0-9_]+)(?:[:_](?:append|prepend|remove)(?::\S+)?)?\s*"
    r"(?:\+=|\?\?=|\?=|\.=|=\+|=)\s*\"(?P<value>[^\"]*)\"?\s*$"
)
_BITBAKE_INLINE = re.compile(
    r"(?:(?<=\s)|`)[A-Z][A-Z0-9_]{3,}(?:[:_]append)?\s*(?:\+=|=)\s*\"[^\"\n]*\"`?(?=\s|$|[,.;])"
)
# a variable named in prose with its value: "IMAGE_FEATURES had read-only-rootfs"
_BITBAKE_SAID = re.compile(
    r"(?<![\w`])(?P<var>(?:EXTRA_)?IMAGE_FEATURES|IMAGE_INSTALL|MACHINE)\s+(?:also\s+)?"
    r"(?:had|has|have|includes?|included|contains?|contained|with|is|was)\s+"
    r"(?P<value>[a-z0-9][\w.+-]*(?:(?:,\s*|\s+and\s+|\s+)[a-z0-9][\w.+-]*-[\w.+-]*)*)"
)
# Yocto image features a template says in its own fields or packages
_IMAGE_FEATURES = {
    "ssh-server-openssh": "add the packages openssh-server",
    "ssh-server-dropbear": "add the packages dropbear",
    "read-only-rootfs": "read-only root",
}
_MACHINES = {"qemux86-64": "x86_64", "genericx86-64": "x86_64", "intel-corei7-64": "x86_64",
             "qemuarm64": "aarch64", "genericarm64": "aarch64"}  # fmt: skip


def _kib(count: int) -> str:
    """``count`` KiB in the largest binary unit that holds it whole."""
    for unit, size in (("GiB", 1024 * 1024), ("MiB", 1024)):
        if count % size == 0:
            return f"{count // size}{unit}"
    return f"{count}KiB"


def _bitbake(line: str, found: Found) -> bool:
    match = _BITBAKE.match(line)
    if match is None:
        return False
    var, value = match.group("var"), match.group("value")
    if var in ("GRUB_CMDLINE_LINUX", "GRUB_CMDLINE_LINUX_DEFAULT"):
        found.saw("/etc/default/grub")  # the same shape as a local.conf line
        if value.strip():
            found.said += _cmdline(value)
        return True
    found.saw("local.conf")
    words = value.split()
    if var in ("IMAGE_INSTALL", "CORE_IMAGE_EXTRA_INSTALL"):
        found.said += _packages(_names(words))
    elif var in ("IMAGE_FEATURES", "EXTRA_IMAGE_FEATURES"):
        for word in words:
            if word in _IMAGE_FEATURES:
                found.said.append(_IMAGE_FEATURES[word])
            else:
                found.skip("local.conf", f"{var} {word}")
    elif var == "APPEND" and value.strip():  # the kernel command line of Yocto's boot classes
        found.said += _cmdline(value)
    elif var == "IMAGE_ROOTFS_SIZE" and value.strip().isdigit():
        found.said.append(f"disk size {_kib(int(value.strip()))}")  # Yocto counts in KiB
    elif var == "IMAGE_FSTYPES" and any(w.startswith(("wic", "hddimg", "ext4")) for w in words):
        found.said.append("raw image")
    elif var == "EXTRA_USERS_PARAMS":
        for command in value.split(";"):
            if command.strip():
                _command(command.strip(), found)
    elif var == "MACHINE" and value in _MACHINES:
        found.said.append(_MACHINES[value])
    else:
        found.skip("local.conf", var)
    return True


# --- Dockerfile ---------------------------------------------------------------------------

_DOCKER = re.compile(
    r"^\s*(?P<op>FROM|RUN|USER|ENV|EXPOSE|COPY|ADD|WORKDIR|CMD|ENTRYPOINT|VOLUME|LABEL|ARG|"
    r"HEALTHCHECK|SHELL|STOPSIGNAL)\s+(?P<rest>\S.*)$"
)
_BASE_IMAGES = frozenset("ubuntu debian fedora almalinux rockylinux azurelinux".split())


def _dockerfile(line: str, found: Found) -> bool:
    match = _DOCKER.match(line)
    if match is None:
        return False
    op, rest = match.group("op"), match.group("rest").strip()
    found.saw("Dockerfile")
    if op == "FROM":
        image = rest.split()[0].rsplit("/", 1)[-1]
        name, _, tag = image.partition(":")
        if name in _BASE_IMAGES:
            found.said.append(f"{name} {tag.split('-')[0]}".strip())
    elif op == "RUN":
        _shell(rest, found)
    elif op == "USER" and re.match(r"^[a-z_][a-z0-9_-]*$", rest) and rest != "root":
        found.said.append(f"add a user {rest}")
    else:
        found.skip("Dockerfile", op)
    return True


# --- package listings ---------------------------------------------------------------------

_DPKG = re.compile(
    r"^\s*(?:ii|hi|rc|iU|iF)\s+(?P<name>[a-z0-9][a-z0-9.+-]+)(?::[a-z0-9]+)?\s+(?:\d+:)?\d\S*\s+"
    r"(?:amd64|arm64|all|i386|armhf|armel|riscv64|ppc64el|s390x)\b"
)
_NEVRA = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][\w.+-]*?)-(?:\d+:)?\d[\w.+~^]*-[\w.+~^]+"
    r"\.(?:x86_64|aarch64|noarch|i686|armv7hl|ppc64le|s390x)\s*$"
)
_LISTING_COMMAND = re.compile(r"^\s*(?:\$\s*)?(?:dpkg\s+-l|rpm\s+-qa|dpkg-query|apt\s+list)\b")


def _listing(line: str, found: Found) -> bool:
    if _LISTING_COMMAND.match(line):
        return True
    match = _DPKG.match(line) or _NEVRA.match(line)
    if match is None:
        return False
    found.saw("package listing")
    found.said += _packages([match.group("name")])
    return True


# --- Packer HCL ---------------------------------------------------------------------------

_HCL = re.compile(r"^\s*(?P<key>[a-z][a-z0-9_]*)\s*=\s*(?P<value>\S.*)$")
_PACKER_KEYS = frozenset(
    "disk_size memory cpus generation iso_url iso_checksum boot_command boot_wait "
    "ssh_username ssh_password communicator vm_name headless switch_name output_directory "
    "shutdown_command enable_secure_boot format accelerator disk_interface net_device".split()
)
# how Packer ran the old build (its build VM, the installer ISO it booted, how it logged in
# to provision): nothing of the image, so nothing to report
_PACKER_MACHINERY = frozenset(
    "iso_url iso_checksum boot_command boot_wait ssh_username ssh_password communicator "
    "headless output_directory shutdown_command accelerator disk_interface net_device "
    "switch_name memory cpus".split()
)
# the output formats of Packer's qemu builder, as the template's artifact words
_PACKER_FORMATS = {"qcow2": "qcow2 image", "raw": "raw image"}
_PACKER_HINT = re.compile(r"\bpacker\b", re.IGNORECASE)
# in a sentence that names Packer: `disk_size = "40G"`, `source "qemu" "web"`
_HCL_INLINE = re.compile(
    rf"(?<![\w\"])(?:(?:{'|'.join(sorted(_PACKER_KEYS))})\s*=\s*\"[^\"\n]*\""
    r"|source\s+\"[\w-]+\"(?:\s+\"[\w-]+\")?)"
)


# a block's opening line: `source "qemu" "runner" {`, `provisioner "shell" {`, `build {`
_HCL_BLOCK = re.compile(
    r'^\s*(?:(?:source|provisioner|post-processors?|variable|data|builder)\s+"[\w.-]+"'
    r'(?:\s+"[\w.-]+")?\s*\{?|(?:build|locals|packer|required_plugins|post-processors)\s*\{)\s*$'
)


def _packer(line: str, found: Found) -> bool:
    match = _HCL.match(line)
    if _HCL_BLOCK.match(line):
        found.saw("Packer")
        return True  # the builder, a provisioner's or the build's own block: nothing of the image
    if match is None or match.group("key") not in _PACKER_KEYS:
        return False
    found.saw("Packer")
    value = match.group("value").strip().strip('"')
    size = re.fullmatch(r"(\d+)\s*([KMGT])?i?B?", value, re.IGNORECASE)
    if match.group("key") == "disk_size" and size:
        # Packer's disk_size counts in MiB, or takes the qemu suffixes (binary units)
        unit = (size.group(2) or "M").upper()
        found.said.append(f"disk size {size.group(1)}{unit}iB")
    elif match.group("key") == "format" and value in _PACKER_FORMATS:
        found.said.append(_PACKER_FORMATS[value])
    elif match.group("key") not in _PACKER_MACHINERY:
        found.skip("Packer", match.group("key"))
    return True


# --- reading a request --------------------------------------------------------------------

# tried in order on each line; kickstart and Dockerfile lines only where the text has one
_READERS: tuple[Callable[[str, Found], bool], ...] = (
    _preseed, _listing, _bitbake, _mkosi, _packer, _shell,
)  # fmt: skip
_DOCKERFILE_HINT = re.compile(r"^\s*FROM\s+[\w./-]+(?::[\w.-]+)?\s*$", re.M)
_KICKSTART_HINT = re.compile(r"%packages|\bks\.cfg\b|\bkickstart\b|\bks\b", re.IGNORECASE)
_KS_PACKAGES = re.compile(r"^\s*%packages\b[^\n]*\n(?P<body>.*?)^\s*%end\s*$", re.M | re.S)
_BACKTICKS = re.compile(r"`([^`\n]{3,})`")
# kickstart package groups that are the base system itself (every base template holds it)
_BASE_GROUPS = frozenset("@core @base @minimal @^minimal @^minimal-environment".split())
# a kickstart command with its options, without "ks" said: "`user --name=ops --groups=wheel`"
_KICKSTART_LINE = re.compile(
    rf"(?:^|`)\s*(?:{'|'.join(sorted(_KS_COMMANDS))})\s+(?:\S+\s+)*?--[a-z][\w-]*", re.M
)


def _kickstart_packages(text: str, found: Found) -> str:
    def block(match: re.Match[str]) -> str:
        found.saw("kickstart")
        names, removed, groups = [], [], []
        for raw in match.group("body").split("\n"):
            word = raw.strip()
            if word.startswith("@"):
                groups.append(word)
            elif word.startswith("-") and _PACKAGE.match(word[1:]):
                removed.append(word[1:])
            elif word and _PACKAGE.match(word):
                names.append(word)
        said = _packages(names)
        if removed:
            said.append(f"remove the packages {', '.join(removed)}")
        for group in groups:
            if group.lower() in _BASE_GROUPS:
                found.notes.append(f"kickstart {group}: the base template already holds it")
            else:
                found.skip("kickstart", f"package group {group}")
        found.said += said
        return "".join(f"{s};\n" for s in said)

    return _KS_PACKAGES.sub(block, text)


# the old tool named as the subject of what was read from it: "mkosi also has hostname x;"
_SOURCE = re.compile(
    r"\b(?:the\s+|our\s+)?(?:mkosi(?:\.conf)?|kickstart|ks(?:\.cfg)?|preseed|packer|yocto|"
    r"local\.conf|dockerfile)\s+(?:also\s+)?(?:has|had|have|sets|set|uses|used|says|said|"
    r"includes|included)\s+(?=[^.;\n]+;)",
    re.IGNORECASE,
)
# a clause that only asks for what was pasted: a verb of carrying over, then a pronoun
_APPLY_PASTED = re.compile(
    r"(?:(?<=^)|(?<=[.;,!?]\s)|(?<=\band\s))\s*(?:(?:please|pls|so|then|just|also)\s+)?"
    r"(?:map|port|translate|convert|carry|bring|put|keep|apply|use|include|copy|mirror|"
    r"replicate|reproduce|take|make\s+the\s+\w+|set\s+the\s+\w+)\s+"
    r"(?:that|those|them|it|this|these)(?:\s+(?:behaviou?r|setting|settings|lines?|bits?|parts?))?"
    r"(?:\s+(?:in|over|across|too|as\s+well|please|pls|for\s+me|here|also))*\s*"
    r"(?=[.;,!?]|$)",
    re.IGNORECASE | re.M,
)


def _read_line(
    line: str, found: Found, readers: tuple[Callable[[str, Found], bool], ...]
) -> list[str] | None:
    """The plain requests one line says, or None when it is no pasted config line."""
    mark = len(found.said)
    for reader in readers:
        if reader(line, found):
            return found.said[mark:]
        del found.said[mark:]
    return None


def read_configs(text: str) -> tuple[str, list[str], list[str]]:
    """Rewrite each pasted config line or command in ``text`` as a plain request.

    Returns:
        The rewritten text; one notice per format read ("read the pasted kickstart");
        one not-applied item per format naming the keys no template field holds.
    """
    found = Found()
    _preseed_groups(text, found)
    readers = _READERS
    if _DOCKERFILE_HINT.search(text):
        readers = (_dockerfile, *readers)
    if _KICKSTART_HINT.search(text) or _KICKSTART_LINE.search(text):
        readers = (_kickstart, *readers)
        text = _kickstart_packages(text, found)

    def inline(match: re.Match[str]) -> str:
        said = _read_line(match.group(1), found, readers)
        if said is None:
            return match.group(0)
        # "our images are `debootstrap ...`": the command is what the copula says; the
        # request read from it is a clause of its own (not "images are add ...")
        before = match.string[: match.start()]
        lead = "; " if re.search(r"\b(?:are|is|was|were|be)\s*$", before, re.I) else ""
        return lead + "; ".join(said) + ";" if said else ""

    def bitbake(match: re.Match[str]) -> str:
        said = _read_line(match.group(0).strip("`"), found, (_bitbake,))
        return "; ".join(said) + ";" if said else ""

    def mkosi(match: re.Match[str]) -> str:
        said = _read_line(match.group(0), found, (_mkosi,))
        return "; ".join(said) + ";" if said else ""

    def said_bitbake(match: re.Match[str]) -> str:
        words = re.split(r",\s*|\s+and\s+|\s+", match.group("value"))
        line = f'{match.group("var")} = "{" ".join(words)}"'
        said = _read_line(line, found, (_bitbake,))
        return "; ".join(said) + ";" if said else ""

    def packer(match: re.Match[str]) -> str:
        said = _read_line(match.group(0), found, (_packer,))
        return match.group(0) if said is None else ("; ".join(said) + ";" if said else "")

    def command(match: re.Match[str]) -> str:
        said = _read_line(match.group(0), found, (_shell,))
        return match.group(0) if said is None else ("; ".join(said) + ";" if said else "")

    text = _BITBAKE_INLINE.sub(bitbake, text)
    # "Porting an mkosi config: Distribution=ubuntu, Release=resolute, Packages=a,b" and
    # "the old image ran useradd -G video kiosk — same user here": pasted inside a sentence
    text = _MKOSI_INLINE.sub(mkosi, text)
    if _MKOSI_HINT.search(text):
        text = _MKOSI_ONE.sub(mkosi, text)
    text = _BITBAKE_SAID.sub(said_bitbake, text)
    if _PACKER_HINT.search(text):
        text = _HCL_INLINE.sub(packer, text)
    text = _COMMAND_INLINE.sub(command, text)
    text = _UDEV_RULE.sub(lambda m: _udev(m, found), text)
    lines = []
    for line in text.split("\n"):
        said = _read_line(line, found, readers) if line.strip() else None
        if said is None:
            lines.append(_BACKTICKS.sub(inline, line))
        elif said:
            lines.append("; ".join(said) + ";")
    if found.formats:
        lines = [line for line in lines if not _ini_section(line, found)]
    if found.formats:
        # "map that please", "keep that behaviour", "carry those over": the pasted lines
        # themselves, asked for again; what they hold is read above
        lines = [_SOURCE.sub("", _APPLY_PASTED.sub("", line)) for line in lines]
    rewritten = "\n".join(lines)
    if not found.formats:
        return text, [], []
    notices = [
        f"read the pasted {fmt} as what a template holds"
        for fmt in found.formats
        if fmt not in _FILE_LINES
    ]
    notices += found.notes
    unmapped = [
        f"from the pasted {fmt}: {', '.join(keys)} — no template field holds "
        f"{'this' if len(keys) == 1 else 'these'}; "
        + _FILE_LINES.get(
            fmt, "set it up after install (a first-boot script or your configuration management)"
        )
        for fmt, keys in found.unmapped.items()
    ]
    return rewritten, notices, unmapped
