"""Words the parser uses to infer what a template is for when it does not say.

These tables describe OS families and what well-known packages imply. They feed
inferred keywords and use cases, and later the query classifier.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

# dist -> words people use for that distribution
DIST_WORDS: dict[str, tuple[str, ...]] = {
    "azl3": ("azure linux", "azl", "azurelinux", "mariner", "rpm"),
    "emt3": ("edge microvisor toolkit", "emt", "microvisor", "rpm"),
    "elxr12": ("elxr", "wind river", "debian", "bookworm", "deb"),
    "ubuntu24": ("ubuntu", "noble", "24.04", "deb"),
    "ubuntu26": ("ubuntu", "26.04", "deb"),
    "debian13": ("debian", "trixie", "deb"),
    "el10": ("rhel", "red hat", "redhat", "el10", "almalinux", "rocky", "rpm"),
}

# os -> its distributions, as the composer pairs them
OS_DISTS: dict[str, tuple[str, ...]] = {
    "azure-linux": ("azl3",),
    "edge-microvisor-toolkit": ("emt3",),
    "wind-river-elxr": ("elxr12",),
    "ubuntu": ("ubuntu24", "ubuntu26"),
    "debian": ("debian13",),
    "redhat-compatible-distro": ("el10",),
}

ARCH_WORDS: dict[str, tuple[str, ...]] = {
    "x86_64": ("x86_64", "amd64", "x64", "intel"),
    "aarch64": ("aarch64", "arm64", "arm"),
    "armv7hl": ("armv7hl", "arm32", "armhf"),
}

# image type -> the deployment context it implies
IMAGE_TYPE_CONTEXT: dict[str, tuple[str, ...]] = {
    "raw": ("disk image", "raw"),
    "iso": ("installer", "iso", "live media"),
    "img": ("network boot", "initrd", "pxe", "netboot"),
}

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
