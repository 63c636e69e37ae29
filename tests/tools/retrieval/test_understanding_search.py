"""Search on the labelled typo, paraphrase and negation requests, on both libraries.

The queries are the create requests of ``tests/data/understanding.yaml``, labelled for
our library and for the composer's upstream library (read in place from
``shared/reference``), in the shape ``oic-ai eval retrieval --queries`` reads.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
from oic_ai.stores.settings import Settings
from oic_ai.stores.template_index import TemplateIndex, library_key
from oic_ai.tools.retrieval.evaluation import evaluate, load_queries
from oic_ai.tools.retrieval.hybrid_search import TemplateSearch, image_type_penalty, target_bonus
from tests.conftest import PROJECT, REFERENCE_TEMPLATES

DATA = PROJECT / "tests" / "data"
OURS = DATA / "understanding-retrieval.yaml"
UPSTREAM = DATA / "understanding-retrieval-upstream.yaml"


@pytest.fixture(scope="module")
def upstream_search(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TemplateSearch]:
    """The upstream library indexed with the local embedder (skipped when shared/ is absent)."""
    if not REFERENCE_TEMPLATES.is_dir():
        pytest.skip(f"reference templates not found at {REFERENCE_TEMPLATES}")
    data = tmp_path_factory.mktemp("upstream-data")
    search = TemplateSearch(
        TemplateIndex(MiniLMEmbedder(), data, library=library_key(REFERENCE_TEMPLATES)),
        REFERENCE_TEMPLATES,
        Settings(data_dir=data),
    )
    search.refresh()
    yield search


def _ranked(search: TemplateSearch, path: Path) -> dict[str, object]:
    queries = load_queries(path)
    return evaluate([(q, [r.template for r in search.search(q.q).results]) for q in queries])


def test_the_query_files_are_the_labelled_create_requests() -> None:
    requests = yaml.safe_load((DATA / "understanding.yaml").read_text(encoding="utf-8"))
    wanted = [case["request"] for case in requests["requests"] if not case.get("first")]
    for path, folder in ((OURS, PROJECT / "image-templates"), (UPSTREAM, REFERENCE_TEMPLATES)):
        queries = load_queries(path)
        assert [q.q for q in queries] == wanted
        assert {q.type for q in queries} == {"typo", "paraphrase", "negation"}
        if folder.is_dir():
            for query in queries:
                assert all((folder / name).is_file() for name in query.accept), query


def test_understanding_queries_reach_hit_at_3_on_our_library(
    library_search: TemplateSearch,
) -> None:
    result = _ranked(library_search, OURS)
    assert result["hit_at_1"] >= 0.98, result["misses"]  # 1.0 measured (0.964 before)
    assert result["hit_at_3"] >= 0.95, result["misses"]


def test_understanding_queries_reach_hit_at_3_on_the_upstream_library(
    upstream_search: TemplateSearch,
) -> None:
    result = _ranked(upstream_search, UPSTREAM)
    assert result["hit_at_1"] >= 0.9, result["misses"]  # 0.911 measured (0.786 before)
    assert result["hit_at_3"] >= 0.95, result["misses"]


def test_search_says_what_it_read(library_search: TemplateSearch) -> None:
    response = library_search.search("a debina web server with nginxx")
    assert [c.to_json() for c in response.corrections] == [
        {"written": "debina", "read_as": "debian", "kind": "spelling"},
        {"written": "nginxx", "read_as": "nginx", "kind": "spelling"},
    ]
    assert response.notices == ["read 'debina' as 'debian'", "read 'nginxx' as 'nginx'"]
    assert response.to_json()["corrections"][0]["read_as"] == "debian"
    assert response.to_json()["query"] == "a debina web server with nginxx"
    assert response.classification.targets["dist"] == "debian13"
    assert response.results[0].template == "debian13-x86_64-web-server-raw.yml"


def test_a_misspelt_distribution_no_longer_drops_out(library_search: TemplateSearch) -> None:
    for query, dist in (
        ("a minimal ubuntoo image", "ubuntu"),
        ("a minimal debina image", "debian"),
    ):
        top = library_search.search(query).results[0]
        assert top.template.startswith(dist), (query, top.template)


def test_negated_words_do_not_pull_results_toward_them(library_search: TemplateSearch) -> None:
    for query in (
        "an ubuntu image, not a desktop",
        "an ubuntu image with no GUI",
        "an ubuntu image without any desktop",
        "an ubuntu image minus the desktop",
        "an ubuntu image, except a desktop",
        "an ubuntu image, drop the desktop",
    ):
        results = library_search.search(query).results
        assert "desktop" not in results[0].template, (query, results[0].template)
        kiosk = [r for r in results if "kiosk" in r.template]
        assert not kiosk or kiosk[0].excluded_by, (query, kiosk)


def test_a_negated_paraphrase_is_ruled_out_not_searched_for(
    library_search: TemplateSearch,
) -> None:
    response = library_search.search(
        "a debian image that serves web pages, without a graphical desktop"
    )
    assert "desktop" in response.classification.negated
    assert response.results[0].template == "debian13-x86_64-web-server-raw.yml"


def test_the_target_named_adds_to_the_score_and_nothing_else_does() -> None:
    ubuntu = {"os": "ubuntu", "dist": "ubuntu24", "arch": "aarch64"}
    assert target_bonus({"dist": "ubuntu24", "arch": "aarch64"}, ubuntu) == pytest.approx(0.25)
    assert target_bonus({"os": "ubuntu"}, ubuntu) == pytest.approx(0.10)
    assert target_bonus({"dist": "ubuntu26"}, ubuntu) == pytest.approx(0.10)  # same os
    assert target_bonus({"dist": "debian13"}, ubuntu) == 0.0
    assert target_bonus({}, ubuntu) == 0.0


def test_the_cli_says_what_it_read(indexed_data: Path, tmp_path: Path) -> None:
    from tests.conftest import copy_index
    from tests.support.cli import cli_env, oic, oic_json

    data = copy_index(indexed_data, tmp_path / "data")
    answer = oic_json("search", "a debina web server with nginxx", env=cli_env(data))
    assert answer["corrections"][0] == {
        "written": "debina",
        "read_as": "debian",
        "kind": "spelling",
    }
    assert answer["results"][0]["template"] == "debian13-x86_64-web-server-raw.yml"
    assert {"target", "penalty"} <= set(answer["results"][0])
    shown = oic("search", "a debina web server with nginxx", env=cli_env(data))
    assert shown.returncode == 0, shown.stderr
    assert "read 'debina' as 'debian'" in shown.stdout


def test_the_image_type_named_outranks_a_package_only_another_type_has(
    library_search: TemplateSearch,
) -> None:
    # the netboot template of this dist has ethtool; the request says raw outright
    response = library_search.search(
        "an ubuntu 24.04 raw image for a motion controller, with ethtool and htop",
        filters={"dist": "ubuntu24"},
    )
    top = response.results[0]
    assert (top.metadata.get("image_type") or "raw") == "raw", top.template
    netboot = library_search.search(
        "an ubuntu 24.04 netboot image with ethtool", filters={"dist": "ubuntu24"}
    )
    assert netboot.results[0].metadata.get("image_type") == "img", netboot.results[0].template


def test_another_image_type_than_the_one_named_costs_score() -> None:
    assert image_type_penalty({"image_type": "raw"}, {"image_type": "img"}) > 0
    assert image_type_penalty({"image_type": "raw"}, {}) == 0.0  # a template's default
    assert image_type_penalty({}, {"image_type": "iso"}) == 0.0
