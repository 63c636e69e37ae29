"""The package service: sync or import indexes, list them, check templates against them.

Plain functions over :class:`~oic_ai.stores.settings.Settings`; SQLite, network and index
code load inside them, so importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oic_ai.stores.errors import UserInputError

if TYPE_CHECKING:
    from oic_ai.stores.package_fetch import Fetcher, Progress
    from oic_ai.stores.package_index import PackageIndex, SourceRow
    from oic_ai.stores.package_sources import SyncResult
    from oic_ai.stores.settings import Settings
    from oic_ai.tools.verify_packages import PackageReport


@dataclass(frozen=True)
class SyncRequest:
    """What to sync: exactly one source (or none, to refresh what was synced before).

    Attributes:
        index: A local ``Packages``/``primary.xml`` file or repository folder to import
            (``-`` for stdin); needs ``dist``.
        repo_config: A composer providerconfig file, or a folder above them.
        templates: Templates whose own ``packageRepositories`` to sync.
        os: Target os (follows from ``dist`` when None).
        dist: Target dist; with no source, only this dist is refreshed.
        arch: Target arch.
        retries: Retries per file.
        timeout: Seconds per try.
        backoff: Seconds before the first retry (doubling).
        insecure: Skip signature and checksum verification (said in the output and
            remembered for ``packages status``).
        accept_change: Accept a new signing key, or a Release whose Origin, Label,
            Suite, Codename or Date changed, as the repository's new pins.
    """

    index: str | None = None
    repo_config: str | None = None
    templates: Sequence[str] = field(default_factory=tuple)
    os: str | None = None
    dist: str | None = None
    arch: str | None = None
    retries: int = 3
    timeout: float = 30.0
    backoff: float = 0.5
    insecure: bool = False
    accept_change: bool = False

    def __post_init__(self) -> None:
        """Refuse retry and timeout values that cannot work.

        Raises:
            UserInputError: ``retries`` is negative or ``timeout`` is not positive.
        """
        if self.retries < 0 or self.timeout <= 0:
            raise UserInputError("--retries must be >= 0 and --timeout > 0", fix="fix the values")


@dataclass(frozen=True)
class SyncOutcome:
    """Every index source a sync touched, and the database it wrote."""

    database: Path
    results: list[SyncResult]

    @property
    def ok(self) -> bool:
        """True when no source failed."""
        return all(r.ok for r in self.results)

    def to_json(self) -> dict[str, Any]:
        """The ``packages sync --json`` shape."""
        return {
            "database": str(self.database),
            "ok": self.ok,
            "results": [r.to_json() for r in self.results],
        }

    def raise_for_failure(self) -> None:
        """Raise when a source failed, after the caller has shown the results.

        Raises:
            SyncFailedError: one line naming what failed (exit code 3 when a server or
                the network failed, else 2).
        """
        from oic_ai.stores.package_sources import SyncFailedError

        SyncFailedError.raise_for(self.results)


def sync_packages(
    settings: Settings, request: SyncRequest, *, progress: Progress | None = None
) -> SyncOutcome:
    """Fetch (or import) package indexes into the cache under the data folder.

    A failing source does not raise: it is a result with status ``failed`` (see
    :meth:`SyncOutcome.raise_for_failure`).

    Raises:
        UserInputError: a bad target, or nothing to refresh.
    """
    from oic_ai.stores.package_fetch import Fetcher
    from oic_ai.stores.package_index import PackageIndex

    index = PackageIndex.for_data_dir(settings.data_dir)
    fetcher = Fetcher(
        timeout=request.timeout,
        retries=request.retries,
        backoff=request.backoff,
        progress=progress,
        deadline=settings.packages_transfer_timeout,
        max_bytes=settings.packages_max_index_mb << 20,
    )
    try:
        results = _sync(index, request, fetcher)
    finally:
        index.close()
    return SyncOutcome(index.path, results)


def _sync(index: PackageIndex, request: SyncRequest, fetcher: Fetcher) -> list[SyncResult]:
    """Run the one strategy the request asks for."""
    from oic_ai.stores.package_repos import (
        find_providerconfigs,
        repos_from_providerconfig,
        resolve_target,
    )
    from oic_ai.stores.package_sources import (
        import_local,
        refresh_recorded,
        sync_repo,
        sync_template_repos,
    )

    results: list[SyncResult] = []
    if request.index:
        os_name, dist, arch = resolve_target(request.os, request.dist, request.arch)
        return import_local(
            index, Path(request.index), os=os_name, dist=dist, arch=arch, limit=fetcher.max_bytes
        )
    insecure = request.insecure
    if request.repo_config:
        picks = find_providerconfigs(
            Path(request.repo_config), request.os, request.dist, request.arch
        )
        for pick in picks:
            for repo in repos_from_providerconfig(pick.path):
                results.extend(
                    sync_repo(
                        index,
                        repo,
                        (pick.os, pick.dist, pick.arch),
                        fetcher=fetcher,
                        insecure=insecure,
                        accept_change=request.accept_change,
                    )
                )
        return results
    if request.templates:
        for template in request.templates:
            data = read_template_file(Path(template))
            results.extend(
                sync_template_repos(
                    index,
                    data,
                    fetcher=fetcher,
                    insecure=insecure,
                    accept_change=request.accept_change,
                )
            )
        return results
    only = resolve_target(request.os, request.dist, request.arch)[1] if request.dist else None
    results = refresh_recorded(
        index,
        dist=only,
        arch=request.arch,
        fetcher=fetcher,
        insecure=insecure,
        accept_change=request.accept_change,
    )
    if not results:
        raise UserInputError(
            "no repositories have been synced yet",
            fix="pass --repo-config PROVIDERCONFIG, --template FILE or --index FILE",
        )
    return results


def read_template_file(path: Path) -> dict[str, Any]:
    """Read and parse a template file into a mapping.

    Raises:
        UserInputError: the file is missing, unreadable, not UTF-8, not YAML, or not a
            mapping.
    """
    from oic_ai.stores.template_library import UnreadableFileError, read_file_bytes

    try:
        text = read_file_bytes(path).decode("utf-8")
    except UnreadableFileError as exc:
        if path.is_dir():
            raise UserInputError(f"{path} is a folder", fix="pass a template file") from None
        if not path.exists() and not path.is_symlink():
            raise UserInputError(f"{path} does not exist", fix="check the path") from None
        raise UserInputError(f"cannot read {path}: {exc.reason}", fix="check the path") from None
    except UnicodeDecodeError:
        raise UserInputError(f"{path} is not UTF-8 text", fix="pass a YAML template") from None
    return parse_template_text(text, str(path))


def parse_template_text(text: str, source: str = "the template") -> dict[str, Any]:
    """Parse template YAML into a mapping.

    Raises:
        UserInputError: the text is not YAML, or not a mapping.
    """
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

    try:
        data = load_data(text)
    except YamlSyntaxError as exc:
        raise UserInputError(f"{source} is not valid YAML ({exc})", fix="fix the YAML") from None
    if not isinstance(data, dict):
        raise UserInputError(
            f"{source} does not hold a template (not a mapping)", fix="pass a template file"
        )
    return data


def check_templates(
    settings: Settings, raw_paths: Sequence[str | Path], *, suggest: bool = True
) -> list[PackageReport]:
    """Check template files' packages against the indexes of their targets.

    Every file is read and parsed before any is checked, so a bad file fails the whole
    call before any work is done.

    Raises:
        UserInputError: a path is missing or a file is not a template.
    """
    from oic_ai.services.library import template_files
    from oic_ai.tools.verify_packages import index_for, verify_template_packages

    files = template_files(raw_paths, empty_fix="pass template files")
    templates = [(path, read_template_file(path)) for path in files]
    index = index_for(settings.data_dir)
    return [
        verify_template_packages(data, index=index, path=str(path), suggest=suggest)
        for path, data in templates
    ]


def check_template_text(
    settings: Settings, text: str, *, path: str | None = None, suggest: bool = True
) -> PackageReport:
    """Check one template's packages, given as text (``POST /api/v1/packages/check``).

    Raises:
        UserInputError: the text is not a YAML mapping.
    """
    from oic_ai.tools.verify_packages import index_for, verify_template_packages

    data = parse_template_text(text, path or "the template")
    return verify_template_packages(
        data, index=index_for(settings.data_dir), path=path, suggest=suggest
    )


@dataclass(frozen=True)
class PackageStatus:
    """The indexed targets and repositories, and the database they are in."""

    database: Path
    sources: list[SourceRow]

    def to_json(self) -> dict[str, Any]:
        """The ``packages status --json`` shape; each source says whether it was verified."""
        return {
            "database": str(self.database),
            "sources": [{**row.to_json(), **trust_of(row)} for row in self.sources],
        }


def trust_of(row: SourceRow) -> dict[str, Any]:
    """How a stored source was verified: ``verified`` (None for a local import) and why not.

    Returns:
        ``{"verified": bool | None, "trust_note": str}``; a source synced before
        verification existed counts as unverified.
    """
    if not row.spec.get("base_url"):
        return {"verified": None, "trust_note": "imported from a local file"}
    trust = row.spec.get("trust")
    if not isinstance(trust, dict):
        return {"verified": False, "trust_note": "synced before signatures were checked"}
    if trust.get("verified"):
        signer = str(trust.get("signed_by") or "")
        return {"verified": True, "trust_note": f"signed by {signer[-16:]}" if signer else ""}
    return {"verified": False, "trust_note": f"not verified: {trust.get('reason') or '?'}"}


def package_status(
    settings: Settings, dist: str | None = None, arch: str | None = None
) -> PackageStatus:
    """List the indexed sources, optionally for one dist and arch."""
    from oic_ai.stores.package_index import PackageIndex

    index = PackageIndex.for_data_dir(settings.data_dir)
    try:
        rows = index.sources(dist, arch)
    finally:
        index.close()
    return PackageStatus(index.path, rows)


def check_json(reports: Sequence[PackageReport]) -> dict[str, Any]:
    """The ``packages check --json`` shape for a list of reports."""
    return {"templates": [report.to_json() for report in reports]}
