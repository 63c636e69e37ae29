"""Settings: hard-coded defaults, then config files, then environment, then flags.

The vocabulary is the ADR's ``ai.*`` keys. Config files, lowest first:

1. the ``ai:`` section of the composer's own config, where the composer looks for it
   (``./os-image-composer.yml`` ... ``/etc/os-image-composer/config.yaml``);
2. ours: ``--config``, else ``$OIC_AI_CONFIG``, else ``./config.yaml``, else
   ``$XDG_CONFIG_HOME/oic-ai/config.yaml``.

A key oic-ai does not use gets a warning, never a failure. Secrets (API keys) are kept
out of ``repr``, masked in every message, and never written anywhere. The data folder
is ``OIC_AI_DATA_DIR`` (or ``ai.cache.dir``, or ``--data-dir``), else an existing
``./.ai-cache``, else ``$XDG_DATA_HOME/oic-ai``, so ``--continue`` finds a session from
any directory. :func:`explain_settings` also says where each value came from.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, get_args

from oic_ai.stores.errors import UserInputError

Provider = Literal["auto", "builtin", "ollama", "openai"]
GenerationMode = Literal["plan", "yaml"]
EmbeddingProvider = Literal["local", "ollama", "openai"]
STRUCTURED_OUTPUT_METHODS = ("auto", "json_schema", "json_mode", "tools")
PROVIDERS: tuple[str, ...] = get_args(Provider)
GENERATION_MODES: tuple[str, ...] = get_args(GenerationMode)
EMBEDDING_PROVIDERS: tuple[str, ...] = get_args(EmbeddingProvider)


@dataclass(frozen=True)
class Settings:
    """Every setting oic-ai reads, with the ADR's defaults."""

    provider: str = "auto"
    """Planner: auto, builtin, ollama or openai (``Provider``)."""
    embedding_provider: str = "local"
    """Embeddings: local (offline), ollama or openai."""
    templates_dir: Path | None = None
    """Template library folder; None is the library that ships with oic-ai."""
    data_dir: Path = Path(".ai-cache")
    """Index, package indexes and sessions live here (resolved by :func:`default_data_dir`)."""
    chroma_url: str | None = None
    """A Chroma server instead of the embedded store under ``data_dir``."""
    database_url: str | None = field(default=None, repr=False)
    """Sessions in PostgreSQL (``postgresql://...``); None keeps them in SQLite under
    ``data_dir``. May hold a password, so it is kept out of ``repr`` and masked in messages."""
    ollama_base_url: str = "http://localhost:11434"
    """Ollama server URL."""
    ollama_model: str = "llama3.1:8b"
    """Ollama chat model."""
    ollama_embedding_model: str = "nomic-embed-text"
    """Ollama embedding model."""
    ollama_timeout: float = 120.0
    """Seconds to wait for an Ollama answer."""
    ollama_num_ctx: int = 8192
    """Ollama's context window (``num_ctx``); every prompt budget derives from it."""
    ollama_structured_output: str = "auto"
    """How Ollama is asked for a plan: auto (``format``), json_schema, json_mode or tools."""
    ollama_think: str | None = "false"
    """Ollama's ``think``: false (default: thinking models answer at once), true, low,
    medium or high; null sends nothing (the model's own default)."""
    openai_model: str = "gpt-4o-mini"
    """OpenAI chat model."""
    openai_embedding_model: str = "text-embedding-3-small"
    """OpenAI embedding model."""
    openai_timeout: float = 60.0
    """Seconds to wait for an OpenAI answer."""
    openai_base_url: str | None = None
    """An OpenAI-compatible server instead of the hosted API."""
    openai_structured_output: str = "auto"
    """How an OpenAI-style server is asked for a plan: auto, json_schema, json_mode, tools."""
    openai_temperature: float | None = 0.0
    """Sampling temperature; null sends none. Never sent to models that refuse it
    (o-series, gpt-5), whatever it says."""
    openai_reasoning_effort: str | None = "low"
    """``reasoning_effort`` for reasoning models (none, minimal, low, medium, high, xhigh);
    null sends none. Other models never get it."""
    openai_api_key: str | None = field(default=None, repr=False)
    """From the environment only; never written anywhere."""
    cache_enabled: bool = True
    """The ADR's ``cache.enabled`` key (accepted; Chroma is always the embedding cache)."""
    max_history: int = 20
    """Messages of history given to an LLM."""
    session_timeout: str = "30m"
    """How recent a session must be for ``--continue``."""
    scoring_semantic: float = 0.70
    """Hybrid score weight of the semantic similarity."""
    scoring_keyword: float = 0.20
    """Hybrid score weight of the keyword (BM25) match."""
    scoring_package: float = 0.10
    """Hybrid score weight of the package overlap."""
    min_score_threshold: float = 0.40
    """Results below it are dropped, or flagged low-confidence when none reach it."""
    package_threshold: int = 2
    """Package names in a query that make it package-explicit."""
    keyword_density: float = 0.5
    """Share of keywords that makes a query keyword-heavy."""
    negation_penalty: float = 0.5
    """Score taken off a template that holds what the query excludes."""
    max_fix_attempts: int = 2
    """Self-correction rounds before a turn gives up."""
    generation_mode: str = "plan"
    """plan: the model returns an edit plan; yaml: it writes the template."""
    max_tokens: int = 3072
    """Largest answer asked of a chat model."""
    max_operations: int = 100
    """Operations of a model's plan applied in one turn; the rest are reported."""
    packages_max_index_mb: int = 512
    """Largest package index accepted, in MiB after decompression (Debian main: ~70)."""
    packages_transfer_timeout: float = 0.0
    """Seconds one index file's whole download may take; 0 means 10 x ``--timeout``."""
    library_name: str | None = None
    """Names the library's Chroma collection; None: a stable id of the templates folder."""
    server_url: str | None = None
    """An oic-ai server that generate, chat and sessions talk to instead of local stores."""
    token: str | None = field(default=None, repr=False)
    """The bearer token for ``server_url``; from the environment or a flag, never written."""
    serve_allowed_origins: tuple[str, ...] = ()
    """Web origins (``https://app.example.com``) allowed to call the server from a browser."""
    serve_allowed_hosts: tuple[str, ...] = ()
    """Host names the server answers for besides ``localhost`` and the address it is bound to."""
    serve_max_body_mb: int = 8
    """Largest request body the server accepts, in MiB (413 above it)."""
    composer_path: str | None = None
    """The composer (``image-composer-tool``) ``oic-ai build`` runs; None: look on PATH.
    On a server, setting it turns the page's Build action on (off by default: builds are
    heavy and need root)."""
    composer_config: Path | None = None
    """The composer's own global config file (``--config``); None: the composer's search."""

    def __post_init__(self) -> None:
        """Register the API key (and a database password), so every message masks them."""
        from oic_ai.stores.secrets import register_secret, register_url

        register_secret(self.openai_api_key)
        register_secret(self.token)
        for url in (
            self.database_url,
            self.openai_base_url,
            self.ollama_base_url,
            self.chroma_url,
            self.server_url,
        ):
            register_url(url)

    def with_overrides(self, **values: Any) -> Settings:
        """Return a copy with the given (non-None) values replaced."""
        return replace(self, **{k: v for k, v in values.items() if v is not None})

    @property
    def chroma_dir(self) -> Path:
        """Where the embedded Chroma store lives."""
        return self.data_dir / "chroma"


