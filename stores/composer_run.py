"""Run the composer's ``build`` and follow its log: stages, timings, artifacts, last error.

The composer (``image-composer-tool``) logs one line per step. :func:`run_composer`
reads them as they come, writes them (without colours) to a log file, reports each new
stage to a callback, and at the end collects the composer's own timing table, the
artifacts it lists and its last error line. Which lines start which stage is the
:data:`STAGES` table below, taken from the composer's messages.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from oic_ai.stores.errors import BackendUnavailableError

COMPOSER_NAMES = ("image-composer-tool", "os-image-composer")
# (stage, pattern on the log message): a stage starts at the first line matching its pattern
# after the stages before it; the composer's own words, in its order.
STAGES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("load template", r"^(Using configuration from|Loaded user template)"),
        ("repositories", r"^Initialized \S+ provider"),
        ("resolve packages", r"^Sorting \d+ packages"),
        ("chroot", r"^Downloaded \d+ packages for chroot|^Chroot environment build"),
        ("disk image", r"^(Building image:|Creating raw image file|Creating partition)"),
        ("install packages", r"^Image package installation"),
        ("configure system", r"^Image system configuration"),
        ("bootloader", r"^Installing bootloader"),
        ("sbom", r"^Image SBOM generation"),
        ("finish image", r"^Image installation post-processing"),
        ("convert and compress", r"^(Converting|Compressing) image file"),
        ("done", r"^image build completed successfully"),
    )
)
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# zap's console lines: time, level, caller, message (tab separated)
_LOG_LINE = re.compile(r"^\S+\t([A-Z]+)\t\S+\t(.*)$")
_TIMING_ROW = re.compile(r"^\s*\|\s*([^|]+?)\s*\|\s*([0-9][0-9hmsµu.]*)\s*\|\s*$")
_DURATION_PART = re.compile(r"([0-9.]+)(h|ms|m|µs|us|s)")


@dataclass(frozen=True)
class StageEvent:
    """A stage that has just started, ``elapsed`` seconds into the build."""

    stage: str
    message: str
    elapsed: float


@dataclass(frozen=True)
class StageTime:
    """How long one stage took."""

    name: str
    seconds: float

    def to_json(self) -> dict[str, object]:
        """``{"name", "seconds"}``."""
        return {"name": self.name, "seconds": round(self.seconds, 1)}


@dataclass
class ComposerRun:
    """What one composer build did.

    Attributes:
        returncode: The composer's exit code.
        seconds: Wall time of the whole run.
        stages: Our measure of each stage (from one stage's first line to the next's).
        composer_timings: The composer's own timing table, if it printed one.
        artifacts: The files the composer lists as generated.
        last_error: Its last error line (when it failed), or None.
        log: The log file (every line, without colours).
    """

    returncode: int
    seconds: float
    log: Path
    stages: list[StageTime] = field(default_factory=list)
    composer_timings: list[StageTime] = field(default_factory=list)
    artifacts: list[Path] = field(default_factory=list)
    last_error: str | None = None

    @property
    def ok(self) -> bool:
        """The composer exited 0."""
        return self.returncode == 0


def find_composer(given: str | None, configured: str | None) -> Path:
    """The composer: ``--composer``, else ``ai.composer.path``, else on PATH.

    Raises:
        BackendUnavailableError: none is found, or the one named is not executable.
    """
    for source, value in (("--composer", given), ("ai.composer.path", configured)):
        if value:
            path = Path(value).expanduser()
            if path.is_file() and os.access(path, os.X_OK):
                return path
            found = shutil.which(value)
            if found:
                return Path(found)
            raise BackendUnavailableError(
                f"the composer named by {source} ({value}) is not an executable file",
                fix="check the path, or build image-composer-tool first",
            )
    for name in COMPOSER_NAMES:
        found = shutil.which(name)
        if found:
            return Path(found)
    raise BackendUnavailableError(
        "image-composer-tool is not installed (not on PATH, and ai.composer.path is not set)",
        fix="install it, or name it with --composer PATH or ai.composer.path in config.yaml",
    )


def parse_duration(text: str) -> float | None:
    """Seconds in a Go duration (``2m23.031s``, ``512ms``), or None."""
    parts = _DURATION_PART.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text.strip():
        return None
    scale = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6}
    return sum(float(number) * scale[unit] for number, unit in parts)


class _LogReader:
    """Follows the composer's lines: stages, timing table, artifacts, last error."""

    def __init__(self, on_stage: Callable[[StageEvent], None] | None, started: float) -> None:
        self.on_stage = on_stage
        self.started = started
        self.stage_index = -1
        self.stage_started = started
        self.stages: list[StageTime] = []
        self.timings: list[StageTime] = []
        self.in_timings = False
        self.artifact_dir: Path | None = None
        self.artifacts: list[Path] = []
        self.last_error: str | None = None

    def line(self, raw: str) -> str:
        text = _ANSI.sub("", raw.rstrip("\r\n"))
        match = _LOG_LINE.match(text)
        level, message = (match.group(1), match.group(2)) if match else ("", text)
        if level in ("ERROR", "FATAL", "DPANIC", "PANIC") or message.startswith("Error:"):
            self.last_error = message.strip()
        self._stage(message)
        self._artifact(message)
        self._timing(message)
        return text

    def _stage(self, message: str) -> None:
        for index in range(self.stage_index + 1, len(STAGES)):
            name, pattern = STAGES[index]
            if pattern.search(message):
                now = time.monotonic()
                if self.stage_index >= 0:
                    self.stages.append(
                        StageTime(STAGES[self.stage_index][0], now - self.stage_started)
                    )
                self.stage_index, self.stage_started = index, now
                if self.on_stage is not None:
                    self.on_stage(StageEvent(name, message.strip(), now - self.started))
                return

    def _artifact(self, message: str) -> None:
        if message.startswith("Checking for image artifacts in:"):
            self.artifact_dir = Path(message.split(":", 1)[1].strip())
        elif self.artifact_dir is not None and message.startswith("Checking file:"):
            name = message.split(":", 1)[1].strip()
            if name.endswith("(isDir=false)"):
                self.artifacts.append(self.artifact_dir / name[: -len("(isDir=false)")].strip())

    def _timing(self, message: str) -> None:
        if "Build Timings:" in message:
            self.in_timings = True
            return
        row = _TIMING_ROW.match(message) if self.in_timings else None
        if row is None:
            return
        name, value = row.group(1), row.group(2)
        seconds = parse_duration(value)
        if name.lower() == "total time":
            self.in_timings = False
        elif seconds is not None and name != "Stage":
            self.timings.append(StageTime(name, seconds))

    def finish(self) -> None:
        if self.stage_index >= 0 and STAGES[self.stage_index][0] != "done":
            self.stages.append(
                StageTime(STAGES[self.stage_index][0], time.monotonic() - self.stage_started)
            )


