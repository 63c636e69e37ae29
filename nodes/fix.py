"""``fix``: one bounded round of self-correction (deterministic fixes first, then the LLM)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context, run_settings
from oic_ai.nodes.state import State, record
from oic_ai.stores.chat_models import ChatBackendError, num_ctx, structured_method
from oic_ai.tools.chat_backend import ChatBackend
from oic_ai.tools.findings import Finding
from oic_ai.tools.llm_planner import PlanError, fix_plan, fix_template_with_model


def _error_lines(findings: list[Finding], missing: dict[str, list[str]]) -> list[str]:
    lines = [f"{f.path} (line {f.line}): {f.message} [{f.code}]" for f in findings]
    for name, options in missing.items():
        hint = f"; use one of {', '.join(options)}" if options else "; remove it"
        lines.append(f"package {name!r} does not exist for this target{hint}")
    return lines


def make_fix(backend: ChatBackend) -> Any:
    """Build the ``fix`` node around the graph's chat backend."""

    def fix(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
        """Repair the draft once; the counter in state bounds the loop."""
        from oic_ai.tools.applier import apply_plan
        from oic_ai.tools.fix_errors import plan_fixes

        settings = run_settings(runtime)
        attempt = int(state.get("fix_attempts", 0)) + 1
        draft = state.get("draft") or ""
        validation = state.get("validation")
        findings = [Finding(**error) for error in validation["errors"]] if validation else []
        packages = record(state, "packages")
        missing = {
            name: list(packages.get("suggestions", {}).get(name, []))
            for name in packages.get("missing", [])
        }
        notices = list(state.get("notices", []))
        history = list(state.get("fix_history", []))
        changes = list(state.get("changes", []))
        plan = plan_fixes(draft, findings, missing_packages=missing)
        applied = apply_plan(draft, plan, label="template.yml")
        new = applied.text
        what = [f"fix: {line}" for line in applied.applied]
        provider = str(state.get("provider") or "builtin")
        if not applied.changed and not provider.startswith("builtin"):
            model = backend.model(provider, settings)
            lines = _error_lines(findings, missing)
            try:
                if settings.generation_mode == "yaml":
                    candidate = fix_template_with_model(model, draft, lines)
                    if candidate.strip() and candidate != draft:
                        new = candidate
                        what.append(
                            f"fix: {provider} rewrote the template for {len(lines)} error(s)"
                        )
                else:  # plan mode asks for a plan, missing packages included, never a new YAML
                    llm_plan = fix_plan(
                        model,
                        state.get("request", ""),
                        draft,
                        lines,
                        method=structured_method(provider, settings),
                        num_ctx=num_ctx(settings),
                        max_operations=settings.max_operations,
                    )
                    llm_applied = apply_plan(draft, llm_plan, label="template.yml")
                    new = llm_applied.text
                    what.extend(f"fix: {line}" for line in llm_applied.applied)
            except PlanError as exc:
                notices.append(f"fix attempt {attempt}: {exc}")
            except ChatBackendError:
                raise
            except Exception as exc:  # backend failure during a fix: report, keep the draft
                notices.append(f"fix attempt {attempt}: {provider} failed ({type(exc).__name__})")
        if new == draft:
            what.append("fix: no change could be made")
        history.append(f"attempt {attempt}: " + ("; ".join(what) or "no change"))
        return {
            "draft": new,
            "fix_attempts": attempt,
            "fix_history": history,
            "changes": changes + [w for w in what if w != "fix: no change could be made"],
            "warnings": [*state.get("warnings", []), *applied.warnings],
            "notices": notices,
        }

    return fix
