"""Build small package repositories from the fixture indexes, in any compression.

``tests/fixtures/packages/`` holds a plain Debian ``Packages`` file and an RPM
``primary.xml``; the helpers here compress them and lay them out the way real
mirrors do (``dists/<suite>/<component>/binary-<arch>/`` and ``repodata/``).
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import lzma
from pathlib import Path

from tests.conftest import FIXTURES

PACKAGES_DIR = FIXTURES / "packages"
DEB_PACKAGES = PACKAGES_DIR / "Packages"
RPM_PRIMARY = PACKAGES_DIR / "primary.xml"


def compress(data: bytes, kind: str) -> bytes:
    """Compress with ``gz``, ``xz``, ``zst``, ``bz2`` or ``""`` (none)."""
    if kind == "gz":
        return gzip.compress(data, mtime=0)
    if kind == "xz":
        return lzma.compress(data)
    if kind == "bz2":
        return bz2.compress(data)
    if kind == "zst":
        import zstandard

        return zstandard.ZstdCompressor().compress(data)
    return data


def suffix(kind: str) -> str:
    """File suffix for a compression kind."""
    return f".{kind}" if kind else ""


def deb_packages(extra: str = "") -> bytes:
    """The fixture Packages text, with optional extra stanzas appended."""
    text = DEB_PACKAGES.read_text(encoding="utf-8")
    if extra:
        text = text.rstrip("\n") + "\n\n" + extra.strip("\n") + "\n"
    return text.encode()


def write_deb_mirror(
    root: Path,
    suite: str = "aria",
    components: dict[str, bytes] | None = None,
    arch: str = "amd64",
    kind: str = "xz",
) -> Path:
    """Lay out ``root/dists/<suite>/<component>/binary-<arch>/Packages<.kind>``."""
    components = components or {"main": deb_packages()}
    for component, data in components.items():
        folder = root / "dists" / suite / component / f"binary-{arch}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"Packages{suffix(kind)}").write_bytes(compress(data, kind))
    return root


def rpm_primary(extra_packages: str = "") -> bytes:
    """The fixture primary.xml, with optional extra <package> elements."""
    text = RPM_PRIMARY.read_text(encoding="utf-8")
    if extra_packages:
        text = text.replace("</metadata>", extra_packages + "\n</metadata>")
    return text.encode()


def write_primary(root: Path, primary: bytes, kind: str) -> tuple[Path, str, bytes]:
    """Write ``root/repodata/<sha>-primary.xml<.kind>`` (replacing an older one).

    Returns:
        The repodata folder, the file's name and its packed bytes.
    """
    packed = compress(primary, kind)
    digest = hashlib.sha256(packed).hexdigest()
    repodata = root / "repodata"
    repodata.mkdir(parents=True, exist_ok=True)
    for old in repodata.glob("*-primary.xml*"):
        old.unlink()
    name = f"{digest}-primary.xml{suffix(kind)}"
    (repodata / name).write_bytes(packed)
    return repodata, name, packed


def write_rpm_repo(root: Path, primary: bytes | None = None, kind: str = "gz") -> Path:
    """Lay out ``root/repodata/repomd.xml`` and ``<sha>-primary.xml<.kind>``."""
    primary = rpm_primary() if primary is None else primary
    repodata, name, packed = write_primary(root, primary, kind)
    digest = hashlib.sha256(packed).hexdigest()
    (repodata / "repomd.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<repomd xmlns="http://linux.duke.edu/metadata/repo" '
        'xmlns:rpm="http://linux.duke.edu/metadata/rpm">\n'
        "  <revision>1</revision>\n"
        '  <data type="filelists"><location href="repodata/none-filelists.xml.gz"/></data>\n'
        f'  <data type="primary"><checksum type="sha256">{digest}</checksum>'
        f'<location href="repodata/{name}"/></data>\n'
        "</repomd>\n",
        encoding="utf-8",
    )
    return root


def elxr_providerconfig(osv: Path, url: str, settings: str, more: str = "") -> Path:
    """``osv/wind-river-elxr/elxr12/providerconfigs/amd64_repo.yml``, the composer's layout.

    Its first repository, ``aria``, is the loopback mirror at ``url``/elxr; ``settings``
    are that repository's further lines, ``more`` the repositories after it.
    """
    folder = osv / "wind-river-elxr" / "elxr12" / "providerconfigs"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "amd64_repo.yml"
    path.write_text(
        "repositories:\n"
        '  - name: "aria"\n'
        '    type: "deb"\n'
        f'    baseURL: "{url}/elxr"\n'
        f'    releaseFile: "{url}/elxr/dists/aria/Release"\n' + settings + more,
        encoding="utf-8",
    )
    return path
