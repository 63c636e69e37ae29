"""``packages sync`` against a real loopback HTTP server serving fixture repositories.

The server is ``http.server`` on 127.0.0.1, port 0. It serves a Debian mirror
(``dists/...``) and an RPM repository (``repodata/``), answers conditional requests
with 304, and can be scripted to fail, so retries, backoff and "offline keeps the
cache" are tested against real sockets. Nothing here needs the network.

These repositories are unsigned and their configs say ``gpgCheck: false``: this file
is about fetching (conditional requests, compression, retries, failures). Signatures
and checksums are ``test_package_trust.py``'s, against real signed repositories.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from oic_ai.cli.main import main
from oic_ai.stores.package_fetch import Fetcher, FetchError
from oic_ai.stores.package_index import PackageIndex
from oic_ai.stores.package_repos import RemoteRepo, find_providerconfigs, repos_from_providerconfig
from oic_ai.stores.package_sources import sync_repo
from tests.conftest import PROJECT, REFERENCE
from tests.stores.package_repos import (
    deb_packages,
    elxr_providerconfig,
    write_deb_mirror,
    write_rpm_repo,
)
from tests.support.cli import cli_env
from tests.support.loopback import LoopbackHandler, LoopbackServer, serve_folder

pytestmark = pytest.mark.integration

ELXR = ("wind-river-elxr", "elxr12", "x86_64")  # (os, dist, arch) for the tests that call sync_repo
EXTRA_STANZA = "Package: brand-new-tool\nVersion: 1.0-1\nArchitecture: amd64\n"
FIXED_DATE = email.utils.formatdate(1_700_000_000, usegmt=True)


class _RepoHandler(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        server: RepoServer = self.owner
        path = self.path.split("?")[0]
        server.log.append((path, {k: v for k, v in self.headers.items()}))
        for suffix, statuses in server.failures.items():
            if path.endswith(suffix) and statuses:
                self.send_error(statuses.pop(0))
                return
        file = server.root / path.lstrip("/")
        if not file.is_file():
            self.send_error(404)
            return
        body = file.read_bytes()
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        modified = email.utils.formatdate(file.stat().st_mtime, usegmt=True)
        use_etag = server.validators in ("both", "etag")
        use_date = server.validators in ("both", "last-modified")
        if use_etag and self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        since = self.headers.get("If-Modified-Since")
        if use_date and not use_etag and since == modified:
            self.send_response(304)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        if use_etag:
            self.send_header("ETag", etag)
        if use_date:
            self.send_header("Last-Modified", modified)
        self.end_headers()
        self.wfile.write(body)


class RepoServer(LoopbackServer):
    """A static file server with ETag/Last-Modified validators and scripted failures."""

    handler = _RepoHandler

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self.validators = "both"  # "both", "etag", "last-modified" or "none"
        self.log: list[tuple[str, dict[str, str]]] = []
        self.failures: dict[str, list[int]] = {}

    def fail(self, suffix: str, *statuses: int) -> None:
        """Answer the next requests for paths ending in ``suffix`` with these statuses."""
        self.failures.setdefault(suffix, []).extend(statuses)

    def requests(self, suffix: str = "") -> list[tuple[str, dict[str, str]]]:
        return [(p, h) for p, h in self.log if p.endswith(suffix)]


@pytest.fixture
def repo_server(tmp_path: Path) -> Iterator[RepoServer]:
    yield from serve_folder(RepoServer, tmp_path)


def deb_config(tmp_path: Path, url: str, components: str = "main contrib") -> Path:
    """A providerconfig in the composer's layout, pointing at the loopback mirror."""
    settings = f'    gpgCheck: false\n    enabled: true\n    component: "{components}"\n'
    disabled = f'  - name: "disabled"\n    type: "deb"\n    baseURL: "{url}/nowhere"\n'
    return elxr_providerconfig(
        tmp_path / "config" / "osv", url, settings, disabled + "    enabled: false\n"
    )


