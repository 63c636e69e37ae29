"""``respond``: settle the turn's status, write the summary, and record the session."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context, run_settings
from oic_ai.nodes.state import (
    IMAGE_TURNS,
    UNDO_DEPTH,
    ImageTurn,
    Revision,
    State,
    Status,
    record,
)
from oic_ai.stores.secrets import mask_secrets

OWN_EDIT_HINT = (
    "Your edit was kept as you wrote it: correct it in the editor, or ask for the fix "
    '("Fix it" on the page).'
)
"""The answer's last line for an invalid edit of the user's own."""


def settle_status(state: State) -> tuple[Status, list[str]]:
    """The turn's status with its reasons: ``invalid`` beats warnings beats ``valid``."""
    route = record(state, "route")
    if route.get("intent") == "unsupported":
        return "unsupported", [str(route.get("reason"))]
    validation = record(state, "validation")
    packages = record(state, "packages")
    reasons: list[str] = []
    errors = validation.get("errors", [])
    if errors and state.get("own_edit"):
        reasons.append(
            f"{len(errors)} validation error(s) in your edit, not fixed without asking: "
            + "; ".join(str(e.get("message")) for e in errors[:3])
        )
        return "invalid", reasons
    if errors:
        attempts = state.get("fix_attempts", 0)
        reasons.append(
            f"{len(errors)} validation error(s) remain after {attempts} fix attempt(s): "
            + "; ".join(str(e.get("message")) for e in errors[:3])
        )
        return "invalid", reasons
    warnings = validation.get("warnings", [])
    if warnings:
        reasons.append(
            f"{len(warnings)} lint warning(s): "
            + "; ".join(str(w.get("message")) for w in warnings[:3])
        )
    if packages.get("missing"):
        reasons.append("packages not found for the target: " + ", ".join(packages["missing"]))
    if packages.get("unverified"):
        why = (
            "they may come from a template repository that has no index"
            if packages.get("checked")
            else "no index, and not in the catalog, the template library or the base template"
        )
        reasons.append(f"unverified packages ({why}): " + ", ".join(packages["unverified"]))
    if state.get("not_applied"):
        reasons.extend(
            item if item.startswith("not applied") else f"not applied: {item}"
            for item in state["not_applied"]
        )
    if state.get("warnings"):
        reasons.extend(state["warnings"])
    return ("valid_with_warnings" if reasons else "valid"), reasons


def _refusal(state: State) -> str:
    """The answer to a request for a system or combination the composer cannot build."""
    from oic_ai.tools.target_support import (
        UnbuildableTarget,
        UnsupportedRequest,
        refusal_message,
        unbuildable_message,
    )

    found = dict(record(state, "route").get("unsupported") or {})
    combination = found.get("target")
    if isinstance(combination, dict) and "options" in found:  # no OS defaults for it
        lines = unbuildable_message(
            UnbuildableTarget(
                dist=combination.get("dist"),
                arch=str(combination.get("arch")),
                image_type=str(combination.get("imageType")),
                options=(),
            )
        )
        options = [str(option) for option in found.get("options") or []]
        if options:
            lines.append("Nearest buildable: " + ", or ".join(options) + ".")
        if state.get("template"):
            lines.append("The session's template is unchanged.")
        lines.append("Status: unsupported.")
        return "\n".join(lines)
    lines = refusal_message(
        UnsupportedRequest(
            named=str(found.get("named", "")),
            system=str(found.get("system", "")),
            nearest=found.get("nearest"),
            suggestion=found.get("suggestion"),
        )
    )
    if state.get("template"):
        lines.append("The session's template is unchanged.")
    lines.append("Status: unsupported.")
    return "\n".join(lines)


