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
    write_template_with_model,
)
from oic_ai.tools.llm_prompt import summarise_source
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
    ("answer", "cause"),
    [
        ("I cannot help with that.", "refused"),
        ({"summary": "x", "operations": [{"op": "explode", "what": "disk"}]}, "malformed"),
        ({"operations": "not a list"}, "malformed"),
        ("sorry, I only write poems", "malformed"),
    ],
)
def test_a_malformed_plan_raises_plan_error_after_one_retry(answer: object, cause: str) -> None:
    model = ScriptedChatModel.answering([answer, answer])  # type: ignore[list-item]
    with pytest.raises(PlanError, match=cause) as caught:
        plan_with_model(model, "x", "image: {}\n")
    assert "after one retry" in str(caught.value)
    assert len(model.prompts) == 2
    assert "could not be used" in model.prompts[1][-1].content


def test_a_retry_that_fails_reports_the_first_cause() -> None:
    model = ScriptedChatModel.answering(["I cannot help with that."])
    with pytest.raises(PlanError, match="refused.*the retry failed"):
        plan_with_model(model, "x", "image: {}\n")


def test_a_retry_with_the_error_recovers_the_plan() -> None:
    model = ScriptedChatModel.answering(["Sure, I will add htop.", GOOD])
    plan = plan_with_model(model, "add htop", "image: {}\n")
    assert len(plan.operations) == 2
    assert any("first answer failed" in w for w in plan.warnings)
    assert "no JSON object" in model.prompts[1][-1].content


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


def test_the_prompt_carries_the_catalogue_and_worked_examples() -> None:
    from oic_ai.tools.llm_prompt import catalogue
    from oic_ai.tools.plan_schema import op_names

    lines = catalogue().splitlines()
    assert len(lines) == len(op_names()) == 18
    assert [line.split("(")[0][2:] for line in lines] == op_names()
    assert "- add_partition(id: str, mount_point: str, size?: str" in catalogue()
    model = ScriptedChatModel.answering([GOOD])
    plan_with_model(model, "add htop", "image: {}\n")
    system = model.prompts[0][0].content
    assert catalogue() in system and system.count("PLAN: {") == 3


def test_budgets_follow_num_ctx() -> None:
    from oic_ai.tools.llm_prompt import prompt_budget

    assert prompt_budget(8192, 3072) == (8192 - 3072 - 256) * 3
    assert prompt_budget(None, None) == prompt_budget(8192, 3072)
    assert prompt_budget(4096, 3072) == (4096 - 2048 - 256) * 3  # the reply takes at most half
    assert prompt_budget(16384, 3072) > prompt_budget(8192, 3072)


def test_a_big_template_is_trimmed_to_the_window_as_whole_yaml() -> None:
    big = (OUR_TEMPLATES / "ubuntu24-aarch64-edge-container-raw.yml").read_text()
    big = big.replace(
        "packages:\n", "packages:\n" + "".join(f"    - pkg{i}\n" for i in range(900)), 1
    )
    model = ScriptedChatModel.answering([GOOD])
    plan_with_model(model, "add htop", big, num_ctx=4096)
    human = model.prompts[0][-1].content
    system = model.prompts[0][0].content
    assert len(human) + len(system) <= (4096 - 2048 - 256) * 3
    template = human.split("CURRENT TEMPLATE:\n", 1)[1].split("\n\nREQUEST:", 1)[0]
    assert yaml.safe_load(template)["target"] == yaml.safe_load(big)["target"]


def test_yaml_mode_budget_is_derived_from_num_ctx() -> None:
    sources = [(p.stem, p.read_text()) for p in sorted(OUR_TEMPLATES.glob("*.yml"))[:3]]
    small = ScriptedChatModel.answering(["image:\n  name: out\n"])
    write_template_with_model(small, "an image", sources, num_ctx=4096)
    large = ScriptedChatModel.answering(["image:\n  name: out\n"])
    write_template_with_model(large, "an image", sources, num_ctx=32768)
    assert len(small.prompts[0][-1].content) < len(large.prompts[0][-1].content)
    assert len(small.prompts[0][-1].content) <= (4096 - 2048 - 256) * 3


def test_think_blocks_never_reach_the_yaml() -> None:
    answer = "<think>maybe image: [x]</think>\nimage:\n  name: a\n"
    assert strip_to_yaml(answer) == "image:\n  name: a\n"


def test_fix_plan_asks_for_a_plan_with_the_problems_not_a_new_yaml() -> None:
    from oic_ai.tools.llm_planner import fix_plan

    answer = {
        "summary": "swap",
        "operations": [
            {"op": "remove_packages", "packages": ["docker-ce"]},
            {"op": "add_packages", "packages": ["docker.io"]},
        ],
    }
    model = ScriptedChatModel.answering([answer])
    problem = "package 'docker-ce' does not exist for this target; use one of docker.io"
    plan = fix_plan(model, "add docker", "image: {}\n", [problem])
    assert [op.op for op in plan.operations] == ["remove_packages", "add_packages"]
    system, human = model.prompts[0][0].content, model.prompts[0][-1].content
    assert "fixes exactly those problems" in system and "OPERATIONS:" in system
    assert f"PROBLEMS TO FIX:\n- {problem}" in human and "- add docker" in human


def test_operations_that_fail_validation_are_reported_not_applied() -> None:
    answer = {
        "summary": "s",
        "operations": [
            {"op": "add_packages", "packages": ["htop"]},
            {"op": "set_target", "arch": "sparc"},
            {"op": "add_partition", "id": "data"},
        ],
    }
    plan = plan_with_model(ScriptedChatModel.answering([answer]), "x", "image: {}\n")
    assert [op.op for op in plan.operations] == ["add_packages"]
    assert any("operation 2 (set_target): arch" in n for n in plan.not_applied)
    assert any("operation 3 (add_partition): mount_point" in n for n in plan.not_applied)


def test_broken_json_around_whole_operations_keeps_them() -> None:
    text = (
        '{"summary": "s", "operations": [{"op": "add_packages", "packages": ["htop"]}, '
        '{"op": "set_disk_size", "size": "8GiB"},]}'  # a trailing comma: not JSON
    )
    plan = plan_with_model(ScriptedChatModel.answering([text]), "x", "image: {}\n")
    assert [op.op for op in plan.operations] == ["add_packages", "set_disk_size"]
