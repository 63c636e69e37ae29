"""Which package names a target's family knows without asking the sentence.

The synced index, the template's own packages, the catalog and the library; Debian's list of
tools on a deb-family target, and the upstream names of that list on an rpm-family target.
"""

from __future__ import annotations

import re
from functools import lru_cache

from oic_ai.tools.planner.state import PlanState, family_of


def debian_name(name: str) -> bool:
    """True when the shipped list of Debian's tools has ``name``."""
    from oic_ai.stores.debian_names import debian_names

    return name in debian_names()


@lru_cache(maxsize=16)
def dist_library_names(dist: str) -> frozenset[str]:
    """The package names the bundled library's templates of ``dist`` install."""
    from oic_ai.stores.template_library import bundled_templates_dir, iter_template_files
    from oic_ai.stores.template_model import template_from_text

    names: set[str] = set()
    root = bundled_templates_dir()
    for path in iter_template_files(root) if root.is_dir() else ():
        try:
            facts = template_from_text(path.read_text(encoding="utf-8"))
        except OSError:
            continue
        if facts.target.dist == dist:
            names.update(facts.packages)
            names.update(facts.kernel.packages)
    return frozenset(names)


def known(state: PlanState, name: str, *, as_written: bool = True, upstream: bool = True) -> bool:
    """True when the synced index, the catalog or the library knows ``name``.

    On a Debian-family target, Debian's list of names counts too for a name written as it
    is spelt; ``as_written=False`` drops that condition for a name the caller built from
    what was written ("tcp dump" read as tcpdump). On an rpm-family target the upstream
    names of that list count for a name spelt exactly so, unless ``upstream=False`` (the
    accounting, which asks whether an unread clause names a package at all).
    """
    if state.packages is not None and state.packages.is_package(name):
        return True
    if name in state.facts.packages or name in state.facts.kernel.packages:
        return True  # the template's own
    if name in state.known_names():
        return True
    family = family_of(state.target.os, state.target.dist) if state.target.known else ""
    if family == "deb":
        from oic_ai.stores.debian_names import debian_names

        # "memtester": a Debian tool, though no template has it; written as the name is
        # spelt ("PackageKit" is a product name, not the package packagekit)
        return name in debian_names() and (not as_written or _written_as_is(state, name))
    if family == "rpm" and upstream:
        # "openssl", "environment-modules": an upstream tool's name, the same in both
        # families, written exactly as it is spelt (never one built from the words, "tpm
        # tools", nor a product's capitalised name, "Ansible"); never a name Debian alone
        # spells that way
        return name in upstream_names() and _spelt_in(state, name)
    return False


@lru_cache(maxsize=1)
def deb_spellings() -> frozenset[str]:
    """The names the catalog gives the deb family where it spells the rpm family otherwise.

    "apache2" (httpd), "nfs-common" (nfs-utils), "build-essential": where a capability or
    an alias group lists both families, the deb names the rpm list lacks.
    """
    from oic_ai.stores.capability_catalog import load_catalog
    from oic_ai.stores.targets import load_targets

    targets = load_targets()

    def family_key(key: str) -> str:
        base = key.split("/", 1)[0]
        return base if base in targets.families else (targets.family_of(base) or "")

    catalog = load_catalog()
    tables = [c.package_table for c in catalog.capabilities.values()]
    tables += [g.targets for g in catalog.alias_groups]
    spelt: set[str] = set()
    for table in tables:
        by_family: dict[str, set[str]] = {}
        for key, listed in table.items():
            by_family.setdefault(family_key(key), set()).update(listed)
        if "deb" in by_family and "rpm" in by_family:
            spelt |= by_family["deb"] - by_family["rpm"]
    return frozenset(spelt)


@lru_cache(maxsize=1)
def upstream_names() -> frozenset[str]:
    """The names an rpm-family target may know without an index: upstream tools' names.

    No rpm index ships with the planner, so the shipped list of Debian's tools stands in
    for the names both families take from the upstream project ("openssl", "curl",
    "numactl", "environment-modules"), less the names the catalog says Debian alone
    spells that way (:func:`deb_spellings`) and Debian's own conventions (the ``-common``
    halves of a split package, ``-doc`` and the like are not in the list). A name found
    only here is flagged unverified until an index of the target's repositories is synced.
    """
    from oic_ai.stores.debian_names import debian_names

    return frozenset(
        n for n in debian_names() if n not in deb_spellings() and not _DEBIAN_ONLY.search(n)
    )


# Debian's own ways of naming what rpm systems name otherwise: the "-common" half of a
# split package, "-bin" programs of a library, a Debian revision in the name ("python3-",
# "r-cran-" are shared or skipped by the list already)
_DEBIAN_ONLY = re.compile(r"-(?:common|bin)$|^(?:debian|dh-|apt-|dpkg|task-)")


def _spelt_in(state: PlanState, name: str) -> bool:
    """``name`` written in the request exactly as it is spelt, as a word of its own."""
    pattern = rf"(?<![\w.+-]){re.escape(name)}(?![\w+-]|\.\w)"
    return re.search(pattern, state.text.original) is not None


def _written_as_is(state: PlanState, name: str) -> bool:
    """``name`` as it is spelt, an acronym in capitals ("LXDE"), or a product in a list."""
    pattern = rf"(?<![\w.+-]){re.escape(name)}(?![\w+-]|\.\w)"
    if re.search(pattern, state.text.original) is not None:
        return True
    # an acronym written in capitals, right after a verb that asks for it ("use LXDE
    # instead", "install VLC"); a product name in mixed case ("PackageKit") is not the
    # package's spelling, nor is an acronym said of something ("our MDM renames them")
    asked = rf"\b(?:use|install|add|want|need|with|plus)\s+(?:the\s+)?{re.escape(name.upper())}"
    if re.fullmatch(r"[a-z][a-z0-9]{1,7}", name) and (
        re.search(rf"{asked}(?![\w+-]|\.\w)", state.text.original) is not None
    ):
        return True
    # a product's name as products are written ("GIMP", "Thonny", "Git") in a list of
    # what to install or the one to use: "LibreOffice, GIMP, and Thonny", "with Vim and
    # Git", "we're using Thonny this term"
    if not re.fullmatch(r"[a-z][a-z0-9]{2,15}", name):
        return False
    spelt = "|".join(re.escape(s) for s in (name.upper(), name.capitalize()))
    verbs = (
        r"install|add|need|want|with|plus|and|&|remove|drop|delete|uninstall|purge"
        r"|use|using|(?:switch|switching|move|moving|go|going)\s+(?:over\s+)?(?:to|with)"
    )
    listed = rf"(?:\b(?:{verbs})\s+(?:the\s+)?|\w,\s+(?:and\s+)?)(?:{spelt})"
    return re.search(rf"{listed}(?![\w+-]|\.\w)", state.text.original) is not None
