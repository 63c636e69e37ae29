"""Terminal output for generate, chat and sessions: steps, diffs, results."""

from __future__ import annotations

from typing import Any

_STATUS_STYLE = {
    "valid": "green",
    "valid_with_warnings": "yellow",
    "invalid": "red",
    "unsupported": "red",
}


def console(stderr: bool = False) -> Any:
    """A rich console (colour only on a terminal) that neutralises control characters.

    Requests, titles and messages are printed through it, so an escape sequence in a
    request is shown, not acted on: see :func:`oic_ai.render.terminal_text`.
    """
    from oic_ai.render import safe_console

    return safe_console(highlight=False, soft_wrap=True, stderr=stderr)


def print_diff(out: Any, diff: str) -> None:
    """Print a unified diff, coloured on a terminal."""
    from rich.markup import escape

    if not diff:
        out.print("[dim](no changes)[/]")
        return
    for line in diff.rstrip("\n").split("\n"):
        style = ""
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        elif line.startswith("@@"):
            style = "cyan"
        out.print(f"[{style}]{escape(line)}[/]" if style else escape(line))


def describe_step(node: str, update: dict[str, Any]) -> str:
    """One line of live progress for a finished node."""
    if node == "classify":
        route = update.get("route") or {}
        return f"classify → {route.get('intent')} ({route.get('reason')})"
    if node == "retrieve":
        return f"retrieve → base {update.get('base_template')}"
    if node == "generate":
        return (
            f"generate → {len(update.get('changes') or [])} change(s) by {update.get('provider')}"
        )
    if node == "validate":
        validation = update.get("validation") or {}
        errors = len(validation.get("errors", []))
        return "validate → " + ("valid" if not errors else f"{errors} error(s)")
    if node == "fix":
        return f"fix → attempt {update.get('fix_attempts')}"
    if node == "verify_packages":
        packages = update.get("packages") or {}
        if not packages.get("checked"):
            unverified = packages.get("unverified") or []
            return "verify_packages → not checked" + (
                f", {len(unverified)} unverified" if unverified else ""
            )
        return f"verify_packages → {len(packages.get('missing', []))} missing"
    if node == "respond":
        return f"respond → {update.get('status')}"
    return node


def print_turn(out: Any, result: Any, *, show_diff: bool = True) -> None:
    """Print a turn: status, sources, changes, notices and the diff."""
    from rich.markup import escape

    style = _STATUS_STYLE.get(str(result.status), "magenta")
    provider = f"  [dim]provider {escape(str(result.provider))}[/]" if result.provider else ""
    out.print(f"[bold]session[/] {result.session}  [bold {style}]{result.status}[/]{provider}")
    if result.route.get("intent") == "create" and result.sources:
        out.print("[bold]sources[/]")
        for source in result.sources:
            out.print(
                f"  {escape(source['template'])}  score {source['score']:.3f} "
                f"[dim](semantic {source['semantic']:.2f}, keyword {source['keyword']:.2f}, "
                f"package {source['package']:.2f})[/]"
            )
    out.print(escape(result.message))
    if show_diff and result.route.get("intent") not in ("explain", "unsupported"):
        print_diff(out, result.diff)
