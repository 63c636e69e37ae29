"""Package index formats and the SQLite cache, on small fixture indexes."""

from __future__ import annotations

import io
import sqlite3
import sys
import threading
from pathlib import Path

import pytest

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.package_formats import (
    IndexFormatError,
    PackageRecord,
    compression_of,
    decompress,
    parse_deb_packages,
    parse_rpm_primary,
    primary_location,
)
from oic_ai.stores.package_index import (
    PackageIndex,
    RepoFilter,
    SourceInfo,
    is_glob,
    repo_key,
)
from oic_ai.stores.package_sources import import_local, local_index_files, records_from_file
from tests.stores.package_repos import (
    compress,
    deb_packages,
    rpm_primary,
    write_deb_mirror,
    write_rpm_repo,
)

COMPRESSIONS = ["", "gz", "xz", "zst", "bz2"]


def source(location: str = "fixture", scope: str = "base", key: str | None = None) -> SourceInfo:
    return SourceInfo(
        kind="deb",
        repo=location,
        repo_key=key or repo_key(location),
        location=location,
        scope=scope,
    )


def records(*names: str, provides: dict[str, tuple[str, ...]] | None = None) -> list[PackageRecord]:
    provides = provides or {}
    return [PackageRecord(name, "1.0-1", "amd64", provides.get(name, ())) for name in names]


@pytest.fixture
def index(tmp_path: Path) -> PackageIndex:
    idx = PackageIndex(tmp_path / "data" / "packages.sqlite")
    yield idx
    idx.close()


@pytest.fixture
def deb_index(index: PackageIndex) -> PackageIndex:
    index.replace_source(
        os="wind-river-elxr",
        dist="elxr12",
        arch="x86_64",
        source=source(),
        records=parse_deb_packages(deb_packages()),
    )
    return index


# --- formats ---------------------------------------------------------------------


def test_deb_parser_reads_name_version_arch_and_provides() -> None:
    parsed = {r.name: r for r in parse_deb_packages(deb_packages())}
    assert len(parsed) == 21
    ssh = parsed["openssh-server"]
    assert (ssh.version, ssh.arch, ssh.provides) == ("1:9.2p1-2+deb12u3", "amd64", ("ssh-server",))
    # versions and extra spaces are stripped from Provides
    assert parsed["nginx-core"].provides == ("httpd", "httpd-cgi", "nginx-abi-1.22.1-7")
    assert parsed["docker.io"].provides == ("docker-engine",)
    # a continuation line that looks like a field is not a package
    assert "this-is-a-continuation-line-not-a-package" not in parsed
    # the last stanza has no blank line after it
    assert parsed["containerd"].version == "1.6.20~ds1-1+b1"


def test_deb_provides_drop_arch_qualifiers() -> None:
    text = b"Package: a\nVersion: 1\nArchitecture: all\nProvides: b:any (= 1), c\n"
    (record,) = parse_deb_packages(text)
    assert record.provides == ("b", "c")


@pytest.mark.parametrize("kind", COMPRESSIONS)
def test_every_compression_gives_the_same_packages(kind: str) -> None:
    plain = list(parse_deb_packages(deb_packages()))
    packed = compress(deb_packages(), kind)
    assert compression_of(packed) == {"": "none", "gz": "gzip", "bz2": "bzip2", "zst": "zstd"}.get(
        kind, kind
    )
    assert list(parse_deb_packages(packed)) == plain
    assert list(parse_rpm_primary(compress(rpm_primary(), kind))) == list(
        parse_rpm_primary(rpm_primary())
    )


def test_not_a_packages_file_is_a_user_error() -> None:
    with pytest.raises(IndexFormatError, match="not a Debian Packages index"):
        list(parse_deb_packages(b"hello world\n" * 10, "notes.txt"))


def test_a_damaged_archive_is_a_user_error_naming_the_file() -> None:
    damaged = compress(deb_packages(), "gz")[:200]
    with pytest.raises(IndexFormatError, match="Packages.gz is a damaged gzip file"):
        decompress(damaged, "Packages.gz")


