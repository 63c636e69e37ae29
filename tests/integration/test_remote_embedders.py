"""Ollama and OpenAI embedders against loopback fake servers: requests, failures, safety.

Every failure a remote backend can produce must surface as one
:class:`EmbeddingBackendError` line naming the server and the fix, after a bounded
number of requests, and must leave the Chroma index exactly as it was.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.embeddings.base import Embedder, EmbeddingBackendError
from oic_ai.stores.embeddings.factory import make_embedder
from oic_ai.stores.embeddings.remote import OllamaEmbedder, OpenAIEmbedder
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.settings import load_settings
from oic_ai.stores.template_index import TemplateIndex, collection_name
from oic_ai.stores.template_model import content_hash
from tests.conftest import OUR_TEMPLATES
from tests.support.cli import cli_env, oic
from tests.support.fake_embedding_server import FakeEmbeddingServer, fake_vector
from tests.support.loopback import down_url

CANARY_KEY = "sk-test-canary"
LIB = "lib"
TEMPLATE_NAMES = (
    "ubuntu24-x86_64-minimal-raw.yml",
    "debian13-x86_64-web-server-raw.yml",
    "emt3-x86_64-ai-inference-raw.yml",
)


@pytest.fixture
def server() -> Iterator[FakeEmbeddingServer]:
    with FakeEmbeddingServer() as running:
        yield running


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    folder = tmp_path / "templates"
    folder.mkdir()
    for name in TEMPLATE_NAMES:
        shutil.copy(OUR_TEMPLATES / name, folder / name)
    return folder


def ollama(url: str, timeout: float = 5.0, model: str = "nomic-embed-text") -> OllamaEmbedder:
    return OllamaEmbedder(model=model, base_url=url, timeout=timeout)


def openai(url: str, timeout: float = 5.0, max_retries: int = 1) -> OpenAIEmbedder:
    return OpenAIEmbedder(
        api_key=CANARY_KEY, base_url=url, timeout=timeout, max_retries=max_retries
    )


def openai_env(server: FakeEmbeddingServer) -> dict[str, str]:
    """The environment that points oic-ai's embeddings at the fake OpenAI API."""
    return {
        "OIC_AI_EMBEDDING_PROVIDER": "openai",
        "OPENAI_API_KEY": CANARY_KEY,
        "OPENAI_BASE_URL": server.openai_url,
    }


def assert_close(got: list[float], want: list[float]) -> None:
    assert len(got) == len(want)
    # OpenAI's base64 answers are float32, so allow float32 rounding
    assert max(abs(a - b) for a, b in zip(got, want, strict=True)) < 1e-6


def assert_one_line(exc: UserInputError, where: str, fix_word: str) -> str:
    message = str(exc)
    assert "\n" not in message and "\r" not in message, message
    assert message.startswith(where) or f"reach {where} " in message, message
    assert exc.fix and fix_word in exc.fix, message
    assert message.endswith(f"; {exc.fix}"), message
    assert "Traceback" not in message and len(message) < 400, message
    assert CANARY_KEY not in message
    return message


# -- talking to a healthy server ------------------------------------------------------


