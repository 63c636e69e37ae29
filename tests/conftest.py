"""Shared test fixtures: where the reference data and our library live.

Every test runs without the developer's own provider, key and tracing variables
(``OIC_AI_*``, ``OPENAI_*``, ``OLLAMA_*``, ...; see :mod:`tests.support.env`), and the
tests that are slow on a 2-CPU machine are marked ``slow`` here, so ``make test-fast``
(``-m "not integration and not slow"``) can leave them out.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.env import TEST_XDG, private_names

if TYPE_CHECKING:
    from oic_ai.graph.agent import TemplateAgent

# Shared fixtures any test may ask for by name: the signing keys of real signed package
# repositories (``signer``, ``stranger``) and the throwaway PostgreSQL cluster
# (``postgres_cluster``, and ``postgres_url``: a database of its own per test).
pytest_plugins = ["tests.stores.signed_repos", "tests.support.postgres"]

PROJECT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
REFERENCE = PROJECT.parent / "shared" / "reference" / "os-image-composer"
REFERENCE_TEMPLATES = REFERENCE / "image-templates"
REFERENCE_SCHEMA = REFERENCE / "internal" / "config" / "schema" / "os-image-template.schema.json"
OUR_TEMPLATES = PROJECT / "image-templates"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """The test's own data folder, not created yet (oic-ai makes it)."""
    return tmp_path / "data"


# Tests never reach a model server or a hub by accident.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

# Marks given by place, without touching the test files: a folder or file under tests/,
# optionally with "::" and a test-function name.
# real servers, loopback backends and repositories; a real browser against oic-ai serve
INTEGRATION = ("integration/", "browser/")
# the real composer building and booting an image (root, minutes): make e2e-build only
E2E = ("e2e/",)
SLOW = (
    # processes killed on purpose, many CLI processes at once
    "reliability/test_crash_safety.py",
    "reliability/test_concurrency.py",
    "reliability/test_session_races.py",
    "reliability/test_session_damage.py",
    "reliability/test_security.py",
    # backends that time out, stall or fail on purpose
    "reliability/test_chat_faults.py",
    # hostile repositories: a drip to its deadline, bombs measured in fresh processes
    "reliability/test_fetch_limits.py",
    # generate and sessions runs against servers that echo the key
    "reliability/test_secret_echo.py",
    # every labelled conversation turn by turn through the graph (20 parts, ~4,200 turns, in
    # four modules so the two workers share them)
    "eval/test_conversations_early.py",
    "eval/test_conversations_middle.py",
    "eval/test_conversations_later.py",
    "eval/test_conversations_late.py",
    # long property-based fuzzing
    "reliability/test_applier_fuzz.py",
    "reliability/test_parser_validator_fuzz.py",
    # a CLI process per case: generate's usage errors and outputs, escapes in sessions
    "reliability/test_cli_requests.py",
    "reliability/test_terminal_escapes.py",
    # a CLI process per command that reads YAML or a special file
    "reliability/test_deep_nesting.py::test_every_command_answers_30000_levels_without_crashing",
    "reliability/test_special_files.py",
    # a CLI process per case, its stderr a pseudo-terminal (the spinner)
    "cli/test_spinner.py",
    # the whole library embedded again by the model, to compare with the shipped vectors
    "tools/retrieval/test_shipped_vector_rankings.py",
    # the machine's real Debian index (63,000 packages), imported whole
    "stores/test_bookworm_index.py",
    # a real terminal (tmux) driving chat twice; shells sourcing completion scripts
    "cli/test_chat_terminal.py",
    "cli/test_completion.py::test_session_ids_complete_where_a_command_takes_one",
    "cli/test_ai_command.py",
    "cli/test_verbosity.py",
    # a CLI process per case: config files and homes, flags on both sides, exit codes,
    # refusals of unsupported targets, a terminal for the progress bar
    "cli/test_config_cli.py",
    "cli/test_shared_flags.py",
    "cli/test_exit_codes.py",
    "cli/test_unsupported_cli.py",
    "cli/test_terminal_output.py",
    # the upstream library embedded from scratch (no shipped vectors for it); a CLI search
    "tools/retrieval/test_understanding_search.py::test_understanding_queries_reach_hit_at_3_on_the_upstream_library",
    "tools/retrieval/test_understanding_search.py::test_the_cli_says_what_it_read",
    # a fresh interpreter that builds an index (README) or runs pytest again (environment)
    "test_readme.py::test_the_readme_python_example_runs",
    "test_environment.py::test_the_developers_variables_do_not_reach_a_test",
    # a CLI process per step: index, search, cache, eval and sessions as a user runs them
    "cli/test_retrieval_cli.py::test_index_search_cache_round_trip",
    "cli/test_retrieval_cli.py::test_two_processes_indexing_one_folder_do_not_corrupt_it",
    "cli/test_retrieval_cli.py::test_corrupt_cache_is_one_line_exit_two_then_clear_heals",
    "cli/test_retrieval_cli.py::test_eval_retrieval_reports_the_figures",
    "cli/test_retrieval_cli.py::test_validate_and_search_start_without_langgraph_or_llm_clients",
    "cli/test_sessions_cli.py::test_replay_shows_every_turn",
    "cli/test_sessions_cli.py::test_show_has_the_current_template_and_the_conversation",
    "cli/test_sessions_cli.py::test_fork_then_continue_the_fork",
    "cli/test_sessions_cli.py::test_rerun_compares_turn_by_turn",
    # the composer's loader judging hypothesis' mutations of real templates
    "reliability/test_composer_judge.py",
    # a wheel built and installed into a fresh virtualenv; every module imported afresh
    "test_packaging.py",
    # the remark model trained again from the bank, to compare with the shipped weights
    "tools/planner/test_session19_remark_model.py::test_the_shipped_weights_are_what_training_gives_now",
    # serve --check against addresses that do not answer (their connect timeouts)
    "web/test_serve_check.py",
)