# config.yaml path (under ``ai:``) -> Settings field
_CONFIG_KEYS: dict[tuple[str, ...], str] = {
    ("provider",): "provider",
    ("templates_dir",): "templates_dir",
    ("embedding", "provider"): "embedding_provider",
    ("ollama", "base_url"): "ollama_base_url",
    ("ollama", "model"): "ollama_model",
    ("ollama", "embedding_model"): "ollama_embedding_model",
    ("ollama", "timeout"): "ollama_timeout",
    ("ollama", "num_ctx"): "ollama_num_ctx",
    ("ollama", "structured_output"): "ollama_structured_output",
    ("ollama", "think"): "ollama_think",
    ("openai", "structured_output"): "openai_structured_output",
    ("openai", "temperature"): "openai_temperature",
    ("openai", "reasoning_effort"): "openai_reasoning_effort",
    ("openai", "model"): "openai_model",
    ("openai", "embedding_model"): "openai_embedding_model",
    ("openai", "timeout"): "openai_timeout",
    ("openai", "base_url"): "openai_base_url",
    ("cache", "enabled"): "cache_enabled",
    ("cache", "dir"): "data_dir",
    ("conversation", "max_history"): "max_history",
    ("conversation", "session_timeout"): "session_timeout",
    ("scoring", "semantic"): "scoring_semantic",
    ("scoring", "keyword"): "scoring_keyword",
    ("scoring", "package"): "scoring_package",
    ("scoring", "min_score_threshold"): "min_score_threshold",
    ("classification", "package_threshold"): "package_threshold",
    ("classification", "keyword_density"): "keyword_density",
    ("classification", "negation_penalty"): "negation_penalty",
    ("agent", "max_fix_attempts"): "max_fix_attempts",
    ("generation", "mode"): "generation_mode",
    ("generation", "max_tokens"): "max_tokens",
    ("generation", "max_operations"): "max_operations",
    ("chroma", "url"): "chroma_url",
    ("sessions", "url"): "database_url",
    ("packages", "max_index_mb"): "packages_max_index_mb",
    ("packages", "transfer_timeout"): "packages_transfer_timeout",
    ("library", "name"): "library_name",
    ("server", "url"): "server_url",
    ("serve", "allowed_origins"): "serve_allowed_origins",
    ("serve", "allowed_hosts"): "serve_allowed_hosts",
    ("serve", "max_body_mb"): "serve_max_body_mb",
    ("composer", "path"): "composer_path",
    ("composer", "config"): "composer_config",
}
_SECRET_KEYS = frozenset({"api_key", "openai_api_key", "token"})
# settings where a config file's null means "send nothing", not "use the default"
_NULLABLE = frozenset({"openai_temperature", "openai_reasoning_effort", "ollama_think"})
THINK_VALUES = ("false", "true", "low", "medium", "high")
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")
# config paths that hold a secret: read (never written), with ${VAR} references expanded
_SECRET_CONFIG_KEYS: dict[tuple[str, ...], str] = {
    ("openai", "api_key"): "openai_api_key",
    ("openai_api_key",): "openai_api_key",
}
# Where the composer looks for its own config file, in its order (relative = working dir).
_COMPOSER_LOCAL_NAMES = (
    "os-image-composer.yml",
    ".os-image-composer.yml",
    "os-image-composer.yaml",
    ".os-image-composer.yaml",
)
_warned: set[str] = set()