def test_ollama_embeds_a_batch_in_one_request_and_a_query(
    server: FakeEmbeddingServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OLLAMA_API_KEY", raising=False)  # the ollama client would send it
    embedder = ollama(server.url)
    texts = ["minimal ubuntu raw image", "debian web server", "edge ai inference"]

    vectors = embedder.embed_documents(texts)

    calls = server.embed_requests()
    assert len(calls) == 1, "one request carries the whole batch"
    call = calls[0]
    assert (call.method, call.path) == ("POST", "/api/embed")
    assert call.body["model"] == "nomic-embed-text"
    assert call.body["input"] == texts
    assert call.headers["content-type"] == "application/json"
    assert "authorization" not in call.headers
    assert [len(v) for v in vectors] == [768, 768, 768]
    for text, vector in zip(texts, vectors, strict=True):
        assert_close(vector, fake_vector("nomic-embed-text", text, 768))

    query = embedder.embed_query("raw disk for ubuntu")

    assert len(server.embed_requests()) == 2
    assert server.embed_requests()[1].body["input"] in (
        ["raw disk for ubuntu"],
        "raw disk for ubuntu",
    )
    assert_close(query, fake_vector("nomic-embed-text", "raw disk for ubuntu", 768))
    assert embedder.dimensions == 768
    assert embedder.model_id == "ollama-nomic-embed-text"
    assert embedder.embed_documents([]) == []
    assert len(server.embed_requests()) == 2, "an empty batch costs no request"


def test_openai_sends_the_key_and_decodes_the_vectors(server: FakeEmbeddingServer) -> None:
    embedder = openai(server.openai_url)
    texts = ["minimal ubuntu raw image", "debian web server"]

    vectors = embedder.embed_documents(texts)
    query = embedder.embed_query("kiosk")

    calls = server.embed_requests()
    assert len(calls) == 2
    first = calls[0]
    assert (first.method, first.path) == ("POST", "/v1/embeddings")
    assert first.headers["authorization"] == f"Bearer {CANARY_KEY}"
    assert first.body["model"] == "text-embedding-3-small"
    assert first.body["input"] == texts, "raw text, no tiktoken token ids"
    assert first.body.get("encoding_format") in (None, "float", "base64")
    assert [len(v) for v in vectors] == [1536, 1536]
    for text, vector in zip(texts, vectors, strict=True):
        assert_close(vector, fake_vector("text-embedding-3-small", text, 1536))
    assert calls[1].body["input"] in (["kiosk"], "kiosk")
    assert_close(query, fake_vector("text-embedding-3-small", "kiosk", 1536))
    assert math.isclose(sum(x * x for x in query), 1.0, rel_tol=1e-5)
    assert CANARY_KEY not in repr(embedder)


def test_ollama_settings_come_from_the_environment(
    server: FakeEmbeddingServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no stray config.yaml
    env = {"OLLAMA_HOST": server.host_port, "OIC_AI_EMBEDDING_PROVIDER": "ollama"}

    settings = load_settings(env=env)
    embedder = make_embedder(settings)

    assert settings.ollama_base_url == server.url, "a bare host:port gets http://"
    assert isinstance(embedder, Embedder)
    assert embedder.model_id == "ollama-nomic-embed-text"
    assert len(embedder.embed_query("hello")) == 768
    assert [r.path for r in server.embed_requests()] == ["/api/embed"]


def test_openai_settings_come_from_the_environment(
    server: FakeEmbeddingServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    env = openai_env(server)

    settings = load_settings(env=env)
    embedder = make_embedder(settings)

    assert CANARY_KEY not in repr(settings)
    assert len(embedder.embed_documents(["a", "b", "c"])) == 3
    (call,) = server.embed_requests()
    assert call.headers["authorization"] == f"Bearer {CANARY_KEY}"
    assert call.body["input"] == ["a", "b", "c"]


def test_openai_without_a_key_is_refused_before_any_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load_settings(env={"OIC_AI_EMBEDDING_PROVIDER": "openai"})

    with pytest.raises(EmbeddingBackendError) as caught:
        make_embedder(settings)

    assert "OPENAI_API_KEY" in str(caught.value)
    assert "\n" not in str(caught.value)


# -- every way a backend can fail ----------------------------------------------------

# id -> (behave() arguments, words in the message, retried by the OpenAI client?)
FAILURES: dict[str, tuple[dict[str, Any], str, bool]] = {
    "slow": ({"mode": "slow", "delay": 4.0}, "did not answer in time", True),
    "429": ({"mode": "status", "status": 429, "retry_after_ms": 20}, "HTTP 429", True),
    "500": ({"mode": "status", "status": 500, "retry_after_ms": 20}, "HTTP 500", True),
    "truncated-json": ({"mode": "truncated"}, "failed", False),
    "garbage": ({"mode": "garbage"}, "failed", False),
    "wrong-dimension": ({"mode": "wrong_dimension"}, "384-dimensional vectors", False),
    "hang-up": ({"mode": "hang_up"}, "Ollama", True),
}


@pytest.mark.parametrize("provider", ["ollama", "openai"])
@pytest.mark.parametrize("failure", list(FAILURES))
def test_a_failing_server_gives_one_clear_line_after_bounded_requests(
    server: FakeEmbeddingServer, provider: str, failure: str
) -> None:
    behave, words, retried = FAILURES[failure]
    server.behave(**behave)
    if provider == "ollama":
        embedder: OllamaEmbedder | OpenAIEmbedder = ollama(server.url, timeout=1.0)
        where, fix_word, most = f"Ollama at {server.url}", "ollama serve", 1
    else:
        retries = 0 if failure == "slow" else 1
        embedder = openai(server.openai_url, timeout=1.0, max_retries=retries)
        where, fix_word = f"the OpenAI API at {server.openai_url}", "OPENAI_API_KEY"
        most = 1 + retries if retried else 1
    if failure == "hang-up":
        words = "Ollama" if provider == "ollama" else "OpenAI"
    if failure == "wrong-dimension":
        fix_word = "model name"  # a wrong size is a model mix-up, not a server problem

    started = time.monotonic()
    with pytest.raises(EmbeddingBackendError) as caught:
        embedder.embed_documents(["one", "two"])
    elapsed = time.monotonic() - started

    message = assert_one_line(caught.value, where, fix_word)
    assert words in message
    assert isinstance(caught.value, UserInputError), "the CLI prints it as one line, exit 2"
    assert len(server.embed_requests()) == most, [r.headers for r in server.requests]
    assert elapsed < 4.0, "the client timeout, not the server's delay, decides"


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_a_server_that_is_down_gives_one_clear_line(provider: str) -> None:
    with down_url() as url:
        if provider == "ollama":
            embedder: OllamaEmbedder | OpenAIEmbedder = ollama(url, timeout=2.0)
            where, fix_word = f"Ollama at {url}", "OLLAMA_HOST"
        else:
            embedder = openai(f"{url}/v1", timeout=2.0, max_retries=0)
            where, fix_word = f"the OpenAI API at {url}/v1", "OPENAI_BASE_URL"
        with pytest.raises(EmbeddingBackendError) as caught:
            embedder.embed_query("anything")
    message = assert_one_line(caught.value, where, fix_word)
    assert message.startswith(f"cannot reach {where}")


def test_openai_default_retries_stop_after_three_requests(
    server: FakeEmbeddingServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    env = openai_env(server)
    embedder = make_embedder(load_settings(env=env))  # what the CLI builds: max_retries=2
    server.behave("status", status=500, retry_after_ms=20)

    with pytest.raises(EmbeddingBackendError):
        embedder.embed_documents(["x"])

    calls = server.embed_requests()
    assert len(calls) == 3
    assert [c.headers.get("x-stainless-retry-count") for c in calls] == ["0", "1", "2"]


def test_openai_retries_ride_out_a_transient_error(server: FakeEmbeddingServer) -> None:
    server.behave("status", status=503, retry_after_ms=20, times=1)
    embedder = openai(server.openai_url, max_retries=2)

    vectors = embedder.embed_documents(["survives one 503"])

    assert len(server.embed_requests()) == 2
    assert_close(vectors[0], fake_vector("text-embedding-3-small", "survives one 503", 1536))


def test_an_unknown_model_size_is_probed_then_enforced(server: FakeEmbeddingServer) -> None:
    server.dimensions["my-embedder"] = 512
    embedder = OllamaEmbedder(model="my-embedder", base_url=server.url, timeout=2.0)

    assert embedder.dimensions == 512
    assert len(server.embed_requests()) == 1
    server.behave("wrong_dimension", wrong_dimensions=256)
    with pytest.raises(EmbeddingBackendError, match="256-dimensional vectors for my-embedder"):
        embedder.embed_query("x")


# -- the index is never partially written ---------------------------------------------


def _stored(index: TemplateIndex) -> dict[str, tuple[str, int]]:
    got = index.collection.get(include=["metadatas", "embeddings"])
    return {
        id_: (str(meta["content_hash"]), len(vector))
        for id_, meta, vector in zip(got["ids"], got["metadatas"], got["embeddings"], strict=True)
    }


def test_a_failing_backend_leaves_the_index_as_it_was(
    server: FakeEmbeddingServer, templates: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    index = TemplateIndex(ollama(server.url, timeout=1.0), data, library=LIB)
    first = index.sync(templates)
    assert (first.created, first.embedded) == (3, 3)
    assert len(server.embed_requests()) == 1, "three templates, one batch"
    original = {name: content_hash((templates / name).read_bytes()) for name in TEMPLATE_NAMES}
    assert _stored(index) == {name: (h, 768) for name, h in original.items()}

    changed = templates / TEMPLATE_NAMES[0]
    text = changed.read_text()
    changed.write_text(text.replace("general-purpose base", "general-purpose base, revised"))
    assert content_hash(changed.read_bytes()) != original[TEMPLATE_NAMES[0]]

    for behave in (
        {"mode": "status", "status": 500},
        {"mode": "wrong_dimension"},
        {"mode": "truncated"},
        {"mode": "slow", "delay": 3.0},
    ):
        server.reset()
        server.behave(**behave)
        with pytest.raises(EmbeddingBackendError):
            index.sync(templates)
        (call,) = server.embed_requests()
        assert len(call.body["input"]) == 1, "only the changed template is re-embedded"
        reopened = TemplateIndex(index.embedder, data, library=LIB)  # a fresh look at the store
        assert _stored(reopened) == {name: (h, 768) for name, h in original.items()}, behave

    server.reset()
    recovered = index.sync(templates)
    assert (recovered.updated, recovered.unchanged, recovered.embedded) == (1, 2, 1)
    assert _stored(index)[TEMPLATE_NAMES[0]][0] == content_hash(changed.read_bytes())


def test_a_failure_during_the_first_sync_writes_nothing(
    server: FakeEmbeddingServer, templates: Path, tmp_path: Path
) -> None:
    server.behave("garbage")
    index = TemplateIndex(ollama(server.url), tmp_path / "data", library=LIB)

    with pytest.raises(EmbeddingBackendError):
        index.sync(templates)

    assert index.collection.count() == 0
    assert not (tmp_path / "data" / "index-stats.json").exists()


def test_another_model_gets_its_own_collection(
    server: FakeEmbeddingServer, templates: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    nomic = TemplateIndex(ollama(server.url), data, library=LIB)
    nomic.sync(templates)
    large = TemplateIndex(
        ollama(server.url, model="mxbai-embed-large"), data, client=nomic.client, library=LIB
    )

    report = large.sync(templates)

    assert report.created == 3, "a new model starts from an empty collection"
    assert nomic.name != large.name
    assert nomic.name == collection_name(nomic.embedder, LIB)
    assert nomic.name == "oic_lib_ollama-nomic-embed-text_768d"
    assert large.name == "oic_lib_ollama-mxbai-embed-large_1024d"
    assert {c.name for c in nomic.client.list_collections()} >= {nomic.name, large.name}
    assert {dims for _, dims in _stored(nomic).values()} == {768}
    assert {dims for _, dims in _stored(large).values()} == {1024}
    assert [r.body["model"] for r in server.embed_requests()] == [
        "nomic-embed-text",
        "mxbai-embed-large",
    ]


# -- the command line ------------------------------------------------------------------


def run_cli(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return oic(*args, cwd=cwd, env=cli_env(**env), timeout=120)


def assert_cli_one_line_error(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("oic-ai: "), result.stderr
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr
    assert CANARY_KEY not in result.stderr + result.stdout
    return result.stderr.strip()


def test_cli_index_through_ollama(
    server: FakeEmbeddingServer, templates: Path, tmp_path: Path
) -> None:
    args = ("index", "--embedding-provider", "ollama", "--json")
    dirs = ("--data-dir", str(tmp_path / "data"), "--templates-dir", str(templates))

    result = run_cli(*args, *dirs, cwd=tmp_path, OLLAMA_HOST=server.host_port)

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["created"], report["embedded"]) == (3, 3)
    (call,) = server.embed_requests()
    assert call.body["model"] == "nomic-embed-text" and len(call.body["input"]) == 3


def test_cli_with_ollama_down_exits_3_with_one_line(templates: Path, tmp_path: Path) -> None:
    """An unreachable backend is worth a retry: exit 3, not the usage error's 2."""
    with down_url() as url:
        result = run_cli(
            "index",
            "--embedding-provider",
            "ollama",
            "--data-dir",
            str(tmp_path / "data"),
            "--templates-dir",
            str(templates),
            cwd=tmp_path,
            OLLAMA_HOST=url.removeprefix("http://"),
        )
    line = assert_cli_one_line_error(result, code=3)
    assert line.startswith(f"oic-ai: cannot reach Ollama at {url}")
    assert "ollama serve" in line


def test_cli_openai_without_a_key_exits_2_naming_the_variable(
    templates: Path, tmp_path: Path
) -> None:
    result = run_cli(
        "index",
        "--embedding-provider",
        "openai",
        "--data-dir",
        str(tmp_path / "data"),
        "--templates-dir",
        str(templates),
        cwd=tmp_path,
    )
    line = assert_cli_one_line_error(result)
    assert "OPENAI_API_KEY" in line
    assert not (tmp_path / "data" / "chroma").exists() or not any(
        (tmp_path / "data" / "chroma").iterdir()
    )


def test_cli_openai_failure_keeps_the_key_secret_and_the_index_intact(
    server: FakeEmbeddingServer, templates: Path, tmp_path: Path
) -> None:
    env = {"OPENAI_API_KEY": CANARY_KEY, "OPENAI_BASE_URL": server.openai_url}
    args = ("index", "--embedding-provider", "openai", "--json")
    dirs = ("--data-dir", str(tmp_path / "data"), "--templates-dir", str(templates))
    first = run_cli(*args, *dirs, cwd=tmp_path, **env)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["created"] == 3

    (templates / TEMPLATE_NAMES[1]).write_text(
        (templates / TEMPLATE_NAMES[1]).read_text() + "\n# touched\n"
    )
    server.reset()
    server.behave("status", status=500, retry_after_ms=20)
    failed = run_cli(*args, *dirs, cwd=tmp_path, **env)

    line = assert_cli_one_line_error(failed, code=3)  # a 500 that persists: retryable
    assert f"the OpenAI API at {server.openai_url} answered HTTP 500" in line
    assert len(server.embed_requests()) == 3, "max_retries=2: three requests, no more"
    assert failed.stdout == ""

    server.reset()
    again = run_cli(*args, *dirs, cwd=tmp_path, **env)
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert (report["updated"], report["unchanged"], report["embedded"]) == (1, 2, 1)
