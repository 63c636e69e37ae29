"""Where package indexes come from, and how ``packages sync`` fetches them.

A repository is described the way the composer's providerconfigs do it (``baseURL``,
``component``, a suite from ``releaseFile`` or ``name``; ``{arch}`` in RPM URLs), or
as a template's ``packageRepositories`` entry, or as a local file or folder.

Fetching uses ``urllib`` with conditional requests (ETag / Last-Modified), retries
with exponential backoff on server errors and dropped connections, and never
touches the cache of a repository it could not reach.
"""

from __future__ import annotations

import http.client
import re
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from oic_ai.stores.capability_catalog import normalize_arch, package_family
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.package_formats import (
    IndexFormatError,
    PackageRecord,
    decompress,
    parse_deb_packages,
    parse_rpm_primary,
    primary_location,
)
from oic_ai.stores.package_index import PackageIndex, SourceInfo, SourceRow, repo_key
from oic_ai.stores.targets import load_targets

DEB_ARCH = {"x86_64": "amd64", "aarch64": "arm64", "armv7hl": "armhf"}
DEB_SUFFIXES = (".xz", ".gz", "")
USER_AGENT = "oic-ai package sync"

Progress = Callable[[str, int, int | None], None]
"""``progress(label, bytes_done, bytes_total_or_None)``."""


def deb_arch(arch: str) -> str:
    """Return Debian's name for a composer arch (``x86_64`` → ``amd64``)."""
    arch = normalize_arch(arch)
    return DEB_ARCH.get(arch, arch)


def resolve_target(os: str | None, dist: str | None, arch: str | None) -> tuple[str, str, str]:
    """Check and complete a target given on the command line.

    The os may be left out (it follows from the dist); the arch defaults to x86_64.

    Raises:
        UserInputError: no dist, an unknown dist or os, or an os that does not ship the dist.
    """
    if not dist:
        raise UserInputError("no target dist given", fix="pass --dist (e.g. --dist elxr12)")
    targets = load_targets()
    if dist not in targets.dists:
        raise UserInputError(f"unknown dist {dist!r}", fix=f"use one of {', '.join(targets.dists)}")
    owner = targets.dists[dist].os
    if os and os not in targets.oses:
        raise UserInputError(f"unknown os {os!r}", fix=f"use one of {', '.join(targets.oses)}")
    if os and os != owner:
        raise UserInputError(f"os {os!r} does not ship {dist}", fix=f"use --os {owner}")
    arch = normalize_arch(arch)
    if arch not in DEB_ARCH:
        raise UserInputError(f"unknown arch {arch!r}", fix="use x86_64 or aarch64")
    return owner, dist, arch


# --- repository descriptions ---------------------------------------------------------


@dataclass(frozen=True)
class RemoteRepo:
    """One repository to fetch, in providerconfig terms.

    Attributes:
        kind: ``deb`` or ``rpm``.
        name: A label (the providerconfig ``name`` or a template ``codename``).
        base_url: ``baseURL``; RPM URLs may contain ``{arch}``.
        suite: The Debian suite (``noble-updates``); unused for RPM.
        components: Debian components (``main``, ``universe``); unused for RPM.
        scope: ``base`` for the distribution, ``extra`` for a template's repository.
    """

    kind: str
    name: str
    base_url: str
    suite: str = ""
    components: tuple[str, ...] = ()
    scope: str = "base"

    @property
    def key(self) -> str:
        """The key templates use to refer to this repository (url + codename)."""
        return repo_key(self.base_url, self.suite or (self.name if self.scope == "extra" else ""))

    def index_sources(self, arch: str) -> list[tuple[SourceInfo, str]]:
        """Return each index file of this repository for ``arch`` and its URL stem."""
        base = self.base_url.rstrip("/")
        if self.kind == "rpm":
            url = base.replace("{arch}", normalize_arch(arch))
            info = SourceInfo(
                kind="rpm",
                repo=self.name,
                repo_key=self.key,
                location=url,
                scope=self.scope,
                spec=self._spec(()),
            )
            return [(info, url)]
        result = []
        for component in self.components or ("main",):
            stem = f"{base}/dists/{self.suite}/{component}/binary-{deb_arch(arch)}/Packages"
            info = SourceInfo(
                kind="deb",
                repo=f"{self.suite} {component}".strip(),
                repo_key=self.key,
                location=stem,
                scope=self.scope,
                spec=self._spec((component,)),
            )
            result.append((info, stem))
        return result

    def _spec(self, components: tuple[str, ...]) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "base_url": self.base_url,
            "suite": self.suite,
            "components": list(components),
            "scope": self.scope,
        }

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any]) -> RemoteRepo:
        """Rebuild a repository from the ``spec`` stored with a source."""
        return cls(
            kind=str(spec["kind"]),
            name=str(spec.get("name", "")),
            base_url=str(spec["base_url"]),
            suite=str(spec.get("suite", "")),
            components=tuple(spec.get("components") or ()),
            scope=str(spec.get("scope", "base")),
        )


