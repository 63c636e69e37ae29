"""The build service: run the composer on a template, then prove what the image holds.

:func:`build_image` takes a template (a file, or a session's current template), checks
that this host can build (root, loop devices, the composer), runs the composer while
reporting its stages, then reads the raw image it made (:func:`verify_image`) and, if
asked, boots it to a login prompt. :func:`verify_image` is also ``oic-ai verify``.

A build's own files (the composer's log, a session's template, the serial log, a
compressed image unpacked for reading, which is deleted at the end) go to a folder under
``$XDG_CACHE_HOME/oic-ai/builds/``, outside any project; the composer keeps its artifacts
where its own config says.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oic_ai.stores.errors import BackendUnavailableError, UserInputError

if TYPE_CHECKING:
    from oic_ai.stores.composer_run import ComposerRun, StageEvent, StageTime
    from oic_ai.stores.image_boot import BootResult
    from oic_ai.stores.settings import Settings
    from oic_ai.tools.image_verify import VerifyReport

Progress = Callable[[str], None]
"""Called with one line per step of a build (a new composer stage, verify, boot)."""
RAW_SUFFIXES = (".raw", ".raw.gz", ".raw.xz", ".raw.zst", ".img")


class InvalidTemplateError(UserInputError):
    """The template does not validate: building it would only fail later (exit 1)."""

    exit_code = 1


def cache_folder(environ: dict[str, str] | None = None) -> Path:
    """``$XDG_CACHE_HOME/oic-ai`` (``~/.cache/oic-ai``)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "oic-ai"


def builds_folder(environ: dict[str, str] | None = None) -> Path:
    """``$XDG_CACHE_HOME/oic-ai/builds``: one folder per build (log, report, serial log)."""
    return cache_folder(environ) / "builds"


def check_host() -> None:
    """Refuse early when this host cannot build: not root, or no loop devices.

    Raises:
        BackendUnavailableError: with what is missing and the fix (exit 3).
    """
    if os.geteuid() != 0:
        raise BackendUnavailableError(
            "building an image needs root: the composer runs mmdebstrap, losetup, mount and chroot",
            fix="run it as root (sudo -E oic-ai build ...)",
        )
    if not Path("/dev/loop-control").exists():
        raise BackendUnavailableError(
            "this host has no loop devices (/dev/loop-control is missing): the composer "
            "attaches the disk image to one",
            fix="load the loop module (modprobe loop), or build in a VM that has it",
        )


def read_template_text(path: Path) -> str:
    """A template file's text.

    Raises:
        UserInputError: the file cannot be read.
    """
    from oic_ai.stores.template_library import UnreadableFileError, read_file_bytes

    try:
        return read_file_bytes(path).decode("utf-8")
    except UnreadableFileError as exc:
        raise UserInputError(f"template {path}: {exc.reason}", fix="check the path") from None
    except UnicodeDecodeError:
        raise UserInputError(f"template {path} is not UTF-8 text", fix="re-save it") from None


def _root_hint(template: dict[str, Any], names: dict[str, int]) -> int | None:
    """The image partition number the template mounts at ``/``, by GPT name or position."""
    parts = (template.get("disk") or {}).get("partitions") or []
    for index, part in enumerate(parts if isinstance(parts, list) else []):
        if isinstance(part, dict) and part.get("mountPoint") == "/":
            return names.get(str(part.get("id") or ""), index + 1)
    return None


def root_partition_number(raw: Path, template_text: str) -> int | None:
    """The number of the image partition that holds ``/``."""
    from oic_ai.stores.disk_image import read_partition_table
    from oic_ai.stores.image_contents import find_root
    from oic_ai.stores.targets import load_targets
    from oic_ai.tools.image_verify import template_data

    table = read_partition_table(raw)
    names = {p.name: p.number for p in table.partitions if p.name}
    hint = _root_hint(template_data(template_text), names)
    root = find_root(table, set(load_targets().root_guids()), hint)
    return root.number if root else None


