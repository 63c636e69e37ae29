"""``generate``: plan the turn's edit (builtin rules or an LLM) and apply it to the YAML."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context, run_settings
from oic_ai.nodes.messages import earlier_requests
from oic_ai.nodes.state import State, record
from oic_ai.stores.chat_models import ChatBackendError, num_ctx, structured_method
from oic_ai.tools.chat_backend import ChatBackend
from oic_ai.tools.llm_planner import (
    PlanError,
    plan_json,
    plan_turn,
    write_template_with_model,
)


def _source_texts(state: State) -> list[tuple[str, str]]:
    texts = []
    for source in state.get("sources", [])[:3]:
        try:
            # a source's path already starts with the library folder: never join it again
            texts.append((source["template"], Path(source["path"]).read_text("utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return texts


def _keep_inherited(plan: Any, base_text: str, inherited: dict[str, str]) -> Any:
    """Add a ``set_target`` for what a refused request named and the base does not have.

    "Ubuntu 24.04 ISO for arm64" was refused; "then x86_64" starts from an Ubuntu 24.04
    base, which must also become an ISO when the base is not one.
    """
    from oic_ai.tools.edit_plan import SetTarget
    from oic_ai.tools.target_support import target_of

    base = target_of(base_text)
    wanted = {
        "arch": inherited.get("arch"),
        "image_type": inherited.get("image_type"),
    }
    have = {"arch": base.get("arch"), "image_type": base.get("imageType")}
    change = {k: v for k, v in wanted.items() if v and v != have[k]}
    if not change or any(getattr(op, "op", "") == "set_target" for op in plan.operations):
        return plan
    op = SetTarget.model_validate({"op": "set_target", **change})
    return plan.model_copy(update={"operations": [op, *plan.operations]})


def sizes_asked(plan: Any, before: dict[str, str] | None) -> dict[str, str]:
    """The sizes the user has asked for so far: ``before`` and what ``plan`` sets.

    ``disk`` for the disk size, and partitions by their mount point or id. A disk size the
    user asked for stays when a partition is added later ("disk 12 gig", then "add /data
    4G"): the applier takes the room from a root nobody sized before the disk grows.
    """
    from oic_ai.tools.edit_plan import AddPartition, ResizePartition, SetDiskSize

    sized = dict(before or {})
    for op in getattr(plan, "operations", []):
        if isinstance(op, SetDiskSize):
            sized["disk"] = op.size
        elif isinstance(op, AddPartition) and op.size:
            sized[op.mount_point] = op.size
        elif isinstance(op, ResizePartition):
            sized[op.partition] = op.size
    return sized


def fit_for_composer(text: str, plan: Any) -> tuple[str, list[str]]:
    """Use the composer-supported alternatives (``tools/composer_fit.py``) on a new draft.

    A hostname named after the image (else the build host's stays in the image), and
    ``hash_algo`` beside a password hash (else the hash itself becomes the password). A
    plan that deletes the hostname on purpose is respected. Returns the text and one
    change line per alternative used.
    """
    from oic_ai.tools.applier import apply_plan
    from oic_ai.tools.composer_fit import alternatives_plan
    from oic_ai.tools.edit_plan import DeleteValue, EditPlan, SetHostname

    deletes = {op.path for op in getattr(plan, "operations", []) if isinstance(op, DeleteValue)}
    fit = alternatives_plan(text)
    changes: list[str] = []
    for op in fit.operations if fit is not None else []:
        hostname = isinstance(op, SetHostname)
        if hostname and "systemConfig.hostname" in deletes:
            continue
        why = (
            "so the image does not keep the build host's hostname"
            if hostname
            else "so the composer sets the password hash as it is"
        )
        applied = apply_plan(text, EditPlan(summary=why, operations=[op]), label="template.yml")
        text = applied.text
        changes += [f"{line} ({why})" for line in applied.applied]
    return text, changes


def make_generate(backend: ChatBackend) -> Any:
    """Build the ``generate`` node around the graph's chat backend."""

    def generate(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
        """Plan and apply this turn's change to the base (create) or current (refine) text."""
        # the planner and the applier load on first use: ruamel and the rule tables are heavy
        from oic_ai.tools.applier import apply_plan, unified_diff
        from oic_ai.tools.package_dependencies import PackageNeeds
        from oic_ai.tools.planner import plan_request
        from oic_ai.tools.planner.model_check import check_model_plan
        from oic_ai.tools.planner.text import reading_notices
        from oic_ai.tools.retrieval.spelling import index_package_names
        from oic_ai.tools.verify_packages import known_package_names

        settings = run_settings(runtime)
        route = record(state, "route")
        intent = route.get("intent")
        reference = dict(route.get("reference") or {})
        # after undo or retarget the draft is the start, and the diff is from the template
        recalled = intent in ("undo", "retarget")
        refine = intent == "refine" or recalled
        if recalled:
            start = state.get("draft") or ""
        else:
            start = (state.get("template") if refine else state.get("base_text")) or ""
        mode: Literal["create", "refine"] = "refine" if refine else "create"
        request = str(reference["remainder"]) if reference else state.get("request", "")
        # a question sentence beside a change is answered from the template after it
        # (respond); the planner gets only the change ("keep it raw. What's in the package
        # list now?" asks nothing of the package list). A question inside a sentence stays:
        # its sentence may ask for a change ("add quiet and splash?")
        cut: list[str] = []  # "why is rsyslog in there? Take it out": what "it" is
        for question in route.get("questions") or []:
            at = request.find(question)
            if at >= 0 and request[:at].rstrip()[-1:] in ("", ".", "!", "?", "\n"):
                request = request[:at] + " " + request[at + len(question) :]
                cut.append(question)
        from oic_ai.tools.pointers import resolve_corrections, resolve_pointers

        request = resolve_corrections(request)
        if refine:
            from oic_ai.tools.machine_arch import resolve_machine_arch

            # "make a raw image for the tablets", said to be arm64 two turns before
            said = earlier_requests(state.get("messages", []), settings.max_history)
            request = resolve_machine_arch(request, said)
            stack = state.get("undo_stack") or []
            request = resolve_pointers(
                request,
                start,
                stack[0]["template"] if stack else start,
                stack[-1]["template"] if stack else None,
            )
        earlier: dict[str, Any] = {}
        if recalled:
            earlier = {
                "changes": list(state.get("changes", [])),
                "not_applied": list(state.get("not_applied", [])),
                "warnings": list(state.get("warnings", [])),
            }
        kept = state.get("provider") if state.get("fix_attempts", 0) > 0 else None
        provider, notices = backend.provider(settings, kept)
        notices = [*state.get("notices", []), *notices]
        history = earlier_requests(state.get("messages", []), settings.max_history)
        model = backend.model(provider, settings)
        plan = None
        if model is not None and settings.generation_mode == "yaml":
            try:
                text = write_template_with_model(
                    model,
                    request,
                    _source_texts(state),
                    current=start if refine else None,
                    num_ctx=num_ctx(settings),
                )
            except ChatBackendError:
                raise
            except Exception as exc:  # any backend failure: connection, HTTP, timeout
                backend.backend_failed(provider, settings, exc, notices)
            else:
                if text.strip():
                    text, fitted = fit_for_composer(text, None)
                    return {
                        "draft": text,
                        "start_text": start,
                        "diff": unified_diff(start, text, "template.yml"),
                        "changes": [f"{provider} wrote the whole template (yaml mode)", *fitted],
                        "provider": provider,
                        "notices": notices,
                    }
                notices.append("the model answered with no YAML; used the builtin planner")
        elif model is not None:
            names = index_package_names(settings.data_dir)
            try:
                outcome = plan_turn(
                    model,
                    request,
                    start,
                    history=history,
                    method=structured_method(provider, settings),
                    num_ctx=num_ctx(settings),
                    max_operations=settings.max_operations,
                )
                plan = outcome.plan
                notices.extend(outcome.notes)  # the plan's not_applied has its dropped ops
            except PlanError as exc:
                notices.append(f"{exc}; used the builtin planner instead")
            except ChatBackendError:
                raise
            except Exception as exc:  # any backend failure: connection, HTTP, timeout
                backend.backend_failed(provider, settings, exc, notices)
            if plan is not None:
                # the package rule and the clause accounting hold for a model's plan too
                plan = check_model_plan(
                    plan,
                    request,
                    start,
                    mode=mode,
                    packages=names,
                    known=known_package_names(settings),
                )
        if plan is None:
            if provider != "builtin":
                provider = f"builtin (fallback from {provider})"
            names = index_package_names(settings.data_dir)  # a real package stays as written
            plan = plan_request(
                request,
                start,
                mode=mode,
                packages=names,
                known=known_package_names(settings),
                # the turn before, then the question cut from this one (nearest last)
                earlier="\n".join([*history[-1:], *cut]) if refine else "",
            )
            notices.extend(reading_notices(request, names))  # "read 'dokcer' as 'docker'"
        if mode == "create" and route.get("inherited"):
            plan = _keep_inherited(plan, start, dict(route["inherited"]))
        sized = sizes_asked(plan, state.get("sized") if refine else None)
        applied = apply_plan(
            start,
            plan,
            label="template.yml",
            needs=PackageNeeds.for_settings(settings),
            sized=frozenset(sized),
        )
        # "set the hostname to gw-1" when it is gw-1: met already, said beside the changes
        notices += [f"Already so: {line}." for line in applied.already]
        draft, fitted = fit_for_composer(applied.text, plan)
        return {
            "draft": draft,
            "start_text": state.get("start_text") if recalled else start,
            "diff": applied.diff
            if draft == applied.text
            else unified_diff(start, draft, "template.yml"),
            "plan": plan_json(plan),
            "changes": [*earlier.get("changes", []), *applied.applied, *fitted],
            "not_applied": [*earlier.get("not_applied", []), *applied.not_applied],
            "warnings": [*earlier.get("warnings", []), *applied.warnings],
            "provider": provider,
            "notices": notices,
            "sized": sized,
        }

    return generate