def _summary(state: State, status: Status, reasons: list[str]) -> str:
    route = record(state, "route")
    intent = route.get("intent")
    if intent == "unsupported":
        return _refusal(state)
    lines: list[str] = []
    if intent == "explain":
        lines.append(state.get("answer") or "")
    elif intent == "create":
        sources = state.get("sources", [])
        score = f" (score {sources[0]['score']:.2f})" if sources else ""
        lines.append(f"Started from {state.get('base_template')}{score}.")
        from oic_ai.tools.target_questions import image_type_choice
        from oic_ai.tools.target_support import target_of

        chosen = target_of(state.get("draft") or state.get("template")).get("imageType")
        if (why := image_type_choice(state.get("request", ""), chosen)) is not None:
            lines.append(why)  # "which image type is that, and why?" beside the request
    elif intent == "undo":
        undone = dict(dict(route.get("reference") or {}).get("undone") or {})
        redone = dict(dict(route.get("reference") or {}).get("redone") or {})
        if redone:
            lines.append(f"Redid turn {redone.get('turn')} ('{redone.get('request')}').")
        elif undone.get("partial"):
            lines.append(
                f"Undid part of turn {undone.get('turn')} ('{undone.get('request')}'): "
                f"{undone['partial']}; the rest stays."
            )
        elif reference_already := str(dict(route.get("reference") or {}).get("already") or ""):
            lines.append(reference_already)  # "back to before the arm thing", never moved there
        elif undone:
            what = (
                "it had changed nothing, so the template stays as it was"
                if undone.get("unchanged")
                else "the template is back to how it was before it"
            )
            lines.append(f"Undid turn {undone.get('turn')} ('{undone.get('request')}'): {what}.")
        else:
            lines.append("Nothing to undo: no earlier turn of this session changed the template.")
    elif intent == "retarget":
        target = dict(dict(route.get("reference") or {}).get("target") or {})
        lines.append(
            "Re-targeted the current template to "
            + _target_words(target)
            + ", keeping its customisations."
        )
    elif intent == "edit":  # "applied your edit" or "started from NAME"
        reason = str(route.get("reason") or "applied your edit")
        lines.append(f"{reason[:1].upper()}{reason[1:]}.")
    else:
        lines.append("Refined the current template.")
    if intent != "explain":
        changes = state.get("changes", [])
        lines.append("Changes: " + ("; ".join(changes) if changes else "none") + ".")
        # "add htop" when it is there, "remove vim" when it is not: why nothing changed
        lines += [str(note) for note in dict(state.get("plan") or {}).get("notes") or []]
        lines += _answers(state, route.get("questions") or [])
    packages = record(state, "packages")
    if packages:
        if packages.get("checked"):
            found, missing = len(packages.get("found", [])), len(packages.get("missing", []))
            lines.append(f"Packages: {found} found, {missing} missing.")
        elif packages.get("reason"):
            fix = str(packages.get("fix") or "")
            how = f" {fix[:1].upper()}{fix[1:]}." if fix else ""
            lines.append(f"Packages not checked: {packages['reason']}.{how}")
        if packages.get("unverified") and not packages.get("checked"):
            lines.append(
                "Unverified packages: " + ", ".join(packages["unverified"]) + " (not a name "
                "the catalog, the template library or the base template knows; sync an "
                "index to check)."
            )
    lines.append(f"Status: {status}." + (f" {'; '.join(reasons)}." if reasons else ""))
    if status == "invalid" and state.get("own_edit"):
        lines.append(OWN_EDIT_HINT)
    if intent != "explain" and state.get("draft"):
        from oic_ai.tools.composer_fit import composer_notes

        lines.extend(composer_notes(str(state.get("draft"))))
    lines.extend(state.get("notices", []))
    return "\n".join(line for line in lines if line)


def _answers(state: State, questions: list[str]) -> list[str]:
    """Answers to the questions asked beside a change, from the template after it."""
    template = state.get("draft") or state.get("template")
    if not questions or not template:
        return []
    from oic_ai.tools.explain_template import describe_template

    return [describe_template(template, question, state.get("base_text")) for question in questions]


def _target_words(target: dict[str, Any]) -> str:
    from oic_ai.stores.targets import load_targets

    targets = load_targets()
    dist = str(target.get("dist") or "")
    kind = targets.image_type_title(str(target.get("imageType") or ""), "image")
    return f"{targets.title(dist)} ({dist}), {target.get('arch')}, {kind}"


def _redo_stack(state: State, kept: str) -> list[Revision]:
    """What "redo" can put back after this turn: an undo adds what it took back.

    A redo takes its entry off; any other turn that was kept empties the list (what was
    undone is no longer the next step), unless it changed nothing.
    """
    stack = list(state.get("redo_stack") or [])
    reference = dict(record(state, "route").get("reference") or {})
    undone = dict(reference.get("undone") or {})
    if reference.get("redone"):
        return stack[:-1]
    if record(state, "route").get("intent") == "undo" and undone and not undone.get("unchanged"):
        taken = Revision(
            turn=int(undone.get("turn") or 0),
            request=str(undone.get("request") or ""),
            template=state.get("template") or "",
        )
        return [*stack, taken][-UNDO_DEPTH:]
    return stack if kept == state.get("template") else []


def _undo_stack(state: State, kept: str, turn: int) -> list[Revision]:
    """The session's earlier templates after this turn (``undo`` reads the last one).

    Every turn that asked for a change and whose result was kept adds the template from
    before it, even when it changed nothing (so "undo that" after it takes back that
    turn, not an earlier one); an undo turn takes its entry off again. Questions and
    refusals never reach here.
    """
    stack = list(state.get("undo_stack") or [])
    before = state.get("template")
    route = record(state, "route")
    undone = dict(dict(route.get("reference") or {}).get("undone") or {})
    switched = dict(dict(route.get("reference") or {}).get("image") or {})
    if switched.get("refusal"):
        return stack  # "back to the fourth one" with three made: nothing changed
    redone = dict(route.get("reference") or {}).get("redone")
    if route.get("intent") == "undo" and redone and before:
        # "redo": an undo after it takes the redo back
        stack.append(Revision(turn=turn, request=state.get("request", ""), template=before))
        return stack[-UNDO_DEPTH:]
    if route.get("intent") == "undo" and not undone.get("partial") and not switched:
        # a part taken back ("undo the hugepages bit") is a change of its own: it stacks
        if not stack or not undone:
            return stack  # nothing taken back ("undo the X" when the last turn did more)
        # "go back to debian" takes back every turn since the Debian template
        for _ in range(max(1, int(undone.get("depth") or 1)) - 1):
            stack.pop()
        restored = stack.pop()["template"]
        if kept != restored:  # the rest of the request changed the restored template
            stack.append(Revision(turn=turn, request=state.get("request", ""), template=restored))
        return stack
    if before:
        stack.append(Revision(turn=turn, request=state.get("request", ""), template=before))
    return stack[-UNDO_DEPTH:]


