"""index, search, cache and eval as a user runs them, in separate processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import PROJECT
from tests.support.cli import cli_env, oic

HEAVY = (
    "langgraph",
    "langchain_core",
    "langchain_openai",
    "langchain_ollama",
    "torch",
    "sentence_transformers",
)


def run(
    *args: str,
    data: Path,
    extra_env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    return oic(*args, env=cli_env(data, **(extra_env or {})))


def test_index_search_cache_round_trip(small_library: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = run("index", "--templates-dir", str(small_library), "--json", data=data)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert set(report) >= {"created", "updated", "unchanged", "deleted", "embedded", "seconds"}
    assert report["created"] == report["embedded"] == 5

    name = sorted(p.name for p in small_library.glob("*.yml"))[0]
    found = run(
        "search",
        "--templates-dir",
        str(small_library),
        "--json",
        "--top-k",
        "2",
        "--dist",
        name.split("-")[0],
        name.replace(".yml", "").replace("-", " "),
        data=data,
    )
    assert found.returncode == 0, found.stderr
    payload = json.loads(found.stdout)
    assert payload["results"][0]["template"] == name
    assert Path(payload["results"][0]["path"]).is_file()

    human = run("search", "--templates-dir", str(small_library), "minimal", data=data)
    assert human.returncode == 0 and "query type" in human.stdout

    stats = json.loads(run("cache", "stats", "--json", data=data).stdout)
    assert stats["entries"] == 5 and stats["last_run"]["hits"] == 5
    assert stats["collections"][0]["model"] == "all-MiniLM-L6-v2"
    assert stats["collections"][0]["dimensions"] == 384

    cleared = run("cache", "clear", "--json", data=data)
    assert json.loads(cleared.stdout) == {"cleared": 5}
    assert json.loads(run("cache", "stats", "--json", data=data).stdout)["entries"] == 0


def test_two_processes_indexing_one_folder_do_not_corrupt_it(
    small_library: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "OIC_AI_DATA_DIR": str(data)}
    command = [
        sys.executable,
        "-m",
        "oic_ai",
        "index",
        "--templates-dir",
        str(small_library),
        "--json",
    ]
    procs = [
        subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=PROJECT, env=env
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    reports = [json.loads(out) for out, _ in outputs]
    assert sorted(r["created"] for r in reports) == [0, 5]  # the lock serialised them
    after = json.loads(
        run("index", "--templates-dir", str(small_library), "--json", data=data).stdout
    )
    assert (after["unchanged"], after["embedded"]) == (5, 0)


def test_corrupt_cache_is_one_line_exit_two_then_clear_heals(
    small_library: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    assert run("index", "--templates-dir", str(small_library), data=data).returncode == 0
    (data / "chroma" / "chroma.sqlite3").write_bytes(b"garbage" * 1000)
    broken = run("search", "--templates-dir", str(small_library), "minimal", data=data)
    assert broken.returncode == 2
    assert broken.stderr.count("\n") == 1 and "Traceback" not in broken.stderr
    assert "oic-ai cache clear" in broken.stderr
    assert run("cache", "clear", data=data).returncode == 0
    healed = run("index", "--templates-dir", str(small_library), "--json", data=data)
    assert json.loads(healed.stdout)["created"] == 5


def test_eval_retrieval_reports_the_figures(tmp_path: Path) -> None:
    result = run("eval", "retrieval", "--json", data=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert set(payload) == {"n", "hit_at_1", "hit_at_3", "mrr", "misses"}
    assert payload["n"] >= 40 and payload["hit_at_3"] >= 0.95 and payload["mrr"] >= 0.85


def test_bad_inputs_are_one_line_exit_two(tmp_path: Path) -> None:
    data = tmp_path / "data"
    cases = [
        run("search", "--templates-dir", str(tmp_path / "nope"), "x", data=data),
        run("eval", "retrieval", "--queries", str(tmp_path / "missing.yaml"), data=data),
        run("index", data=data, extra_env={"OIC_AI_PROVIDER": "gpt5-magic"}),
        run("index", "--config", str(tmp_path / "absent.yaml"), data=data),
    ]
    for result in cases:
        assert result.returncode == 2, result.stderr
        assert result.stderr.startswith("oic-ai") and result.stderr.count("\n") == 1
        assert "Traceback" not in result.stderr


def test_validate_and_search_start_without_langgraph_or_llm_clients(tmp_path: Path) -> None:
    code = (
        "import sys, runpy\n"
        "sys.argv = ['oic-ai', 'validate', 'image-templates/ubuntu24-x86_64-minimal-raw.yml']\n"
        "from oic_ai.cli.main import main\n"
        "main()\n"
        "from oic_ai.cli.main import main as m2\n"
        "m2(['search', '--json', 'minimal'])\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        env={**os.environ, "OIC_AI_DATA_DIR": str(tmp_path)},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