def test_zstd_without_the_module_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    packed = compress(rpm_primary(), "zst")
    monkeypatch.setitem(sys.modules, "zstandard", None)
    with pytest.raises(IndexFormatError, match="zstandard module is not installed.*unzstd"):
        decompress(packed, "primary.xml.zst")


def test_rpm_parser_reads_epoch_release_and_usable_provides() -> None:
    parsed = {r.name: r for r in parse_rpm_primary(rpm_primary())}
    assert len(parsed) == 9
    assert parsed["nginx"].version == "1:1.25.4-4.azl3"
    assert parsed["openssh-server"].version == "9.8p1-3.azl3"
    # file paths, "name(arch)", "config(...)" and soname provides are dropped
    assert parsed["openssh-server"].provides == ("sshd",)
    assert parsed["python3"].provides == ()
    assert parsed["glibc"].provides == ("glibc-common",)
    assert parsed["moby-engine"].provides == ("docker",)
    assert parsed["ca-certificates"].arch == "noarch"


def test_repomd_names_the_primary_file(tmp_path: Path) -> None:
    write_rpm_repo(tmp_path, kind="zst")
    href = primary_location((tmp_path / "repodata" / "repomd.xml").read_bytes())
    assert href.startswith("repodata/") and href.endswith("-primary.xml.zst")
    with pytest.raises(IndexFormatError, match="not valid XML"):
        primary_location(b"<repomd", "repomd.xml")
    with pytest.raises(IndexFormatError, match="does not name a primary"):
        primary_location(b'<repomd xmlns="http://linux.duke.edu/metadata/repo"/>')


def test_broken_primary_xml_is_a_user_error() -> None:
    with pytest.raises(IndexFormatError, match="not valid XML"):
        list(parse_rpm_primary(rpm_primary()[:-40], "primary.xml"))
    with pytest.raises(IndexFormatError, match="not RPM primary metadata"):
        list(parse_rpm_primary(b"<html></html>", "index.html"))


# --- the cache -------------------------------------------------------------------


def test_constructing_an_index_touches_nothing(tmp_path: Path) -> None:
    idx = PackageIndex(tmp_path / "nowhere" / "packages.sqlite")
    assert idx.sources() == []
    assert idx.view("elxr12", "x86_64").has_index is False
    assert not (tmp_path / "nowhere").exists()


def test_database_uses_wal_and_a_busy_timeout(deb_index: PackageIndex) -> None:
    db = deb_index._connect()
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] >= 30_000


def test_exact_glob_and_provides_lookups(deb_index: PackageIndex) -> None:
    view = deb_index.view("elxr12", "x86_64")
    assert view.has_index and view.package_count == 21
    (hit,) = view.exact("openssh-server")
    assert (hit.name, hit.version, hit.repo) == ("openssh-server", "1:9.2p1-2+deb12u3", "fixture")
    assert view.exact("docker-ce") == []
    assert view.glob("python3-*") == ["python3-requests", "python3-yaml"]
    assert view.glob("libva-?[0-9]") == []
    assert view.glob("libva-*[0-9]") == ["libva-drm2", "libva-x11-2"]
    assert view.glob("libva[0-9]") == ["libva2"]
    assert view.glob("*exporter") == ["prometheus-node-exporter"]
    assert view.glob("python3-*", limit=1) == ["python3-requests"]
    assert view.providers("httpd") == ["apache2", "nginx-core"]
    assert view.providers("qemu-kvm") == ["qemu-system-x86"]
    assert view.providers("nothing") == []
    assert "cloud-init" in view.names() and len(view.names()) == 21


def test_arch_aliases_and_other_targets_are_separate(deb_index: PackageIndex) -> None:
    assert deb_index.view("elxr12", "amd64").exact("python3")
    assert not deb_index.view("elxr12", "aarch64").has_index
    assert not deb_index.view("debian13", "x86_64").has_index


def test_reimport_replaces_the_rows_of_that_source_only(index: PackageIndex) -> None:
    target = {"os": "ubuntu", "dist": "ubuntu24", "arch": "x86_64"}
    index.replace_source(**target, source=source("main"), records=records("a", "b"))
    index.replace_source(**target, source=source("universe"), records=records("c"))
    view = index.view("ubuntu24", "x86_64")
    assert view.names() == ("a", "b", "c")
    index.replace_source(**target, source=source("main"), records=records("b", "d"))
    view = index.view("ubuntu24", "x86_64")
    assert view.names() == ("b", "c", "d")
    assert {row.repo: row.packages for row in index.sources("ubuntu24")} == {
        "main": 2,
        "universe": 1,
    }


