"""A repository's signed metadata, fetched and verified as apt and dnf verify it.

``InRelease`` (or ``Release`` + ``Release.gpg``) for a Debian repository, ``repomd.xml``
(+ ``repomd.xml.asc``) for an RPM one: the signature is checked against the configured
keys (:mod:`.package_trust`), and a Release must be unexpired and for the configured suite
(:mod:`.package_pins`). :mod:`.package_sources` then checks each index file against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from oic_ai.stores.package_fetch import Fetcher, FetchError, NotFoundError
from oic_ai.stores.package_pins import check_suite, release_fields
from oic_ai.stores.package_repos import RemoteRepo, TrustPolicy
from oic_ai.stores.package_trust import (
    Listed,
    TrustError,
    check_valid_until,
    keyring_for,
    parse_release,
    read_signed,
    repomd_primary,
)


@dataclass(frozen=True)
class Signed:
    """A repository's metadata, verified (or, for ``repoGPGCheck: false``, only read).

    Attributes:
        url: ``InRelease``/``Release`` or ``repomd.xml``.
        root: The URL the listed paths are relative to.
        files: What the metadata lists, by relative path.
        fingerprint: The key that signed it ("" when the signature was not checked).
        release: A Debian Release's pinned fields and Date (``package_pins``).
    """

    url: str
    root: str
    files: Mapping[str, Listed]
    fingerprint: str
    release: Mapping[str, str] = field(default_factory=dict)


def _fetch_body(fetcher: Fetcher, url: str, label: str) -> bytes:
    fetched = fetcher.fetch(url, label=label)
    try:
        return read_signed(fetched.body, url)
    finally:
        fetched.close()


def signed_metadata(repo: RemoteRepo, arch: str, fetcher: Fetcher, policy: TrustPolicy) -> Signed:
    """Fetch the repository's metadata and verify its signature when the policy says so.

    Raises:
        FetchError: the metadata cannot be fetched.
        TrustError: a signature is missing, bad or by an unknown key.
    """
    if repo.kind == "rpm":
        ((_, root),) = repo.index_sources(arch)
        url = f"{root}/repodata/repomd.xml"
        try:
            body = _fetch_body(fetcher, url, repo.name)
        except NotFoundError:
            raise FetchError(url, "no repodata/repomd.xml there (HTTP 404)", status=404) from None
        fingerprint = ""
        if policy.signature:
            signature = _signature(fetcher, url + ".asc", "repoGPGCheck is on")
            with keyring_for(repo.keys, root, fetcher, repo=url) as keyring:
                _, fingerprint = keyring.verify(url, signature, body)
        primary = repomd_primary(body, url)
        return Signed(url, root, {"primary": primary}, fingerprint)
    root = f"{repo.base_url.rstrip('/')}/dists/{repo.suite}"
    in_release = f"{root}/InRelease"
    try:
        body = _fetch_body(fetcher, in_release, f"{repo.suite} InRelease")
    except NotFoundError:
        pass
    else:
        with keyring_for(repo.keys, repo.base_url, fetcher, repo=in_release) as keyring:
            text, fingerprint = keyring.verify(in_release, body)
        signed_text = text.decode("utf-8", "replace")
        return _release(repo, in_release, root, signed_text, fingerprint)
    release = repo.release_file or f"{root}/Release"
    try:
        body = _fetch_body(fetcher, release, f"{repo.suite} Release")
    except NotFoundError:
        raise FetchError(root, "no InRelease or Release there (HTTP 404)", status=404) from None
    signature = _signature(fetcher, repo.release_sign or f"{release}.gpg", "gpgCheck is on")
    with keyring_for(repo.keys, repo.base_url, fetcher, repo=release) as keyring:
        _, fingerprint = keyring.verify(release, signature, body)
    return _release(repo, release, root, body.decode("utf-8", "replace"), fingerprint)


def _release(repo: RemoteRepo, url: str, root: str, text: str, fingerprint: str) -> Signed:
    """A verified Release, checked as apt checks it: not expired, for the configured suite."""
    check_valid_until(text, url)
    fields = release_fields(text)
    check_suite(fields, repo.suite, url)
    return Signed(url, root, parse_release(text, url), fingerprint, fields)


def _signature(fetcher: Fetcher, url: str, why: str) -> bytes:
    try:
        return _fetch_body(fetcher, url, "signature")
    except NotFoundError:
        raise TrustError(
            url, f"missing signature (HTTP 404); {why}, so the metadata must be signed"
        ) from None
