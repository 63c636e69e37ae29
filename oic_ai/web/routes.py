"""Which routes the server answers: our list, checked against everything langgraph-api mounts.

The LangGraph API server mounts more than oic-ai serves: the in-memory runtime's test
routes (``/internal/...``, ``/deploy``), MCP, A2A, crons, a second streaming protocol. Its
authentication does not cover all of them, so :mod:`oic_ai.web.front_door` refuses (404)
every request that is not on :data:`SERVED` or the app's own routes.

- :data:`OPEN`: answered without a token, always (the health check and the page's files).
- :data:`BEHIND_TOKEN`: LangGraph's meta routes, mounted outside its authentication; the
  front door asks for a user's token here once users exist.
- :data:`SERVED`: LangGraph's threads, runs, assistants and store; LangGraph's
  authentication (:mod:`oic_ai.web.auth`) runs on each.
- :data:`REFUSED`: what langgraph-api mounts and we refuse on purpose. Nothing reads it at
  run time (what is not served is refused); the route-table test does: every route the
  server mounts must be on one of these lists, so a route that a later langgraph-api adds
  fails that test until someone decides which list it belongs on.
- :data:`REFUSED_ON_REPLICAS`: the same for what Aegra (the engine of ``oic-ai serve`` as
  one replica of a cluster, :mod:`oic_ai.web.replica`) mounts beyond langgraph-api's
  routes; the replicas' route-table test reads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.routing import compile_path

Rule = tuple[str, str]
"""``(METHODS, PATH)``: space-separated methods and a Starlette path template."""

OPEN: tuple[Rule, ...] = (
    ("GET", "/ok"),
    ("GET", "/"),
    ("GET", "/ui"),
    ("GET", "/ui/{path:path}"),
)

BEHIND_TOKEN: tuple[Rule, ...] = (
    ("GET", "/info"),
    ("GET", "/metrics"),
    ("GET", "/docs"),
    ("GET", "/openapi.json"),
)

SERVED: tuple[Rule, ...] = (
    # assistants: the server's graphs (users may read them; auth refuses changes)
    ("POST", "/assistants"),
    ("POST", "/assistants/search"),
    ("POST", "/assistants/count"),
    ("POST", "/assistants/{assistant_id}/latest"),
    ("POST", "/assistants/{assistant_id}/versions"),
    ("GET PATCH DELETE", "/assistants/{assistant_id}"),
    ("GET", "/assistants/{assistant_id}/graph"),
    ("GET", "/assistants/{assistant_id}/schemas"),
    ("GET", "/assistants/{assistant_id}/subgraphs"),
    ("GET", "/assistants/{assistant_id}/subgraphs/{namespace}"),
    # runs
    ("POST", "/runs/stream"),
    ("POST", "/runs/wait"),
    ("POST", "/runs"),
    ("POST", "/runs/batch"),
    ("POST", "/runs/cancel"),
    ("GET", "/threads/{thread_id}/runs/{run_id}/join"),
    ("GET", "/threads/{thread_id}/runs/{run_id}/stream"),
    ("POST", "/threads/{thread_id}/runs/{run_id}/cancel"),
    ("GET DELETE", "/threads/{thread_id}/runs/{run_id}"),
    ("POST", "/threads/{thread_id}/runs/stream"),
    ("POST", "/threads/{thread_id}/runs/wait"),
    ("GET POST", "/threads/{thread_id}/runs"),
    # threads
    ("POST", "/threads"),
    ("POST", "/threads/search"),
    ("POST", "/threads/count"),
    ("GET PATCH DELETE", "/threads/{thread_id}"),
    ("GET POST", "/threads/{thread_id}/state"),
    ("GET POST", "/threads/{thread_id}/history"),
    ("POST", "/threads/{thread_id}/copy"),
    ("GET", "/threads/{thread_id}/state/{checkpoint_id}"),
    ("POST", "/threads/{thread_id}/state/checkpoint"),
    ("GET", "/threads/{thread_id}/stream"),
    # store (scoped to the user's namespace by auth)
    ("GET PUT DELETE", "/store/items"),
    ("POST", "/store/items/search"),
    ("POST", "/store/namespaces"),
)

REFUSED: tuple[Rule, ...] = (
    # the in-memory runtime's test and deploy routes: no auth of their own
    ("POST", "/internal/truncate"),
    ("GET", "/internal/debug/thread/{thread_id}"),
    ("GET POST", "/deploy"),
    ("GET", "/deploy/{operation_id}/stream"),
    # bulk deletion: `oic-ai sessions prune` is the tool, on the server's machine
    ("POST", "/threads/prune"),
    ("GET", "/threads/{thread_id}/storage"),
    # crons: scheduled runs are not part of oic-ai
    ("POST", "/runs/crons"),
    ("POST", "/runs/crons/search"),
    ("POST", "/runs/crons/count"),
    ("GET PATCH DELETE", "/runs/crons/{cron_id}"),
    ("POST", "/threads/{thread_id}/runs/crons"),
    # generative UI bundles, MCP, A2A: not served
    ("POST", "/ui/{graph_id}"),
    ("GET POST DELETE", "/mcp"),
    ("GET POST DELETE", "/a2a/{assistant_id}"),
    ("GET POST DELETE", "/a2a/{assistant_id}/"),
    ("GET", "/a2a/{assistant_id}/.well-known/agent-card.json"),
    ("GET", "/a2a/{assistant_id}/.well-known/agent.json"),
    ("GET", "/.well-known/agent-card.json"),
    # the second ("v2") streaming protocol and its WebSocket
    ("POST", "/threads/{thread_id}/stream/events"),
    ("WEBSOCKET", "/threads/{thread_id}/stream/events"),
    ("POST", "/threads/{thread_id}/commands"),
)


REFUSED_ON_REPLICAS: tuple[Rule, ...] = (
    # Aegra's health routes: a balancer checks /ok; /health would show database errors
    ("GET", "/health"),
    ("GET", "/ready"),
    ("GET", "/live"),
    # listings and a run update that langgraph-api has no route for (the SDK never sends them)
    ("GET", "/threads"),
    ("GET", "/assistants"),
    ("PATCH", "/threads/{thread_id}/runs/{run_id}"),
)


def methods_of(rule: Rule) -> frozenset[str]:
    """The methods a rule allows (GET brings HEAD, as Starlette's routes do)."""
    names = set(rule[0].split())
    if "GET" in names:
        names.add("HEAD")
    return frozenset(names)


@dataclass(frozen=True)
class RouteTable:
    """A list of rules, matched as Starlette matches its routes."""

    rules: tuple[tuple[re.Pattern[str], frozenset[str], str], ...]

    @classmethod
    def of(cls, rules: Iterable[Rule]) -> RouteTable:
        """Compile ``(METHODS, PATH)`` rules."""
        compiled = []
        for rule in rules:
            pattern, _, _ = compile_path(rule[1])
            compiled.append((pattern, methods_of(rule), rule[1]))
        return cls(tuple(compiled))

    def match(self, method: str, path: str) -> str | None:
        """The template of the rule that allows ``method`` on ``path``, or None."""
        for pattern, methods, template in self.rules:
            if method in methods and pattern.match(path):
                return template
        return None

    def has_path(self, path: str) -> bool:
        """Whether some rule matches ``path`` (with any method)."""
        return any(pattern.match(path) for pattern, _, _ in self.rules)