def test_a_failed_import_keeps_the_previous_rows(index: PackageIndex) -> None:
    target = {"os": "ubuntu", "dist": "ubuntu24", "arch": "x86_64"}
    index.replace_source(**target, source=source(), records=records("a", "b"))

    def broken():  # parsing dies half way
        yield PackageRecord("x", "1", "amd64")
        raise IndexFormatError("Packages is truncated")

    with pytest.raises(IndexFormatError):
        index.replace_source(**target, source=source(), records=broken())
    # a failure inside the transaction (a NULL name) rolls back the delete too
    with pytest.raises(sqlite3.IntegrityError):
        index.replace_source(
            **target,
            source=source(),
            records=[PackageRecord("y", "1", "amd64"), PackageRecord(None, "1", "amd64")],  # type: ignore[arg-type]
        )
    assert index.view("ubuntu24", "x86_64").names() == ("a", "b")
    assert index.sources()[0].packages == 2


def test_names_cache_notices_an_import_by_another_process(tmp_path: Path) -> None:
    path = tmp_path / "packages.sqlite"
    reader, writer = PackageIndex(path), PackageIndex(path)
    target = {"os": "debian", "dist": "debian13", "arch": "x86_64"}
    writer.replace_source(**target, source=source(), records=records("a"))
    assert reader.view("debian13", "x86_64").names() == ("a",)
    writer.replace_source(**target, source=source(), records=records("a", "z"))
    assert reader.view("debian13", "x86_64").names() == ("a", "z")
    reader.close()
    writer.close()


def test_extra_repositories_count_only_when_asked_and_honour_allow_packages(
    index: PackageIndex,
) -> None:
    target = {"os": "ubuntu", "dist": "ubuntu24", "arch": "x86_64"}
    index.replace_source(**target, source=source("base"), records=records("curl"))
    key = repo_key("https://download.example.test/linux/ubuntu", "noble")
    index.replace_source(
        **target,
        source=source("docker", scope="extra", key=key),
        records=records("docker-ce", "docker-ce-cli", "containerd.io", "curl-extra"),
    )
    plain = index.view("ubuntu24", "x86_64")
    assert plain.exact("docker-ce") == [] and plain.names() == ("curl",)
    everything = index.view("ubuntu24", "x86_64", [RepoFilter(key)])
    assert everything.exact("docker-ce") and "curl-extra" in everything.names()
    pinned = index.view("ubuntu24", "x86_64", [RepoFilter(key, ("docker-ce*",))])
    assert pinned.exact("docker-ce") and pinned.exact("docker-ce-cli")
    assert pinned.exact("containerd.io") == []
    assert pinned.glob("*") == ["curl", "docker-ce", "docker-ce-cli"]
    assert pinned.names() == ("curl", "docker-ce", "docker-ce-cli")


