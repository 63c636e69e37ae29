"""Rules: the image's name ("call the image gw") and version ("version 1.2.0")."""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import BE_VALUE, CLAUSE_END, QUOTED_NAME, value_then_label

_IMAGE_NAME = re.compile(
    r"\b(?:(?:call|name|rename|title)\s+(?:the\s+|this\s+|my\s+)?(?:image|template|it)"
    r"(?:\s+(?:to|as))?|image\s+name(?:\s+" + BE_VALUE + r")?\s*[:=]?"
    r"|(?:rename|renamed)\s+(?:to|as)"
    # "the image itself named X", "want the image to be called X", "the image's name is X"
    # (a bare "the image named X is broken" only describes it: a wish or a modal is needed)
    r"|\b(?:the|this|our)\s+image\s+itself\s+(?:(?:should|must|shall|will)\s+be\s+|to\s+be\s+)?"
    r"(?:named|called)"
    r"|\b(?:(?:want|wants|need|needs|like|prefer)\s+)(?:the|this|our)\s+image\s+(?:to\s+be\s+)?"
    r"(?:named|called)"
    r"|(?:\b(?:the|this|our)\s+|^|(?<=[,;.:!?\x1f])|(?<=[,;.:!?\x1f]\s))image\s+"
    r"(?:should|must|shall|will)\s+be"
    r"\s+(?:named|called)"
    r"|\b(?:the|this|our)\s+image'?s\s+(?:own\s+)?name(?:\s+" + BE_VALUE + r")?\s*[:=]?)"
    r"\s+" + QUOTED_NAME + CLAUSE_END
)

# the value before its label: "use edge-golden as the image name"
_IMAGE_NAME_AFTER = value_then_label(r"image\s+name|image'?s\s+name|template\s+name")


def rule_image_name(state: PlanState) -> None:
    """Name the image; a name the composer would refuse is reported."""
    from oic_ai.tools.planner.rules.hostname import rule_hostname_of_named_devices

    rule_hostname_of_named_devices(state)  # "names devices per store ... call it cam-0"
    name = state.new_value(
        (_IMAGE_NAME, _IMAGE_NAME_AFTER),
        "image_name",
        lambda name: f"{name!r} is not a valid image name (letters, digits, '-' and '_')",
        current=state.facts.image.name,
        already="the image is already called",
    )
    if name is not None:
        state.image_name = name


_IMAGE_VERSION = re.compile(
    r"\b(?:(?:set|bump|change|make)\s+(?:the\s+)?)?(?:image\s+|template\s+)?(?:version|release)"
    r"(?:\s+(?:to|is|as|should\s+be|number))?\s*[:=]?\s*[\"']?v?(?P<value>\d+(?:\.[0-9a-z-]+){0,2}"
    r"(?:\+[0-9a-z.-]+)?)[\"']?" + CLAUSE_END
)


def rule_image_version(state: PlanState) -> None:
    """Set the image version; a version not like 1.2.0 is reported.

    "release 10 is fine" on an el10 template names the distribution's release, not the
    image's version: :func:`~oic_ai.tools.planner.rules.target.stays_on_release` reads it
    first.
    """
    from oic_ai.tools.planner.rules.target import stays_on_release

    stays_on_release(state)
    version = state.new_value(
        _IMAGE_VERSION,
        "image_version",
        lambda version: f"{version!r} is not a version like 1.2.0",
        current=state.facts.image.version,
        already="the image version is already",
    )
    if version is not None:
        state.image_version = version