def verify_image(
    image: Path, template_text: str, *, scratch: Path | None = None, name: str | None = None
) -> VerifyReport:
    """Read ``image`` without mounting it and compare it with the template.

    Args:
        image: A raw image, or one compressed with gzip, xz or zstd (unpacked, sparse,
            into ``scratch`` and deleted after).
        template_text: The template YAML the image was built from.
        scratch: Where a compressed image is unpacked (default:
            ``$XDG_CACHE_HOME/oic-ai/unpacked``).
        name: The artifact name for the image name row (default: ``image``'s name).

    Raises:
        UserInputError: the image or the template cannot be read, or a tool is missing.
    """
    from oic_ai.stores.disk_image import raw_image, read_partition_table
    from oic_ai.stores.image_contents import read_image
    from oic_ai.stores.targets import load_targets
    from oic_ai.tools.image_verify import template_data, verify_contents

    data = template_data(template_text)
    with raw_image(image, scratch or cache_folder() / "unpacked") as raw:
        table = read_partition_table(raw)
        names = {p.name: p.number for p in table.partitions if p.name}
        guids = set(load_targets().root_guids())
        contents = read_image(raw, table, root_guids=guids, root_hint=_root_hint(data, names))
    return verify_contents(template_text, contents, image_name=name or image.name)


@dataclass
class BuildReport:
    """What one ``oic-ai build`` did, stage by stage."""

    template: Path
    composer: Path
    folder: Path
    run: ComposerRun
    stages: list[StageTime] = field(default_factory=list)
    image: Path | None = None
    verify: VerifyReport | None = None
    verify_skipped: str | None = None
    boot: BootResult | None = None

    @property
    def exit_code(self) -> int:
        """0 built and as asked; 1 an unexplained difference or no login; 3 composer failed."""
        if not self.run.ok:
            return 3
        if self.verify is not None and not self.verify.explained:
            return 1
        if self.boot is not None and not self.boot.login:
            return 1
        return 0

    def to_json(self) -> dict[str, Any]:
        """The ``build --json`` shape."""
        return {
            "template": str(self.template),
            "composer": str(self.composer),
            "ok": self.run.ok,
            "error": None if self.run.ok else (self.run.last_error or "the composer failed"),
            "log": str(self.run.log),
            "artifacts": [
                {"path": str(p), "bytes": p.stat().st_size if p.exists() else None}
                for p in self.run.artifacts
            ],
            "image": str(self.image) if self.image else None,
            "seconds": round(sum(s.seconds for s in self.stages), 1),
            "stages": [s.to_json() for s in self.stages],
            "composer_stages": [s.to_json() for s in self.run.stages],
            "composer_timings": [s.to_json() for s in self.run.composer_timings],
            "verify": self.verify.to_json() if self.verify else None,
            "verify_skipped": self.verify_skipped,
            "boot": self.boot.to_json() if self.boot else None,
        }


@dataclass(frozen=True)
class BuildRequest:
    """What to build and how.

    Attributes:
        template: A template file, or None to take ``text`` or a session's template.
        text: The template itself (the page's Build action), written to the build's folder.
        session: A session id (or unique prefix) whose template to build.
        latest: Build the latest session's template (``--continue``).
        composer: The composer to run (``--composer``); else settings, else PATH.
        composer_config: The composer's global config (``--composer-config``).
        boot: Boot the image after verifying it.
        boot_timeout: Seconds to wait for the login prompt.
    """

    template: Path | None = None
    text: str | None = None
    session: str | None = None
    latest: bool = False
    composer: str | None = None
    composer_config: Path | None = None
    boot: bool = False
    boot_timeout: float = 600.0


def _session_template(settings: Settings, request: BuildRequest) -> str:
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.services.sessions import pick_session

    with TemplateAgent(settings) as agent:
        session = pick_session(agent.sessions, settings, request.session, request.latest)
        if session is None:
            raise UserInputError(
                f"no session was updated in the last {settings.session_timeout}",
                fix="name one with --session ID, or give a template file",
            )
        text = agent.current_template(session)
    if not text:
        raise UserInputError(
            f"session {session} has no template yet", fix="generate one first (oic-ai generate)"
        )
    return text


def _template_file(settings: Settings, request: BuildRequest, folder: Path) -> tuple[Path, str]:
    if request.template is not None:
        return request.template.resolve(), read_template_text(request.template)
    text = request.text if request.text is not None else _session_template(settings, request)
    path = folder / "template.yml"
    path.write_text(text, encoding="utf-8")
    return path, text


def _check_valid(text: str, source: Path) -> None:
    from oic_ai.tools.validate_template import validate_text

    report = validate_text(text, source=str(source))
    if report.errors:
        first = report.errors[0]
        raise InvalidTemplateError(
            f"{source} has {len(report.errors)} validation error(s), first: {first.path}: "
            f"{first.message}",
            fix=f"fix it first (oic-ai validate {source})",
        )
    # the composer would take a <PASSWORD_HASH> placeholder for the password itself
    holes = [f for f in report.warnings if f.code == "placeholder-value"]
    if holes:
        raise InvalidTemplateError(
            f"{source} still has {len(holes)} placeholder(s), first at {holes[0].path} "
            f"(line {holes[0].line}): the composer would build them in as they are",
            fix="replace each one (a password with a crypt hash: openssl passwd -6), or remove it",
        )


