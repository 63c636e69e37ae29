"""Round 15 (helper h3): things a template cannot express, targets, artifacts, in wordings
of our own.

- a file's content pasted or placed at a path inside the image (a udev rule, a config
  file's key and value, "goes in /etc/app/app.ini") changes nothing and is reported; keys
  and certificates at a path (secure boot, repository keys) stay template fields;
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "said",
    [
        'the scanner needs this rule: ACTION=="add", KERNEL=="hidraw*", MODE="0660", GROUP="plugdev"',
        'add a udev rule SUBSYSTEM=="net", ATTR{address}=="aa:bb:cc:dd:ee:ff", NAME="lan0" please',
        'from the vendor notes:\nSUBSYSTEMS=="usb", ATTRS{idProduct}=="7e3f", SYMLINK+="modem0"',
        'KERNEL=="ttyACM[0-9]*", MODE="0666" is what the vendor wants',
    ],
)
def test_a_pasted_udev_rule_changes_nothing_and_is_reported(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert plan.operations == [], (said, plan.operations)
    assert any("udev rule" in item for item in plan.not_applied), (said, plan.not_applied)


def test_an_assignment_alone_is_no_udev_rule() -> None:
    # no match key ("=="): a kernel option's form, read as one
    plan = plan_on(UBUNTU, 'add the kernel option quiet and MODE="x"')
    assert not any("udev rule" in item for item in plan.not_applied), plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "the broker address belongs in /etc/telemetry/agent.toml, add it please",
        "please copy my settings into /opt/scada/conf/site.yaml",
        "write log_level=debug to /etc/myapp.conf",
        "put this line in /etc/default/grub-extra: TIMEOUT=3",
        "and set retries=5 inside /srv/app/config.json",
        "also ship our config at /etc/fluent-bit/fluent-bit.conf with flushInterval: 5",
    ],
)
def test_content_placed_in_a_file_of_the_image_is_reported(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert plan.operations == [], (said, plan.operations)
    assert plan.not_applied, said


@pytest.mark.parametrize(
    ("said", "op"),
    [
        ("secure boot on, keys at /etc/keys/db.key /etc/keys/db.crt /etc/keys/db.cer", "set_immutability"),
        ("add a /var/lib/docker partition of 20GiB", "add_partition"),
        ("add nginx", "add_packages"),
    ],
)
def test_a_key_a_mount_point_or_a_package_is_no_file_content(said: str, op: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert any(o.op == op for o in plan.operations), (said, plan.operations, plan.not_applied)
