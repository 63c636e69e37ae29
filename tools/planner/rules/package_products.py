"""A product named by its brand where the request installs its package by name.

"They now also want InfluxDB. ... install influxdb2": the product's name, as products are
written ("InfluxDB", "Grafana"), is the start of a package the same request adds, so the
clause that names it asks for that package, which is added already; it is read, not
reported as a request no rule understood. Only a name in capitals, of four letters or more,
whose package name goes on with a version or a suffix after it (influxdb2, grafana-server).
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState

_PRODUCT = re.compile(r"(?<![\w.+-])[A-Z][A-Za-z0-9]{3,}(?![\w+-]|\.\w)")


def _its_package(word: str, names: list[str]) -> bool:
    lowered = word.lower()
    return any(re.fullmatch(rf"{re.escape(lowered)}(?:\d+|-[a-z0-9-]+)?", n) for n in names)


def products_of_added(state: PlanState) -> None:
    """Mark each unread product name whose package the request adds as read by it."""
    added = [n.lower() for n in state.add]
    if not added:
        return
    for match in _PRODUCT.finditer(state.text.original):
        start, end = match.span()
        if state.text.work[start:end] != match.group().lower():
            continue  # read already by another rule
        if _its_package(match.group(), added):
            state.text.consume(start, end, "packages")
