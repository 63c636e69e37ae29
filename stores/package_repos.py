"""Where package indexes come from: providerconfigs, template repositories, targets.

A repository is described the way the composer's providerconfigs do it (``baseURL``,
``component``, a suite from ``releaseFile`` or ``name``; ``{arch}`` in RPM URLs), or as a
template's ``packageRepositories`` entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from oic_ai.stores.capability_catalog import normalize_arch, package_family
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.package_index import SourceInfo, repo_key
from oic_ai.stores.targets import load_targets
from oic_ai.stores.yaml_document import load_data

DEB_SUFFIXES = (".xz", ".gz", "")


def deb_arch(arch: str) -> str:
    """Return Debian's name for a composer arch (``x86_64`` → ``amd64``)."""
    arch = normalize_arch(arch)
    known = load_targets().arches.get(arch)
    return known.deb_name if known else arch


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
    if arch not in targets.arches:
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
        gpg_check: ``gpgCheck``: verify the repository at all (False: nothing is checked).
        repo_gpg_check: ``repoGPGCheck``: verify the signature of the repository metadata
            (``Release``/``repomd.xml``); for RPM, False still checks primary's checksum.
        keys: The configured keys (``pbGPGKey``, ``gpgKey``/``gpgKeys``, ``pkey``/``pkeys``):
            absolute paths, ``file://`` or ``http(s)://`` URLs, or paths relative to the
            repository URL.
        release_file: ``releaseFile`` (Debian): the Release URL when not the usual one.
        release_sign: ``releaseSign`` (Debian): its detached signature's URL.
        unchecked_reason: Why the configuration turned checking off (for the warning).
    """

    kind: str
    name: str
    base_url: str
    suite: str = ""
    components: tuple[str, ...] = ()
    scope: str = "base"
    gpg_check: bool = True
    repo_gpg_check: bool = True
    keys: tuple[str, ...] = ()
    release_file: str = ""
    release_sign: str = ""
    unchecked_reason: str = ""

    def trust(self, insecure: bool = False) -> TrustPolicy:
        """What a sync of this repository must verify (``--insecure`` turns it all off)."""
        if insecure:
            return TrustPolicy(False, False, "--insecure was given")
        if not self.gpg_check:
            return TrustPolicy(False, False, self.unchecked_reason or "gpgCheck: false")
        if not self.repo_gpg_check:
            reason = self.unchecked_reason or "repoGPGCheck: false"
            # dnf still checks primary's checksum; a Debian index is read as before
            return TrustPolicy(False, self.kind == "rpm", reason)
        return TrustPolicy(True, True, "")

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
            "gpg_check": self.gpg_check,
            "repo_gpg_check": self.repo_gpg_check,
            "keys": list(self.keys),
            "release_file": self.release_file,
            "release_sign": self.release_sign,
            "unchecked_reason": self.unchecked_reason,
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
            gpg_check=bool(spec.get("gpg_check", True)),
            repo_gpg_check=bool(spec.get("repo_gpg_check", True)),
            keys=tuple(str(key) for key in spec.get("keys") or ()),
            release_file=str(spec.get("release_file") or ""),
            release_sign=str(spec.get("release_sign") or ""),
            unchecked_reason=str(spec.get("unchecked_reason") or ""),
        )


@dataclass(frozen=True)
class TrustPolicy:
    """What one sync of one repository verifies.

    Attributes:
        signature: Verify the signature of ``InRelease``/``Release``/``repomd.xml``.
        digests: Check the listed checksum and size of each index file read.
        reason: Why it is not fully verified (empty when it is).
        accept_change: ``--accept-change``: a new signing key, or a Release whose origin,
            suite or date changed, becomes the new pin instead of being refused.
    """

    signature: bool
    digests: bool
    reason: str
    accept_change: bool = False

    @property
    def verified(self) -> bool:
        """True when the index will be signature-checked end to end."""
        return self.signature and self.digests


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


def _flag(value: Any, default: bool = True) -> bool:
    """A YAML boolean that may have been written as a string (``"false"``)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
        return False
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
        return True
    return default


def _key_list(*values: Any) -> tuple[str, ...]:
    keys: list[str] = []
    for value in values:
        items = value if isinstance(value, list) else [value]
        for item in items:
            text = str(item).strip() if isinstance(item, str) else ""
            # skip <PUBLIC_KEY_URL> placeholders and the [trusted=yes] marker
            if text and "<" not in text and not text.startswith("[") and text not in keys:
                keys.append(text)
    return tuple(keys)


def _trust_of(entry: Mapping[str, Any], path: Path) -> dict[str, Any]:
    """The signature settings of one providerconfig entry (``gpgCheck``, keys, ...)."""
    gpg_check = _flag(entry.get("gpgCheck"))
    repo_gpg_check = _flag(entry.get("repoGPGCheck"))
    reason = ""
    if not gpg_check:
        reason = f"gpgCheck: false in {path.name}"
    elif not repo_gpg_check:
        reason = f"repoGPGCheck: false in {path.name}"
    return {
        "gpg_check": gpg_check,
        "repo_gpg_check": repo_gpg_check,
        "keys": _key_list(entry.get("pbGPGKey"), entry.get("gpgKey"), entry.get("gpgKeys")),
        "release_file": str(entry.get("releaseFile") or ""),
        "release_sign": str(entry.get("releaseSign") or ""),
        "unchecked_reason": reason,
    }


def repos_from_providerconfig(path: Path) -> list[RemoteRepo]:
    """Read a composer providerconfig (one repository or a ``repositories:`` list).

    Raises:
        UserInputError: the file is missing, not YAML, or describes no usable repository.
    """
    from oic_ai.stores.template_library import read_user_text

    text = read_user_text(
        path, "repository config", fix="check the path", utf8_fix="save it as UTF-8"
    )
    try:
        data = load_data(text)
    except yaml.YAMLError as exc:
        raise UserInputError(
            f"repository config {path} is not valid YAML ({exc})",
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
                **_trust_of(entry, path),
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
        trusted = str(entry.get("pkey") or "").strip() == "[trusted=yes]"
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
                gpg_check=not trusted,
                keys=_key_list(entry.get("pkey"), entry.get("pkeys")),
                unchecked_reason="pkey: [trusted=yes] in the template" if trusted else "",
            )
        )
    return repos


def template_repo_key(entry: Mapping[str, Any]) -> str:
    """Return the repository key for a template's ``packageRepositories`` entry."""
    url = str(entry.get("url") or entry.get("path") or "").strip()
    return repo_key(url, str(entry.get("codename") or "").strip())
