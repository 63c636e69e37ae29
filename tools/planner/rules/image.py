"""Rules: the image's name ("call the image gw") and version ("version 1.2.0")."""

from __future__ import annotations

import re

from oic_ai.stores.targets import load_targets
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import CLAUSE_END, QUOTED_NAME

_IMAGE_NAME = re.compile(
    r"\b(?:(?:call|name|rename|title)\s+(?:the\s+|this\s+|my\s+)?(?:image|template|it)"
    r"(?:\s+(?:to|as))?|image\s+name(?:\s+(?:to|is|as|should\s+be))?\s*[:=]?"
    r"|(?:rename|renamed)\s+(?:to|as))\s+" + QUOTED_NAME + CLAUSE_END
)


def rule_image_name(state: PlanState) -> None:
    """Name the image; a name the composer would refuse is reported."""
    for name in state.valid_values(
        _IMAGE_NAME,
        load_targets().pattern("image_name"),
        lambda name: f"{name!r} is not a valid image name (letters, digits, '-' and '_')",
    ):
        if name == state.facts.image.name:
            state.notes.append(f"the image is already called {name}")
        else:
            state.image_name = name


_IMAGE_VERSION = re.compile(
    r"\b(?:(?:set|bump|change|make)\s+(?:the\s+)?)?(?:image\s+|template\s+)?(?:version|release)"
    r"(?:\s+(?:to|is|as|should\s+be|number))?\s*[:=]?\s*[\"']?v?(?P<value>\d+(?:\.[0-9a-z-]+){0,2}"
    r"(?:\+[0-9a-z.-]+)?)[\"']?" + CLAUSE_END
)


def rule_image_version(state: PlanState) -> None:
    """Set the image version; a version not like 1.2.0 is reported."""
    for version in state.valid_values(
        _IMAGE_VERSION,
        load_targets().pattern("image_version"),
        lambda version: f"{version!r} is not a version like 1.2.0",
    ):
        if version == state.facts.image.version:
            state.notes.append(f"the image version is already {version}")
        else:
            state.image_version = version
