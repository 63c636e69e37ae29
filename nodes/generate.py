"""``generate``: plan the turn's edit (builtin rules or an LLM) and apply it to the YAML."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from oic_ai.graph.state import State
from oic_ai.nodes.run_context import earlier_requests, record, settings_of
from oic_ai.stores.chat_models import (
    ChatBackendError,
    describe_backend_error,
    make_chat_model,
    resolve_provider,
    structured_method,
)
from oic_ai.stores.settings import Settings

INJECTED = "chat-model"


class Planner:
    """Chooses and runs the planner of a turn; shared by ``generate`` and ``fix``.

    Args:
        chat_model: A chat model to use instead of the configured provider (the Python
            API and tests pass one; ``langgraph dev`` never does).
    """

    def __init__(self, chat_model: Any = None) -> None:
        """Keep the injected model, if any."""
        self.chat_model = chat_model

    def provider(self, settings: Settings, state: State) -> tuple[str, list[str]]:
        """The provider for this turn (kept from ``generate`` for ``fix``), plus notices."""
        if self.chat_model is not None:
            return INJECTED, []
        if state.get("provider") and state.get("fix_attempts", 0) > 0:
            return str(state["provider"]), []
        choice = resolve_provider(settings)
        return choice.provider, list(choice.notices)

    def model(self, provider: str, settings: Settings) -> Any:
        """The chat model for ``provider`` (None for builtin)."""
        if provider == INJECTED:
            return self.chat_model
        if provider == "builtin":
            return None
        return make_chat_model(provider, settings)

    def backend_failed(
        self, provider: str, settings: Settings, exc: BaseException, notices: list[str]
    ) -> None:
        """Fall back to builtin under ``auto`` (with a notice), or stop with one clear line."""
        line = describe_backend_error(provider, settings, exc)
        if settings.provider == "auto" or provider == INJECTED:
            notices.append(f"{line}; used the builtin planner instead")
            return
        raise ChatBackendError(line) from None


def _source_texts(state: State, settings: Settings) -> list[tuple[str, str]]:
    from oic_ai.stores.template_library import bundled_templates_dir

    root = settings.templates_dir or bundled_templates_dir()
    texts = []
    for source in state.get("sources", [])[:3]:
        try:
            texts.append((source["template"], (Path(root) / source["path"]).read_text("utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return texts


def make_generate(planner: Planner) -> Any:
    """Build the ``generate`` node around a planner."""

    def generate(state: State, runtime: Any = None) -> dict[str, Any]:
        """Plan and apply this turn's change to the base (create) or current (refine) text."""
        from oic_ai.tools.applier import apply_plan, unified_diff
        from oic_ai.tools.llm_planner import (
            PlanError,
            plan_json,
            plan_with_model,
            write_template_with_model,
        )
        from oic_ai.tools.planner import plan_request

        settings = settings_of(runtime)
        route = record(state, "route")
        refine = route.get("intent") == "refine"
        start = (state.get("template") if refine else state.get("base_text")) or ""
        mode: Literal["create", "refine"] = "refine" if refine else "create"
        request = state.get("request", "")
        provider, notices = planner.provider(settings, state)
        notices = [*state.get("notices", []), *notices]
        history = earlier_requests(state.get("messages", []), settings.max_history)
        model = planner.model(provider, settings)
        plan = None
        if model is not None and settings.generation_mode == "yaml":
            try:
                text = write_template_with_model(
                    model,
                    request,
                    _source_texts(state, settings),
                    current=start if refine else None,
                )
            except ChatBackendError:
                raise
            except Exception as exc:  # any backend failure: connection, HTTP, timeout
                planner.backend_failed(provider, settings, exc, notices)
            else:
                if text.strip():
                    return {
                        "draft": text,
                        "start_text": start,
                        "diff": unified_diff(start, text, "template.yml"),
                        "changes": [f"{provider} wrote the whole template (yaml mode)"],
                        "provider": provider,
                        "notices": notices,
                    }
                notices.append("the model answered with no YAML; used the builtin planner")
        elif model is not None:
            try:
                plan = plan_with_model(
                    model,
                    request,
                    start,
                    history=history,
                    method=structured_method(provider, settings),
                )
            except PlanError as exc:
                notices.append(f"{exc}; used the builtin planner instead")
            except ChatBackendError:
                raise
            except Exception as exc:  # any backend failure: connection, HTTP, timeout
                planner.backend_failed(provider, settings, exc, notices)
        if plan is None:
            if provider != "builtin":
                provider = f"builtin (fallback from {provider})"
            plan = plan_request(request, start, mode=mode)
        applied = apply_plan(start, plan, label="template.yml")
        return {
            "draft": applied.text,
            "start_text": start,
            "diff": applied.diff,
            "plan": plan_json(plan),
            "changes": list(applied.applied),
            "not_applied": list(applied.not_applied),
            "warnings": list(applied.warnings),
            "provider": provider,
            "notices": notices,
        }

    return generate
