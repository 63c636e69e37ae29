"""How ``packages sync`` and ``packages import`` fill the package index.

Repositories come from :mod:`.package_repos`, files from :mod:`.package_fetch`, and
signatures and checksums are checked by :mod:`.package_trust` before anything is parsed
or stored. A repository that could not be reached, fails verification, or whose index is
damaged or too large, never touches its cached index. Index files are streamed:
downloads go to temporary files and are decompressed and parsed as they are read, up to
a size limit.

How each source was verified is stored with it (``spec["trust"]``: ``verified``, the
``digest`` the signed metadata listed, the key that ``signed_by``, or the ``reason`` it
was not checked), so ``packages status`` can show it and an unchanged signed index is
not downloaded again.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from oic_ai.stores.capability_catalog import package_family
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.package_fetch import Fetched, Fetcher, FetchError, NotFoundError
from oic_ai.stores.package_formats import (
    DEFAULT_MAX_INDEX_BYTES,
    IndexFormatError,
    PackageRecord,
    open_index,
    parse_deb_packages,
    parse_rpm_primary,
    primary_location,
)
from oic_ai.stores.package_index import PackageIndex, SourceInfo, SourceRow, repo_key
from oic_ai.stores.package_pins import check_pins
from oic_ai.stores.package_repos import (
    DEB_SUFFIXES,
    RemoteRepo,
    TrustPolicy,
    deb_arch,
    repos_from_template,
    resolve_target,
    template_repo_key,
)
from oic_ai.stores.package_signed import Signed, signed_metadata
from oic_ai.stores.package_trust import (
    Listed,
    TrustError,
    check_digest,
    find_gpgv,
)

# --- syncing -----------------------------------------------------------------------


@dataclass(frozen=True)
class SyncResult:
    """What happened to one index source during a sync or import.

    ``status`` is ``updated`` (new rows), ``unchanged`` (HTTP 304), ``imported``
    (a local file), ``failed`` (the previous rows, if any, were kept) or ``skipped``.
    ``retryable`` marks a failure of the server or the network (not of the index).
    ``verified`` is True when the index was checked against signed metadata, False when
    checking was skipped (``warning`` says why), None for a local import; ``refused``
    marks a source that failed verification.
    """

    os: str
    dist: str
    arch: str
    repo: str
    location: str
    status: str
    packages: int
    message: str = ""
    seconds: float = 0.0
    retryable: bool = False
    verified: bool | None = None
    warning: str = ""
    refused: bool = False
    fix: str = ""

    @property
    def ok(self) -> bool:
        """True unless the source failed."""
        return self.status != "failed"

    def to_json(self) -> dict[str, Any]:
        """Every field but ``fix``, in order, the seconds to the millisecond."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "fix"}
        out["seconds"] = round(self.seconds, 3)
        return out


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


def _previous(index: PackageIndex, dist: str, arch: str, location: str) -> SourceRow | None:
    for row in index.sources(dist, arch):
        if row.location == location:
            return row
    return None


def _source_result(
    target: tuple[str, str, str],
    info: SourceInfo,
    status: str,
    packages: int,
    started: float,
    *,
    message: str = "",
    retryable: bool = False,
    verified: bool | None = None,
    warning: str = "",
    refused: bool = False,
    fix: str = "",
) -> SyncResult:
    """The result of one source of ``target`` (os, dist, arch), timed from ``started``."""
    os, dist, arch = target
    return SyncResult(
        os=os,
        dist=dist,
        arch=arch,
        repo=info.repo,
        location=info.location,
        status=status,
        packages=packages,
        message=message,
        seconds=time.perf_counter() - started,
        retryable=retryable,
        verified=verified,
        warning=warning,
        refused=refused,
        fix=fix,
    )


def _kept(previous: SourceRow | None) -> str:
    if previous is None:
        return "no previous index for it"
    return (
        f"kept the previous index ({previous.packages} packages from {_when(previous.imported_at)})"
    )


