"""Real signed package repositories for tests: a throwaway OpenPGP key and gpg.

:class:`Signer` generates an ed25519 key with no passphrase in its own temporary
``GNUPGHOME`` (short, under /tmp, so gpg-agent's socket path fits), signs with it, and
stops that home's gpg-agent when closed. :func:`sign_deb_mirror` writes a Debian
``Release`` listing the SHA256 and size of every index file, then ``InRelease`` and/or
``Release.gpg``; :func:`sign_rpm_repo` writes ``repomd.xml`` with checksums and sizes,
``repomd.xml.asc`` and ``repomd.xml.key``. The fixtures :func:`signer` and
:func:`stranger` (an unrelated key) are shared: a test module imports them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.stores.package_repos import rpm_primary, write_deb_mirror, write_primary
from tests.support.system import require_program


class Signer:
    """A throwaway signing key in a private GNUPGHOME."""

    def __init__(self, name: str) -> None:
        """Generate the key (ed25519, no passphrase, never expires)."""
        self.gpg = str(require_program("gpg"))
        self.home = Path(tempfile.mkdtemp(prefix="oic-gpg-"))
        os.chmod(self.home, 0o700)
        self.uid = f"{name} <{name.lower().replace(' ', '-')}@example.invalid>"
        self._run("--quick-gen-key", self.uid, "ed25519", "sign", "never")
        listing = self._run("--with-colons", "--list-keys", self.uid).decode()
        self.fingerprint = next(
            line.split(":")[9] for line in listing.splitlines() if line.startswith("fpr:")
        )

    def _run(self, *args: str, data: bytes | None = None) -> bytes:
        done = subprocess.run(
            [self.gpg, "--homedir", str(self.home), "--batch", "--yes", "--passphrase", ""]
            + ["--pinentry-mode", "loopback", *args],
            input=data,
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode(errors="replace")
        return done.stdout

    def public_key(self, armored: bool = True) -> bytes:
        """The public key, armored (``.asc``) or binary (``.gpg``)."""
        return self._run(*(["--armor"] if armored else []), "--export", self.fingerprint)

    def clearsign(self, data: bytes) -> bytes:
        """A clear-signed copy of ``data`` (an ``InRelease``)."""
        return self._run("--local-user", self.fingerprint, "--clearsign", data=data)

    def detach(self, data: bytes) -> bytes:
        """An armored detached signature of ``data``."""
        return self._run("--local-user", self.fingerprint, "--armor", "--detach-sign", data=data)

    def close(self) -> None:
        """Stop this home's gpg-agent (started by gpg itself) and delete the home."""
        subprocess.run(
            ["gpgconf", "--homedir", str(self.home), "--kill", "gpg-agent"],
            capture_output=True,
            timeout=30,
            check=False,
        )
        shutil.rmtree(self.home, ignore_errors=True)


def _digest(data: bytes) -> tuple[str, int]:
    return hashlib.sha256(data).hexdigest(), len(data)


def release_text(
    root: Path, suite: str, valid_until: str | None = None, header: dict[str, str] | None = None
) -> bytes:
    """A Debian Release for ``root/dists/<suite>``, listing every index file there.

    Like Ubuntu's, it also lists the uncompressed ``Packages`` when only a compressed
    file is served.
    """
    folder = root / "dists" / suite
    lines = []
    for path in sorted(folder.rglob("Packages*")):
        relative = path.relative_to(folder).as_posix()
        digest, size = _digest(path.read_bytes())
        lines.append(f" {digest} {size:>10} {relative}")
    components = sorted({p.name for p in folder.iterdir() if p.is_dir()})
    fields = {
        "Origin": "oic-ai tests",
        "Suite": suite,
        "Codename": suite,
        "Date": "Mon, 23 Nov 2026 12:00:00 UTC",
        **(header or {}),
    }
    if valid_until:
        fields["Valid-Until"] = valid_until
    head = "".join(f"{name}: {value}\n" for name, value in fields.items())
    return (
        f"{head}Architectures: amd64 arm64\n"
        f"Components: {' '.join(components)}\nSHA256:\n" + "\n".join(lines) + "\n"
    ).encode()


def sign_deb_mirror(
    root: Path,
    signer: Signer | None,
    suite: str = "aria",
    components: dict[str, bytes] | None = None,
    kind: str = "xz",
    style: str = "inrelease",
    valid_until: str | None = None,
    header: dict[str, str] | None = None,
) -> Path:
    """Write a mirror and its signed Release.

    Args:
        root: The mirror root (``baseURL``).
        signer: The key that signs; None writes an unsigned ``Release`` only.
        suite: The suite.
        components: Packages text per component.
        kind: The compression of each Packages file.
        style: ``inrelease`` (InRelease only), ``detached`` (Release + Release.gpg) or
            ``both``.
        valid_until: A ``Valid-Until`` date for the Release (RFC 2822), if any.
        header: Release fields to set instead of the defaults (Origin, Suite, Date, ...).
    """
    write_deb_mirror(root, suite=suite, components=components, kind=kind)
    folder = root / "dists" / suite
    release = release_text(root, suite, valid_until, header)
    for name in ("InRelease", "Release", "Release.gpg"):
        (folder / name).unlink(missing_ok=True)
    if signer is None or style in ("detached", "both"):
        (folder / "Release").write_bytes(release)
    if signer is not None and style in ("detached", "both"):
        (folder / "Release.gpg").write_bytes(signer.detach(release))
    if signer is not None and style in ("inrelease", "both"):
        (folder / "InRelease").write_bytes(signer.clearsign(release))
    return root


def sign_rpm_repo(
    root: Path, signer: Signer | None, primary: bytes | None = None, kind: str = "gz"
) -> Path:
    """Write ``repodata/`` with a repomd.xml that lists primary's SHA256 and size, signed."""
    primary = rpm_primary() if primary is None else primary
    repodata, name, packed = write_primary(root, primary, kind)
    digest, size = _digest(packed)
    open_digest, open_size = _digest(primary)
    repomd = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<repomd xmlns="http://linux.duke.edu/metadata/repo" '
        'xmlns:rpm="http://linux.duke.edu/metadata/rpm">\n'
        "  <revision>1</revision>\n"
        f'  <data type="primary"><checksum type="sha256">{digest}</checksum>'
        f'<open-checksum type="sha256">{open_digest}</open-checksum>'
        f'<location href="repodata/{name}"/><size>{size}</size>'
        f"<open-size>{open_size}</open-size></data>\n"
        "</repomd>\n"
    ).encode()
    (repodata / "repomd.xml").write_bytes(repomd)
    (repodata / "repomd.xml.asc").unlink(missing_ok=True)
    if signer is not None:
        (repodata / "repomd.xml.asc").write_bytes(signer.detach(repomd))
        (repodata / "repomd.xml.key").write_bytes(signer.public_key())
    return root


@pytest.fixture(scope="module")
def signer() -> Iterator[Signer]:
    """The repositories' signing key (a module's tests share it; needs gpg and gpgv)."""
    require_program("gpgv")
    key = Signer("Repo Key")
    yield key
    key.close()


@pytest.fixture(scope="module")
def stranger() -> Iterator[Signer]:
    """A second, unrelated key: what a repository signed by someone else carries."""
    key = Signer("Someone Else")
    yield key
    key.close()