def _listed(where: str, name: str, places: tuple[str, ...]) -> bool:
    """Whether test ``name`` in file ``where`` (relative to tests/) is one of ``places``."""
    return any(
        (place.endswith("/") and where.startswith(place)) or place in (where, f"{where}::{name}")
        for place in places
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests listed in :data:`INTEGRATION`, :data:`SLOW` and :data:`E2E`."""
    tests = Path(__file__).resolve().parent
    for item in items:
        path = item.path.resolve()
        if not path.is_relative_to(tests):
            continue
        where = path.relative_to(tests).as_posix()
        name = getattr(item, "originalname", item.name)
        if _listed(where, name, INTEGRATION):
            item.add_marker(pytest.mark.integration)
        if _listed(where, name, SLOW):
            item.add_marker(pytest.mark.slow)
        if _listed(where, name, E2E):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session", autouse=True)
def _private_environment_removed_for_the_session() -> Iterator[None]:
    """Session and module fixtures (servers, shared indexes) see no private variables."""
    with pytest.MonkeyPatch.context() as session_patch:
        for name in private_names():
            session_patch.delenv(name)
        for name, value in TEST_XDG.items():
            session_patch.setenv(name, value)
        yield


@pytest.fixture(autouse=True)
def _private_environment_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads the developer's ``OIC_AI_*``, ``OPENAI_*``, ``OLLAMA_*`` ... variables.

    Child processes inherit the cleaned environment, and a test that needs one of these
    variables sets it itself (``monkeypatch.setenv``, or the ``env`` of a child).
    """
    for name in private_names():
        monkeypatch.delenv(name)
    for name, value in TEST_XDG.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def reference_templates() -> Path:
    """The upstream templates, or a skip when shared/ is not beside the checkout."""
    if not REFERENCE_TEMPLATES.is_dir():
        pytest.skip(f"reference templates not found at {REFERENCE_TEMPLATES}")
    return REFERENCE_TEMPLATES


@pytest.fixture
def reference_schema() -> Path:
    """The upstream JSON schema, or a skip when it is absent."""
    if not REFERENCE_SCHEMA.is_file():
        pytest.skip(f"reference schema not found at {REFERENCE_SCHEMA}")
    return REFERENCE_SCHEMA


@pytest.fixture
def small_library(tmp_path: Path) -> Path:
    """Five of our templates in a folder the test may change."""
    folder = tmp_path / "templates"
    folder.mkdir()
    for name in sorted(p.name for p in OUR_TEMPLATES.glob("*.yml"))[:5]:
        shutil.copy(OUR_TEMPLATES / name, folder / name)
    return folder


@pytest.fixture(scope="session")
def indexed_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose Chroma index holds the bundled library (embedded once per run).

    Under pytest-xdist (``make test-fast`` runs ``-n 2``) the first worker embeds it in the
    run's shared temporary folder and the others wait for it and reuse it. Tests copy it
    (:func:`copy_index`) before they change anything.
    """
    from oic_ai.stores.settings import load_settings
    from oic_ai.tools.retrieval.hybrid_search import TemplateSearch

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        data = tmp_path_factory.mktemp("indexed") / "data"
        TemplateSearch.open(load_settings(data_dir=data, env={})).refresh()
        return data
    shared = tmp_path_factory.getbasetemp().parent  # one folder per run, above the workers'
    data = shared / "indexed" / "data"
    with (shared / "indexed.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "indexed" / "done").exists():
            shutil.rmtree(data, ignore_errors=True)
            TemplateSearch.open(load_settings(data_dir=data, env={})).refresh()
            (shared / "indexed" / "done").touch()
    return data


def copy_index(indexed_data: Path, data: Path) -> Path:
    """Copy the session's template index into data folder ``data``; returns ``data``."""
    shutil.copytree(indexed_data / "chroma", data / "chroma")
    for name in ("index-stats.json",):
        if (indexed_data / name).exists():
            shutil.copy(indexed_data / name, data / name)
    return data


@pytest.fixture
def agent_data_dir(indexed_data: Path, tmp_path: Path) -> Path:
    """A fresh data folder with the library already indexed (sessions start empty)."""
    return copy_index(indexed_data, tmp_path / "data")


@pytest.fixture
def agent(agent_data_dir: Path) -> Iterator[TemplateAgent]:
    """The agent on the built-in planner over a fresh :func:`agent_data_dir`; closed after.

    A module that needs another agent defines its own ``agent`` fixture.
    """
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.settings import load_settings

    settings = load_settings(data_dir=agent_data_dir, env={}, provider="builtin")
    with TemplateAgent(settings) as running:
        yield running
