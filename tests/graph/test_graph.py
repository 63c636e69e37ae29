"""The whole graph, every route: builtin planner, scripted chat models, review, packages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from oic_ai.graph.agent import TurnResult
from tests.conftest import OUR_TEMPLATES, PROJECT
from tests.graph.runner import Run, builtin_settings
from tests.support.fake_models import ScriptedChatModel

HEADLINE = "a minimal Ubuntu 24.04 edge image for arm64 with docker and node monitoring"
# The headline's base has a sudo user without a password (an SSH key comes at deploy time);
# the composer would give it an empty password, so every answer from it warns about that.
EDGE_USER_WARNING = "user edgeadmin has no password"


def _valid_but_for_the_edge_user(result: TurnResult) -> bool:
    """Valid, with the composer's empty-password warning about edgeadmin as the only reason."""
    return result.status == "valid_with_warnings" and all(
        EDGE_USER_WARNING in reason for reason in result.reasons
    )


@pytest.fixture
def run(agent_data_dir: Path) -> Any:
    with Run(builtin_settings(agent_data_dir)) as runner:
        yield runner


def test_create_goes_through_retrieval_and_grounds_in_the_family(run: Run) -> None:
    result = run.turn(HEADLINE)
    assert run.nodes == [
        "classify", "retrieve", "generate", "validate", "verify_packages", "respond"
    ]  # fmt: skip
    assert _valid_but_for_the_edge_user(result), result.reasons
    assert result.base_template == "ubuntu24-aarch64-edge-container-raw.yml"
    assert result.provider == "builtin"
    assert 1 <= len(result.sources) <= 3
    # the dist is a filter; the arch is a preference (a base of another arch is retargeted)
    assert all(s["template"].startswith("ubuntu24-") for s in result.sources)
    assert {"score", "semantic", "keyword", "package"} <= set(result.sources[0])
    data = yaml.safe_load(result.template or "")
    assert data["target"] == {
        "os": "ubuntu", "dist": "ubuntu24", "arch": "aarch64", "imageType": "raw"
    }  # fmt: skip
    packages = data["systemConfig"]["packages"]
    assert "docker.io" in packages and "prometheus-node-exporter" in packages
    assert result.diff.startswith("--- a/template.yml")
    assert result.packages["checked"] is False and "ubuntu24/aarch64" in result.packages["reason"]
    assert "packages sync" in result.packages["fix"]
    assert "Started from ubuntu24-aarch64-edge-container-raw.yml" in result.message


def test_refinement_skips_retrieval_and_changes_only_what_was_asked(run: Run) -> None:
    first = run.turn(HEADLINE)
    second = run.turn("change disk size to 8GiB", session=first.session)
    assert "retrieve" not in run.nodes and run.nodes[:2] == ["classify", "generate"]
    assert second.route["intent"] == "refine"
    changed = [
        line for line in second.diff.splitlines()
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]  # fmt: skip
    assert changed == ["-  size: 16GiB", "+  size: 8GiB"]
    assert _valid_but_for_the_edge_user(second), second.reasons
    assert run.agent.current_template(first.session) == second.template


def test_explain_answers_without_changing_the_template(run: Run) -> None:
    first = run.turn(HEADLINE)
    answer = run.turn("what packages are included?", session=first.session)
    assert run.nodes == ["classify", "explain", "respond"]
    assert "docker.io" in answer.message
    assert run.agent.current_template(first.session) == first.template
    assert answer.turn == 2


def test_a_question_about_a_wish_no_template_holds_is_answered_no(run: Run) -> None:
    first = run.turn("a minimal debian 13 raw image")
    asked = run.turn(
        "is there a way for the operator to be logged in automatically at boot?",
        session=first.session,
    )
    assert run.nodes == ["classify", "explain", "respond"]
    assert "cannot be done" in asked.message and "automatic login" in asked.message
    assert len(asked.not_applied) == 1 and "automatic login" in asked.not_applied[0]
    assert run.agent.current_template(first.session) == first.template