def sync_repo(
    index: PackageIndex,
    repo: RemoteRepo,
    target: tuple[str, str, str],
    *,
    fetcher: Fetcher,
    insecure: bool = False,
    accept_change: bool = False,
) -> list[SyncResult]:
    """Fetch, verify and store every index file of one repository for a target.

    ``target`` is ``(os, dist, arch)``.

    The repository's signed metadata (``InRelease``/``Release`` or ``repomd.xml``) is
    fetched and verified once; each index file is then checked against it before it is
    parsed. A source that cannot be fetched, verified or parsed keeps its previous rows
    and is reported ``failed``; the others are still synced.

    Raises:
        UserInputError: verification is on and gpgv is not installed.
    """
    os, dist, arch = target
    policy = replace(repo.trust(insecure), accept_change=accept_change)
    if policy.signature:
        find_gpgv()  # a setup problem: one line before anything is fetched
    signed: Signed | None = None
    failure: Exception | None = None
    if policy.digests:
        try:
            signed = signed_metadata(repo, arch, fetcher, policy)
        except (FetchError, IndexFormatError, TrustError) as exc:
            failure = exc
    warning = "" if policy.verified else f"not verified: {policy.reason}"
    results = []
    for info, stem in repo.index_sources(arch):
        started = time.perf_counter()
        previous = _previous(index, dist, arch, info.location)
        retryable = refused = False
        fix = ""
        try:
            if failure is not None:
                raise failure
            sync = _SourceSync(index, info, previous, os, dist, arch, fetcher, policy)
            if signed is not None:
                status, count = _sync_checked(sync, stem, signed)
            else:
                sync_format = _sync_deb if info.kind == "deb" else _sync_rpm
                status, count = sync_format(sync, stem)
            message = "not modified since the last sync" if status == "unchanged" else ""
        except TrustError as exc:
            status, refused, fix = "failed", True, exc.own_fix
            count = previous.packages if previous else 0
            message = f"refused: {exc.problem}; {_kept(previous)}"
        except (FetchError, IndexFormatError) as exc:
            status = "failed"
            count = previous.packages if previous else 0
            retryable = isinstance(exc, FetchError) and not isinstance(exc, NotFoundError)
            reason = exc.reason if isinstance(exc, FetchError) else exc.problem
            message = f"unreachable or unusable: {reason}; {_kept(previous)}"
        results.append(
            _source_result(
                (os, dist, arch),
                info,
                status,
                count,
                started,
                message=message,
                retryable=status == "failed" and retryable,
                verified=policy.verified,
                warning=warning,
                refused=refused,
                fix=fix,
            )
        )
    return results


def _sync_checked(sync: _SourceSync, stem: str, signed: Signed) -> tuple[str, int]:
    """Check the pins, then fetch one index file the metadata lists, check, parse, store it."""
    stored = sync.previous.spec.get("trust") if sync.previous else None
    accept = sync.policy.accept_change
    check_pins(stored, signed.release, signed.fingerprint, signed.url, accept_change=accept)
    if sync.info.kind == "rpm":
        listed = signed.files["primary"]
        candidates = [(f"{signed.root}/{listed.path.lstrip('/')}", listed)]
        record_url = signed.url  # the rpm source is remembered by its repomd.xml
    else:
        relative = stem.removeprefix(signed.root + "/")
        candidates = [
            (stem + suffix, signed.files[relative + suffix])
            for suffix in DEB_SUFFIXES
            if relative + suffix in signed.files
        ]
        if not candidates:
            raise TrustError(
                signed.url, f"lists no {relative}(.xz|.gz): that index cannot be checked"
            )
        previous_url = sync.previous.url if sync.previous else ""
        candidates.sort(key=lambda pair: pair[0] != previous_url)
        record_url = ""
    for url, listed in candidates:
        trust = sync.trust_record(listed, signed.fingerprint, signed.release)
        stored_url = record_url or url
        if sync.same_as_before(stored_url, trust):
            return sync.unchanged_as_before(stored_url, trust)
        try:
            fetched = sync.fetcher.fetch(url, label=sync.info.repo)
        except NotFoundError:
            continue
        try:
            if fetched.stream is None:  # no conditional request was made: never a 304
                raise FetchError(url, f"HTTP {fetched.status} without a body")
            check_digest(fetched.stream, listed, url)
            parse = parse_rpm_primary if sync.info.kind == "rpm" else parse_deb_packages
            records = list(unique(parse(fetched.stream, url, sync.fetcher.max_bytes)))
        finally:
            fetched.close()
        return sync.store(stored_url, fetched, records, trust)
    raise FetchError(stem, "none of the index files the signed metadata lists is there", status=404)


def unique(records: Iterable[PackageRecord]) -> Iterator[PackageRecord]:
    """``records`` without exact repeats (a repeated stanza is stored once)."""
    seen: set[PackageRecord] = set()
    for record in records:
        if record not in seen:
            seen.add(record)
            yield record