def _warn(message: str) -> None:
    """Print a settings warning on stderr, once per process."""
    if message not in _warned:
        _warned.add(message)
        print(f"oic-ai: warning: {message}", file=sys.stderr)


def _home(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("HOME") or Path.home())


def _xdg(environ: Mapping[str, str], variable: str, fallback: str) -> Path:
    """An XDG base folder: the variable when it is an absolute path, else ``~/fallback``."""
    value = environ.get(variable, "")
    return Path(value) if value and Path(value).is_absolute() else _home(environ) / fallback


def own_config_path(environ: Mapping[str, str]) -> Path | None:
    """oic-ai's config file when none is named: ``./config.yaml``, then the XDG one."""
    xdg = _xdg(environ, "XDG_CONFIG_HOME", ".config") / "oic-ai" / "config.yaml"
    for candidate in (Path("config.yaml"), xdg):
        if candidate.is_file():
            return candidate
    return None


def composer_config_path(environ: Mapping[str, str]) -> Path | None:
    """The composer's own config file, searched where the composer searches for it."""
    home = _home(environ)
    xdg = _xdg(environ, "XDG_CONFIG_HOME", ".config")
    candidates = [Path(name) for name in _COMPOSER_LOCAL_NAMES]
    for folder in (home / ".os-image-composer", xdg / "os-image-composer"):
        candidates += [folder / "config.yml", folder / "config.yaml"]
    etc = Path("/etc/os-image-composer")
    candidates += [etc / "config.yml", etc / "config.yaml"]
    return next((c for c in candidates if c.is_file()), None)


