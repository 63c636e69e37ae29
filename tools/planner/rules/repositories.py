"""Rule: package repositories named in the request ("add repo https://...")."""

from __future__ import annotations

import re

from oic_ai.tools.edit_plan import AddRepository
from oic_ai.tools.planner.state import PlanState

_REPOSITORY = re.compile(
    r"(?:\b(?:add|use|with|include)\s+)?(?:the\s+|a\s+|an\s+)?(?:(?:apt|yum|dnf|rpm|deb|package)\s+)?"
    r"(?:repo|repository)\s+(?:at\s+|from\s+)?(?:(?P<before>\[[^\]\x1f]*\])\s*)?"
    r"(?P<url>(?:https?|file)://(?:\[[0-9a-f:.]+\])?[^\s\[\]\x1f]*|/[^\s\[\]\x1f]+)"
    r"(?:\s*(?P<options>\[[^\]\x1f]*\]))?"
    r"(?:\s+(?:with\s+)?codename\s+(?P<codename>[a-z0-9._-]+))?"
    r"(?:\s+(?:and\s+)?component\s+(?P<component>[a-z0-9._-]+))?"
    r"(?:\s+(?:and\s+|with\s+)?(?:signing\s+|gpg\s+)?key\s+(?P<pkey>(?:https?|file)://\S+|/\S+))?"
)


def rule_repositories(state: PlanState) -> None:
    """Add package repositories named by URL or path, with codename, component and key."""
    for match in state.text.matches(_REPOSITORY):
        raw = state.text.raw
        url = raw(*match.span("url")).rstrip(".,;")
        if url in state.facts.repository_locations:
            state.notes.append(f"repository {url} is already listed")
        else:
            state.repositories.append(
                AddRepository(
                    url=url,
                    codename=match.group("codename"),
                    component=match.group("component"),
                    pkey=raw(*match.span("pkey")).rstrip(".,;") if match.group("pkey") else None,
                )
            )
        state.text.consume(*match.span())
        for group in ("before", "options"):
            if match.group(group):
                # sources.list options ("[trusted=yes]") are not repository fields: say so,
                # rather than leave them for another rule to misread
                state.reject(
                    *match.span(group),
                    "repository options are not applied; a template repository takes a url, "
                    "codename, component and signing key ('key URL')",
                )