def test_adr_test_case_table_through_the_graph(run: Run) -> None:
    cloud = run.turn("cloud elxr raw image")
    assert cloud.base_template and cloud.base_template.startswith("elxr12")
    assert "cloud" in cloud.base_template
    explicit = run.turn("image with nginx and docker-ce")
    assert explicit.route["query_type"] == "package_explicit"
    heavy = run.turn("edge IoT minimal raw")
    assert heavy.route["query_type"] == "keyword_heavy"
    negation = run.turn("minimal without docker")
    assert negation.route["query_type"] == "negation"
    assert "docker" not in (negation.base_template or "")
    assert "docker.io" not in yaml.safe_load(negation.template or "")["systemConfig"]["packages"]
    monitoring = run.turn("add monitoring packages", session=negation.session)
    assert monitoring.route["intent"] == "refine"
    before = set(yaml.safe_load(negation.template or "")["systemConfig"]["packages"])
    after = set(yaml.safe_load(monitoring.template or "")["systemConfig"]["packages"])
    assert before < after and any("exporter" in p or "collectd" in p for p in after - before)
    disk = run.turn("change disk size to 8GiB", session=negation.session)
    assert yaml.safe_load(disk.template or "")["disk"]["size"] == "8GiB"
    assert [line[:1] for line in disk.diff.splitlines()[3:] if line[:1] in "+-"] == ["-", "+"]


def test_a_good_llm_plan_is_applied(agent_data_dir: Path) -> None:
    plan = {
        "summary": "add iftop",
        "operations": [{"op": "add_packages", "packages": ["iftop"]}],
    }
    with Run(
        builtin_settings(agent_data_dir), chat_model=ScriptedChatModel.answering([plan])
    ) as runner:
        result = runner.turn(HEADLINE + ", and install iftop")
    # no index, and neither the catalog nor the library names iftop: the request asks for
    # it as a package, so it is applied, but flagged
    assert result.provider == "chat-model" and result.status == "valid_with_warnings"
    assert result.packages["unverified"] == ["iftop"]
    assert "iftop" in yaml.safe_load(result.template or "")["systemConfig"]["packages"]
    assert any("iftop" in change for change in result.changes)


def test_a_package_the_model_invents_is_dropped_and_reported(agent_data_dir: Path) -> None:
    # issue 21: the package rule holds for a model's plan too; before, iftop was added
    plan = {
        "summary": "add iftop",
        "operations": [{"op": "add_packages", "packages": ["iftop", "docker.io"]}],
    }
    with Run(
        builtin_settings(agent_data_dir), chat_model=ScriptedChatModel.answering([plan])
    ) as runner:
        result = runner.turn(HEADLINE)
    packages = yaml.safe_load(result.template or "")["systemConfig"]["packages"]
    assert "iftop" not in packages and "docker.io" in packages
    assert any(e.startswith("'iftop' — not added") for e in result.not_applied)


def test_a_malformed_llm_plan_falls_back_to_builtin_with_a_notice(agent_data_dir: Path) -> None:
    model = ScriptedChatModel.answering(["sorry, I only write poems"])
    with Run(builtin_settings(agent_data_dir), chat_model=model) as runner:
        result = runner.turn("change disk size to 8GiB for an azure linux image")
    assert result.provider == "builtin (fallback from chat-model)"
    assert any("malformed" in n and "builtin planner" in n for n in result.notices)
    assert result.status in ("valid", "valid_with_warnings")


def _broken(text: str) -> str:
    """The template with its partitions running past a 1GiB disk."""
    return text.replace("size: 16GiB", "size: 1GiB")


def test_invalid_yaml_from_the_model_is_fixed_by_the_loop(agent_data_dir: Path) -> None:
    good = (OUR_TEMPLATES / "ubuntu24-aarch64-edge-container-raw.yml").read_text()
    answers = [f"Here it is:\n```yaml\n{good.replace('image:', 'image: [', 1)}\n```", good]
    with Run(
        builtin_settings(agent_data_dir, generation_mode="yaml"),
        chat_model=ScriptedChatModel.answering(answers),
    ) as runner:
        result = runner.turn(HEADLINE)
    assert runner.nodes.count("fix") == 1 and runner.nodes.count("validate") == 2
    assert _valid_but_for_the_edge_user(result) and result.template == good
    assert any("rewrote" in c for c in result.changes)


