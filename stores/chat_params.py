"""Which request parameters a chat server takes, by its published rules and by its 400s.

OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 but not gpt-5-chat) refuse sampling
parameters (``temperature``, ``top_p``) and the old ``max_tokens``, and take
``reasoning_effort``; OpenAI itself refuses ``max_tokens`` beside
``max_completion_tokens``; compatible servers (llama.cpp, vLLM, LM Studio) read
``max_tokens``. Gateways put a provider before the name (``openai/o4-mini``). Names the
rules do not know are learned from the server's own 400 (``unsupported_parameter``,
``unsupported_value``, "Unrecognized request argument"): the request is sent once more
without the refused parameter, and the refusal is remembered per server and model in
``<data>/chat_params.json``.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from oic_ai.stores.settings import Settings

HOSTED_OPENAI = "https://api.openai.com/v1"
MEMORY_FILE = "chat_params.json"
MAX_TOKENS = "max_tokens"
MAX_COMPLETION_TOKENS = "max_completion_tokens"
# parameters a request can do without (or swap for the other token field)
ADJUSTABLE = frozenset(
    {"temperature", "top_p", "reasoning_effort", MAX_TOKENS, MAX_COMPLETION_TOKENS}
)
_O_SERIES = re.compile(r"^o\d")
_REFUSED = (
    re.compile(r"Unsupported (?:parameter|value): '(\w+)'"),
    re.compile(r"Unrecognized request argument supplied: (\w+)"),
    re.compile(r"'(\w+)' is not supported with this model"),
    re.compile(r"Setting '(max_tokens)' and 'max_completion_tokens' at the same time"),
)


def base_model_name(model: str) -> str:
    """The model's own name: without a gateway's provider prefix, lower case."""
    return model.strip().rsplit("/", 1)[-1].lower()


def is_reasoning_model(model: str) -> bool:
    """True for OpenAI's reasoning models (o1, o3, o4-mini, gpt-5...), behind a gateway too."""
    name = base_model_name(model)
    return bool(_O_SERIES.match(name)) or (name.startswith("gpt-5") and "chat" not in name)


def is_hosted_openai(settings: Settings) -> bool:
    """True for OpenAI's own API (no base URL, or api.openai.com)."""
    return not settings.openai_base_url or "api.openai.com" in settings.openai_base_url


def server_key(settings: Settings) -> str:
    """The server a choice is remembered for: the base URL (never its credentials)."""
    url = str(settings.openai_base_url or HOSTED_OPENAI).rstrip("/")
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(an unreadable URL)"
    if "@" in parts.netloc:
        parts = parts._replace(netloc=parts.netloc.rsplit("@", 1)[1])
    return urlunsplit(parts._replace(query="", fragment=""))


@dataclass(frozen=True)
class RequestRules:
    """What one OpenAI-style request carries.

    Attributes:
        temperature: The sampling temperature, or None to send none.
        token_field: ``max_tokens`` or ``max_completion_tokens`` (never both).
        reasoning_effort: Sent to reasoning models only; None sends none.
        refused: Parameters this server and model refused before (never sent).
    """

    temperature: float | None
    token_field: str
    reasoning_effort: str | None
    refused: frozenset[str] = frozenset()


def openai_rules(settings: Settings) -> RequestRules:
    """The request rules for ``settings.openai_model`` on its server."""
    model = settings.openai_model
    reasoning = is_reasoning_model(model)
    refused = ParamMemory.for_settings(settings).refused(server_key(settings), model)
    token_field = MAX_COMPLETION_TOKENS if reasoning or is_hosted_openai(settings) else MAX_TOKENS
    if token_field in refused:
        token_field = MAX_TOKENS if token_field == MAX_COMPLETION_TOKENS else MAX_COMPLETION_TOKENS
    return RequestRules(
        temperature=None if reasoning else settings.openai_temperature,
        token_field=token_field,
        reasoning_effort=settings.openai_reasoning_effort if reasoning else None,
        refused=frozenset(refused - {token_field}),
    )


def refused_parameter(exc: BaseException) -> str | None:
    """The request parameter a 400 refuses, when it is one a request can do without."""
    if getattr(exc, "status_code", None) != 400:
        return None
    body = getattr(exc, "body", None)
    inner: Any = body.get("error", body) if isinstance(body, Mapping) else {}
    inner = inner if isinstance(inner, Mapping) else {}
    code = str(inner.get("code") or getattr(exc, "code", "") or "")
    param = str(inner.get("param") or getattr(exc, "param", "") or "")
    if param in ADJUSTABLE and code in (
        "unsupported_parameter",
        "unsupported_value",
        "invalid_parameter_combination",
    ):
        return param
    message = str(inner.get("message") or getattr(exc, "message", "") or exc)
    for pattern in _REFUSED:
        found = pattern.search(message)
        if found and found.group(1) in ADJUSTABLE:
            return found.group(1)
    return None


def adjust_payload(payload: dict[str, Any], token_field: str, refused: frozenset[str]) -> None:
    """Make a chat-completions payload follow the rules: one token field, nothing refused."""
    tokens = payload.pop(MAX_COMPLETION_TOKENS, None)
    tokens = payload.pop(MAX_TOKENS, None) or tokens
    if tokens is not None:
        payload[token_field] = tokens
    for name in refused:
        if name != token_field:
            payload.pop(name, None)


class ParamMemory:
    """Refused parameters per server and model, in a small JSON file (best effort)."""

    def __init__(self, path: Path | None) -> None:
        """Remember in ``path`` (None: remember nothing)."""
        self.path = path

    @classmethod
    def for_settings(cls, settings: Settings) -> ParamMemory:
        """The memory in the data folder of ``settings``."""
        return cls(Path(settings.data_dir) / MEMORY_FILE)

    def _read(self) -> dict[str, list[str]]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            str(k): [str(p) for p in v if p in ADJUSTABLE]
            for k, v in data.items()
            if isinstance(v, list)
        }

    def refused(self, server: str, model: str) -> set[str]:
        """What ``server`` refused for ``model`` before."""
        return set(self._read().get(f"{server} {model}", []))

    def remember(self, server: str, model: str, parameter: str) -> None:
        """Remember that ``server`` refuses ``parameter`` for ``model`` (atomically)."""
        if self.path is None:
            return
        data = self._read()
        key = f"{server} {model}"
        data[key] = sorted({*data.get(key, []), parameter})
        name = ""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(dir=self.path.parent, prefix=".chat_params.")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1, sort_keys=True)
            os.replace(name, self.path)
        except OSError:
            if name:  # a read-only data folder: the retry still works, it is not remembered
                Path(name).unlink(missing_ok=True)
