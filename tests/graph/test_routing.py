"""classify and the routers: every route each one can return."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.runtime import Runtime

from oic_ai.graph.routers import (
    route_after_classify,
    route_after_packages,
    route_after_review,
    route_after_validate,
)
from oic_ai.nodes.classify import TURN_RESET, classify, route_request
from oic_ai.nodes.context import Context

TEMPLATE = "image:\n  name: x\ntarget:\n  os: ubuntu\n  dist: ubuntu24\n  arch: x86_64\n"
ISO = TEMPLATE + "  imageType: iso\n"
ARM = TEMPLATE.replace("x86_64", "aarch64")
RAW = TEMPLATE + "  imageType: raw\n"


def _runtime(**context: Any) -> Runtime[Context]:
    return Runtime(context=Context(**context))


@pytest.mark.parametrize(
    ("request_text", "template", "intent"),
    [
        ("a minimal ubuntu 24.04 edge image for arm64 with docker", None, "create"),
        ("add monitoring packages", None, "create"),
        ("add monitoring packages", TEMPLATE, "refine"),
        ("change disk size to 8GiB", TEMPLATE, "refine"),
        ("what packages are included?", TEMPLATE, "explain"),
        ("summarise it", TEMPLATE, "explain"),
        ("which kernel does it use", TEMPLATE, "explain"),
        ("start over: an azure linux pxe image", TEMPLATE, "create"),
        ("an azure linux 3 minimal image", TEMPLATE, "create"),
        ("ubuntu 24.04 is fine, add htop", TEMPLATE, "refine"),
        ("with docker", TEMPLATE, "refine"),
        # references to the session's template, and what the composer builds
        ("undo that", TEMPLATE, "undo"),
        ("please put it back the way it was", TEMPLATE, "undo"),
        ("the same for Debian 13", TEMPLATE, "retarget"),
        ("switch it to arm64", TEMPLATE, "retarget"),
        ("could we get an installer ISO of this instead?", TEMPLATE, "retarget"),
        ("Debian instead, please", TEMPLATE, "retarget"),
        ("a debian 13 image with nginx", TEMPLATE, "create"),
        ("like before but add htop", TEMPLATE, "refine"),
        ("could you add htop?", TEMPLATE, "refine"),
        ("can it boot from usb?", TEMPLATE, "explain"),
        ("could you show me the packages?", TEMPLATE, "explain"),
        ("can you please tell me the hostname", TEMPLATE, "explain"),
        ("now the same thing but arm64", ISO, "unsupported"),
        ("a netboot image for it?", ARM, "unsupported"),
        ("and debian 12?", TEMPLATE, "unsupported"),
        ("can it be windows 11 instead?", TEMPLATE, "unsupported"),
        ("an ubuntu 24.04 installer for arm64", None, "unsupported"),
        ("an ubuntu 24.04 installer", None, "create"),
        ("OK, forget arm. Which packages does it install?", ISO, "explain"),
        ("add our mirror with suite bookworm, component main", TEMPLATE, "refine"),
        # a question, then a polite request (round 16, h3)
        (
            "What's the image called at the moment? Could you name it room12-ubuntu instead?",
            RAW,
            "refine",
        ),
        ("which packages are in there? could you add htop?", RAW, "refine"),
        ("Is the hostname set? Can you make it gw-01 please?", RAW, "refine"),
        ("how big is the disk? would you grow it to 20GiB", RAW, "refine"),
        # questions and their lead-in change nothing (round 16, h3)
        ("what is the hostname? can you tell me the disk size too?", RAW, "explain"),
        (
            "Quick question: their instructions dearmor the key into a keyring and use "
            "signed-by, but you put the key URL in the template. Is that equivalent?",
            RAW,
            "explain",
        ),
        (
            "quick question - the vendor docs enable the repo with a key. does the template "
            "do that too?",
            RAW,
            "explain",
        ),
        (
            "Side question: our old scripts set the hostname at boot and add users by hand. "
            "Is that still needed with this?",
            RAW,
            "explain",
        ),
        # a question, then "show it"; a question, then acting on it (round 17)
        ("which kernel options are set at the moment? paste it", TEMPLATE, "explain"),
        ("what users are there now? dump them", TEMPLATE, "explain"),
        ("how big is the disk? dump it here", TEMPLATE, "explain"),
        ("what's in the package list? show it", TEMPLATE, "explain"),
        ("why is vim in there? remove it", TEMPLATE, "refine"),
    ],
)
def test_route_request(request_text: str, template: str | None, intent: str) -> None:
    assert route_request(request_text, template)["intent"] == intent


def test_a_retarget_carries_the_whole_new_target_and_the_rest_of_the_request() -> None:
    route = route_request("now the same for Azure Linux 3, and add htop", TEMPLATE)
    assert route["intent"] == "retarget"
    reference = route["reference"]
    assert reference["target"] == {
        "os": "azure-linux", "dist": "azl3", "arch": "x86_64", "imageType": "raw"
    }  # fmt: skip
    assert reference["remainder"] == "add htop"


def test_a_refused_combination_lends_its_dist_to_the_next_request() -> None:
    refused = route_request("an emt netboot image for arm64", None)
    assert refused["intent"] == "unsupported"
    assert refused["unsupported"]["target"] == {
        "os": "edge-microvisor-toolkit", "dist": "emt3", "arch": "aarch64", "imageType": "img"
    }  # fmt: skip
    after = route_request("fine, x86_64 then", None, refused)
    assert after["intent"] == "create"
    assert after["targets"]["dist"] == "emt3" and after["targets"]["arch"] == "x86_64"
    assert after["inherited"] == {"dist": "emt3", "image_type": "img"}


def test_route_records_targets_and_reason() -> None:
    route = route_request("debian trixie x86_64 installer", None)
    assert route["targets"] == {"dist": "debian13", "arch": "x86_64", "image_type": "iso"}
    assert route["reason"] == "no template in this session yet"


def test_classify_takes_the_last_human_message_and_resets_the_turn() -> None:
    state: dict[str, Any] = {
        "messages": [
            {"role": "user", "content": "an elxr image"},
            {"role": "assistant", "content": "done"},
            {"role": "user", "content": "  add htop  "},
        ],
        "template": TEMPLATE,
        "status": "invalid",
        "fix_attempts": 2,
        "changes": ["old"],
    }
    update = classify(state, _runtime())  # type: ignore[arg-type]
    assert update["request"] == "add htop"
    assert update["route"]["intent"] == "refine"
    for key, value in TURN_RESET.items():
        assert update[key] == value


@pytest.mark.parametrize(
    ("intent", "route"),
    [
        ("create", "retrieve"),
        ("refine", "generate"),
        ("explain", "explain"),
        ("undo", "undo"),
        ("retarget", "retarget"),
        ("unsupported", "respond"),
    ],
)
def test_route_after_classify(intent: str, route: str) -> None:
    assert route_after_classify({"route": {"intent": intent}}) == route  # type: ignore[typeddict-item]


def test_route_after_recall_plans_only_what_is_left() -> None:
    from oic_ai.graph.routers import route_after_recall

    left = {"route": {"intent": "undo", "reference": {"remainder": "add htop"}}}
    nothing = {"route": {"intent": "retarget", "reference": {"remainder": ""}}}
    assert route_after_recall(left) == "generate"  # type: ignore[arg-type]
    assert route_after_recall(nothing) == "validate"  # type: ignore[arg-type]


def _validation(errors: int) -> dict[str, Any]:
    return {"valid": not errors, "errors": [{"message": "e"}] * errors, "warnings": []}


def test_route_after_validate_every_route() -> None:
    rt = _runtime(max_fix_attempts=2)
    assert route_after_validate({"validation": _validation(0)}, rt) == "verify_packages"
    assert route_after_validate({"validation": _validation(1), "fix_attempts": 0}, rt) == "fix"
    assert route_after_validate({"validation": _validation(1), "fix_attempts": 1}, rt) == "fix"
    assert route_after_validate({"validation": _validation(1), "fix_attempts": 2}, rt) == "respond"
    review = _runtime(max_fix_attempts=2, review=True)
    assert (
        route_after_validate({"validation": _validation(1), "fix_attempts": 2}, review) == "review"
    )
    zero = _runtime(max_fix_attempts=0)
    assert route_after_validate({"validation": _validation(1)}, zero) == "respond"


def test_route_after_packages_every_route() -> None:
    rt = _runtime(max_fix_attempts=2)
    fixable = {
        "checked": True,
        "missing": ["docker-ce"],
        "suggestions": {"docker-ce": ["docker.io"]},
    }
    hopeless = {"checked": True, "missing": ["zzz"], "suggestions": {"zzz": []}}
    assert route_after_packages({"packages": fixable, "fix_attempts": 0}, rt) == "fix"
    assert route_after_packages({"packages": fixable, "fix_attempts": 2}, rt) == "respond"
    assert route_after_packages({"packages": hopeless, "fix_attempts": 0}, rt) == "respond"
    assert route_after_packages({"packages": {"checked": False}}, rt) == "respond"
    review = _runtime(review=True)
    assert route_after_packages({"packages": {"checked": False}}, review) == "review"
    edited = {"packages": {"checked": False}, "review_edit": True}
    assert route_after_packages(edited, review) == "respond"  # an edit is reviewed once


def test_route_after_review() -> None:
    assert route_after_review({"review_edit": True}) == "validate"
    assert route_after_review({"review_edit": False}) == "respond"


def test_context_schema_offers_the_choices_and_hides_the_resolved_settings() -> None:
    from oic_ai.graph import graph

    schema = graph.get_context_jsonschema()
    properties = schema["properties"]
    choices = {
        "provider": ["auto", "builtin", "ollama", "openai"],
        "generation_mode": ["plan", "yaml"],
        "embedding_provider": ["local", "ollama", "openai"],
    }
    for name, values in choices.items():
        assert properties[name]["default"] is None
        assert {"enum": values, "type": "string"} in properties[name]["anyOf"]
    assert "resolved" not in properties and "$defs" not in schema
    with pytest.raises(TypeError):
        Context(resolved=None)  # type: ignore[call-arg]  # not a constructor argument


def test_context_resolves_its_settings_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from oic_ai.stores.settings import load_settings

    monkeypatch.delenv("OIC_AI_CONFIG", raising=False)
    monkeypatch.setenv("OIC_AI_PROVIDER", "ollama")
    context = Context(max_fix_attempts=5)
    settings = context.settings()
    assert settings.provider == "ollama" and settings.max_fix_attempts == 5
    monkeypatch.setenv("OIC_AI_PROVIDER", "builtin")
    assert context.settings() is settings
    pinned = load_settings(env={"OPENAI_API_KEY": "sk-test-not-shown"}, provider="builtin")
    carried = Context.from_settings(pinned, review=True)
    assert carried.settings() is pinned and carried.review is True
    assert carried.provider == "builtin" and "sk-test-not-shown" not in repr(carried)


@pytest.mark.parametrize(
    ("request_text", "intent"),
    [
        ("print the package list as it is now", "explain"),
        ("display the current partitions", "explain"),
        ("paste us the whole template", "explain"),
        ("print support for the label printer, add cups", "refine"),
    ],
)
def test_asking_to_paste_or_print_what_is_there_is_a_question(
    request_text: str, intent: str
) -> None:
    assert route_request(request_text, TEMPLATE)["intent"] == intent
