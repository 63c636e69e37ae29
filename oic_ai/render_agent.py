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


def step_printer(out: Any, *, timings: bool) -> Any:
    """An ``on_step`` callback printing one dim line per finished node (with its time)."""
    import time

    last = [time.perf_counter()]

    def show(node: str, update: dict[str, Any]) -> None:
        now = time.perf_counter()
        took = f" ({(now - last[0]) * 1000:.0f} ms)" if timings else ""
        last[0] = now
        out.print(f"[dim]· {describe_step(node, update)}{took}[/]")

    return show


def model_call_logger(out: Any) -> Any:
    """A LangChain callback handler printing each chat model call: model, time, tokens.

    Only the model name, the server's address and the counts are printed: never the
    prompt, the reply, headers or keys.
    """
    import time

    from langchain_core.callbacks import BaseCallbackHandler

    class ModelCalls(BaseCallbackHandler):
        def __init__(self) -> None:
            self.started: dict[Any, float] = {}
            self.names: dict[Any, str] = {}

        def on_chat_model_start(
            self, serialized: dict[str, Any], messages: Any, *, run_id: Any, **kwargs: Any
        ) -> None:
            params = kwargs.get("invocation_params") or {}
            model = params.get("model") or params.get("model_name") or "?"
            kind = params.get("_type") or (serialized or {}).get("name") or "chat model"
            self.started[run_id] = time.perf_counter()
            self.names[run_id] = f"{kind} {model}"

        def on_llm_end(self, response: Any, *, run_id: Any, **kwargs: Any) -> None:
            took = (time.perf_counter() - self.started.pop(run_id, time.perf_counter())) * 1000
            usage = (getattr(response, "llm_output", None) or {}).get("token_usage") or {}
            tokens = usage.get("total_tokens")
            counted = f", {tokens} tokens" if tokens else ""
            name = self.names.pop(run_id, "chat model")
            out.print(f"[dim]  model call → {name} ({took:.0f} ms{counted})[/]")

        def on_llm_error(self, error: BaseException, *, run_id: Any, **kwargs: Any) -> None:
            self.started.pop(run_id, None)
            name = self.names.pop(run_id, "chat model")
            out.print(f"[dim]  model call → {name} failed ({type(error).__name__})[/]")

    return ModelCalls()


def describe_provider(settings: Any) -> str:
    """The configured planner in one line, for ``--verbose`` (no secrets)."""
    provider = settings.provider
    if provider in ("openai", "auto") and settings.openai_base_url:
        where = f"openai {settings.openai_model} at {settings.openai_base_url}"
    elif provider == "openai":
        where = f"openai {settings.openai_model}"
    elif provider == "ollama":
        where = f"ollama {settings.ollama_model} at {settings.ollama_base_url}"
    else:
        where = provider
    return f"provider {where}; mode {settings.generation_mode}; data {settings.data_dir}"
