"""Words the parser uses to infer what a template is for when it does not say.

These tables describe what well-known packages imply and the words people use for
capabilities. They feed inferred keywords and use cases, and the query classifier.
The target tables here are read-only views of :mod:`oic_ai.stores.targets`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, TypeVar

from oic_ai.stores.data_files import load_mapping

if TYPE_CHECKING:
    from oic_ai.stores.targets import TargetRegistry

_K = TypeVar("_K")
_V = TypeVar("_V")


class RegistryView(Mapping[_K, _V]):
    """A read-only table derived from the registry, built on first use.

    Modules that publish a target table at module level (``OS_DISTS``) use a view, so
    importing them neither reads the data file nor imports the registry module; the
    table is a view of :mod:`oic_ai.stores.targets`, never a second copy of the facts.

    Args:
        build: Derives the table from the loaded registry.
    """

    def __init__(self, build: Callable[[TargetRegistry], Mapping[_K, _V]]) -> None:
        self._build = build
        self._data: dict[_K, _V] | None = None

    def _table(self) -> dict[_K, _V]:
        if self._data is None:
            from oic_ai.stores.targets import load_targets  # deferred: keeps imports cheap

            self._data = dict(self._build(load_targets()))
        return self._data

    def __getitem__(self, key: _K) -> _V:
        return self._table()[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())

    def __repr__(self) -> str:
        return f"RegistryView({self._table()!r})"


# Target tables are views of the target registry (stores/data/targets.yaml), built on
# first use so importing this module stays cheap.

# os -> its distributions, as the composer pairs them
OS_DISTS: Mapping[str, tuple[str, ...]] = RegistryView(lambda targets: targets.os_dists())

# capability -> glob patterns of package names that imply it
PACKAGE_CAPABILITIES: dict[str, tuple[str, ...]] = {
    "container": (
        "docker*",
        "moby-*",
        "containerd*",
        "podman*",
        "k3s*",
        "cri-o",
        "kube*",
        "runc",
    ),
    "web-server": ("nginx*", "apache2*", "httpd*", "lighttpd*", "caddy"),
    "cloud": ("cloud-init*", "qemu-guest-agent", "walinuxagent", "waagent", "hyperv-daemons"),
    "monitoring": (
        "prometheus-node-exporter*",
        "node_exporter",
        "node-exporter",
        "collectd*",
        "telegraf",
        "sysstat",
    ),
    "logging": ("rsyslog*", "fluent-bit", "syslog-ng*", "logrotate"),
    "robotics": ("ros-*", "ros2-*", "python3-colcon*", "gazebo*"),
    "ai-inference": (
        "openvino*",
        "intel-dlstreamer*",
        "dlstreamer*",
        "intel-npu*",
        "intel-level-zero*",
        "level-zero*",
        "onnxruntime*",
    ),
    "video": ("gstreamer*", "intel-media-va-driver*", "libva*", "ffmpeg", "libmfx*", "libvpl*"),
    "virtualization": ("qemu-kvm*", "qemu-system*", "libvirt*", "virt-*", "ovmf", "edk2-*"),
    "desktop": (
        "xorg*",
        "xserver-xorg*",
        "gdm3",
        "lightdm",
        "ubuntu-desktop*",
        "gnome-*",
        "weston",
        "wayland*",
        "chromium*",
        "firefox*",
        "cage",
        "sway",
        "xfce4*",
        "lxde*",
        "lxqt*",
        "task-*-desktop",
    ),
    "security": (
        "fail2ban",
        "auditd",
        "audit",
        "apparmor*",
        "selinux-policy*",
        "aide",
        "firewalld",
        "nftables",
        "ufw",
    ),
    "real-time": ("kernel-rt*", "linux-image-rt*", "linux-*-rt", "rt-tests", "tuned*"),
    "ssh": ("openssh-server",),
    "networking": ("network-manager", "NetworkManager*", "netplan.io", "systemd-networkd"),
    "watchdog": ("watchdog",),
    "time-sync": ("chrony", "systemd-timesyncd", "ntp", "ntpsec"),
    "secure-boot": ("shim*", "sbsigntool", "mokutil", "tpm2-*", "sbctl"),
    "ota": ("ostree*", "rpm-ostree*", "swupdate*", "mender*"),
}

# capability -> the use cases it suggests
CAPABILITY_USE_CASES: dict[str, str] = {
    "container": "container host",
    "web-server": "web server",
    "cloud": "cloud VM",
    "monitoring": "monitoring-ready",
    "robotics": "robotics",
    "ai-inference": "AI inference",
    "video": "video analytics",
    "virtualization": "virtualization host",
    "desktop": "desktop or kiosk",
    "real-time": "real-time industrial",
    "secure-boot": "secure boot",
    "ota": "over-the-air updates",
}


def capabilities_for_packages(packages: list[str] | tuple[str, ...]) -> list[str]:
    """Return the capabilities implied by a package list, in table order."""
    found: list[str] = []
    for capability, patterns in PACKAGE_CAPABILITIES.items():
        if any(fnmatchcase(pkg, pattern) for pkg in packages for pattern in patterns):
            found.append(capability)
    return found


# Package names people use interchangeably; any member matches any other.
PACKAGE_ALIASES: tuple[frozenset[str], ...] = (
    frozenset({"docker", "docker.io", "docker-ce", "docker-engine", "moby-engine", "moby"}),
    frozenset({"docker-compose", "docker-compose-v2", "docker-compose-plugin", "moby-compose"}),
    frozenset({"containerd", "containerd.io", "containerd2"}),
    frozenset(
        {
            "node-exporter",
            "node_exporter",
            "prometheus-node-exporter",
            "golang-github-prometheus-node-exporter",
        }
    ),
    frozenset({"nginx", "nginx-core", "nginx-full", "nginx-light"}),
    frozenset({"apache", "apache2", "httpd"}),
    frozenset({"python", "python3"}),
    frozenset({"ssh", "openssh-server", "sshd"}),
    frozenset({"ntp", "chrony", "chronyd", "systemd-timesyncd"}),
    frozenset({"kvm", "qemu-kvm", "qemu-system-x86", "qemu-system-arm"}),
    frozenset({"libvirt", "libvirt-daemon", "libvirt-daemon-system"}),
    frozenset({"kubernetes", "k8s", "kubelet", "kubeadm", "k3s"}),
    frozenset({"audit", "auditd"}),
    frozenset({"networkmanager", "network-manager", "NetworkManager"}),
    frozenset({"ros2", "ros-jazzy-ros-base", "ros-jazzy-desktop", "ros-humble-ros-base"}),
)

# Words that are also package names but almost never mean the package in a request.
NOT_PACKAGE_WORDS = frozenset(
    {
        "less",
        "file",
        "time",
        "which",
        "patch",
        "screen",
        "make",
        "kernel",
        "shadow",
        "base",
        "linux",
        "minimal",
        "desktop",
        "server",
        "filesystem",
        "initramfs",
        "image",
        "edge",
        "raw",
        "iso",
        "cloud",
        "secure",
        "tar",
        "find",
        "bc",
        "at",
        "ed",
        "dialog",
        "parted",
        "rpm",
        "tree",
    }
)

# Words that point at a capability when negated or requested ("no GUI").
CAPABILITY_SYNONYMS: dict[str, str] = {
    "gui": "desktop",
    "desktop": "desktop",
    "x11": "desktop",
    "wayland": "desktop",
    "graphics": "desktop",
    "kiosk": "desktop",
    "container": "container",
    "containers": "container",
    "docker": "container",
    "monitoring": "monitoring",
    "metrics": "monitoring",
    "prometheus": "monitoring",
    "web": "web-server",
    "webserver": "web-server",
    "http": "web-server",
    "cloud-init": "cloud",
    "virtualization": "virtualization",
    "kvm": "virtualization",
    "vm": "virtualization",
    "ros": "robotics",
    "ros2": "robotics",
    "robotics": "robotics",
    "gpu": "ai-inference",
    "ai": "ai-inference",
    "inference": "ai-inference",
    "video": "video",
    "gstreamer": "video",
    "rt": "real-time",
    "realtime": "real-time",
    "real-time": "real-time",
    "selinux": "security",
    "apparmor": "security",
}

# Words for what a group of packages is for that only take out ("scrap the display", "no
# screen on this one"): removing what matches is safe, adding would be a guess, and
# retrieval does not read them (a "display" is also a kiosk's purpose).
REMOVAL_SYNONYMS: dict[str, str] = {
    "display": "desktop",
    "displays": "desktop",
    "screen": "desktop",
    "screens": "desktop",
    "debug": "debugging",
    "debugging": "debugging",
    "debugger": "debugging",
    "debuggers": "debugging",
}
# groups only a removal names ("minus the debug stuff"): the packages that match them;
# template capabilities and retrieval never read these
REMOVAL_GROUPS: dict[str, tuple[str, ...]] = {
    "debugging": (
        "gdb*",
        "lldb*",
        "strace",
        "ltrace",
        "tcpdump",
        "valgrind",
        "linux-perf*",
        "perf",
        "bpftrace",
        "bpfcc-tools",
    ),
}


def alias_group(name: str) -> frozenset[str]:
    """Return every name that means the same package as ``name`` (itself included)."""
    lowered = name.lower()
    for group in PACKAGE_ALIASES:
        if lowered in {member.lower() for member in group}:
            return group
    return frozenset({name})


# --- request language: common words and paraphrases (stores/data/language.yaml) ------------


class Paraphrase:
    """Phrases that describe one name ("serves web pages" describes "web server").

    Attributes:
        means: What the phrases are read as: a capability synonym, a target word.
        phrases: Each phrase as a tuple of lower-case words.
    """

    __slots__ = ("means", "phrases")

    def __init__(self, means: str, phrases: tuple[tuple[str, ...], ...]) -> None:
        self.means = means
        self.phrases = phrases


class Language:
    """The request-language data: words never corrected, and paraphrases.

    Attributes:
        known_words: Common English words a spelling corrector leaves alone.
        paraphrases: The paraphrase entries, in file order.
        gap_words: Small words a paraphrase may skip between two of its words.
        max_gap: How many of them in a row.
        glue_words: Words just before a paraphrase that only link it to the sentence.
        phrase_table: ``(phrase words, means)``, longest phrases first.
    """

    def __init__(
        self,
        known_words: frozenset[str],
        paraphrases: tuple[Paraphrase, ...],
        gap_words: frozenset[str],
        max_gap: int,
        glue_words: frozenset[str] = frozenset(),
    ) -> None:
        self.known_words = known_words
        self.paraphrases = paraphrases
        self.gap_words = gap_words
        self.max_gap = max_gap
        self.glue_words = glue_words
        table = [(phrase, entry.means) for entry in paraphrases for phrase in entry.phrases]
        self.phrase_table: tuple[tuple[tuple[str, ...], str], ...] = tuple(
            sorted(table, key=lambda item: -len(item[0]))
        )


def _phrase_words(phrase: str) -> tuple[str, ...]:
    import re

    return tuple(re.findall(r"[a-z0-9]+", phrase.lower()))


def parse_language(data: Mapping[str, object]) -> Language:
    """Build the language tables from the parsed YAML document.

    Raises:
        ValueError: the document is malformed (a bug in the shipped data).
    """
    known_list: list[object] = []
    for key in ("known_words", "known_near_words"):
        raw_words = data.get(key) or []
        if not isinstance(raw_words, list):
            raise ValueError(f"{key} must be a list of words")
        known_list += raw_words
    for key in ("known_words", "known_near_words", "gap_words", "glue_words"):
        odd = [w for w in data.get(key) or [] if not isinstance(w, str)]  # type: ignore[attr-defined]
        if odd:
            raise ValueError(f"{key} holds {odd!r}, not words: quote yes, no, on and off")
    known = frozenset(str(w).lower() for w in known_list)
    entries: list[Paraphrase] = []
    raw_entries = data.get("paraphrases") or []
    if not isinstance(raw_entries, list):
        raise ValueError("paraphrases must be a list")
    for number, entry in enumerate(raw_entries, 1):
        if not isinstance(entry, Mapping) or not entry.get("means") or not entry.get("phrases"):
            raise ValueError(f"paraphrases[{number}] needs means and phrases")
        phrases = tuple(p for p in (_phrase_words(str(x)) for x in entry["phrases"]) if p)
        entries.append(Paraphrase(str(entry["means"]), phrases))
    gaps = data.get("gap_words") or []
    if not isinstance(gaps, list):
        raise ValueError("gap_words must be a list of words")
    max_gap = data.get("max_gap", 2)
    if not isinstance(max_gap, int) or max_gap < 0:
        raise ValueError("max_gap must be a whole number")
    glue = data.get("glue_words") or []
    if not isinstance(glue, list):
        raise ValueError("glue_words must be a list of words")
    return Language(
        known,
        tuple(entries),
        frozenset(str(w).lower() for w in gaps),
        max_gap,
        frozenset(str(w).lower() for w in glue),
    )


_LANGUAGE: list[Language] = []


def load_language() -> Language:
    """Load (once) the request language shipped in ``stores/data/language.yaml``."""
    if not _LANGUAGE:
        from pathlib import Path

        _LANGUAGE.append(
            parse_language(load_mapping(Path(__file__).parent / "data" / "language.yaml"))
        )
    return _LANGUAGE[0]
