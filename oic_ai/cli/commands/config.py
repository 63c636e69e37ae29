"""``oic-ai config show``: the resolved settings, and where each one came from.

Secrets are shown as ``set (hidden)`` or ``not set``, never as their value, in text and
in ``--json``.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import fields
from typing import Any

from oic_ai.cli.common import EXIT_OK, emit
from oic_ai.stores.secrets import mask_secrets
from oic_ai.stores.settings import (
    Settings,
    composer_config_path,
    explain_settings,
    own_config_path,
)

# Settings fields whose values are secrets: only whether they are set is shown.
SECRET_FIELDS = frozenset({"openai_api_key"})


def _shown(name: str, value: Any) -> Any:
    if name in SECRET_FIELDS:
        return "set (hidden)" if value else "not set"
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, tuple):
        return [mask_secrets(str(item)) for item in value]
    return mask_secrets(str(value))  # a password inside a URL shows as ***


def show(args: argparse.Namespace) -> int:
    """``oic-ai config show``: every setting, its value and its source."""
    settings, sources = explain_settings(
        args.config,
        data_dir=args.data_dir,
        templates_dir=args.templates_dir,
        chroma_url=args.chroma_url,
        embedding_provider=args.embedding_provider,
    )
    rows = {
        f.name: {"value": _shown(f.name, getattr(settings, f.name)), "source": sources[f.name]}
        for f in fields(Settings)
    }
    own = args.config or os.environ.get("OIC_AI_CONFIG") or own_config_path(os.environ)
    composer = composer_config_path(os.environ)
    payload = {
        "data_dir": str(settings.data_dir.resolve()),
        "config_files": [str(p) for p in (composer, own) if p],
        "settings": rows,
    }

    def render() -> None:
        print(f"data folder: {payload['data_dir']} ({sources['data_dir']})")
        files = payload["config_files"]
        print(f"config files: {', '.join(files) if files else 'none'}")
        width = max(len(name) for name in rows)
        for name, row in rows.items():
            value = "-" if row["value"] is None else row["value"]
            print(f"  {name:<{width}}  {value}  [{row['source']}]")

    emit(args, payload, render)
    return EXIT_OK