@dataclass(frozen=True)
class _SourceSync:
    """One index source of one target being synced: what both formats share."""

    index: PackageIndex
    info: SourceInfo
    previous: SourceRow | None
    os: str
    dist: str
    arch: str
    fetcher: Fetcher
    policy: TrustPolicy = field(default_factory=lambda: TrustPolicy(False, False, ""))

    def trust_record(
        self,
        listed: Listed | None = None,
        fingerprint: str = "",
        release: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        """What is stored about this source's verification (``spec["trust"]``)."""
        record: dict[str, Any] = {"verified": self.policy.verified}
        if not self.policy.verified:
            record["reason"] = self.policy.reason
        if listed is not None:
            record["digest"] = f"{listed.algorithm}:{listed.digest}"
        if fingerprint:
            record["signed_by"] = fingerprint
        if release:
            record["release"] = dict(release)
        return record

    def source(self, trust: Mapping[str, Any] | None = None) -> SourceInfo:
        """The source description to store, with its verification record."""
        record = dict(trust) if trust is not None else self.trust_record()
        return replace(self.info, spec={**self.info.spec, "trust": record})

    def same_as_before(self, url: str, trust: Mapping[str, Any]) -> bool:
        """True when the signed metadata lists exactly the file stored last time."""
        previous = self.previous
        if previous is None or previous.url != url or not trust.get("digest"):
            return False
        before = dict(previous.spec.get("trust") or {})
        before.pop("release", None)  # a newer Release listing the same file is no change
        return before == {k: v for k, v in trust.items() if k != "release"}

    def unchanged_as_before(self, url: str, trust: Mapping[str, Any]) -> tuple[str, int]:
        """Record a sync that found the listed file unchanged; nothing is downloaded."""
        assert self.previous is not None
        self.index.mark_unchanged(
            os=self.os,
            dist=self.dist,
            arch=self.arch,
            source=self.source(trust),
            url=url,
            etag=self.previous.etag,
            last_modified=self.previous.last_modified,
        )
        return "unchanged", self.previous.packages

    def fetch(self, url: str) -> Fetched:
        """Fetch ``url``, conditionally when it is the URL the previous sync used."""
        previous = self.previous
        same = previous is not None and previous.url == url
        return self.fetcher.fetch(
            url,
            etag=previous.etag if same and previous else None,
            last_modified=previous.last_modified if same and previous else None,
            label=self.info.repo,
        )

    def unchanged(self, url: str, fetched: Fetched) -> tuple[str, int] | None:
        """Record an HTTP 304 and return its outcome; None when the answer was new."""
        if fetched.status != 304 or self.previous is None:
            return None
        self.index.mark_unchanged(
            os=self.os,
            dist=self.dist,
            arch=self.arch,
            source=self.source(),
            url=url,
            etag=fetched.etag,
            last_modified=fetched.last_modified,
        )
        return "unchanged", self.previous.packages

    def store(
        self,
        url: str,
        fetched: Fetched,
        records: list[PackageRecord],
        trust: Mapping[str, Any] | None = None,
    ) -> tuple[str, int]:
        """Replace the source's rows with ``records``, remembering ``fetched``'s validators."""
        count = self.index.replace_source(
            os=self.os,
            dist=self.dist,
            arch=self.arch,
            source=self.source(trust),
            records=records,
            url=url,
            etag=fetched.etag,
            last_modified=fetched.last_modified,
        )
        return "updated", count


def _sync_deb(sync: _SourceSync, stem: str) -> tuple[str, int]:
    previous = sync.previous
    candidates = [stem + suffix for suffix in DEB_SUFFIXES]
    if previous and previous.url in candidates:
        candidates.remove(previous.url)
        candidates.insert(0, previous.url)
    for url in candidates:
        try:
            fetched = sync.fetch(url)
        except NotFoundError:
            continue
        outcome = sync.unchanged(url, fetched)
        if outcome is not None:
            return outcome
        try:
            records = list(
                unique(parse_deb_packages(fetched.stream or b"", url, sync.fetcher.max_bytes))
            )
        finally:
            fetched.close()
        return sync.store(url, fetched, records)
    raise FetchError(stem, "no Packages, Packages.gz or Packages.xz there (HTTP 404)", status=404)


def _sync_rpm(sync: _SourceSync, base: str) -> tuple[str, int]:
    repomd_url = f"{base}/repodata/repomd.xml"
    try:
        fetched = sync.fetch(repomd_url)
    except NotFoundError:
        raise FetchError(
            repomd_url, "no repodata/repomd.xml there (HTTP 404)", status=404
        ) from None
    outcome = sync.unchanged(repomd_url, fetched)
    if outcome is not None:
        return outcome
    try:
        href = primary_location(fetched.stream or b"", repomd_url)
    finally:
        fetched.close()
    primary = sync.fetcher.fetch(f"{base}/{href.lstrip('/')}", label=sync.info.repo)
    try:
        records = list(
            unique(parse_rpm_primary(primary.stream or b"", primary.url, sync.fetcher.max_bytes))
        )
    finally:
        primary.close()
    return sync.store(repomd_url, fetched, records)


def refresh_recorded(
    index: PackageIndex,
    *,
    dist: str | None = None,
    arch: str | None = None,
    fetcher: Fetcher,
    insecure: bool = False,
    accept_change: bool = False,
) -> list[SyncResult]:
    """Sync again every remote source recorded in the cache (optionally one dist/arch)."""
    results: list[SyncResult] = []
    seen: set[tuple[str, str, str]] = set()
    for row in index.sources(dist, arch):
        if not row.spec.get("base_url"):
            results.append(
                SyncResult(
                    row.os,
                    row.dist,
                    row.arch,
                    row.repo,
                    row.location,
                    "skipped",
                    row.packages,
                    "imported from a local file; import it again with --index",
                )
            )
            continue
        if (row.dist, row.arch, row.location) in seen:
            continue
        seen.add((row.dist, row.arch, row.location))
        repo = RemoteRepo.from_spec(row.spec)
        results.extend(
            sync_repo(
                index,
                repo,
                (row.os, row.dist, row.arch),
                fetcher=fetcher,
                insecure=insecure,
                accept_change=accept_change,
            )
        )
    return results


# --- local files and folders ----------------------------------------------------------


def _open(path: Path) -> IO[bytes]:
    """Open a local index file (``-``: stdin, copied to a temporary file first)."""
    try:
        if str(path) == "-":
            copy = tempfile.TemporaryFile()
            shutil.copyfileobj(sys.stdin.buffer, copy)
            copy.seek(0)
            return copy
        return path.open("rb")
    except OSError as exc:
        raise UserInputError(
            f"cannot read {path} ({exc.strerror or exc})", fix="check the path"
        ) from None


def records_from_file(
    path: Path, limit: int | None = DEFAULT_MAX_INDEX_BYTES
) -> tuple[str, list[PackageRecord]]:
    """Read one local index file of any supported kind; return its kind and packages.

    Accepts a Debian Packages file, an RPM primary.xml or a repomd.xml (whose
    primary file is read next to it), each plain or compressed, up to ``limit`` bytes
    after decompression.

    Raises:
        UserInputError: the file is unreadable, not a package index, or too large.
    """
    with _open(path) as raw:
        with open_index(raw, str(path), limit) as reader:
            head = reader.peek(4096)[:4096]
        raw.seek(0)
        if b"<repomd" in head:
            href = primary_location(raw, str(path))
            primary = path.resolve().parent.parent / href
            with _open(primary) as primary_file:
                return "rpm", list(unique(parse_rpm_primary(primary_file, str(primary), limit)))
        if b"<metadata" in head:
            return "rpm", list(unique(parse_rpm_primary(raw, str(path), limit)))
        if not head.strip():
            raise IndexFormatError(f"{path} is empty", fix="pass a Packages or primary.xml file")
        return "deb", list(unique(parse_deb_packages(raw, str(path), limit)))


def local_index_files(path: Path, arch: str) -> list[Path]:
    """Return the index files a local file or folder holds for ``arch``.

    A folder may be an RPM repository (``repodata/repomd.xml``), a folder with a
    ``Packages`` file, or a Debian mirror (``dists/<suite>/<component>/binary-<arch>/``).

    Raises:
        UserInputError: the path does not exist or holds no index.
    """
    if str(path) == "-":
        return [path]
    if not path.exists():
        raise UserInputError(f"{path} does not exist", fix="check the --index path")
    if path.is_file():
        return [path]
    repomd = path / "repodata" / "repomd.xml"
    if repomd.is_file():
        return [repomd]
    files = _best_packages_file(path)
    if files:
        return files
    wanted = f"binary-{deb_arch(arch)}"
    found = []
    for folder in sorted({p.parent for p in path.rglob("Packages*")}):
        if folder.name == wanted:
            found.extend(_best_packages_file(folder))
    if not found:
        raise UserInputError(
            f"{path} holds no package index for {arch}",
            fix="pass a Packages(.gz|.xz) or primary.xml file, or a repository folder",
        )
    return found


def _best_packages_file(folder: Path) -> list[Path]:
    for suffix in DEB_SUFFIXES:
        candidate = folder / f"Packages{suffix}"
        if candidate.is_file():
            return [candidate]
    return []


def import_local(
    index: PackageIndex,
    path: Path,
    *,
    os: str,
    dist: str,
    arch: str,
    scope: str = "base",
    key: str | None = None,
    label: str | None = None,
    limit: int | None = DEFAULT_MAX_INDEX_BYTES,
) -> list[SyncResult]:
    """Import a local index file or folder as the index of a target.

    Every file is parsed before anything is written; each file is one atomic import.
    A file that inflates past ``limit`` bytes is refused.

    Raises:
        UserInputError: the path is missing, unreadable or not a package index.
    """
    results = []
    for file in local_index_files(path, arch):
        started = time.perf_counter()
        kind, records = records_from_file(file, limit)
        location = "stdin" if str(file) == "-" else str(file.resolve())
        expected = package_family(os, dist)
        if kind != expected:
            raise UserInputError(
                f"{file} is a {kind} index but {dist} uses {expected} packages",
                fix="pass the index for that distribution",
            )
        info = SourceInfo(
            kind=kind,
            repo=label or (file.name if location != "stdin" else "stdin"),
            repo_key=key or repo_key(location),
            location=location,
            scope=scope,
        )
        count = index.replace_source(os=os, dist=dist, arch=arch, source=info, records=records)
        results.append(_source_result((os, dist, arch), info, "imported", count, started))
    return results


def sync_template_repos(
    index: PackageIndex,
    data: Mapping[str, Any],
    *,
    fetcher: Fetcher,
    insecure: bool = False,
    accept_change: bool = False,
) -> list[SyncResult]:
    """Fetch a template's own ``packageRepositories`` (URL or local ``path``) for its target."""
    target = data.get("target") if isinstance(data.get("target"), Mapping) else None
    if not isinstance(target, Mapping):
        raise UserInputError("the template has no target", fix="add target.os/dist/arch")
    os, dist, arch = resolve_target(
        str(target.get("os") or "") or None,
        str(target.get("dist") or "") or None,
        str(target.get("arch") or "") or None,
    )
    results: list[SyncResult] = []
    for repo in repos_from_template(data):
        results.extend(
            sync_repo(
                index,
                repo,
                (os, dist, arch),
                fetcher=fetcher,
                insecure=insecure,
                accept_change=accept_change,
            )
        )
    for entry in data.get("packageRepositories") or []:
        if isinstance(entry, Mapping) and entry.get("path") and not entry.get("url"):
            results.extend(
                import_local(
                    index,
                    Path(str(entry["path"])),
                    os=os,
                    dist=dist,
                    arch=arch,
                    scope="extra",
                    key=template_repo_key(entry),
                    label=str(entry.get("codename") or entry["path"]),
                    limit=fetcher.max_bytes,
                )
            )
    return results


class SyncFailedError(UserInputError):
    """Some index sources failed; ``exit_code`` is 3 when a server or the network did."""

    exit_code: int

    def __init__(
        self, message: str, *, retryable: bool, refused: bool = False, fix: str = ""
    ) -> None:
        """One line naming the first failure and how many more there were."""
        if fix:
            pass  # the refusal's own fix (a new key: --accept-change)
        elif refused and not retryable:
            fix = (
                "check the repository and its configured key; pass --insecure only if "
                "you accept an unverified index"
            )
        elif retryable:
            fix = "check the network or the repository URL, then run the sync again"
        else:
            fix = "check the repository URL and the index, then run the sync again"
        super().__init__(message, fix=fix)
        self.exit_code = 3 if retryable else 2

    @classmethod
    def raise_for(cls, results: Sequence[SyncResult]) -> None:
        """Raise when a source failed.

        Raises:
            SyncFailedError: a source failed.
        """
        failure = summarize_failures(results)
        if failure:
            raise cls(
                failure,
                retryable=any(r.retryable for r in results),
                refused=any(r.refused for r in results),
                fix=next((r.fix for r in results if r.status == "failed" and r.fix), ""),
            )


def summarize_failures(results: Sequence[SyncResult]) -> str | None:
    """Return one line describing failed sources, or None when all succeeded."""
    failed = [r for r in results if r.status == "failed"]
    if not failed:
        return None
    first = failed[0]
    others = f" and {len(failed) - 1} more" if len(failed) > 1 else ""
    return (
        f"{len(failed)} of {len(results)} index sources failed: {first.repo} "
        f"({first.location}): {first.message}{others}"
    )