def rpm_config(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "azl3_x86_64_repo.yml"
    path.write_text(
        'name: "Loopback Azure Linux"\n'
        'type: "rpm"\n'
        f'baseURL: "{url}/azl/{{arch}}"\n'
        'component: "azl3.0-base"\n'
        "gpgCheck: false\n"
        "enabled: true\n",
        encoding="utf-8",
    )
    return path


def cli(*args: str) -> int:
    return main(["packages", *args])


def sync_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = cli("sync", *args, "--json")
    captured = capsys.readouterr()
    return code, json.loads(captured.out)


def test_deb_sync_then_conditional_304_then_update(
    repo_server: RepoServer, tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_deb_mirror(
        repo_server.root / "elxr",
        suite="aria",
        components={"main": deb_packages(), "contrib": b"Package: extra-tool\nVersion: 2\n"},
    )
    config = deb_config(tmp_path, repo_server.url)
    code, payload = sync_json(capsys, "--repo-config", str(config), "--data-dir", str(data_dir))
    assert code == 0
    results = payload["results"]
    assert [(r["repo"], r["status"], r["packages"]) for r in results] == [
        ("aria main", "updated", 21),
        ("aria contrib", "updated", 1),
    ]
    assert all(r["dist"] == "elxr12" and r["arch"] == "x86_64" for r in results)
    assert not repo_server.requests("/nowhere")  # the disabled repository is skipped

    # a second sync asks conditionally and gets 304 for both files
    repo_server.log.clear()
    code, payload = sync_json(capsys, "--data-dir", str(data_dir))
    assert code == 0
    assert [r["status"] for r in payload["results"]] == ["unchanged", "unchanged"]
    (path, headers), _ = repo_server.requests("Packages.xz")
    assert headers.get("If-None-Match", "").startswith('"')

    # new content upstream is fetched and replaces the rows
    write_deb_mirror(
        repo_server.root / "elxr",
        suite="aria",
        components={"main": deb_packages(EXTRA_STANZA)},
    )
    code, payload = sync_json(capsys, "--repo-config", str(config), "--data-dir", str(data_dir))
    assert [r["status"] for r in payload["results"]] == ["updated", "unchanged"]
    assert payload["results"][0]["packages"] == 22
    index = PackageIndex.for_data_dir(data_dir)
    view = index.view("elxr12", "x86_64")
    assert view.exact("brand-new-tool") and view.exact("extra-tool")
    row = index.sources("elxr12")[0]
    assert row.etag and row.url.endswith("/binary-amd64/Packages.xz")
    index.close()


def test_last_modified_alone_also_gives_304(
    repo_server: RepoServer, tmp_path: Path, data_dir: Path
) -> None:
    repo_server.validators = "last-modified"
    write_deb_mirror(repo_server.root / "elxr", components={"main": deb_packages()})
    index = PackageIndex.for_data_dir(data_dir)
    repo = RemoteRepo("deb", "aria", f"{repo_server.url}/elxr", "aria", ("main",), gpg_check=False)
    (first,) = sync_repo(index, repo, ELXR, fetcher=Fetcher())
    (second,) = sync_repo(index, repo, ELXR, fetcher=Fetcher())
    assert (first.status, second.status) == ("updated", "unchanged")
    assert second.packages == 21
    last = repo_server.requests("Packages.xz")[-1][1]
    assert "If-Modified-Since" in last and "If-None-Match" not in last
    index.close()


def test_compression_fallback_xz_then_gz_then_plain(
    repo_server: RepoServer, data_dir: Path
) -> None:
    write_deb_mirror(repo_server.root / "elxr", components={"main": deb_packages()}, kind="gz")
    index = PackageIndex.for_data_dir(data_dir)
    repo = RemoteRepo("deb", "aria", f"{repo_server.url}/elxr", "aria", ("main",), gpg_check=False)
    (result,) = sync_repo(index, repo, ELXR, fetcher=Fetcher())
    assert (result.status, result.packages) == ("updated", 21)
    asked = [path.rsplit("/", 1)[1] for path, _ in repo_server.log]
    assert asked == ["Packages.xz", "Packages.gz"]
    index.close()


def test_rpm_sync_with_arch_substitution_and_304_on_repomd(
    repo_server: RepoServer, tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rpm_repo(repo_server.root / "azl" / "x86_64", kind="zst")
    config = rpm_config(tmp_path, repo_server.url)
    args = ("--repo-config", str(config), "--dist", "azl3", "--data-dir", str(data_dir))
    code, payload = sync_json(capsys, *args)
    assert code == 0
    (result,) = payload["results"]
    assert (result["status"], result["packages"]) == ("updated", 9)
    assert result["location"] == f"{repo_server.url}/azl/x86_64"
    repo_server.log.clear()
    code, payload = sync_json(capsys, *args)
    assert payload["results"][0]["status"] == "unchanged"
    assert [p for p, _ in repo_server.log] == ["/azl/x86_64/repodata/repomd.xml"]
    index = PackageIndex.for_data_dir(data_dir)
    assert index.view("azl3", "x86_64").providers("docker") == ["moby-engine"]
    index.close()


def test_server_errors_are_retried_with_backoff(repo_server: RepoServer, data_dir: Path) -> None:
    write_deb_mirror(repo_server.root / "elxr", components={"main": deb_packages()})
    repo_server.fail("Packages.xz", 500, 503)
    delays: list[float] = []
    fetcher = Fetcher(retries=3, backoff=0.01, sleep=delays.append)
    index = PackageIndex.for_data_dir(data_dir)
    repo = RemoteRepo("deb", "aria", f"{repo_server.url}/elxr", "aria", ("main",), gpg_check=False)
    (result,) = sync_repo(index, repo, ELXR, fetcher=fetcher)
    assert (result.status, result.packages) == ("updated", 21)
    assert delays == [0.01, 0.02]  # doubling backoff between three attempts
    assert len(repo_server.requests("Packages.xz")) == 3
    index.close()


def test_client_errors_are_not_retried(repo_server: RepoServer) -> None:
    repo_server.fail("repomd.xml", 403)
    delays: list[float] = []
    with pytest.raises(FetchError, match="HTTP 403"):
        Fetcher(retries=3, backoff=0.01, sleep=delays.append).fetch(
            f"{repo_server.url}/repodata/repomd.xml"
        )
    assert delays == [] and len(repo_server.log) == 1


def test_a_failing_repository_keeps_the_previous_cache_and_says_so(
    repo_server: RepoServer, tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_deb_mirror(repo_server.root / "elxr", components={"main": deb_packages()})
    config = deb_config(tmp_path, repo_server.url, components="main")
    base = ("--repo-config", str(config), "--data-dir", str(data_dir), "--backoff", "0.001")
    assert sync_json(capsys, *base)[0] == 0
    repo_server.fail("Packages.xz", *[500] * 3)
    code = cli("sync", *base, "--retries", "2")
    captured = capsys.readouterr()
    assert code == 3  # a server that keeps failing is retryable (DESIGN.md)
    assert len(repo_server.requests("Packages.xz")) == 1 + 3
    (line,) = captured.err.strip().splitlines()
    assert "1 of 1 index sources failed" in line
    assert "HTTP 500" in line and "kept the previous index (21 packages" in line
    assert "failed" in captured.out  # the table still shows every source
    index = PackageIndex.for_data_dir(data_dir)
    assert index.view("elxr12", "x86_64").exact("openssh-server")  # the cache survived
    index.close()


def test_an_unreachable_repository_keeps_the_cache(
    repo_server: RepoServer, tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_deb_mirror(repo_server.root / "elxr", components={"main": deb_packages()})
    config = deb_config(tmp_path, repo_server.url, components="main")
    assert sync_json(capsys, "--repo-config", str(config), "--data-dir", str(data_dir))[0] == 0
    # point the recorded source at a port where nothing listens
    dead = deb_config(tmp_path, "http://127.0.0.1:9", components="main")
    code = cli(
        "sync",
        "--repo-config",
        str(dead),
        "--data-dir",
        str(data_dir),
        "--json",
        "--retries",
        "1",
        "--backoff",
        "0.001",
        "--timeout",
        "5",
    )
    captured = capsys.readouterr()
    assert code == 3  # unreachable: retryable (DESIGN.md)
    payload = json.loads(captured.out)
    (result,) = payload["results"]
    assert payload["ok"] is False and result["status"] == "failed"
    assert "unreachable" in result["message"] and "no previous index" in result["message"]
    assert "index sources failed" in captured.err and "Traceback" not in captured.err
    index = PackageIndex.for_data_dir(data_dir)
    assert index.view("elxr12", "x86_64").exact("cloud-init")  # the earlier source is intact
    index.close()


def test_template_repositories_sync_and_then_count(
    repo_server: RepoServer, tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_deb_mirror(repo_server.root / "elxr", components={"main": deb_packages()})
    docker = (
        "Package: docker-ce\nVersion: 5:27.1.1-1\nArchitecture: amd64\n\n"
        "Package: containerd.io\nVersion: 1.7.19-1\nArchitecture: amd64\n"
    )
    write_deb_mirror(
        repo_server.root / "docker", suite="bookworm", components={"stable": docker.encode()}
    )
    assert (
        sync_json(
            capsys,
            "--repo-config",
            str(deb_config(tmp_path, repo_server.url, "main")),
            "--data-dir",
            str(data_dir),
        )[0]
        == 0
    )
    template = tmp_path / "docker.yml"
    template.write_text(
        "image: {name: t, version: '1'}\n"
        "target: {os: wind-river-elxr, dist: elxr12, arch: x86_64, imageType: raw}\n"
        "systemConfig: {name: t, packages: [openssh-server, docker-ce, containerd.io]}\n"
        "packageRepositories:\n"
        f"  - {{codename: bookworm, url: '{repo_server.url}/docker', component: stable,\n"
        "      pkey: '[trusted=yes]', allowPackages: [docker-ce]}\n",
        encoding="utf-8",
    )
    check = ("check", str(template), "--data-dir", str(data_dir), "--json")
    assert cli(*check) == 1
    (before,) = json.loads(capsys.readouterr().out)["templates"]
    assert before["unverified"] == ["docker-ce"]  # the docker repo may supply it; not indexed
    assert before["missing"] == ["containerd.io"]  # allowPackages rules it out of that repo
    code, payload = sync_json(capsys, "--template", str(template), "--data-dir", str(data_dir))
    assert code == 0 and payload["results"][0]["packages"] == 2
    assert cli(*check) == 1
    (after,) = json.loads(capsys.readouterr().out)["templates"]
    assert after["found"] == ["openssh-server", "docker-ce"]
    assert after["missing"] == ["containerd.io"] and after["unverified"] == []


def test_concurrent_cli_processes_never_see_a_locked_database(
    repo_server: RepoServer, tmp_path: Path, data_dir: Path
) -> None:
    write_deb_mirror(repo_server.root / "elxr", components={"main": deb_packages()})
    big = "".join(
        f"Package: generated-{i}\nVersion: 1\nArchitecture: amd64\n\n" for i in range(20000)
    )
    dump = tmp_path / "big.Packages"
    dump.write_text(big, encoding="utf-8")
    template = tmp_path / "t.yml"
    template.write_text(
        "image: {name: t, version: '1'}\n"
        "target: {os: debian, dist: debian13, arch: x86_64, imageType: raw}\n"
        "systemConfig: {name: t, packages: [generated-1]}\n",
        encoding="utf-8",
    )
    common = ["--data-dir", str(data_dir)]
    commands = [
        ["packages", "sync", "--index", str(dump), "--dist", "debian13", *common],
        ["packages", "sync", "--index", str(dump), "--dist", "elxr12", *common],
        [
            "packages",
            "sync",
            "--repo-config",
            str(deb_config(tmp_path, repo_server.url, "main")),
            *common,
        ],
        ["packages", "check", str(template), *common],
    ]
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "oic_ai", *command],
            cwd=PROJECT,
            env=cli_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in commands
    ]
    outcomes = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in processes]
    for process in processes:
        for stream in (process.stdout, process.stderr):
            if stream:
                stream.close()
    for code, err in outcomes[:3]:
        assert code == 0, err
        assert "locked" not in err
    # the check ran before or after the import: either way it never errored
    assert outcomes[3][0] in (0, 1) and "locked" not in outcomes[3][1]
    index = PackageIndex.for_data_dir(data_dir)
    assert {(row.dist, row.packages) for row in index.sources()} == {
        ("debian13", 20000),
        ("elxr12", 20000),
        ("elxr12", 21),
    }
    index.close()


# --- the composer's own providerconfigs (read in place, never fetched) ---------------

OSV = REFERENCE / "config" / "osv"


@pytest.fixture
def osv() -> Path:
    if not OSV.is_dir():
        pytest.skip(f"reference configs not found at {OSV}")
    return OSV


def test_upstream_deb_providerconfig_is_understood(osv: Path) -> None:
    repos = repos_from_providerconfig(
        osv / "ubuntu" / "ubuntu24" / "providerconfigs" / "amd64_repo.yml"
    )
    assert [r.suite for r in repos] == ["noble", "noble-security", "noble-updates"]
    assert all(r.kind == "deb" for r in repos)
    assert repos[0].components == ("main", "restricted", "universe", "multiverse")
    sources = repos[0].index_sources("x86_64")
    assert len(sources) == 4
    assert sources[0][1].endswith("/dists/noble/main/binary-amd64/Packages")


def test_upstream_rpm_providerconfig_substitutes_the_arch(osv: Path) -> None:
    (repo,) = repos_from_providerconfig(
        osv / "azure-linux" / "azl3" / "providerconfigs" / "aarch64_repo.yml"
    )
    assert repo.kind == "rpm" and "{arch}" in repo.base_url
    ((info, url),) = repo.index_sources("aarch64")
    assert url.endswith("/aarch64") and "{arch}" not in url and info.kind == "rpm"


@pytest.mark.parametrize(
    ("dist", "arch", "expected_file"),
    [
        ("elxr12", "x86_64", "amd64_repo.yml"),
        ("elxr12", "aarch64", "arm64_repo.yml"),
        ("azl3", "aarch64", "aarch64_repo.yml"),
        ("el10", "aarch64", "aarch64_64_repo.yml"),
        ("emt3", "aarch64", "repo.yml"),  # no aarch64 file: the generic one
    ],
)
def test_find_providerconfigs_in_the_composer_tree(
    osv: Path, dist: str, arch: str, expected_file: str
) -> None:
    (pick,) = find_providerconfigs(osv, None, dist, arch)
    assert (pick.path.name, pick.dist, pick.arch) == (expected_file, dist, arch)
    assert pick.path.parent.parent.name == dist


def test_a_providerconfig_file_alone_gives_its_target(osv: Path) -> None:
    (pick,) = find_providerconfigs(
        osv / "wind-river-elxr" / "elxr12" / "providerconfigs" / "arm64_repo.yml", None, None, None
    )
    assert (pick.os, pick.dist, pick.arch) == ("wind-river-elxr", "elxr12", "aarch64")
    with pytest.raises(Exception, match="no providerconfigs for debian13"):
        find_providerconfigs(osv, None, "debian13", None)  # debian13 ships none upstream
