"""What the composer ignores or changes in a template, read from ``stores/data/``.

``composer_behaviour.yaml`` is the one home of these facts, each with its evidence (a
measured build, or a reading of the composer's source). ``oic-ai verify`` uses it to
explain rows that differ from the template, and the agent to warn or to use the
composer-supported alternative (see :mod:`oic_ai.tools.composer_fit`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, get_args

BEHAVIOUR_PATH = Path(__file__).parent / "data" / "composer_behaviour.yaml"
AgentAction = Literal["alternative", "warn", "note", "none"]
AGENT_ACTIONS: tuple[str, ...] = get_args(AgentAction)


@dataclass(frozen=True)
class Evidence:
    """How a behaviour is known: ``measured`` (built and read) or ``source`` (code read)."""

    kind: str
    details: Mapping[str, str]

    def describe(self) -> str:
        """One line: ``measured 2026-11-25: found ...`` or ``source: FILE``."""
        if self.kind == "measured":
            found = self.details.get("found", "")
            return f"measured {self.details.get('date', '')}: {found}".strip()
        return f"composer source: {self.details.get('where', '')}".strip()


@dataclass(frozen=True)
class ComposerBehaviour:
    """One field the composer ignores or changes.

    Attributes:
        id: Stable name, e.g. ``hostname-from-build-host``.
        field: The template field, e.g. ``systemConfig.hostname``.
        when: The predicate (in :mod:`oic_ai.tools.composer_fit`) under which it applies.
        check: The ``oic-ai verify`` row kind it explains.
        code: The validator's finding code for it.
        agent: What the agent does: ``alternative``, ``warn``, ``note`` or ``none``.
        warning: The one line shown to users; ``{user}`` stands for a user's name.
        composer: What the composer does (read after "the composer ...").
        alternative: The composer-supported way around it ("none needed" if none).
        evidence: How it is known.
    """

    id: str
    field: str
    when: str
    check: str
    code: str
    agent: AgentAction
    warning: str
    composer: str
    alternative: str
    evidence: Evidence


@dataclass(frozen=True)
class BehaviourCatalog:
    """Every known behaviour, and the composer commit they were measured on."""

    composer_commit: str
    behaviours: tuple[ComposerBehaviour, ...]

    def get(self, behaviour_id: str) -> ComposerBehaviour:
        """The behaviour with this id.

        Raises:
            KeyError: no such behaviour.
        """
        for behaviour in self.behaviours:
            if behaviour.id == behaviour_id:
                return behaviour
        raise KeyError(behaviour_id)

    def for_check(self, check: str) -> tuple[ComposerBehaviour, ...]:
        """The behaviours that may explain a verify row of kind ``check``."""
        return tuple(b for b in self.behaviours if b.check == check)


def _text(raw: Mapping[str, Any], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: '{key}' must be a non-empty string")
    return " ".join(value.split())


def parse_behaviours(data: Mapping[str, Any]) -> BehaviourCatalog:
    """Build the catalog from the parsed YAML document.

    Raises:
        ValueError: the document is malformed (a bug in the shipped data).
    """
    entries = data.get("behaviours")
    if not isinstance(entries, list):
        raise ValueError("'behaviours' must be a list")
    found: list[ComposerBehaviour] = []
    for index, raw in enumerate(entries):
        where = f"behaviours[{index}]"
        if not isinstance(raw, Mapping):
            raise ValueError(f"{where} must be a mapping")
        agent = _text(raw, "agent", where)
        if agent not in AGENT_ACTIONS:
            raise ValueError(f"{where}: agent must be one of {', '.join(AGENT_ACTIONS)}")
        evidence = raw.get("evidence")
        if not isinstance(evidence, Mapping) or evidence.get("kind") not in ("measured", "source"):
            raise ValueError(f"{where}: evidence.kind must be measured or source")
        found.append(
            ComposerBehaviour(
                id=_text(raw, "id", where),
                field=_text(raw, "field", where),
                when=_text(raw, "when", where),
                check=_text(raw, "check", where),
                code=_text(raw, "code", where),
                agent=agent,  # type: ignore[arg-type]  # checked against AGENT_ACTIONS
                warning=_text(raw, "warning", where),
                composer=_text(raw, "composer", where),
                alternative=_text(raw, "alternative", where),
                evidence=Evidence(
                    kind=str(evidence["kind"]),
                    details={str(k): " ".join(str(v).split()) for k, v in evidence.items()},
                ),
            )
        )
    ids = [b.id for b in found]
    if len(set(ids)) != len(ids):
        raise ValueError("behaviour ids must be unique")
    return BehaviourCatalog(str(data.get("composer", "")), tuple(found))


@lru_cache(maxsize=2)
def load_behaviours(path: Path | None = None) -> BehaviourCatalog:
    """Load (once) the catalog shipped in ``stores/data/composer_behaviour.yaml``."""
    import yaml  # deferred: validate's start-up does not pay for it until needed

    with (path or BEHAVIOUR_PATH).open(encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    if not isinstance(data, Mapping):
        raise ValueError(f"{path or BEHAVIOUR_PATH} must hold a mapping")
    return parse_behaviours(data)
