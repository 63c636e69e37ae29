"""Terminal output of ``oic-ai build`` and ``oic-ai verify``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from oic_ai.cli.render.terminal import safe_console

if TYPE_CHECKING:
    from oic_ai.services.build import BuildReport
    from oic_ai.tools.image_verify import VerifyReport


def duration(seconds: float) -> str:
    """``4m16s``, ``12.3s``."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes}m{rest:02d}s"


def _size(size: int | None) -> str:
    if size is None:
        return "?"
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= factor:
            return f"{size / factor:.1f} {unit}"
    return f"{size} B"


def print_verify(report: VerifyReport, console: Any = None) -> None:
    """The verify table: failing rows first in red or yellow (known), then a summary line.

    Package rows that passed are summed up in one line; every other row is shown.
    """
    # lazy: rich costs start-up; --json never draws
    from rich.markup import escape
    from rich.table import Table

    out = console or safe_console(highlight=False, soft_wrap=True)
    table = Table(show_header=True, box=None, pad_edge=False)
    for column in ("", "check", "template", "image"):
        table.add_column(column, overflow="fold")
    packages = [c for c in report.checks if c.kind == "package"]
    for check in report.checks:
        if check.kind == "package" and check.ok:
            continue
        if check.ok:
            mark = "[green]ok[/]"
        elif check.known:
            mark = "[yellow]known[/]"
        else:
            mark = "[red]DIFFERS[/]"
        what = escape(check.what) + (f" [dim]({escape(check.known)})[/]" if check.known else "")
        table.add_row(mark, what, escape(check.expected), escape(check.found))
    installed = sum(c.ok for c in packages)
    if packages:
        mark = "[green]ok[/]" if installed == len(packages) else "[red]DIFFERS[/]"
        table.add_row(mark, "packages", f"{len(packages)} listed", f"{installed} installed")
    out.print(table)
    for line in report.not_checked:
        out.print(f"[dim]not checked:[/] {escape(line)}")
    for behaviour, what in report.known.items():
        out.print(f"[yellow]known[/] {escape(behaviour)}: the composer {escape(what)}")
    ok = sum(c.ok for c in report.checks)
    total = len(report.checks)
    if report.matches:
        out.print(f"[green]The image matches the template[/] on all {total} checks.")
    elif report.explained:
        out.print(
            f"The image matches the template on {ok} of {total} checks; the other "
            f"{total - ok} are known composer behaviour."
        )
    else:
        out.print(
            f"[red]The image differs from the template[/] on "
            f"{len(report.unexplained)} of {total} checks that no known composer behaviour "
            "explains."
        )


def print_build(report: BuildReport) -> None:
    """Artifacts, each stage's time, the verify table and the boot result."""
    # lazy: rich costs start-up; --json never draws
    from rich.markup import escape

    out = safe_console(highlight=False, soft_wrap=True)
    run = report.run
    if not run.ok:
        out.print(
            f"[red]The composer failed[/] (exit {run.returncode}) after {duration(run.seconds)}: "
            f"{escape(run.last_error or 'no error line in its log')}"
        )
        out.print(f"Log: {escape(str(run.log))}")
        return
    out.print(f"[bold]Built[/] {escape(str(report.template))} in {duration(run.seconds)}.")
    out.print("Artifacts:")
    for path in run.artifacts:
        size = path.stat().st_size if path.exists() else None
        out.print(f"  {escape(str(path))}  [dim]{_size(size)}[/]")
    out.print("Stages: " + ", ".join(f"{s.name} {duration(s.seconds)}" for s in report.stages))
    if run.stages:
        out.print("  compose: " + ", ".join(f"{s.name} {duration(s.seconds)}" for s in run.stages))
    if run.composer_timings:
        out.print(
            "  the composer's own timings: "
            + ", ".join(f"{s.name} {duration(s.seconds)}" for s in run.composer_timings)
        )
    out.print(f"Log: {escape(str(run.log))}")
    if report.verify is not None:
        out.print(f"\n[bold]Verify[/] {escape(report.image.name if report.image else '')}:")
        print_verify(report.verify, out)
    elif report.verify_skipped:
        out.print(f"Not verified: {escape(report.verify_skipped)}")
    boot = report.boot
    if boot is None:
        return
    if boot.typed:
        out.print(f"[yellow]GRUB stopped at its prompt[/]; typed {escape(boot.typed)!s} to go on.")
    if boot.login:
        out.print(
            f"[green]Boot[/]: login prompt after {duration(boot.seconds)} "
            f"({escape(boot.prompt)}; {boot.accel}); serial log {escape(str(boot.log))}"
        )
    else:
        out.print(
            f"[red]Boot failed[/]: {escape(boot.reason)} after {duration(boot.seconds)}; "
            f"serial log {escape(str(boot.log))}"
        )
