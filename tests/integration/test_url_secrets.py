"""Passwords inside URLs never leak: not in output, notices, errors, logs or checkpoints.

Every URL oic-ai takes (``OPENAI_BASE_URL``, ``OLLAMA_HOST``, ``OIC_AI_CHROMA_URL``,
``OIC_AI_DATABASE_URL``) carries the same password here. A real ``oic-ai serve`` runs
with an Ollama URL that does not answer (so every turn carries the fallback notice that
names it), the CLI takes turns through a fake OpenAI-style server reached through a URL
with the password, fails on an unreachable Ollama and Chroma, and shows its config. Then
every answer, every line printed, the server's log and every file of the data folder are
searched for the password: it is nowhere, and ``***`` stands where it was.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.cli import oic
from tests.support.fake_chat_server import FakeChatServer
from tests.support.processes import free_port
from tests.support.servers import GRAPH_ID, message, oic_serve

pytestmark = pytest.mark.integration

PASSWORD = "Hunter2-url-pass-Q7"
PLAN = {"summary": "add htop", "operations": [{"op": "add_packages", "packages": ["htop"]}]}
REQUEST = "a minimal ubuntu 24.04 edge image for arm64"


def _with_password(url: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://oic:{PASSWORD}@{rest}"


def _files_holding(folder: Path, secret: bytes) -> list[str]:
    return [
        str(path) for path in folder.rglob("*") if path.is_file() and secret in path.read_bytes()
    ]


def test_a_password_inside_a_url_is_masked_everywhere(tmp_path: Path) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    seen: list[str] = []
    with FakeChatServer([PLAN]) as chat:
        urls = {
            "OPENAI_BASE_URL": _with_password(chat.openai_url),
            "OLLAMA_HOST": _with_password(dead),
            "OIC_AI_CHROMA_URL": _with_password(dead),
            "OIC_AI_DATABASE_URL": f"postgresql://oic:{PASSWORD}@127.0.0.1:{free_port()}/db",
        }
        with oic_serve(tmp_path, OIC_AI_PROVIDER="auto", OLLAMA_HOST=urls["OLLAMA_HOST"]) as server:
            seen.append(asyncio.run(_served_turn(server.url)))
            seen.append(httpx.get(server.url + "/api/v1/sessions", timeout=60).text)
            env = {**server.env, "OPENAI_API_KEY": "sk-test-url-secrets"}
            turn = oic(
                "generate",
                REQUEST,
                "--provider",
                "openai",
                "--verbose",
                "--json",
                env={**env, "OPENAI_BASE_URL": urls["OPENAI_BASE_URL"]},
            )
            assert turn.returncode == 0, turn.stderr
            assert "oic:***@" in turn.stderr  # --verbose names the server, masked
            seen += [turn.stdout, turn.stderr]
            ollama = oic("generate", REQUEST, "--provider", "ollama", env={**env, **urls})
            assert ollama.returncode != 0
            seen += [ollama.stdout, ollama.stderr]
            chroma = oic("search", "docker", env={**env, **urls})
            assert chroma.returncode != 0
            seen += [chroma.stdout, chroma.stderr]
            for extra in ((), ("--json",)):
                shown = oic("config", "show", *extra, env={**env, **urls})
                assert shown.returncode == 0, shown.stderr
                assert shown.stdout.count("oic:***@") >= 4  # all four URLs, masked
                seen += [shown.stdout, shown.stderr]
            log = server.log.read_text(errors="replace")
    leaks = [text[:400] for text in [*seen, log] if PASSWORD in text]
    assert not leaks
    assert not _files_holding(tmp_path, PASSWORD.encode())
    assert "Ollama" in seen[0] and "oic:***@" in seen[0]  # the notice is there, masked


async def _served_turn(url: str) -> str:
    from langgraph_sdk import get_client

    client = get_client(url=url)
    thread = await client.threads.create(graph_id=GRAPH_ID)
    result: Any = await client.runs.wait(thread["thread_id"], GRAPH_ID, input=message(REQUEST))
    state = await client.threads.get_state(thread["thread_id"])
    history = await client.threads.get_history(thread["thread_id"], limit=100)
    return repr((result, state, history))
