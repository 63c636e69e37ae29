"""A listed repository named by the user: by a word of its address, by its URL, or as
"the repo" when there is one; removed as a repository (never as a package), or given a
new field."""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES

BASE = "debian13-x86_64-minimal-raw.yml"
FOO = "https://pkgs.example.org/foo-tools/debian"
BAR = "https://mirror.example.net/bar/trixie"


def _text(urls: tuple[str, ...] = (FOO, BAR)) -> str:
    data = yaml.safe_load((OUR_TEMPLATES / BASE).read_text(encoding="utf-8"))
    data["packageRepositories"] = [
        {"codename": "trixie", "url": url, "component": "main"} for url in urls
    ]
    return yaml.safe_dump(data, sort_keys=False)


def _repos_after(
    said: str, urls: tuple[str, ...] = (FOO, BAR)
) -> tuple[list[dict[str, str]], list[str]]:
    text = _text(urls)
    plan = plan_request(said, text, mode="refine")
    assert not [op for op in plan.operations if op.op == "remove_packages"], plan.operations
    applied = apply_plan(text, plan)
    # the applier's lines include the plan's
    return yaml.safe_load(applied.text).get("packageRepositories") or [], applied.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "drop the foo-tools repo",
        "get rid of the foo apt repository please",
        f"remove the repository {FOO}",
        "we don't need the foo repo anymore, remove it",
    ],
)
def test_a_repository_named_by_its_words_is_removed(said: str) -> None:
    repos, not_applied = _repos_after(said)
    assert [r["url"] for r in repos] == [BAR], (repos, not_applied)
    assert not_applied == []


def test_the_repo_is_the_only_one_listed() -> None:
    repos, not_applied = _repos_after("remove the repo", urls=(BAR,))
    assert repos == [] and not_applied == []


def test_a_repository_no_words_name_is_reported_with_the_listed_ones() -> None:
    repos, not_applied = _repos_after("remove the zorbix mirror")
    assert len(repos) == 2
    assert len(not_applied) == 1 and FOO in not_applied[0] and BAR in not_applied[0]


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        ("set the foo repo's component to contrib", "component", "contrib"),
        (
            "change the key of the foo-tools repository to https://k.example.org/new.asc",
            "pkey",
            "https://k.example.org/new.asc",
        ),
    ],
)
def test_a_field_of_the_named_repository_not_the_last_one(
    said: str, field: str, value: str
) -> None:
    repos, not_applied = _repos_after(said)
    by_url = {r["url"]: r for r in repos}
    assert by_url[FOO].get(field) == value, (repos, not_applied)
    assert by_url[BAR].get(field) != value
    assert len(repos) == 2 and not_applied == []
