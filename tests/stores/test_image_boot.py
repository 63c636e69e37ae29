"""Booting an image: the console watcher and its KVM-to-TCG fallback.

QEMU is replaced by a script that replays what the real one printed on this kind of
machine: with ``accel=kvm`` a nested host opens ``/dev/kvm``, then QEMU reports "KVM
internal error" and pauses the guest instead of exiting (fixtures/qemu, recorded with
OVMF); with TCG the replay prints a login prompt. ``make e2e-build`` boots a real image.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from oic_ai.stores import image_boot
from tests.conftest import FIXTURES

KVM_ERROR = FIXTURES / "qemu" / "kvm-internal-error.log"
REPLAY = """#!{python}
import json, sys, time
from pathlib import Path
args = sys.argv[1:]
accel = args[args.index("-machine") + 1].split("accel=")[1]
calls = Path({calls!r})
calls.write_text(json.dumps(json.loads(calls.read_text() or "[]") + [accel]))
out = sys.stdout.buffer
if accel == "kvm" and {broken}:
    out.write(Path({kvm!r}).read_bytes())
elif accel == "kvm":
    out.write(b"[    0.000000] kvm-clock: Using msrs\\r\\n")
else:
    out.write(b"BdsDxe: loading Boot0001\\r\\n")
if accel == "tcg" or not {broken}:
    out.write(b"\\r\\nDebian GNU/Linux 13 oic-e2e ttyS0\\r\\n\\r\\noic-e2e login: ")
out.flush()
time.sleep(3600)  # the real QEMU keeps running (or paused) until it is stopped
"""


def _qemu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, kvm_broken: bool, replay: str = ""
) -> Path:
    """A QEMU that replays ``replay`` (by default REPLAY); returns the file of its calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls.json"
    calls.write_text("")
    script = bin_dir / "qemu-system-x86_64"
    text = (replay or REPLAY).format(
        python=sys.executable, calls=str(calls), kvm=f"{KVM_ERROR}", broken=kvm_broken
    )
    script.write_text(text)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setattr(image_boot, "_kvm", lambda: True)
    return calls


def test_a_kvm_that_pauses_the_guest_is_seen_at_once_not_after_the_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _qemu(tmp_path, monkeypatch, kvm_broken=True)
    result = image_boot.boot_to_login(
        tmp_path / "disk.raw", log=tmp_path / "boot.log", efi=False, accel="kvm", timeout=900
    )
    assert not result.login
    assert result.reason == "KVM failed to run it"
    assert b"KVM internal error" in (tmp_path / "boot.log").read_bytes()


@pytest.mark.parametrize(
    ("kvm_broken", "runs", "accel"),
    [
        (True, ["kvm", "tcg"], "tcg"),  # KVM opens but cannot run the guest: TCG at once
        (False, ["kvm"], "kvm"),  # a working KVM is kept, though the kernel says "kvm-clock"
    ],
)
def test_auto_boots_with_kvm_and_falls_back_to_tcg_only_when_kvm_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kvm_broken: bool, runs: list[str], accel: str
) -> None:
    calls = _qemu(tmp_path, monkeypatch, kvm_broken=kvm_broken)
    result = image_boot.boot_to_login(
        tmp_path / "disk.raw", log=tmp_path / "boot.log", efi=False, timeout=900
    )
    assert json.loads(calls.read_text()) == runs
    assert result.login and result.accel == accel
    assert result.prompt == "oic-e2e login:"
    assert result.to_json()["reason"] is None


ABORT = """#!{python}
import json, os, sys, time
from pathlib import Path
args = sys.argv[1:]
accel = args[args.index("-machine") + 1].split("accel=")[1]
calls = Path({calls!r})
calls.write_text(json.dumps(json.loads(calls.read_text() or "[]") + [accel]))
out = sys.stdout.buffer
if accel == "kvm":
    out.write(Path({log!r}).read_bytes())
    out.flush()
    os._exit(134)  # the real QEMU aborts on the assertion at once
out.write(b"\\r\\nDebian GNU/Linux 13 oic-e2e ttyS0\\r\\n\\r\\noic-e2e login: ")
out.flush()
time.sleep(3600)
"""


def test_a_qemu_that_aborts_under_kvm_is_booted_again_with_tcg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # recorded on a nested host (session 22): KVM opens, QEMU aborts on an MSR it refuses
    log = FIXTURES / "qemu" / "kvm-msr-abort.log"
    calls = _qemu(
        tmp_path, monkeypatch, kvm_broken=True, replay=ABORT.replace("{log!r}", repr(str(log)))
    )
    result = image_boot.boot_to_login(
        tmp_path / "disk.raw", log=tmp_path / "boot.log", efi=False, timeout=900
    )
    assert json.loads(calls.read_text()) == ["kvm", "tcg"]
    assert result.login and result.accel == "tcg"