def _raw_artifact(artifacts: list[Path]) -> Path | None:
    return next((p for p in artifacts if p.name.endswith(RAW_SUFFIXES)), None)


def _boot_plan(text: str, root_number: int | None) -> tuple[bool, str, str]:
    """(EFI?, the GRUB fallback command for the root partition, arch) for the template."""
    from oic_ai.tools.image_verify import template_data  # lazy, as the other build steps

    data = template_data(text)
    system = data.get("systemConfig") or {}
    boot_type = (system.get("bootloader") or {}).get("bootType", "efi")
    number = root_number or 2
    table = str((data.get("disk") or {}).get("partitionTableType") or "gpt")
    where = f"(hd0,{'msdos' if table == 'mbr' else 'gpt'}{number})"
    arch = str((data.get("target") or {}).get("arch") or "x86_64")
    return boot_type != "legacy", f"configfile {where}/boot/grub/grub.cfg", arch


def build_image(
    settings: Settings, request: BuildRequest, progress: Progress | None = None
) -> BuildReport:
    """Build, verify and (if asked) boot one template's image.

    Raises:
        UserInputError: the template cannot be read or does not validate (exit 1).
        BackendUnavailableError: not root, no loop devices, no composer (exit 3).
    """
    from oic_ai.stores.composer_run import StageTime, find_composer, run_composer

    say = progress or (lambda line: None)
    composer = find_composer(request.composer, settings.composer_path)
    check_host()
    folder = builds_folder() / time.strftime("%Y%m%d-%H%M%S")
    folder.mkdir(parents=True, exist_ok=True)
    template, text = _template_file(settings, request, folder)
    _check_valid(text, template)
    config = request.composer_config or settings.composer_config
    say(f"composing {template} with {composer}")

    def stage(event: StageEvent) -> None:
        minutes, seconds = divmod(int(event.elapsed), 60)
        say(f"[{minutes:2d}:{seconds:02d}] {event.stage}: {event.message[:100]}")

    run = run_composer(
        composer, template, log=folder / "composer.log", config=config, on_stage=stage
    )
    report = BuildReport(template, composer, folder, run, [StageTime("compose", run.seconds)])
    if not run.ok:
        say(f"the composer failed (exit {run.returncode}): {run.last_error or 'no error line'}")
        return _finish(report)
    image = _raw_artifact(run.artifacts)
    report.image = image
    if image is None:
        report.verify_skipped = "no raw disk image among the artifacts (verify reads raw images)"
        return _finish(report)
    _verify_and_boot(report, image, text, request, say)
    return _finish(report)


def _verify_and_boot(
    report: BuildReport, image: Path, text: str, request: BuildRequest, say: Progress
) -> None:
    from oic_ai.stores.composer_run import StageTime
    from oic_ai.stores.disk_image import raw_image

    with raw_image(image, report.folder) as raw:
        say(f"verifying {image.name}")
        started = time.monotonic()
        report.verify = verify_image(raw, text, name=image.name)
        report.stages.append(StageTime("verify", time.monotonic() - started))
        if not request.boot:
            return
        from oic_ai.stores.image_boot import boot_to_login

        efi, grub, arch = _boot_plan(text, root_partition_number(raw, text))
        cmdline = next((c.found for c in report.verify.checks if c.kind == "kernel-cmdline"), "")
        if cmdline and "console=ttyS" not in cmdline:
            say(
                "the kernel command line has no console=ttyS0: the login prompt may never "
                "reach the serial console the boot watches"
            )
        say(f"booting {image.name} headless (waiting for the login prompt)")
        started = time.monotonic()
        report.boot = boot_to_login(
            raw,
            log=report.folder / "serial.log",
            efi=efi,
            arch=arch,
            grub_command=grub,
            timeout=request.boot_timeout,
        )
        report.stages.append(StageTime("boot", time.monotonic() - started))
        if report.boot.typed:
            say(f"GRUB stopped at its prompt; typed: {report.boot.typed}")


def _finish(report: BuildReport) -> BuildReport:
    """Write the report beside the log, for later reading."""
    (report.folder / "report.json").write_text(
        json.dumps(report.to_json(), indent=1), encoding="utf-8"
    )
    return report
