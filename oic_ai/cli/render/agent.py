"""Terminal output for generate, chat and sessions: steps, diffs, results."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

from oic_ai.cli.render.terminal import safe_console
from oic_ai.stores.secrets import mask_url

_STATUS_STYLE = {
    "valid": "green",
    "valid_with_warnings": "yellow",
    "invalid": "red",
    "unsupported": "red",
}


def console(stderr: bool = False) -> Any:
    """A rich console (colour only on a terminal) that neutralises control characters.

    Requests, titles and messages are printed through it, so an escape sequence in a
    request is shown, not acted on: see :func:`oic_ai.cli.render.terminal.terminal_text`.
    """
    return safe_console(highlight=False, soft_wrap=True, stderr=stderr)


def print_diff(out: Any, diff: str) -> None:
    """Print a unified diff, coloured on a terminal."""
    # lazy: rich costs start-up; --json never draws
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
    # lazy: rich costs start-up; --json never draws
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
    # lazy: langchain_core costs start-up; a callback only runs a turn
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
        where = f"openai {settings.openai_model} at {mask_url(settings.openai_base_url)}"
    elif provider == "openai":
        where = f"openai {settings.openai_model}"
    elif provider == "ollama":
        where = f"ollama {settings.ollama_model} at {mask_url(settings.ollama_base_url)}"
    else:
        where = provider
    return f"provider {where}; mode {settings.generation_mode}; data {settings.data_dir}"


SPINNER_DELAY = 0.3  # seconds of silence before the spinner appears


class Spinner:
    """A transient spinner on stderr for work that takes more than a moment.

    It appears only after :data:`SPINNER_DELAY` seconds and only on a terminal (the
    caller decides: see :func:`terminal_spinner`), is erased when it stops, and can be
    paused around lines printed to another stream (``chat`` prints steps on stdout).
    """

    def __init__(self, label: str, delay: float = SPINNER_DELAY) -> None:
        """Prepare a spinner on a stderr console; nothing is drawn yet.

        Lines printed through :attr:`out` while it spins appear above it.
        """
        self.label = label
        self.delay = delay
        self.out = console(stderr=True)
        self._lock = threading.Lock()
        self._status: Any = None
        self._timer: Any = None

    def start(self) -> None:
        """Draw the spinner after the delay, unless stopped first."""
        with self._lock:
            if self._timer is not None or self._status is not None:
                return
            self._timer = threading.Timer(self.delay, self._show)
            self._timer.daemon = True
            self._timer.start()

    def _show(self) -> None:
        with self._lock:
            if self._timer is None:  # stopped meanwhile
                return
            self._timer = None
            self._status = self.out.status(self._text(), spinner="dots")
            self._status.start()

    def _text(self) -> str:
        # lazy: rich costs start-up; --json never draws
        from rich.markup import escape

        return f"[dim]{escape(self.label)}…[/]"

    def update(self, label: str) -> None:
        """Change what the spinner says."""
        with self._lock:
            self.label = label
            if self._status is not None:
                self._status.update(self._text())

    def stop(self) -> None:
        """Erase the spinner (or cancel it before it appears)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._status is not None:
                self._status.stop()
                self._status = None

    def on_step(self, show: Any) -> Any:
        """Wrap an ``on_step`` printer: pause around its line, then spin again."""

        def step(node: str, update: dict[str, Any]) -> None:
            self.stop()
            if show is not None:
                show(node, update)
            self.update("working")
            self.start()

        return step

    def model_calls(self) -> Any:
        """A LangChain callback handler that says when the turn waits for a model."""
        # lazy: langchain_core costs start-up; a callback only runs a turn
        from langchain_core.callbacks import BaseCallbackHandler

        spinner = self

        class WaitingForModel(BaseCallbackHandler):
            def on_chat_model_start(
                self, serialized: dict[str, Any], messages: Any, **kwargs: Any
            ) -> None:
                params = kwargs.get("invocation_params") or {}
                model = params.get("model") or params.get("model_name") or "the model"
                spinner.update(f"waiting for {model}")

            def on_llm_end(self, response: Any, **kwargs: Any) -> None:
                spinner.update("working")

        return WaitingForModel()

    def __enter__(self) -> Spinner:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def terminal_spinner(label: str, enabled: bool = True) -> Spinner | None:
    """A :class:`Spinner` when ``enabled`` and stderr is a terminal, else None."""
    if not enabled or not sys.stderr.isatty():
        return None
    return Spinner(label)