def _images(state: State, kept: str, turn: int) -> list[ImageTurn]:
    """The session's kept templates after this turn, each with the image it is.

    "back to the clinic one" continues that image; a turn that opens another image ("now
    one for the other client", "customer two: ...", a new template in place of the
    session's) starts the next number; any other turn continues the image it changed.
    """
    from oic_ai.tools.earlier_images import image_count, opens_new_image

    images = list(state.get("images") or [])
    route = record(state, "route")
    switched = dict(dict(route.get("reference") or {}).get("image") or {})
    count = image_count(images)
    request = " ".join([state.get("request", ""), str(route.get("carried_request") or "")]).strip()
    restored = [e for e in images if e["template"] == kept]
    earlier = " ".join(e["request"] for e in images)
    if switched.get("number") and not switched.get("refusal"):
        # "customer Quill: like Acme's but on debian 13": from that image, a new one
        new = count and opens_new_image(request, count, earlier) and switched["number"] < count
        number = count + 1 if new else int(switched["number"])
    elif route.get("intent") == "undo" and restored:
        number = int(restored[-1]["image"])  # "undo" back over a switch: that image again
    elif count and (
        (route.get("intent") == "create" and state.get("template"))
        or opens_new_image(request, count, earlier)
    ):
        number = count + 1
    else:
        number = int(images[-1]["image"]) if images else 1
    images.append(ImageTurn(turn=turn, request=request, template=kept, image=number))
    return images[-IMAGE_TURNS:]


def respond(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Finish the turn: the draft becomes the session's template unless it is invalid.

    The summary and reasons are stored with the session, so configured secrets in them
    (a key a server echoed into an error or a reply) are masked.
    """
    status, reasons = settle_status(state)
    reasons = [mask_secrets(reason) for reason in reasons]
    message = mask_secrets(_summary(state, status, reasons))
    route = record(state, "route")
    update: dict[str, Any] = {
        "status": status,
        "reasons": reasons,
        "turn": int(state.get("turn", 0)) + 1,
        "messages": [AIMessage(content=message)],
    }
    from oic_ai.tools.applier import unified_diff

    draft = state.get("draft")
    if route.get("intent") == "unsupported":
        update["diff"] = ""
    elif route.get("intent") != "explain":
        update["last_not_applied"] = list(state.get("not_applied") or [])
        update["last_changes"] = list(state.get("changes") or [])
        update["diff"] = unified_diff(state.get("start_text") or "", draft or "", "template.yml")
        if status != "invalid" and draft:
            update["template"] = draft
            update["undo_stack"] = _undo_stack(state, draft, update["turn"])
            update["redo_stack"] = _redo_stack(state, draft)
            update["images"] = _images(state, draft, update["turn"])
    _record(state, runtime, status, update.get("template", state.get("template")), update["turn"])
    return update


def _record(
    state: State, runtime: Runtime[Context], status: Status, template: str | None, turn: int
) -> None:
    """Note the turn in the session index (only when the run is on a thread)."""
    thread = runtime.execution_info.thread_id if runtime.execution_info else None
    if not thread:
        return
    from oic_ai.stores.session_factory import session_recorder
    from oic_ai.stores.session_store import template_name

    settings = run_settings(runtime)
    name = template_name(template) or state.get("base_template")
    with session_recorder(settings) as store:  # beside the checkpoints: SQLite or PostgreSQL
        store.record_turn(
            str(thread),
            request=state.get("request", ""),
            template=name,
            status=status,
            provider=state.get("provider"),
            turn=turn,
            owner=_auth_user(),
        )


def _auth_user() -> str | None:
    """The served API's user running this turn (its custom auth), or None.

    The LangGraph API server puts the authenticated identity in the run's
    ``configurable["langgraph_auth_user_id"]``; the anonymous caller of a server without
    users has an empty identity, and the CLI and the Python API have none.
    """
    from langgraph.config import get_config

    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:  # not inside a run
        return None
    user = configurable.get("langgraph_auth_user_id")
    if user is None:  # Aegra (several replicas) passes the user object only
        found = configurable.get("langgraph_auth_user")
        if getattr(found, "is_authenticated", False):
            user = getattr(found, "identity", None)
    return str(user) if isinstance(user, str) and user else None