_ARCH_PREFIXES = (("amd64", "x86_64"), ("x86_64", "x86_64"), ("arm64", "aarch64"))


def _arch_of_config_name(name: str) -> str | None:
    lowered = name.lower()
    if lowered.startswith("aarch64"):
        return "aarch64"
    for prefix, arch in _ARCH_PREFIXES:
        if lowered.startswith(prefix):
            return arch
    return None


def _suite_of(entry: Mapping[str, Any]) -> str:
    release = str(entry.get("releaseFile") or "")
    match = re.search(r"/dists/([^/]+)/(?:In)?Release$", release)
    if match:
        return match.group(1)
    return str(entry.get("codename") or entry.get("name") or "").strip()


def repos_from_providerconfig(path: Path) -> list[RemoteRepo]:
    """Read a composer providerconfig (one repository or a ``repositories:`` list).

    Raises:
        UserInputError: the file is missing, not YAML, or describes no usable repository.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserInputError(
            f"cannot read repository config {path} ({exc.strerror or exc})", fix="check the path"
        ) from None
    except yaml.YAMLError as exc:
        raise UserInputError(
            f"repository config {path} is not valid YAML ({exc.__class__.__name__})",
            fix="fix the file",
        ) from None
    entries: Iterable[Any]
    if isinstance(data, Mapping) and isinstance(data.get("repositories"), list):
        entries = data["repositories"]
    elif isinstance(data, Mapping):
        entries = [data]
    else:
        entries = []
    repos = []
    for entry in entries:
        if not isinstance(entry, Mapping) or not entry.get("baseURL"):
            continue
        if entry.get("enabled") is False:
            continue
        kind = str(entry.get("type") or "").lower()
        if kind not in ("deb", "rpm"):
            continue
        repos.append(
            RemoteRepo(
                kind=kind,
                name=str(entry.get("name") or path.stem),
                base_url=str(entry["baseURL"]).rstrip("/"),
                suite=_suite_of(entry) if kind == "deb" else "",
                components=tuple(str(entry.get("component") or "main").split())
                if kind == "deb"
                else (),
            )
        )
    if not repos:
        raise UserInputError(
            f"{path} describes no enabled deb or rpm repository with a baseURL",
            fix="pass a providerconfig file (config/osv/<os>/<dist>/providerconfigs/*.yml)",
        )
    return repos


@dataclass(frozen=True)
class ConfigPick:
    """A providerconfig file and the target it applies to."""

    path: Path
    os: str
    dist: str
    arch: str


def find_providerconfigs(
    path: Path, os: str | None, dist: str | None, arch: str | None
) -> list[ConfigPick]:
    """Resolve ``--repo-config`` to providerconfig files and their targets.

    ``path`` may be one providerconfig file, or any folder above the composer's
    ``providerconfigs`` folders (``config/osv``, one dist's folder, ...). The target
    comes from the flags, else from the path (``<os>/<dist>/providerconfigs/<arch>_repo.yml``).

    Raises:
        UserInputError: nothing usable is found, or the target cannot be told.
    """
    if not path.exists():
        raise UserInputError(f"{path} does not exist", fix="check the --repo-config path")
    if path.is_file():
        return [_pick_for_file(path, os, dist, arch)]
    folders = sorted(
        p for p in [path, *path.rglob("providerconfigs")] if p.name == "providerconfigs"
    )
    picks: list[ConfigPick] = []
    for folder in folders:
        folder_dist = folder.parent.name
        if dist and folder_dist != dist:
            continue
        if folder_dist not in load_targets().dists:
            continue
        wanted = normalize_arch(arch) if arch else "x86_64"
        files = sorted(folder.glob("*.y*ml"))
        exact = [f for f in files if _arch_of_config_name(f.name) == wanted]
        generic = [f for f in files if _arch_of_config_name(f.name) is None]
        chosen = (exact or generic)[:1]
        for file in chosen:
            picks.append(_pick_for_file(file, os, folder_dist, wanted))
    if not picks:
        what = f" for {dist}" if dist else ""
        raise UserInputError(
            f"no providerconfigs{what} under {path}",
            fix="pass a providerconfig file, or the composer's config/osv folder with --dist",
        )
    return picks


def _pick_for_file(path: Path, os: str | None, dist: str | None, arch: str | None) -> ConfigPick:
    parts = path.resolve().parts
    if not dist and len(parts) >= 3 and parts[-2] == "providerconfigs":
        dist = parts[-3]
    file_arch = _arch_of_config_name(path.name)
    if not dist:
        raise UserInputError(
            f"cannot tell which dist {path} is for", fix="pass --dist (and --arch)"
        )
    target_os, target_dist, target_arch = resolve_target(os, dist, arch or file_arch)
    return ConfigPick(path, target_os, target_dist, target_arch)


def repos_from_template(data: Mapping[str, Any]) -> list[RemoteRepo]:
    """Return a template's ``packageRepositories`` that have a URL, as extra repositories."""
    target = data.get("target") if isinstance(data.get("target"), Mapping) else {}
    assert isinstance(target, Mapping)
    family = package_family(str(target.get("os", "")), str(target.get("dist", "")))
    repos = []
    for entry in data.get("packageRepositories") or []:
        if not isinstance(entry, Mapping) or not entry.get("url"):
            continue
        url = str(entry["url"]).strip()
        if "<" in url:  # an unfilled placeholder such as <URL>
            continue
        codename = str(entry.get("codename") or "").strip()
        repos.append(
            RemoteRepo(
                kind=family,
                name=codename or url,
                base_url=url.rstrip("/"),
                suite=codename if family == "deb" else "",
                components=tuple(str(entry.get("component") or "main").split())
                if family == "deb"
                else (),
                scope="extra",
            )
        )
    return repos


def template_repo_key(entry: Mapping[str, Any]) -> str:
    """Return the repository key for a template's ``packageRepositories`` entry."""
    url = str(entry.get("url") or entry.get("path") or "").strip()
    return repo_key(url, str(entry.get("codename") or "").strip())


# --- fetching ----------------------------------------------------------------------


class FetchError(UserInputError):
    """A repository that could not be read (after retries where they make sense)."""

    def __init__(self, url: str, reason: str, *, status: int | None = None) -> None:
        self.url = url
        self.reason = reason
        self.status = status
        super().__init__(f"cannot fetch {url} ({reason})", fix="check the URL or the network")


class NotFoundError(FetchError):
    """The server answered 404/410: this file does not exist there."""


@dataclass(frozen=True)
class Fetched:
    """One HTTP answer: 200 with a body, or 304 (unchanged, empty body)."""

    url: str
    status: int
    body: bytes = b""
    etag: str | None = None
    last_modified: str | None = None


_RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass
class Fetcher:
    """Download with conditional requests and retries.

    Attributes:
        timeout: Seconds per attempt.
        retries: Extra attempts after the first on retryable failures.
        backoff: First delay in seconds; it doubles each retry.
        progress: Called with (label, bytes so far, total or None) while reading.
        sleep: The delay function (tests pass a recorder).
    """

    timeout: float = 30.0
    retries: int = 3
    backoff: float = 0.5
    progress: Progress | None = None
    sleep: Callable[[float], None] = time.sleep
    attempts: list[str] = field(default_factory=list)

    def fetch(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        label: str = "",
    ) -> Fetched:
        """GET ``url``; send If-None-Match / If-Modified-Since when given.

        Raises:
            NotFoundError: 404 or 410.
            FetchError: any other failure, after the retries.
        """
        headers = {"User-Agent": USER_AGENT}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        delay = self.backoff
        for attempt in range(self.retries + 1):
            self.attempts.append(url)
            try:
                return self._once(url, headers, label or url)
            except NotFoundError:
                raise
            except FetchError as exc:
                retryable = exc.status is None or exc.status in _RETRY_STATUS
                if not retryable or attempt == self.retries:
                    raise
            self.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def _once(self, url: str, headers: Mapping[str, str], label: str) -> Fetched:
        request = urllib.request.Request(url, headers=dict(headers))
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                total_text = response.headers.get("Content-Length")
                total = int(total_text) if total_text and total_text.isdigit() else None
                chunks: list[bytes] = []
                done = 0
                while True:
                    chunk = response.read(1 << 16)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    done += len(chunk)
                    if self.progress is not None:
                        self.progress(label, done, total)
                if total is not None and done < total:
                    raise FetchError(url, f"connection closed after {done} of {total} bytes")
                return Fetched(
                    url=url,
                    status=200,
                    body=b"".join(chunks),
                    etag=response.headers.get("ETag"),
                    last_modified=response.headers.get("Last-Modified"),
                )
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return Fetched(
                    url=url,
                    status=304,
                    etag=exc.headers.get("ETag") or headers.get("If-None-Match"),
                    last_modified=exc.headers.get("Last-Modified")
                    or headers.get("If-Modified-Since"),
                )
            if exc.code in (404, 410):
                raise NotFoundError(url, f"HTTP {exc.code}", status=exc.code) from None
            raise FetchError(url, f"HTTP {exc.code} {exc.reason}", status=exc.code) from None
        except urllib.error.URLError as exc:
            raise FetchError(url, _reason(exc.reason)) from None
        except (TimeoutError, ConnectionError, http.client.HTTPException, OSError) as exc:
            raise FetchError(url, _reason(exc)) from None


def _reason(error: object) -> str:
    if isinstance(error, BaseException):
        text = getattr(error, "strerror", None) or str(error) or error.__class__.__name__
        return str(text)
    return str(error)


# --- syncing -----------------------------------------------------------------------


@dataclass(frozen=True)
class SyncResult:
    """What happened to one index source during a sync or import.

    ``status`` is ``updated`` (new rows), ``unchanged`` (HTTP 304), ``imported``
    (a local file), ``failed`` (the previous rows, if any, were kept) or ``skipped``.
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

    @property
    def ok(self) -> bool:
        """True unless the source failed."""
        return self.status != "failed"

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-serialisable description."""
        return {
            "os": self.os,
            "dist": self.dist,
            "arch": self.arch,
            "repo": self.repo,
            "location": self.location,
            "status": self.status,
            "packages": self.packages,
            "message": self.message,
            "seconds": round(self.seconds, 3),
        }


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


def _previous(index: PackageIndex, dist: str, arch: str, location: str) -> SourceRow | None:
    for row in index.sources(dist, arch):
        if row.location == location:
            return row
    return None


def _kept(previous: SourceRow | None) -> str:
    if previous is None:
        return "no previous index for it"
    return (
        f"kept the previous index ({previous.packages} packages from {_when(previous.imported_at)})"
    )


def sync_repo(
    index: PackageIndex,
    repo: RemoteRepo,
    *,
    os: str,
    dist: str,
    arch: str,
    fetcher: Fetcher,
) -> list[SyncResult]:
    """Fetch every index file of one repository for a target into the cache.

    A source that cannot be fetched or parsed keeps its previous rows and is
    reported ``failed``; the others are still synced.
    """
    results = []
    for info, stem in repo.index_sources(arch):
        started = time.perf_counter()
        previous = _previous(index, dist, arch, info.location)
        try:
            if info.kind == "deb":
                status, count = _sync_deb(index, info, stem, previous, os, dist, arch, fetcher)
            else:
                status, count = _sync_rpm(index, info, stem, previous, os, dist, arch, fetcher)
            message = "not modified since the last sync" if status == "unchanged" else ""
        except (FetchError, IndexFormatError) as exc:
            status = "failed"
            count = previous.packages if previous else 0
            reason = exc.reason if isinstance(exc, FetchError) else exc.problem
            message = f"unreachable or unusable: {reason}; {_kept(previous)}"
        results.append(
            SyncResult(
                os=os,
                dist=dist,
                arch=arch,
                repo=info.repo,
                location=info.location,
                status=status,
                packages=count,
                message=message,
                seconds=time.perf_counter() - started,
            )
        )
    return results


def _sync_deb(
    index: PackageIndex,
    info: SourceInfo,
    stem: str,
    previous: SourceRow | None,
    os: str,
    dist: str,
    arch: str,
    fetcher: Fetcher,
) -> tuple[str, int]:
    candidates = [stem + suffix for suffix in DEB_SUFFIXES]
    if previous and previous.url in candidates:
        candidates.remove(previous.url)
        candidates.insert(0, previous.url)
    for url in candidates:
        same = previous is not None and previous.url == url
        try:
            fetched = fetcher.fetch(
                url,
                etag=previous.etag if same and previous else None,
                last_modified=previous.last_modified if same and previous else None,
                label=info.repo,
            )
        except NotFoundError:
            continue
        if fetched.status == 304 and previous is not None:
            index.mark_unchanged(
                os=os,
                dist=dist,
                arch=arch,
                source=info,
                url=url,
                etag=fetched.etag,
                last_modified=fetched.last_modified,
            )
            return "unchanged", previous.packages
        records = list(parse_deb_packages(fetched.body, url))
        count = index.replace_source(
            os=os,
            dist=dist,
            arch=arch,
            source=info,
            records=records,
            url=url,
            etag=fetched.etag,
            last_modified=fetched.last_modified,
        )
        return "updated", count
    raise FetchError(stem, "no Packages, Packages.gz or Packages.xz there (HTTP 404)", status=404)


def _sync_rpm(
    index: PackageIndex,
    info: SourceInfo,
    base: str,
    previous: SourceRow | None,
    os: str,
    dist: str,
    arch: str,
    fetcher: Fetcher,
) -> tuple[str, int]:
    repomd_url = f"{base}/repodata/repomd.xml"
    same = previous is not None and previous.url == repomd_url
    try:
        fetched = fetcher.fetch(
            repomd_url,
            etag=previous.etag if same and previous else None,
            last_modified=previous.last_modified if same and previous else None,
            label=info.repo,
        )
    except NotFoundError:
        raise FetchError(
            repomd_url, "no repodata/repomd.xml there (HTTP 404)", status=404
        ) from None
    if fetched.status == 304 and previous is not None:
        index.mark_unchanged(
            os=os,
            dist=dist,
            arch=arch,
            source=info,
            url=repomd_url,
            etag=fetched.etag,
            last_modified=fetched.last_modified,
        )
        return "unchanged", previous.packages
    href = primary_location(fetched.body, repomd_url)
    primary = fetcher.fetch(f"{base}/{href.lstrip('/')}", label=info.repo)
    records = list(parse_rpm_primary(primary.body, primary.url))
    count = index.replace_source(
        os=os,
        dist=dist,
        arch=arch,
        source=info,
        records=records,
        url=repomd_url,
        etag=fetched.etag,
        last_modified=fetched.last_modified,
    )
    return "updated", count


def refresh_recorded(
    index: PackageIndex,
    *,
    dist: str | None = None,
    arch: str | None = None,
    fetcher: Fetcher,
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
            sync_repo(index, repo, os=row.os, dist=row.dist, arch=row.arch, fetcher=fetcher)
        )
    return results


# --- local files and folders ----------------------------------------------------------


def _read(path: Path) -> bytes:
    try:
        if str(path) == "-":
            return sys.stdin.buffer.read()
        return path.read_bytes()
    except OSError as exc:
        raise UserInputError(
            f"cannot read {path} ({exc.strerror or exc})", fix="check the path"
        ) from None


def records_from_file(path: Path) -> tuple[str, list[PackageRecord]]:
    """Read one local index file of any supported kind; return its kind and packages.

    Accepts a Debian Packages file, an RPM primary.xml or a repomd.xml (whose
    primary file is read next to it), each plain or compressed.

    Raises:
        UserInputError: the file is unreadable or not a package index.
    """
    raw = _read(path)
    head = decompress(raw, str(path))[:4096]
    if b"<repomd" in head:
        href = primary_location(raw, str(path))
        primary = path.resolve().parent.parent / href
        return "rpm", list(parse_rpm_primary(_read(primary), str(primary)))
    if b"<metadata" in head:
        return "rpm", list(parse_rpm_primary(raw, str(path)))
    if not raw.strip():
        raise IndexFormatError(f"{path} is empty", fix="pass a Packages or primary.xml file")
    return "deb", list(parse_deb_packages(raw, str(path)))


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
) -> list[SyncResult]:
    """Import a local index file or folder as the index of a target.

    Every file is parsed before anything is written; each file is one atomic import.

    Raises:
        UserInputError: the path is missing, unreadable or not a package index.
    """
    results = []
    for file in local_index_files(path, arch):
        started = time.perf_counter()
        kind, records = records_from_file(file)
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
        results.append(
            SyncResult(
                os=os,
                dist=dist,
                arch=arch,
                repo=info.repo,
                location=location,
                status="imported",
                packages=count,
                seconds=time.perf_counter() - started,
            )
        )
    return results


def sync_template_repos(
    index: PackageIndex, data: Mapping[str, Any], *, fetcher: Fetcher
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
        results.extend(sync_repo(index, repo, os=os, dist=dist, arch=arch, fetcher=fetcher))
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
                )
            )
    return results


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