def test_concurrent_imports_and_reads_never_fail_with_database_locked(tmp_path: Path) -> None:
    path = tmp_path / "packages.sqlite"
    errors: list[BaseException] = []
    many = [f"pkg-{i}" for i in range(3000)]

    def write(n: int) -> None:
        idx = PackageIndex(path)
        try:
            for round_ in range(3):
                idx.replace_source(
                    os="ubuntu",
                    dist="ubuntu24",
                    arch="x86_64",
                    source=source(f"repo-{n}"),
                    records=records(*many[: 1000 + 500 * round_]),
                )
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)
        finally:
            idx.close()

    def read() -> None:
        idx = PackageIndex(path)
        try:
            for _ in range(50):
                view = idx.view("ubuntu24", "x86_64")
                view.exact("pkg-1")
                view.glob("pkg-1*")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            idx.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    threads += [threading.Thread(target=read) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    final = PackageIndex(path)
    assert sorted(row.packages for row in final.sources()) == [2000] * 4
    final.close()


def test_a_corrupt_database_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "packages.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(UserInputError, match="cannot open the package index.*delete the file"):
        PackageIndex(path).sources()


def test_is_glob() -> None:
    assert is_glob("python3-*") and is_glob("libva-?") and is_glob("lib[0-9]")
    assert not is_glob("nginx-core") and not is_glob("g++")


# --- local files and folders -------------------------------------------------------


@pytest.mark.parametrize("kind", ["", "gz", "xz", "zst"])
def test_import_a_local_packages_file(index: PackageIndex, tmp_path: Path, kind: str) -> None:
    file = tmp_path / ("Packages" + (f".{kind}" if kind else ""))
    file.write_bytes(compress(deb_packages(), kind))
    (result,) = import_local(index, file, os="wind-river-elxr", dist="elxr12", arch="x86_64")
    assert (result.status, result.packages, result.repo) == ("imported", 21, file.name)
    assert index.view("elxr12", "x86_64").exact("cloud-init")


def test_import_a_debian_mirror_folder_picks_the_arch(index: PackageIndex, tmp_path: Path) -> None:
    arm = b"Package: only-on-arm\nVersion: 1\nArchitecture: arm64\n"
    write_deb_mirror(tmp_path, components={"main": deb_packages()}, arch="amd64")
    write_deb_mirror(tmp_path, components={"main": arm}, arch="arm64", kind="gz")
    write_deb_mirror(tmp_path, components={"contrib": b"Package: x\nVersion: 1\n"}, kind="")
    results = import_local(index, tmp_path, os="debian", dist="debian13", arch="x86_64")
    assert sorted(r.packages for r in results) == [1, 21]
    assert index.view("debian13", "x86_64").exact("x")
    assert not index.view("debian13", "x86_64").exact("only-on-arm")
    (arm_result,) = import_local(index, tmp_path, os="debian", dist="debian13", arch="aarch64")
    assert arm_result.packages == 1


@pytest.mark.parametrize("kind", ["gz", "zst", "xz"])
def test_import_an_rpm_repository_folder_or_its_repomd(
    index: PackageIndex, tmp_path: Path, kind: str
) -> None:
    write_rpm_repo(tmp_path, kind=kind)
    (result,) = import_local(index, tmp_path, os="azure-linux", dist="azl3", arch="x86_64")
    assert result.packages == 9
    assert local_index_files(tmp_path, "x86_64") == [tmp_path / "repodata" / "repomd.xml"]
    kind_name, parsed = records_from_file(tmp_path / "repodata" / "repomd.xml")
    assert kind_name == "rpm" and len(parsed) == 9
    view = index.view("azl3", "x86_64")
    assert view.providers("docker") == ["moby-engine"]


def test_import_from_stdin(index: PackageIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(compress(deb_packages(), "xz"))))
    (result,) = import_local(index, Path("-"), os="debian", dist="debian13", arch="x86_64")
    assert (result.location, result.packages) == ("stdin", 21)


def test_import_errors_are_one_line_user_errors(index: PackageIndex, tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match="does not exist; check the --index path"):
        import_local(index, tmp_path / "missing", os="debian", dist="debian13", arch="x86_64")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserInputError, match="holds no package index for x86_64"):
        import_local(index, tmp_path / "empty", os="debian", dist="debian13", arch="x86_64")
    primary = tmp_path / "primary.xml"
    primary.write_bytes(rpm_primary())
    with pytest.raises(UserInputError, match="is a rpm index but debian13 uses deb packages"):
        import_local(index, primary, os="debian", dist="debian13", arch="x86_64")
    blank = tmp_path / "blank"
    blank.write_bytes(b"\n\n")
    with pytest.raises(UserInputError, match="is empty"):
        import_local(index, blank, os="debian", dist="debian13", arch="x86_64")
    assert index.sources() == []


def test_one_index_serves_many_threads_at_once(deb_index: PackageIndex) -> None:
    errors: list[BaseException] = []
    found: list[int] = []

    def work() -> None:
        try:
            for _ in range(100):
                view = deb_index.view("elxr12", "x86_64")
                found.append(len(view.exact("python3")) + len(view.glob("libva*")))
                view.providers("httpd")
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert set(found) == {4}
