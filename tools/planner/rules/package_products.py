"""A product named by its brand where the request installs its package by name.

"They now also want InfluxDB. ... install influxdb2": the product's name, as products are
written ("InfluxDB", "Grafana"), is the start of a package the same request adds, so the
clause that names it asks for that package, which is added already; it is read, not
reported as a request no rule understood. Only a name in capitals, of four letters or more,
whose package name goes on with a version or a suffix after it (influxdb2, grafana-server).

A product's name asked for in a list of packages that nothing knows ("and firefox and
Slack", "with samba and Jellyfin") and whose package the request does not add is reported
(:func:`report_products`): never added, never kept silently as a remark.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item

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


# verbs and joiners that put a name in the list of what to install
_LISTING = frozenset("add adding install installing include including with plus and also ,".split())
# a product's name as products are written: a capital, then small letters (or an inner
# capital: "GitKraken"); never an acronym in capitals ("NOC", "MDM")
_BRAND = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)*")

# what may follow a listed name: the list's end, its next item, or a polite word
_LIST_GOES_ON = re.compile(
    r"(?:\s+(?:too|as\s+well|also|please|pls|thanks|thx))*\s*(?:$|[.;,!?)\n]|\s+(?:and|or|plus|&)\b)"
)

UNKNOWN_PRODUCT = (
    "no package of that name is known for {dist} (not in the catalog or the library): a "
    "product's name; name the package as the distribution spells it, or add the repository "
    "that ships it"
)


def listed_product(state: PlanState, item: Item, written: str) -> bool:
    """Note a product's name listed among packages that nothing knows; True if noted.

    "and firefox and Slack": one word written as a brand, after a verb that installs or a
    list joiner, in a sentence where a package was read or an adding verb said before it,
    and not the sentence's first word (a capital there says nothing).
    """
    from oic_ai.tools.planner.rules.package_apply import told_of
    from oic_ai.tools.planner.rules.package_names import in_a_package_list

    if not state.target.known or item.mode == "remove" or item.verb not in _LISTING:
        return False
    content = [t for t in item.tokens if state.text.raw(t.start, t.end)[:1].isalnum()]
    if len(content) != 1 or not _BRAND.fullmatch(written):
        return False
    found = content[0]
    before = state.text.original[: found.start].rstrip()
    if not before or before[-1] in ".!?\n:" or not in_a_package_list(state, found):
        return False
    if not _LIST_GOES_ON.match(state.text.original, found.end):
        return False  # "also Ruby from the platform team says ...": somebody, not a thing
    if told_of(state, item):
        return False  # "we ran nginx and Traefik on the old box": told, not asked for
    state.products.append((found.start, found.end, written))
    return True


def report_products(state: PlanState) -> None:
    """Report each noted product name that no rule read since (its package not added)."""
    for start, end, written in dict.fromkeys(state.products):
        if state.text.work[start:end] != written.lower():
            continue  # read by a later rule ("want InfluxDB ... install influxdb2")
        state.reject(start, end, UNKNOWN_PRODUCT.format(dist=state.target.dist))