def run_composer(
    composer: Path,
    template: Path,
    *,
    log: Path,
    config: Path | None = None,
    on_stage: Callable[[StageEvent], None] | None = None,
) -> ComposerRun:
    """Run ``composer [--config CONFIG] build TEMPLATE`` and follow it to the end.

    The composer runs in ``config``'s folder when one is given (its relative paths are
    relative to it), else in the current folder, as the composer expects. On Ctrl-C it
    is asked to stop (SIGINT, then SIGTERM after 30 s) before the interrupt goes on.

    Raises:
        BackendUnavailableError: the composer cannot be started.
    """
    command = [str(composer)]
    if config is not None:
        command += ["--config", str(config)]
    command += ["build", str(template)]
    log.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    reader = _LogReader(on_stage, started)
    try:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=str(config.parent) if config is not None else None,
            text=True,
            errors="replace",
            bufsize=1,
            start_new_session=True,  # a Ctrl-C reaches us; we stop the composer in order
        )
    except OSError as exc:
        raise BackendUnavailableError(
            f"cannot start the composer {composer}: {exc.strerror or exc}",
            fix="check that it is an executable for this machine",
        ) from None
    assert process.stdout is not None
    try:
        with log.open("w", encoding="utf-8") as out:
            for raw in process.stdout:
                out.write(reader.line(raw) + "\n")
                out.flush()
        process.wait()
    except KeyboardInterrupt:
        _stop(process)
        raise
    reader.finish()
    return ComposerRun(
        returncode=process.returncode,
        seconds=time.monotonic() - started,
        log=log,
        stages=reader.stages,
        composer_timings=reader.timings,
        artifacts=[p for p in reader.artifacts if p.exists()],
        last_error=reader.last_error,
    )


def _stop(process: subprocess.Popen[str]) -> None:
    """Ask the composer to stop (it unmounts and detaches on SIGINT), then insist."""
    for sig, wait in ((signal.SIGINT, 30.0), (signal.SIGTERM, 10.0)):
        if process.poll() is not None:
            return
        process.send_signal(sig)
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue
    process.kill()
    process.wait()
