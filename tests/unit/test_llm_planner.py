"""LLM planner helpers: structured plans, YAML extraction and source summaries."""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.edit_plan import AddPackages, EditPlan, SetDiskSize
from oic_ai.tools.llm_planner import (
    PlanError,
    extract_json,
    plan_with_model,
    strip_to_yaml,
    summarise_source,
    write_template_with_model,
)
from tests.conftest import OUR_TEMPLATES
from tests.support.fake_models import ScriptedChatModel

GOOD = {
    "summary": "add htop and grow the disk",
    "operations": [
        {"op": "add_packages", "packages": ["htop"]},
        {"op": "set_disk_size", "size": "8GiB"},
    ],
}


def test_a_good_plan_is_parsed_into_typed_operations() -> None:
    model = ScriptedChatModel.answering([GOOD])
    plan = plan_with_model(model, "add htop, 8GiB disk", "image: {}\n", history=["first"])
    assert isinstance(plan, EditPlan)
    assert isinstance(plan.operations[0], AddPackages)
    assert isinstance(plan.operations[1], SetDiskSize) and plan.operations[1].size == "8GiB"
    prompt = model.prompts[0][-1].content
    assert "REQUEST: add htop, 8GiB disk" in prompt and "- first" in prompt


def test_a_plan_wrapped_in_prose_is_recovered() -> None:
    import json

    model = ScriptedChatModel.answering([f"Sure! Here it is:\n```json\n{json.dumps(GOOD)}\n```"])
    assert len(plan_with_model(model, "x", "image: {}\n").operations) == 2


@pytest.mark.parametrize(
    "answer",
    [
        "I cannot help with that.",
        {"summary": "x", "operations": [{"op": "explode", "what": "disk"}]},
        {"operations": "not a list"},
    ],
)
def test_a_malformed_plan_raises_plan_error(answer: object) -> None:
    model = ScriptedChatModel.answering([answer])  # type: ignore[list-item]
    with pytest.raises(PlanError, match="malformed"):
        plan_with_model(model, "x", "image: {}\n")


def test_strip_to_yaml_takes_the_fenced_block() -> None:
    answer = "Here you go:\n```yaml\nimage:\n  name: a\n```\nHope that helps!"
    assert strip_to_yaml(answer) == "image:\n  name: a\n"


def test_strip_to_yaml_drops_prose_around_unfenced_yaml() -> None:
    answer = "Sure, the template:\n\nimage:\n  name: a\ntarget:\n  os: ubuntu\n\nLet me know!\n"
    assert yaml.safe_load(strip_to_yaml(answer)) == {
        "image": {"name": "a"},
        "target": {"os": "ubuntu"},
    }


def test_strip_to_yaml_of_pure_prose_is_the_prose() -> None:
    assert strip_to_yaml("no yaml here") == "no yaml here\n"
    assert strip_to_yaml("   ") == ""


def test_extract_json_needs_an_object() -> None:
    assert extract_json('x {"a": {"b": 1}} y') == '{"a": {"b": 1}}'
    with pytest.raises(ValueError):
        extract_json("none")


def test_summaries_fit_the_budget_and_stay_whole_yaml() -> None:
    for path in sorted(OUR_TEMPLATES.glob("*.yml")):
        text = path.read_text()
        summary = summarise_source(text, 3000)
        assert len(summary) <= 3000, path.name
        data = yaml.safe_load(summary)
        assert isinstance(data, dict) and "target" in data, path.name
        assert data["target"] == yaml.safe_load(text)["target"]


def test_short_sources_are_kept_verbatim() -> None:
    text = "# comment\nimage:\n  name: a\n"
    assert summarise_source(text, 1000) == text


def test_yaml_mode_sends_at_most_three_sources_within_budget() -> None:
    sources = [(p.stem, p.read_text()) for p in sorted(OUR_TEMPLATES.glob("*.yml"))[:5]]
    model = ScriptedChatModel.answering(["```yaml\nimage:\n  name: out\n```"])
    text = write_template_with_model(model, "an image", sources, budget=6000)
    assert text == "image:\n  name: out\n"
    prompt = model.prompts[0][-1].content
    assert prompt.count("SOURCE ") == 3
    assert len(prompt) < 6000 + 500