def default_data_dir(environ: Mapping[str, str]) -> tuple[Path, str]:
    """The data folder when none is set, and why: ``./.ai-cache`` if it exists, else XDG."""
    local = Path(".ai-cache")
    if local.is_dir():
        return local, "default: ./.ai-cache exists here"
    return _xdg(environ, "XDG_DATA_HOME", ".local/share") / "oic-ai", "default: XDG data folder"


_ENV_KEYS: dict[str, str] = {
    "OIC_AI_PROVIDER": "provider",
    "OIC_AI_EMBEDDING_PROVIDER": "embedding_provider",
    "OIC_AI_GENERATION_MODE": "generation_mode",
    "OIC_AI_DATA_DIR": "data_dir",
    "OIC_AI_TEMPLATES_DIR": "templates_dir",
    "OIC_AI_CHROMA_URL": "chroma_url",
    "OIC_AI_DATABASE_URL": "database_url",
    "OLLAMA_HOST": "ollama_base_url",
    "OPENAI_BASE_URL": "openai_base_url",
    "OPENAI_API_KEY": "openai_api_key",
    "OIC_AI_LIBRARY_NAME": "library_name",
    "OIC_AI_SERVER_URL": "server_url",
    "OIC_AI_TOKEN": "token",
    "OIC_AI_ALLOWED_ORIGINS": "serve_allowed_origins",
    "OIC_AI_ALLOWED_HOSTS": "serve_allowed_hosts",
    "OIC_AI_MAX_BODY_MB": "serve_max_body_mb",
}

_TYPES = {f.name: f.type for f in fields(Settings)}


def _coerce(name: str, value: Any, source: str) -> Any:
    kind = str(_TYPES[name]).removesuffix(" | None")
    if value is None and name in _NULLABLE:
        return None
    try:
        if "Path" in kind:
            return Path(str(value)).expanduser()
        if kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if kind == "int":
            if isinstance(value, bool):
                raise ValueError(value)
            return int(value)
        if kind == "tuple[str, ...]":
            items = value.split(",") if isinstance(value, str) else value
            if not isinstance(items, list | tuple):
                raise ValueError(value)
            return tuple(str(item).strip() for item in items if str(item).strip())
        if kind == "float":
            if isinstance(value, bool):
                raise ValueError(value)
            return float(value)
        if value is None:
            return None
        return str(value).lower() if isinstance(value, bool) else str(value)
    except (TypeError, ValueError):
        raise UserInputError(
            f"{source}: {value!r} is not a valid {kind} for {name}",
            fix="correct the value or remove it to use the default",
        ) from None


def _ollama_url(value: str) -> str:
    value = value.strip().rstrip("/")
    return value if "://" in value else f"http://{value}"


def _expand_secret(value: Any, environ: Mapping[str, str]) -> str | None:
    """A secret from a config file: ``${VAR}`` or ``$VAR`` reads the environment."""
    text = "" if value is None else str(value).strip()
    if text.startswith("${") and text.endswith("}"):
        text = environ.get(text[2:-1], "")
    elif text.startswith("$") and text[1:].replace("_", "").isalnum():
        text = environ.get(text[1:], "")
    return text or None


def _read_config(path: Path) -> Any:
    from oic_ai.stores.template_library import UnreadableFileError, read_file_bytes
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

    try:  # a regular file only: a named pipe would block, /dev/zero would never end
        text = read_file_bytes(path).decode("utf-8")
    except UnreadableFileError as exc:
        raise UserInputError(
            f"cannot read config file {path}: {exc.reason}", fix="check the path"
        ) from None
    except UnicodeDecodeError:
        raise UserInputError(f"config file {path} is not UTF-8 text", fix="re-save it") from None
    try:
        data = load_data(text) if text.strip() else {}
    except YamlSyntaxError as exc:
        raise UserInputError(
            f"config file {path} is not valid YAML ({exc})", fix="fix it"
        ) from None
    return {} if data is None else data


