"""Write ``stores/data/debian-names.txt.gz``: the names of Debian's tools and services.

Reads a Debian ``Packages`` index (the one apt keeps under /var/lib/apt/lists, plain or
lz4-compressed) and keeps the names of packages people put into images: the sections of
tools, services, interpreters, editors, desktops and Python 3 modules, and the plugin sets
and drivers Debian files under "libs" (GStreamer's plugins, Mesa's drivers), without libraries,
development headers, debug symbols, documentation and language-ecosystem packages, and
without Debian's ROS 1 packages (ros-*: people asking for "ros-base" mean ROS 2's), and
without names that are ordinary English words ("file", "time", "cage"): those stay
packages only where the catalog or the library knows them, or the user marks them.

Names only: no versions, no hosts. The planner uses them for deb-family targets
(:mod:`oic_ai.stores.debian_names`).

Usage: python scripts/build_debian_names.py [PACKAGES_FILE]
"""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

from vector_script import ROOT, write_atomically

from oic_ai.tools.planner.lexicon import english_words, is_english  # after vector_script

OUT = ROOT / "stores" / "data" / "debian-names.txt.gz"
SECTIONS = frozenset(
    (
        "utils net admin devel python web database editors shells interpreters misc kernel "
        "video sound x11 graphics gnome kde xfce mail embedded electronics httpd vcs "
        "otherosfs metapackages comm hamradio science text"
    ).split()
)
_SKIP_PREFIX = re.compile(
    r"^(?:lib|golang-|node-|r-cran-|ruby-|php-|fonts-|texlive|haskell-|ocaml-|task-|"
    r"linux-(?:headers|image|source|doc|support|kbuild)|"
    # Debian's ros-* are ROS 1; "ros-base" asked on a ROS 2 image means the OSRF package
    r"ros-)"
)
# plugin sets and drivers Debian files under "libs" but people install by name, like the
# tools ("gstreamer1.0-plugins-ugly", "mesa-va-drivers"); other "libs" names are libraries
_PLUGIN = re.compile(r"^gstreamer1\.0-|-(?:plugins?|drivers?)(?:-[a-z0-9]+)?$")
_SKIP_SUFFIX = re.compile(r"-(?:dev|dbg|dbgsym|doc|docs|data|l10n|examples|tests?)$")


def _read(path: Path) -> str:
    if path.suffix == ".lz4":
        done = subprocess.run(["lz4", "-dc", str(path)], capture_output=True, check=True)
        return done.stdout.decode("utf-8", errors="replace")
    return path.read_text(encoding="utf-8", errors="replace")


def names_of(index: str) -> list[str]:
    """The kept package names of one ``Packages`` index, sorted."""
    kept = set()
    for block in index.split("\n\n"):
        name = re.search(r"^Package: (\S+)", block, re.MULTILINE)
        section = re.search(r"^Section: (\S+)", block, re.MULTILINE)
        if name is None or section is None:
            continue
        package, where = name.group(1), section.group(1).split("/")[-1]
        plugin = where == "libs" and _PLUGIN.search(package) is not None
        if (where not in SECTIONS and not plugin) or _SKIP_PREFIX.match(package):
            continue
        if _SKIP_SUFFIX.search(package):
            continue
        if where == "python" and not package.startswith("python3-"):
            continue
        if not is_english(package):
            kept.add(package)
    return sorted(kept)


def _default_index() -> Path:
    lists = sorted(Path("/var/lib/apt/lists").glob("*debian_dists_*_main_binary-amd64_Packages*"))
    if not lists:
        raise SystemExit("no Debian Packages index under /var/lib/apt/lists: pass one")
    return max(lists, key=lambda p: p.stat().st_size)


def main() -> int:
    """Write the file; print how many names it holds."""
    if not english_words():
        raise SystemExit("the bundled MiniLM vocabulary is missing: run `make install` first")
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else _default_index()
    names = names_of(_read(source))
    write_atomically(OUT, gzip.compress(("\n".join(names) + "\n").encode(), mtime=0))
    print(f"{OUT.relative_to(ROOT)}: {len(names)} names from {source.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
