"""Terminal output of the library commands: validate, index, search, cache, eval."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from oic_ai.cli.render.terminal import safe_console, terminal_text

if TYPE_CHECKING:
    from oic_ai.services.library import IndexOutcome
    from oic_ai.tools.findings import Finding
    from oic_ai.tools.validate_template import FileReport


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def print_validation(reports: Sequence[FileReport]) -> None:
    """Print findings grouped by file, then a one-line summary."""
    # lazy: rich costs start-up; --json never draws
    from rich.markup import escape

    console = safe_console(highlight=False, soft_wrap=True)

    def line(finding: Finding, style: str) -> None:
        where = f"line {finding.line}" if finding.line is not None else "line ?"
        if finding.column is not None:
            where += f":{finding.column}"
        console.print(
            f"  [{style}]{finding.severity:<7}[/] {where:<10} {escape(finding.path)}  "
            f"[dim]\\[{finding.code}][/] {escape(finding.message)}"
        )

    for report in reports:
        if report.valid:
            status = "[green]valid[/]"
        else:
            status = f"[red]invalid[/] ({_plural(len(report.errors), 'error')})"
        extra = f" ({_plural(len(report.warnings), 'warning')})" if report.warnings else ""
        console.print(f"[bold]{escape(report.path)}[/]: {status}{extra}")
        for finding in report.errors:
            line(finding, "red")
        for finding in report.warnings:
            line(finding, "yellow")
    valid = sum(r.valid for r in reports)
    warnings = sum(len(r.warnings) for r in reports)
    console.print(
        f"\nChecked {_plural(len(reports), 'file')}: {valid} valid, "
        f"{len(reports) - valid} invalid, {_plural(warnings, 'warning')}."
    )


def print_index_report(outcome: IndexOutcome) -> None:
    """Summarise an indexing run."""
    report = outcome.report
    print(
        f"Indexed {terminal_text(str(outcome.templates_dir))} into {outcome.collection}: "
        f"{report.created} created, {report.updated} updated, {report.unchanged} unchanged, "
        f"{report.deleted} deleted; {report.embedded} embedded in {report.seconds:.2f}s."
    )
    for skipped in report.skipped:
        print(f"  skipped {terminal_text(str(skipped))}", file=sys.stderr)


def print_search(response: Any) -> None:
    """Print the ranked table with the score breakdown and the why."""
    # lazy: rich costs start-up; --json never draws
    from rich.table import Table

    console = safe_console(highlight=False)
    c = response.classification
    why = [f"query type [bold]{c.type}[/]"]
    if c.packages:
        why.append("packages " + ", ".join(c.packages))
    if c.negated:
        why.append("excluding " + ", ".join(c.negated))
    why.append(f"keyword density {c.keyword_density:.2f}")
    w = response.weights
    why.append(f"weights {w[0]:.2f}/{w[1]:.2f}/{w[2]:.2f}")
    console.print("; ".join(why))
    for notice in getattr(response, "notices", []):  # "read 'dokcer' as 'docker'"
        console.print(notice, markup=False)
    if response.low_confidence:
        console.print("[yellow]No template clears the score threshold; the closest are shown.[/]")
    table = Table(show_lines=False)
    for column in ("#", "template", "score", "sem", "kw", "pkg", "why"):
        table.add_column(
            column, justify="right" if column in ("#", "score", "sem", "kw", "pkg") else "left"
        )
    for rank, r in enumerate(response.results, 1):
        notes = []
        if r.matched_keywords:
            notes.append("kw: " + ", ".join(r.matched_keywords[:6]))
        if r.matched_packages:
            notes.append("pkg: " + ", ".join(r.matched_packages))
        if r.excluded_by:
            notes.append(f"[red]-{r.penalty:.2f} has {', '.join(r.excluded_by)}[/]")
        if r.low_confidence:
            notes.append("[yellow]low confidence[/]")
        table.add_row(
            str(rank),
            r.template,
            f"{r.score:.3f}",
            f"{r.semantic:.2f}",
            f"{r.keyword:.2f}",
            f"{r.package:.2f}",
            "; ".join(notes),
        )
    console.print(table)


def print_cache_stats(stats: dict[str, Any]) -> None:
    """Print entries, model, dimensions, size and the last run's hits and misses."""
    print(f"store: {stats['store']} (library {stats.get('library', '?')})")
    if not stats["collections"]:
        print("no embeddings cached yet (run 'oic-ai index')")
    for c in stats["collections"]:
        legacy = " (legacy name, no longer written)" if c.get("legacy") else ""
        print(
            f"  {c['name']}: {c['entries']} entries, model {c['model']}, "
            f"{c['dimensions']} dims{legacy}"
        )
    if stats["size_bytes"] is not None:
        print(f"size on disk: {stats['size_bytes'] / 1024 / 1024:.1f} MiB")
    last = stats.get("last_run") or {}
    if last:
        print(
            f"last run: {last.get('hits', 0)} hits, {last.get('misses', 0)} misses, "
            f"{last.get('deleted', 0)} deleted ({last.get('at', '?')})"
        )


def print_eval(result: dict[str, Any], queries_file: Any) -> None:
    """Print hit@1, hit@3, MRR and each miss."""
    print(
        f"{terminal_text(str(queries_file))}: n={result['n']}  hit@1={result['hit_at_1']:.3f}  "
        f"hit@3={result['hit_at_3']:.3f}  MRR={result['mrr']:.3f}"
    )
    for miss in result["misses"]:
        print(
            terminal_text(
                f"  miss (rank {miss['rank']}): {miss['q']!r} -> {', '.join(miss['got'])}; "
                f"wanted {', '.join(miss['accept'])}"
            )
        )
