"""What the graph tests drive: an agent on the built-in planner and the nodes each turn went
through, one copy for every graph test module."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from oic_ai.graph.agent import TemplateAgent, TurnResult
from oic_ai.stores.settings import Settings, load_settings


def builtin_settings(data: Path, **values: Any) -> Settings:
    """Settings on the built-in planner over ``data``, with none of the developer's own."""
    return load_settings(data_dir=data, env={}, **{"provider": "builtin", **values})


class Run:
    """An agent plus the nodes each turn went through."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        self.agent = TemplateAgent(settings, **kwargs)
        self.nodes: list[str] = []

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        self.agent.close()

    def _step(self, node: str, update: object) -> None:
        self.nodes.append(node)

    def turn(self, request: str, session: str | None = None) -> TurnResult:
        self.nodes = []
        return self.agent.generate(request, session=session, on_step=self._step)

    def resume(self, session: str, answer: Any) -> TurnResult:
        self.nodes = []
        return self.agent.resume(session, answer, on_step=self._step)


class Conversation(Run):
    """A :class:`Run` that keeps to one session: every turn continues the one before."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(settings, **kwargs)
        self.session: str | None = None

    def turn(self, request: str, session: str | None = None) -> TurnResult:
        result = super().turn(request, session=session or self.session)
        self.session = result.session
        return result

    def template(self) -> str | None:
        return self.agent.current_template(self.session) if self.session else None

    def undo(self, request: str) -> TurnResult:
        """A turn that must be read as an undo and leave nothing of it unapplied."""
        result = self.turn(request)
        assert result.route["intent"] == "undo", result.route
        assert result.not_applied == [], result.not_applied
        return result