def _from_config(
    path: Path, environ: Mapping[str, str] | None = None, *, composer: bool = False
) -> dict[str, Any]:
    """The settings a config file sets (its ``ai:`` section; ours may also be bare keys).

    Args:
        path: the file.
        environ: where ``${VAR}`` references in secrets are looked up.
        composer: the composer's own config: only its ``ai:`` section is ours to read.
    """
    environ = os.environ if environ is None else environ
    data = _read_config(path)
    if not isinstance(data, Mapping):
        if composer:
            return {}
        raise UserInputError(f"config file {path} must hold a mapping", fix="start it with 'ai:'")
    section = data.get("ai") if composer else data.get("ai", data)
    if composer and section is None:
        return {}
    if not isinstance(section, Mapping):
        raise UserInputError(f"config file {path}: 'ai' must be a mapping", fix="fix it")
    values: dict[str, Any] = {}

    def walk(node: Mapping[str, Any], prefix: tuple[str, ...]) -> None:
        for key, value in node.items():
            here = (*prefix, str(key))
            dotted = "ai." + ".".join(here)
            if here in _SECRET_CONFIG_KEYS:
                secret = _expand_secret(value, environ)
                if secret:
                    values[_SECRET_CONFIG_KEYS[here]] = secret
                    if not str(value).lstrip().startswith("$"):
                        _warn(
                            f"{path} holds {dotted}: it is used, never written; "
                            "OPENAI_API_KEY in the environment is safer"
                        )
            elif str(key) in _SECRET_KEYS:
                variable = "OIC_AI_TOKEN" if str(key) == "token" else "OPENAI_API_KEY"
                _warn(f"{path}: ignoring the secret {dotted}; set {variable} in the environment")
            elif here in _CONFIG_KEYS:
                values[_CONFIG_KEYS[here]] = _coerce(_CONFIG_KEYS[here], value, str(path))
            elif isinstance(value, Mapping):
                walk(value, here)
            else:
                _warn(f"{path}: ignoring unknown setting {dotted}")

    walk(section, ())
    return values


def _check_llm_values(settings: Settings) -> None:
    think = settings.ollama_think
    if think is not None and think.lower() not in THINK_VALUES:
        raise UserInputError(
            f"unknown ai.ollama.think {think!r}",
            fix=f"use one of {', '.join(THINK_VALUES)}, or null for the model's default",
        )
    effort = settings.openai_reasoning_effort
    if effort is not None and effort not in REASONING_EFFORTS:
        raise UserInputError(
            f"unknown ai.openai.reasoning_effort {effort!r}",
            fix=f"use one of {', '.join(REASONING_EFFORTS)}, or null to send none",
        )
    if settings.max_operations < 1 or settings.max_tokens < 16:
        raise UserInputError(
            "ai.generation.max_operations must be at least 1 and max_tokens at least 16",
            fix="remove them to use the defaults (100 operations, 3072 tokens)",
        )


def load_settings(
    config: str | Path | None = None,
    *,
    env: Mapping[str, str] | None = None,
    **flags: Any,
) -> Settings:
    """Resolve settings in precedence order: defaults → config files → env → flags.

    Args:
        config: a config file; defaults to ``$OIC_AI_CONFIG``, ``./config.yaml`` or
            ``$XDG_CONFIG_HOME/oic-ai/config.yaml``, over the composer's own ``ai:``.
        env: the environment to read (``os.environ`` by default).
        **flags: command-line values; ``None`` means "not given".

    Raises:
        UserInputError: the config file is unreadable or holds bad values, or a
            provider name is unknown.
    """
    return explain_settings(config, env=env, **flags)[0]