def test_deterministic_fixes_come_before_the_model(agent_data_dir: Path) -> None:
    good = (OUR_TEMPLATES / "ubuntu24-aarch64-edge-container-raw.yml").read_text()
    model = ScriptedChatModel.answering([_broken(good)])  # one answer: no LLM fix is needed
    with Run(builtin_settings(agent_data_dir, generation_mode="yaml"), chat_model=model) as runner:
        result = runner.turn(HEADLINE)
    assert result.status in ("valid", "valid_with_warnings"), result.reasons
    assert runner.nodes.count("fix") == 1 and len(model.prompts) == 1
    assert yaml.safe_load(result.template or "")["disk"]["size"] != "1GiB"


def test_a_model_that_keeps_failing_ends_invalid_after_two_attempts(agent_data_dir: Path) -> None:
    junk = "image: [unclosed\n"
    with Run(
        builtin_settings(agent_data_dir, generation_mode="yaml"),
        chat_model=ScriptedChatModel.answering([junk, junk, junk, junk]),
    ) as runner:
        result = runner.turn(HEADLINE)
        state = runner.agent.state(result.session)
    assert runner.nodes.count("fix") == 2 and runner.nodes[-1] == "respond"
    assert result.status == "invalid"
    assert "after 2 fix attempt(s)" in result.reasons[0]
    assert result.validation["errors"]
    assert state.get("template") is None  # an invalid draft never becomes the session's template
    assert "invalid" in result.message


def test_max_fix_attempts_zero_answers_at_once(agent_data_dir: Path) -> None:
    with Run(
        builtin_settings(agent_data_dir, generation_mode="yaml", max_fix_attempts=0),
        chat_model=ScriptedChatModel.answering(["image: [\n"]),
    ) as runner:
        result = runner.turn(HEADLINE)
    assert "fix" not in runner.nodes and result.status == "invalid"


