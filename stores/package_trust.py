"""Signed repository metadata: what apt and dnf check before they believe an index.

- Keys come from the repository's configuration only: a local file (absolute path or
  ``file://``), or the configured ``https://`` URL, or a path relative to the
  repository URL (the composer's ``gpgKey: repodata/repomd.xml.key``). A key whose URL
  is plain ``http://`` is refused: it could be swapped together with the repository.
  Armored keys are dearmored here; binary keyrings and keyboxes are used as they are.
- Signatures are checked by Debian's ``gpgv`` against a keyring built in a temporary
  folder from those keys and nothing else. A signature counts only when gpgv reports
  both ``GOODSIG`` and ``VALIDSIG`` for it (the exit code alone is not enough: a file
  signed by two keys, one of them unknown, exits 2 with one good signature). A
  ``BADSIG`` always refuses.
- A signed Debian ``Release`` lists the SHA256 and size of every index file; a signed
  (or, with ``repoGPGCheck: false``, unsigned) ``repomd.xml`` lists the checksum and
  size of ``primary.xml``. :func:`check_digest` compares what was downloaded.

Every refusal is a :class:`TrustError`: one line naming the file and what failed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING
from urllib.parse import unquote, urljoin, urlparse

from oic_ai.stores.errors import UserInputError

if TYPE_CHECKING:
    from oic_ai.stores.package_fetch import Fetcher

GPGV_FIX = "install Debian's gpgv package (apt-get install gpgv), or pass --insecure"
TRUSTED_YES = "[trusted=yes]"
GPGV_TIMEOUT = 60.0
_WEAK_HASHES = {"1": "MD5", "2": "SHA-1", "3": "RIPEMD-160"}
_MAX_KEY_BYTES = 4 << 20
_MAX_SIGNED_BYTES = 64 << 20


class TrustError(UserInputError):
    """A repository file failed verification (never retryable: exit 2).

    Attributes:
        file: The URL or path of the file that failed.
        what: What failed (``bad signature``, ``SHA256 mismatch``, ...).
    """

    retryable = False

    def __init__(self, file: str, what: str, *, fix: str | None = None) -> None:
        """One line: the file, then what failed."""
        self.file = file
        self.what = " ".join(what.split())
        self.own_fix = fix or ""  # a fix for this very refusal (e.g. --accept-change)
        super().__init__(
            f"{file}: {self.what}",
            fix=fix or "check the repository and its key, or pass --insecure to skip checks",
        )


def find_gpgv() -> str:
    """Return the path of Debian's ``gpgv``.

    Raises:
        UserInputError: gpgv is not installed.
    """
    found = shutil.which("gpgv")
    if not found:
        raise UserInputError(
            "gpgv is not installed: repository signatures cannot be verified", fix=GPGV_FIX
        )
    return found


# --- keys ------------------------------------------------------------------------------

_ARMOR = re.compile(
    rb"-----BEGIN PGP (?:PUBLIC KEY BLOCK|PRIVATE KEY BLOCK)-----\r?\n(.*?)-----END PGP ",
    re.DOTALL,
)


def dearmor(data: bytes, source: str = "the key") -> bytes:
    """Return the binary OpenPGP packets of an armored or binary key (or keyring).

    Several armored blocks in one file are joined. A binary keyring or keybox is
    returned unchanged.

    Raises:
        TrustError: the data is neither an OpenPGP key nor armor around one.
    """
    stripped = data.lstrip()
    if stripped.startswith(b"-----BEGIN PGP"):
        packets = []
        for block in _ARMOR.findall(stripped):
            lines = block.replace(b"\r\n", b"\n").split(b"\n")
            # armor headers end at the first empty line
            if b"" in lines and any(b":" in line for line in lines[: lines.index(b"")]):
                lines = lines[lines.index(b"") + 1 :]
            body = b"".join(line.strip() for line in lines if not line.startswith(b"="))
            try:
                packets.append(base64.b64decode(body, validate=True))
            except (binascii.Error, ValueError):
                raise TrustError(source, "the armored key is damaged (bad base64)") from None
        if not packets or not all(packets):
            raise TrustError(source, "holds no OpenPGP key block")
        return b"".join(packets)
    if len(data) > 12 and data[8:12] == b"KBXf":  # a GnuPG keybox
        return data
    if data and data[0] & 0x80:  # an OpenPGP packet header
        return data
    raise TrustError(source, "is not an OpenPGP public key (neither armored nor binary)")


def resolve_key_location(key: str, repo_url: str) -> str:
    """Where a configured key lives: an absolute path, a URL, or a URL under the repository."""
    key = key.strip()
    if key.startswith(("http://", "https://", "file://")) or key.startswith("/"):
        return key
    return urljoin(repo_url.rstrip("/") + "/", key)


def read_key(location: str, fetcher: Fetcher) -> bytes:
    """Read one key from a local file or its configured URL, dearmored.

    Raises:
        TrustError: the key file cannot be read or is not an OpenPGP key.
        FetchError: the key URL cannot be fetched.
    """
    from oic_ai.stores.package_fetch import FetchError

    if location.startswith("file://"):
        location = unquote(urlparse(location).path)
    if location.startswith("/"):
        try:
            with open(location, "rb") as handle:
                data = handle.read(_MAX_KEY_BYTES + 1)
        except OSError as exc:
            raise TrustError(
                location, f"cannot read the key ({exc.strerror or exc})", fix="check the key path"
            ) from None
    else:
        try:
            fetched = fetcher.fetch(location, label="key")
        except FetchError as exc:  # unreachable stays retryable (exit 3); 404 is not
            raise type(exc)(
                location, f"cannot fetch the key: {exc.reason}", status=exc.status
            ) from None
        try:
            data = fetched.body
        finally:
            fetched.close()
    if len(data) > _MAX_KEY_BYTES:
        raise TrustError(location, "is too large to be a public key")
    return dearmor(data, location)


class Keyring:
    """The configured keys of one repository, in a temporary folder for gpgv.

    Use as a context manager; the folder is deleted on exit.
    """

    def __init__(self, keys: Sequence[tuple[str, bytes]], gpgv: str) -> None:
        """Keep ``(location, key bytes)`` pairs; nothing is written until entered."""
        self.keys = list(keys)
        self.gpgv = gpgv
        self.folder: Path | None = None
        self.files: list[Path] = []

    def __enter__(self) -> Keyring:
        self.folder = Path(tempfile.mkdtemp(prefix="oic-ai-keys-"))
        os.chmod(self.folder, 0o700)
        for number, (_, data) in enumerate(self.keys):
            path = self.folder / f"key{number}.gpg"
            path.write_bytes(data)
            self.files.append(path)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def label(self) -> str:
        """The key locations, for messages."""
        return ", ".join(location for location, _ in self.keys)

    def verify(self, file: str, signature: bytes, data: bytes | None = None) -> tuple[bytes, str]:
        """Verify a detached signature of ``data``, or a clear-signed ``signature``.

        Args:
            file: The signed file's URL, for messages.
            signature: ``Release.gpg`` / ``repomd.xml.asc``, or the whole ``InRelease``.
            data: The signed file for a detached signature; None for a clear-signed one.

        Returns:
            The signed bytes (for ``InRelease``: only what the signature covers) and the
            fingerprint of the key that made the good signature.

        Raises:
            TrustError: no good signature by a configured key.
        """
        assert self.folder is not None, "use the keyring as a context manager"
        work = Path(tempfile.mkdtemp(prefix="verify-", dir=self.folder))
        sig_path = work / "signature"
        sig_path.write_bytes(signature)
        output = work / "signed"
        command = [self.gpgv, "--homedir", str(work), "--status-fd", "1"]
        for key_file in self.files:
            command += ["--keyring", str(key_file)]
        if data is None:
            command += ["--output", str(output), str(sig_path)]
        else:
            data_path = work / "data"
            data_path.write_bytes(data)
            command += [str(sig_path), str(data_path)]
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                timeout=GPGV_TIMEOUT,
                env={**os.environ, "LC_ALL": "C", "LANG": "C"},
                check=False,
            )
        except FileNotFoundError:
            raise UserInputError(f"{self.gpgv} cannot be run", fix=GPGV_FIX) from None
        except subprocess.TimeoutExpired:
            raise TrustError(file, f"gpgv took longer than {GPGV_TIMEOUT:g}s") from None
        try:
            fingerprint = _judge(
                file, done.stdout.decode("utf-8", "replace"), done.returncode, self.label
            )
            if data is not None:
                return data, fingerprint
            try:
                return output.read_bytes(), fingerprint
            except OSError:
                raise TrustError(file, "gpgv wrote no signed text") from None
        finally:
            shutil.rmtree(work, ignore_errors=True)


def _judge(file: str, status: str, returncode: int, keys: str) -> str:
    """Accept at least one GOODSIG+VALIDSIG and no BADSIG; otherwise say what failed.

    Returns:
        The fingerprint of the first valid signature's key.
    """
    lines = [line.split()[1:] for line in status.splitlines() if line.startswith("[GNUPG:] ")]
    words = [parts for parts in lines if parts]
    tags = {parts[0] for parts in words}
    if "BADSIG" in tags:
        raise TrustError(file, "bad signature (the file was changed after it was signed)")
    valid = [parts for parts in words if parts[0] == "VALIDSIG"]
    if "GOODSIG" in tags and valid:
        for parts in valid:
            algo = parts[8] if len(parts) > 8 else ""
            if algo in _WEAK_HASHES:
                raise TrustError(file, f"signed with a weak digest ({_WEAK_HASHES[algo]})")
        return valid[0][1] if len(valid[0]) > 1 else ""
    for tag, what in (
        ("EXPKEYSIG", "signed by an expired key"),
        ("REVKEYSIG", "signed by a revoked key"),
        ("EXPSIG", "the signature has expired"),
    ):
        if tag in tags:
            raise TrustError(file, what)
    unknown = [parts[1] for parts in words if parts[0] == "NO_PUBKEY" and len(parts) > 1]
    if unknown:
        raise TrustError(
            file,
            f"signed by an unknown key {', '.join(unknown)} (not in the configured key {keys})",
            fix="configure the key the repository is signed with, or pass --insecure",
        )
    if "NODATA" in tags or not tags:
        raise TrustError(file, "holds no OpenPGP signature")
    raise TrustError(file, f"signature not verified (gpgv exit {returncode})")


@contextmanager
def keyring_for(
    keys: Sequence[str], repo_url: str, fetcher: Fetcher, *, repo: str
) -> Iterator[Keyring]:
    """Read a repository's configured keys and yield a :class:`Keyring` over them.

    Raises:
        TrustError: no key is configured, or a key cannot be read.
        UserInputError: gpgv is not installed.
    """
    gpgv = find_gpgv()
    if not keys:
        raise TrustError(
            repo,
            "signature checking is on but no key is configured (pbGPGKey, gpgKey or pkey;"
            " a source synced before keys were recorded needs --repo-config again)",
            fix="add the repository's key (pbGPGKey, gpgKey or pkey: a file or URL), "
            "or set gpgCheck: false, or pass --insecure",
        )
    read = []
    for key in keys:
        location = resolve_key_location(key, repo_url)
        if not location.startswith(("https://", "file://", "/")):
            raise TrustError(
                location,
                "the key URL is not https: a key fetched over plain HTTP can be swapped "
                "together with the repository",
                fix="use an https:// key URL or a local key file (or pass --insecure to "
                "skip verification)",
            )
        read.append((location, read_key(location, fetcher)))
    with Keyring(read, gpgv) as keyring:
        yield keyring


# --- Debian Release ----------------------------------------------------------------------


@dataclass(frozen=True)
class Listed:
    """One file as the signed metadata lists it."""

    path: str
    algorithm: str
    digest: str
    size: int | None


def parse_release(text: str, file: str) -> dict[str, Listed]:
    """Return the ``SHA256`` entries of a Debian ``Release`` file, by path.

    Raises:
        TrustError: the Release has no SHA256 list.
    """
    entries: dict[str, Listed] = {}
    in_sha256 = False
    for line in text.splitlines():
        if not line.strip():
            continue
        if line[0] not in " \t":
            in_sha256 = line.split(":", 1)[0].strip().lower() == "sha256"
            continue
        if not in_sha256:
            continue
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit() and re.fullmatch(r"[0-9a-fA-F]{64}", parts[0]):
            entries[parts[2]] = Listed(parts[2], "sha256", parts[0].lower(), int(parts[1]))
    if not entries:
        raise TrustError(file, "lists no SHA256 checksums, so no index can be checked")
    return entries


def check_valid_until(text: str, file: str, now: float | None = None) -> None:
    """Refuse a signed Release past its ``Valid-Until`` date, as apt does (a replayed one).

    Raises:
        TrustError: the Release has expired.
    """
    import email.utils
    import time

    for line in text.splitlines():
        if line.lower().startswith("valid-until:"):
            value = line.split(":", 1)[1].strip()
            try:
                until = email.utils.parsedate_to_datetime(value).timestamp()
            except (TypeError, ValueError):
                raise TrustError(file, f"has an unreadable Valid-Until date {value!r}") from None
            if until < (time.time() if now is None else now):
                raise TrustError(
                    file,
                    f"expired on {value} (Valid-Until): the mirror serves stale metadata",
                    fix="use an up-to-date mirror",
                )
            return


# --- RPM repomd -------------------------------------------------------------------------

_REPO = "{http://linux.duke.edu/metadata/repo}"
_ALGORITHMS = {"sha": "sha1", "sha1": "sha1", "sha224": "sha224", "sha256": "sha256"}
_ALGORITHMS |= {"sha384": "sha384", "sha512": "sha512"}


def repomd_primary(data: bytes, file: str) -> Listed:
    """Return the ``primary`` entry of ``repomd.xml``: its href, checksum and size.

    Raises:
        TrustError: the repomd is not XML, names no primary data, or gives it no
            checksum of a known kind.
    """
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise TrustError(file, f"is not valid XML ({exc})") from None
    for entry in root.iter(f"{_REPO}data"):
        if entry.get("type") != "primary":
            continue
        location = entry.find(f"{_REPO}location")
        checksum = entry.find(f"{_REPO}checksum")
        size = entry.find(f"{_REPO}size")
        href = location.get("href") if location is not None else None
        if not href:
            break
        if checksum is None or not (checksum.text or "").strip():
            raise TrustError(file, f"gives no checksum for {href}")
        kind = _ALGORITHMS.get(str(checksum.get("type") or "").lower())
        if kind is None:
            raise TrustError(file, f"uses an unknown checksum type {checksum.get('type')!r}")
        size_text = (size.text or "").strip() if size is not None else ""
        return Listed(
            href,
            kind,
            (checksum.text or "").strip().lower(),
            int(size_text) if size_text.isdigit() else None,
        )
    raise TrustError(file, "does not name a primary metadata file")


# --- digests ------------------------------------------------------------------------------


def check_digest(stream: IO[bytes], listed: Listed, file: str) -> None:
    """Compare a downloaded file with what the signed metadata lists for it.

    The stream is read from its start and left at its start.

    Raises:
        TrustError: a size or checksum mismatch.
    """
    stream.seek(0)
    digest = hashlib.new(listed.algorithm)
    size = 0
    while chunk := stream.read(1 << 20):
        digest.update(chunk)
        size += len(chunk)
    stream.seek(0)
    if listed.size is not None and size != listed.size:
        raise TrustError(
            file, f"size mismatch: {size} bytes, the signed metadata says {listed.size}"
        )
    if digest.hexdigest() != listed.digest:
        raise TrustError(
            file,
            f"{listed.algorithm.upper()} mismatch: got {digest.hexdigest()[:16]}…, "
            f"the signed metadata says {listed.digest[:16]}…",
        )


def read_signed(data: bytes, file: str) -> bytes:
    """Refuse signed metadata past a sane size (an InRelease is well under a megabyte).

    Raises:
        TrustError: the file is larger than 64 MiB.
    """
    if len(data) > _MAX_SIGNED_BYTES:
        raise TrustError(file, "is too large for repository metadata")
    return data