def explain_settings(
    config: str | Path | None = None,
    *,
    env: Mapping[str, str] | None = None,
    **flags: Any,
) -> tuple[Settings, dict[str, str]]:
    """Resolve settings like :func:`load_settings`, and say where each value came from.

    Returns:
        The settings, and for each field its source: ``default``, ``config FILE``,
        ``env VARIABLE`` or ``command line``.

    Raises:
        UserInputError: as :func:`load_settings`.
    """
    environ = os.environ if env is None else env
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}

    def take(found: Mapping[str, Any], source: str) -> None:
        values.update(found)
        sources.update(dict.fromkeys(found, source))

    composer = composer_config_path(environ)
    if composer is not None:
        take(_from_config(composer, environ, composer=True), f"config {composer} (ai:)")
    config_path = Path(config) if config else None
    if config_path is None and environ.get("OIC_AI_CONFIG"):
        config_path = Path(environ["OIC_AI_CONFIG"])
    if config_path is not None and not config_path.exists() and not config_path.is_symlink():
        raise UserInputError(f"config file {config_path} does not exist", fix="check the path")
    if config_path is None:
        config_path = own_config_path(environ)
    if config_path is not None:
        take(_from_config(config_path, environ), f"config {config_path}")
    for variable, name in _ENV_KEYS.items():
        if environ.get(variable):
            take({name: _coerce(name, environ[variable], variable)}, f"env {variable}")
    for name, value in flags.items():
        if name not in _TYPES:
            raise TypeError(f"unknown setting {name}")
        if value is not None:
            take({name: _coerce(name, value, "command line")}, "command line")
    if "data_dir" not in values:
        values["data_dir"], sources["data_dir"] = default_data_dir(environ)
    settings = Settings().with_overrides(**values)
    nulls: dict[str, Any] = {n: None for n in _NULLABLE if n in values and values[n] is None}
    settings = replace(settings, ollama_base_url=_ollama_url(settings.ollama_base_url), **nulls)
    if settings.provider not in PROVIDERS:
        raise UserInputError(
            f"unknown provider {settings.provider!r}", fix=f"use one of {', '.join(PROVIDERS)}"
        )
    if settings.generation_mode not in GENERATION_MODES:
        raise UserInputError(
            f"unknown generation mode {settings.generation_mode!r}",
            fix=f"use one of {', '.join(GENERATION_MODES)}",
        )
    for name in ("ollama_structured_output", "openai_structured_output"):
        if getattr(settings, name) not in STRUCTURED_OUTPUT_METHODS:
            raise UserInputError(
                f"unknown structured output method {getattr(settings, name)!r}",
                fix=f"use one of {', '.join(STRUCTURED_OUTPUT_METHODS)}",
            )
    if settings.ollama_num_ctx < 512:
        raise UserInputError("ai.ollama.num_ctx must be at least 512", fix="set it to 8192")
    _check_llm_values(settings)
    if settings.packages_max_index_mb < 1 or settings.packages_transfer_timeout < 0:
        raise UserInputError(
            "ai.packages.max_index_mb must be at least 1 and ai.packages.transfer_timeout "
            "0 or more",
            fix="remove them to use the defaults (512 MiB, 10 x --timeout)",
        )
    if settings.max_fix_attempts < 0:
        raise UserInputError("max_fix_attempts must be 0 or more", fix="set it to 2")
    if settings.serve_max_body_mb < 1:
        raise UserInputError("ai.serve.max_body_mb must be at least 1", fix="set it to 8")
    if settings.database_url is not None and not settings.database_url.strip():
        settings = replace(settings, database_url=None)  # an empty value: SQLite
    if settings.database_url is not None:
        from oic_ai.stores.session_database import (
            check_database_url,
        )

        check_database_url(settings.database_url)
    if settings.embedding_provider not in EMBEDDING_PROVIDERS:
        raise UserInputError(
            f"unknown embedding provider {settings.embedding_provider!r}",
            fix=f"use one of {', '.join(EMBEDDING_PROVIDERS)}",
        )
    return settings, {f.name: sources.get(f.name, "default") for f in fields(Settings)}