def _import_index(data: Path, packages: list[str], dist: str, arch: str, tmp: Path) -> None:
    deb_arch = {"aarch64": "arm64", "x86_64": "amd64"}[arch]
    stanzas = [f"Package: {p}\nVersion: 1.0\nArchitecture: {deb_arch}\n" for p in packages]
    index = tmp / "Packages"
    index.write_text("\n".join(stanzas))
    os_name = "ubuntu" if dist.startswith("ubuntu") else "debian"
    done = subprocess.run(
        [sys.executable, "-m", "oic_ai", "packages", "sync", "--index", str(index),
         "--os", os_name, "--dist", dist, "--arch", arch, "--data-dir", str(data), "--json"],
        capture_output=True, text=True, cwd=PROJECT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def _index_the_base(data: Path, tmp: Path, *extra: str) -> None:
    """A ubuntu24/aarch64 index with every package of the headline's base, plus ``extra``."""
    base = yaml.safe_load((OUR_TEMPLATES / "ubuntu24-aarch64-edge-container-raw.yml").read_text())
    system = base["systemConfig"]
    packages = [*system["packages"], *system["kernel"]["packages"], *extra]
    _import_index(data, packages, "ubuntu24", "aarch64", tmp)


def test_missing_packages_route_to_fix_with_the_suggestions(
    agent_data_dir: Path, tmp_path: Path
) -> None:
    _index_the_base(agent_data_dir, tmp_path, "docker.io", "htop")
    plan = {"summary": "x", "operations": [{"op": "add_packages", "packages": ["docker-ce"]}]}
    with Run(
        builtin_settings(agent_data_dir), chat_model=ScriptedChatModel.answering([plan])
    ) as runner:
        result = runner.turn(HEADLINE)
    assert runner.nodes[-5:] == ["verify_packages", "fix", "validate", "verify_packages", "respond"]
    assert result.packages["checked"] is True and result.packages["missing"] == []
    packages = yaml.safe_load(result.template or "")["systemConfig"]["packages"]
    assert "docker-ce" not in packages and "docker.io" in packages
    # docker.io is already in the base, so the fix only has to drop docker-ce
    assert "fix: removed packages docker-ce" in result.changes


def test_a_package_with_no_suggestion_is_reported_not_looped(
    agent_data_dir: Path, tmp_path: Path
) -> None:
    _index_the_base(agent_data_dir, tmp_path)
    plan = {"summary": "x", "operations": [{"op": "add_packages", "packages": ["qqqzzzxx"]}]}
    with Run(
        builtin_settings(agent_data_dir), chat_model=ScriptedChatModel.answering([plan])
    ) as runner:
        result = runner.turn(HEADLINE + ", and install the package qqqzzzxx")
    assert "fix" not in runner.nodes
    assert result.status == "valid_with_warnings"
    assert result.packages["missing"] == ["qqqzzzxx"]
    assert any("qqqzzzxx" in r for r in result.reasons)


def test_review_pauses_then_accepts(agent_data_dir: Path) -> None:
    with Run(builtin_settings(agent_data_dir), review=True) as runner:
        paused = runner.turn(HEADLINE)
        assert paused.awaiting_review and paused.status is None
        assert runner.nodes[-1] == "verify_packages"
        assert paused.review and paused.review["draft"] == paused.template
        done = runner.resume(paused.session, "accept")
    assert runner.nodes == ["review", "respond"]
    assert _valid_but_for_the_edge_user(done) and not done.awaiting_review


def test_review_resumes_with_an_edited_template_that_is_validated(agent_data_dir: Path) -> None:
    with Run(builtin_settings(agent_data_dir), review=True) as runner:
        paused = runner.turn(HEADLINE)
        edited = (paused.template or "").replace("hostname: ubuntu-edge", "hostname: edited-01")
        done = runner.resume(paused.session, {"action": "edit", "template": edited})
        kept = runner.agent.current_template(paused.session)
    assert runner.nodes == ["review", "validate", "verify_packages", "respond"]
    assert _valid_but_for_the_edge_user(done) and kept is not None
    assert "hostname: edited-01" in kept
    assert "review: the reviewer edited the template" in done.changes


def test_an_edit_that_breaks_the_template_is_caught(agent_data_dir: Path) -> None:
    with Run(builtin_settings(agent_data_dir, max_fix_attempts=0), review=True) as runner:
        paused = runner.turn(HEADLINE)
        done = runner.resume(paused.session, {"template": "image: {}\n"})
    assert done.status == "invalid" and done.validation["errors"]


def test_turn_json_has_the_generate_contract(run: Run) -> None:
    payload = run.turn(HEADLINE).to_json()
    assert {
        "session", "provider", "status", "template", "sources", "changes", "validation",
        "packages", "message",
    } <= set(payload)  # fmt: skip
    assert set(payload["validation"]) >= {"valid", "errors", "warnings"}
    assert set(payload["packages"]) >= {"checked", "missing", "suggestions"}


def test_without_an_index_an_unknown_added_name_is_unverified(run: Run) -> None:
    result = run.turn("an ubuntu 24.04 image with photoshop")
    packages = yaml.safe_load(result.template or "")["systemConfig"]["packages"]
    assert "photoshop" in packages
    assert result.packages["checked"] is False
    assert result.packages["unverified"] == ["photoshop"]
    assert result.to_json()["packages"]["unverified"] == ["photoshop"]
    assert result.status == "valid_with_warnings"
    assert any("photoshop" in reason and "unverified" in reason for reason in result.reasons)
    assert "Unverified packages: photoshop" in result.message


def test_without_an_index_catalog_names_are_not_flagged(run: Run) -> None:
    result = run.turn(HEADLINE)
    assert result.packages["unverified"] == []
    assert result.to_json()["packages"]["unverified"] == []


def test_the_turn_result_carries_every_clause_and_its_outcome(run: Run) -> None:
    result = run.turn(HEADLINE + ", thanks! and set the timezone to Europe/Paris")
    outcomes = {c["text"]: c["outcome"] for c in result.clauses}
    assert outcomes["thanks"] == "context"
    assert outcomes["and set the timezone to Europe/Paris"] == "not_applied"
    assert "with docker and node monitoring" in " ".join(outcomes)
    assert result.to_json()["clauses"] == result.clauses
    assert any("timezone" in entry for entry in result.not_applied)
