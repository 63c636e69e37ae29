"""Boot a raw disk image headless in QEMU and wait for the login prompt on its serial port.

The image is opened with ``snapshot=on``, so booting never changes it. EFI images boot
with OVMF (Debian's ``ovmf`` package), others with QEMU's own BIOS; KVM is used when
``/dev/kvm`` can be opened and QEMU starts with it, else TCG (slower, works anywhere;
some nested hosts open ``/dev/kvm`` but QEMU then fails at once, or pauses the guest with
"KVM internal error", or abort on an MSR the host refuses: all fall back to TCG at
once). When GRUB stops at its ``grub>`` prompt (it did not find its configuration on the
ESP), the boot types ``configfile`` for the root partition's ``/boot/grub/grub.cfg`` once
and says so.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from oic_ai.stores.errors import BackendUnavailableError, UserInputError

_OVMF = (
    ("/usr/share/OVMF/OVMF_CODE_4M.fd", "/usr/share/OVMF/OVMF_VARS_4M.fd"),
    ("/usr/share/OVMF/OVMF_CODE.fd", "/usr/share/OVMF/OVMF_VARS.fd"),
)
_LOGIN = re.compile(rb"([A-Za-z0-9][A-Za-z0-9.-]*) login: ?")
_GRUB_PROMPT = b"grub>"
# What QEMU prints when KVM opens but cannot run the guest (nested hosts): it then pauses
# the machine rather than exiting, so the console would stay silent until the timeout.
_KVM_BROKEN = re.compile(
    rb"KVM internal error|kvm run failed|failed to initiali[sz]e kvm|Could not access KVM"
    # another nested host: QEMU aborts on an MSR the host's KVM refuses
    rb"|failed to set MSR|kvm_buf_set_msrs",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class BootResult:
    """How a boot went.

    Attributes:
        login: The login prompt appeared.
        seconds: Seconds from start to the prompt (or to giving up).
        prompt: The prompt line (``myhost login:``), or "".
        log: The serial console log.
        typed: What was typed at a ``grub>`` prompt, or "".
        accel: ``kvm`` or ``tcg``.
        reason: Why no prompt appeared, or "".
    """

    login: bool
    seconds: float
    log: Path
    prompt: str = ""
    typed: str = ""
    accel: str = "tcg"
    reason: str = ""

    def to_json(self) -> dict[str, object]:
        """The ``build --json`` ``boot`` object."""
        return {
            "login": self.login,
            "seconds": round(self.seconds, 1),
            "prompt": self.prompt,
            "typed_at_grub": self.typed or None,
            "accel": self.accel,
            "log": str(self.log),
            "reason": self.reason or None,
        }


def _qemu(arch: str) -> str:
    if arch not in ("x86_64", "amd64"):
        raise UserInputError(
            f"booting {arch} images is not supported yet", fix="boot it on a {arch} machine"
        )
    found = shutil.which("qemu-system-x86_64")
    if found is None:
        raise BackendUnavailableError(
            "qemu-system-x86_64 is missing: booting the image needs it",
            fix="install Debian's qemu-system-x86 and ovmf packages",
        )
    return found


def _firmware() -> tuple[Path, Path]:
    for code, variables in _OVMF:
        if Path(code).is_file() and Path(variables).is_file():
            return Path(code), Path(variables)
    raise BackendUnavailableError(
        "no OVMF firmware found (an EFI image boots with it)", fix="install Debian's ovmf package"
    )


def _kvm() -> bool:
    try:
        os.close(os.open("/dev/kvm", os.O_RDWR))
    except OSError:
        return False
    return True


def boot_to_login(
    raw: Path,
    *,
    log: Path,
    efi: bool = True,
    arch: str = "x86_64",
    grub_command: str = "configfile (hd0,gpt2)/boot/grub/grub.cfg",
    timeout: float = 600.0,
    memory_mb: int = 1024,
    accel: str = "auto",
) -> BootResult:
    """Boot ``raw`` and wait until its serial console shows a login prompt.

    Args:
        raw: A raw disk image (never written: QEMU's snapshot mode).
        log: Where the serial console output goes.
        efi: Boot with OVMF (EFI) rather than the BIOS.
        arch: The image's architecture (x86_64 only, for now).
        grub_command: Typed once if GRUB stops at ``grub>``.
        timeout: Seconds before giving up.
        memory_mb: The machine's memory.
        accel: ``kvm``, ``tcg``, or ``auto`` (KVM when it works, else TCG).

    Raises:
        BackendUnavailableError: QEMU or the firmware is missing.
        UserInputError: the architecture cannot be booted here.
    """
    qemu = _qemu(arch)
    if accel == "auto":
        result = boot_to_login(
            raw, log=log, efi=efi, arch=arch, grub_command=grub_command, timeout=timeout,
            memory_mb=memory_mb, accel="kvm" if _kvm() else "tcg",
        )  # fmt: skip
        stopped = result.reason == "QEMU stopped first"  # it exited before any prompt
        if result.accel == "kvm" and not result.login and (_kvm_failed(log) or stopped):
            return boot_to_login(
                raw, log=log, efi=efi, arch=arch, grub_command=grub_command, timeout=timeout,
                memory_mb=memory_mb, accel="tcg",
            )  # fmt: skip
        return result
    log.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="oic-ai-boot-") as work:
        command = [
            qemu, "-machine", f"q35,accel={accel}", "-cpu", "host" if accel == "kvm" else "max",
            "-m", str(memory_mb), "-smp", "2", "-nographic", "-no-reboot",
            "-drive", f"file={raw},format=raw,if=virtio,snapshot=on",
            "-netdev", "user,id=n0", "-device", "virtio-net-pci,netdev=n0",
        ]  # fmt: skip
        if efi:
            code, variables = _firmware()
            copy = Path(work) / "vars.fd"
            shutil.copyfile(variables, copy)
            command += [
                "-drive", f"if=pflash,format=raw,readonly=on,file={code}",
                "-drive", f"if=pflash,format=raw,file={copy}",
            ]  # fmt: skip
        return _watch(command, log, grub_command, timeout, accel)


def _kvm_failed(log: Path) -> bool:
    """Whether the boot ended because KVM did not work (QEMU's own words for it)."""
    try:
        return _KVM_BROKEN.search(log.read_bytes()[:65536]) is not None
    except OSError:
        return False


def _watch(
    command: list[str], log: Path, grub_command: str, timeout: float, accel: str
) -> BootResult:
    started = time.monotonic()
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    seen = bytearray()
    lock = threading.Lock()

    def pump() -> None:
        assert process.stdout is not None
        with log.open("wb") as out:
            while chunk := os.read(process.stdout.fileno(), 4096):
                out.write(chunk)
                out.flush()
                with lock:
                    seen.extend(chunk)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    typed = ""
    try:
        while True:
            elapsed = time.monotonic() - started
            with lock:
                text = bytes(seen)
            found = _LOGIN.search(text)
            if found:
                prompt = found.group(0).decode("utf-8", "replace").strip()
                return BootResult(True, elapsed, log, prompt, typed, accel)
            if not typed and _GRUB_PROMPT in text:
                assert process.stdin is not None
                process.stdin.write(grub_command.encode() + b"\r")
                process.stdin.flush()
                typed = grub_command
            if accel == "kvm" and _KVM_BROKEN.search(text):
                return BootResult(False, elapsed, log, "", typed, accel, "KVM failed to run it")
            if process.poll() is not None:
                return BootResult(False, elapsed, log, "", typed, accel, "QEMU stopped first")
            if elapsed > timeout:
                return BootResult(
                    False, elapsed, log, "", typed, accel, f"no login prompt in {timeout:.0f} s"
                )
            time.sleep(0.5)
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        reader.join(timeout=5)
