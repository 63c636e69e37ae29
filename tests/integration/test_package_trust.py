"""``packages sync`` verifies what apt and dnf verify, against real signed repositories.

A throwaway key (and a second, unrelated one) signs Debian mirrors and RPM repositories
that a loopback HTTP server serves. Each refusal exits 2 with one line naming the file
and what failed, and leaves the previous index exactly as it was.
"""

from __future__ import annotations

import gzip
import json
import lzma
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from oic_ai.cli.main import main
from oic_ai.stores.package_index import PackageIndex
from tests.stores.package_repos import deb_packages, elxr_providerconfig, rpm_primary
from tests.stores.signed_repos import Signer, sign_deb_mirror, sign_rpm_repo
from tests.support.cli import cli_env, oic, one_line_error
from tests.support.loopback import StaticServer, serve_folder

pytestmark = pytest.mark.integration

EXTRA = "Package: slipped-in\nVersion: 6.6.6\nArchitecture: amd64\n"
LEGIT = "Package: new-upstream\nVersion: 1.0\nArchitecture: amd64\n"
RPM_LEGIT = (
    '<package type="rpm"><name>new-upstream</name><arch>x86_64</arch>'
    '<version epoch="0" ver="1.0" rel="1"/></package>'
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[StaticServer]:
    yield from serve_folder(StaticServer, tmp_path)


def deb_config(tmp_path: Path, url: str, key: str | None, extra: str = "") -> Path:
    """An elxr12 providerconfig in the composer's layout, pointing at the loopback mirror."""
    key_line = f'    pbGPGKey: "{key}"\n' if key else ""
    settings = (
        f'    releaseSign: "{url}/elxr/dists/aria/Release.gpg"\n'
        f"{key_line}"
        "    gpgCheck: true\n"
        "    repoGPGCheck: true\n"
        "    enabled: true\n"
        '    component: "main"\n'
    )
    return elxr_providerconfig(tmp_path / "osv", url, settings, extra)


def rpm_config(tmp_path: Path, url: str, key: str) -> Path:
    """An azl3 providerconfig with ``key`` (upstream's is relative to its https URL)."""
    folder = tmp_path / "osv" / "azure-linux" / "azl3" / "providerconfigs"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "x86_64_repo.yml"
    path.write_text(
        'name: "Loopback Azure Linux"\n'
        'type: "rpm"\n'
        f'baseURL: "{url}/azl/{{arch}}"\n'
        "gpgCheck: true\n"
        "repoGPGCheck: true\n"
        "enabled: true\n"
        f'gpgKey: "{key}"\n',
        encoding="utf-8",
    )
    return path


def key_file(tmp_path: Path, signer: Signer) -> str:
    """The signer's public key in a local file (a key is a local file or an https URL)."""
    path = tmp_path / f"key-{signer.fingerprint[-16:]}.asc"
    path.write_bytes(signer.public_key())
    return str(path)


def snapshot(data_dir: Path, dist: str) -> list[tuple[object, ...]]:
    """Everything stored for a dist: each source's state and its package names."""
    index = PackageIndex.for_data_dir(data_dir)
    try:
        rows = index.sources(dist)
        view = index.view(dist, "x86_64")
        names = view.names()
        return [
            (row.location, row.url, row.packages, row.imported_at, json.dumps(dict(row.spec)))
            for row in rows
        ] + [("names", names)]
    finally:
        index.close()


@dataclass
class Rig:
    """One test's loopback server, data folder and captured output, and its keys on demand."""

    server: StaticServer
    tmp_path: Path
    data_dir: Path
    capsys: pytest.CaptureFixture[str]
    request: pytest.FixtureRequest

    @property
    def signer(self) -> Signer:
        """The repositories' key (module-scoped; only a test that signs asks for it)."""
        key: Signer = self.request.getfixturevalue("signer")
        return key

    @property
    def stranger(self) -> Signer:
        """The unrelated key (module-scoped; made only for the tests that use it)."""
        key: Signer = self.request.getfixturevalue("stranger")
        return key

    @property
    def elxr(self) -> Path:
        """Where the Debian mirror is served from."""
        return self.server.root / "elxr"

    @property
    def azl(self) -> Path:
        """Where the RPM repository is served from."""
        return self.server.root / "azl" / "x86_64"

    def key_file(self) -> str:
        """The signer's public key in a local file."""
        return key_file(self.tmp_path, self.signer)

    def deb_args(self, key: str | None) -> tuple[str, ...]:
        """``--repo-config`` for the elxr12 mirror with ``key``, and ``--data-dir``."""
        config = deb_config(self.tmp_path, self.server.url, key)
        return ("--repo-config", str(config), "--data-dir", str(self.data_dir))

    def rpm_args(self, key: str) -> tuple[str, ...]:
        """``--repo-config`` for the azl3 repository with ``key``, and ``--data-dir``."""
        config = rpm_config(self.tmp_path, self.server.url, key)
        return ("--repo-config", str(config), "--data-dir", str(self.data_dir))

    def sync(self, *args: str) -> tuple[int, str, str]:
        """Run ``packages sync`` in-process: its exit code, stdout and stderr."""
        code = main(["packages", "sync", *args])
        captured = self.capsys.readouterr()
        return code, captured.out, captured.err

    def refused(self, *args: str) -> str:
        """Sync, expecting exit 2 and one line on stderr; return that line."""
        code, _, err = self.sync(*args)
        assert code == 2, err
        (line,) = err.strip().splitlines()
        return line

    def refused_after(self, args: tuple[str, ...], dist: str, change: Callable[[], None]) -> str:
        """Sync, ``change`` upstream, sync again: refused, ``dist`` kept as it was; the line."""
        assert self.sync(*args)[0] == 0
        before = self.snapshot(dist)
        change()
        line = self.refused(*args)
        assert self.snapshot(dist) == before
        return line

    def snapshot(self, dist: str) -> list[tuple[object, ...]]:
        """Everything stored for ``dist``."""
        return snapshot(self.data_dir, dist)

    def status_json(self) -> list[dict[str, object]]:
        """``packages status --json``'s sources."""
        status = ["packages", "status", "--data-dir", str(self.data_dir), "--json"]
        assert main(status) == 0
        sources: list[dict[str, object]] = json.loads(self.capsys.readouterr().out)["sources"]
        return sources


@pytest.fixture
def rig(
    server: StaticServer,
    tmp_path: Path,
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> Rig:
    return Rig(server, tmp_path, data_dir, capsys, request)


# --- Debian ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key_form", "style"),
    [("file-armored", "inrelease"), ("file-binary", "detached"), ("file-url", "both")],
)
def test_a_signed_debian_repository_syncs_verified(rig: Rig, key_form: str, style: str) -> None:
    signer = rig.signer
    sign_deb_mirror(rig.elxr, signer, style=style)
    local = rig.tmp_path / "keyring.gpg"
    local.write_bytes(signer.public_key(armored=key_form != "file-binary"))
    args = rig.deb_args(f"file://{local}" if key_form == "file-url" else str(local))
    code, out, err = rig.sync(*args, "--json")
    assert code == 0, err
    (result,) = json.loads(out)["results"]
    assert (result["status"], result["packages"], result["verified"]) == ("updated", 21, True)
    assert result["warning"] == "" and err == ""
    (source,) = rig.status_json()
    assert source["verified"] is True
    assert signer.fingerprint.endswith(str(source["trust_note"]).split()[-1])

    # unchanged upstream: the signed Release lists the same file, so it is not downloaded
    rig.server.log.clear()
    code, out, _ = rig.sync(*args, "--json")
    assert code == 0 and json.loads(out)["results"][0]["status"] == "unchanged"
    assert not [path for path in rig.server.log if "/binary-amd64/" in path]
    assert any(path.endswith(("InRelease", "Release")) for path in rig.server.log)


def _tamper_index(root: Path, signer: Signer, rig: Rig) -> None:
    # upstream publishes a new signed Release; the index served is not the one it lists
    sign_deb_mirror(root, signer, components={"main": deb_packages(LEGIT)})
    packages = root / "dists/aria/main/binary-amd64/Packages.xz"
    packages.write_bytes(lzma.compress(deb_packages(EXTRA)))


def _tamper_release(root: Path, signer: Signer, rig: Rig) -> None:
    in_release = root / "dists/aria/InRelease"
    text = in_release.read_bytes()
    in_release.write_bytes(text.replace(b"Suite: aria", b"Suite: evil", 1))


def _tamper_detached_release(root: Path, signer: Signer, rig: Rig) -> None:
    sign_deb_mirror(root, signer, style="detached")
    release = root / "dists/aria/Release"
    release.write_bytes(release.read_bytes().replace(b"Origin: oic-ai tests", b"Origin: evil"))


def _other_key(root: Path, signer: Signer, rig: Rig) -> None:
    sign_deb_mirror(root, rig.stranger, components={"main": deb_packages(EXTRA)})


def _expired(root: Path, signer: Signer, rig: Rig) -> None:
    # a properly signed, but stale, Release (what a replaying mirror serves)
    past = "Sat, 01 Jan 2000 00:00:00 UTC"
    sign_deb_mirror(root, signer, components={"main": deb_packages(EXTRA)}, valid_until=past)


def _no_signature(root: Path, signer: Signer, rig: Rig) -> None:
    sign_deb_mirror(root, None, components={"main": deb_packages(EXTRA)})


def test_a_changed_index_with_the_same_size_fails_on_its_sha256(rig: Rig) -> None:
    root = sign_deb_mirror(rig.elxr, rig.signer, kind="")
    args = rig.deb_args(rig.key_file())

    def same_size_change() -> None:
        sign_deb_mirror(root, rig.signer, components={"main": deb_packages(LEGIT)}, kind="")
        plain = root / "dists/aria/main/binary-amd64/Packages"
        text = plain.read_bytes()
        plain.write_bytes(text.replace(b"openssh-server", b"openssh-sErver", 1))

    line = rig.refused_after(args, "elxr12", same_size_change)
    assert "binary-amd64/Packages: SHA256 mismatch" in line


def test_signature_checking_without_a_key_is_refused(rig: Rig) -> None:
    sign_deb_mirror(rig.elxr, rig.signer)
    line = rig.refused(*rig.deb_args(None))
    assert "no key is configured" in line and "pbGPGKey" in line


# --- skipping verification --------------------------------------------------------------


@pytest.mark.parametrize("how", ["--insecure", "gpgCheck: false"])
def test_skipping_verification_warns_and_is_remembered(rig: Rig, how: str) -> None:
    sign_deb_mirror(rig.elxr, None)  # unsigned
    args = rig.deb_args(None)
    if how == "gpgCheck: false":
        config = Path(args[1])
        config.write_text(config.read_text().replace("gpgCheck: true", "gpgCheck: false"))
    flags = ["--insecure"] if how == "--insecure" else []
    code, out, err = rig.sync(*args, *flags)
    assert code == 0, err
    (warning,) = err.strip().splitlines()
    assert warning.startswith("warning: aria main (elxr12/x86_64): not verified:")
    assert ("--insecure was given" if flags else "gpgCheck: false in amd64_repo.yml") in warning
    assert "UNVERIFIED" in out
    (source,) = rig.status_json()
    assert source["verified"] is False and "not verified" in str(source["trust_note"])
    assert main(["packages", "status", "--data-dir", str(rig.data_dir)]) == 0
    shown = rig.capsys.readouterr().out
    assert "UNVERIFIED" in shown and "warning:" in shown


def test_a_missing_gpgv_is_one_line_with_the_fix(rig: Rig) -> None:
    sign_deb_mirror(rig.elxr, rig.signer)
    empty = rig.tmp_path / "bin"
    empty.mkdir()
    env = {**cli_env(rig.data_dir), "PATH": str(empty)}
    config = deb_config(rig.tmp_path, rig.server.url, rig.key_file())
    done = oic("packages", "sync", "--repo-config", str(config), env=env)
    line = one_line_error(done, 2)
    assert "gpgv is not installed" in line and "install Debian's gpgv" in line
    assert not rig.server.log  # nothing was fetched
    assert not (rig.data_dir / "packages.sqlite").exists() or not rig.snapshot("elxr12")[:-1]


def test_a_template_repository_with_a_file_key_is_verified(rig: Rig) -> None:
    docker = b"Package: docker-ce\nVersion: 5:27.1.1-1\nArchitecture: amd64\n"
    root = rig.server.root / "docker"
    sign_deb_mirror(root, rig.signer, suite="bookworm", components={"stable": docker})
    template = rig.tmp_path / "docker.yml"
    template.write_text(
        "image: {name: t, version: '1'}\n"
        "target: {os: wind-river-elxr, dist: elxr12, arch: x86_64, imageType: raw}\n"
        "systemConfig: {name: t, packages: [docker-ce=27.1.1]}\n"
        "packageRepositories:\n"
        f"  - {{codename: bookworm, url: '{rig.server.url}/docker', component: stable,\n"
        f"      pkey: 'file://{rig.key_file()}'}}\n",
        encoding="utf-8",
    )
    args = ("--template", str(template), "--data-dir", str(rig.data_dir))
    code, out, err = rig.sync(*args, "--json")
    assert code == 0, err
    (result,) = json.loads(out)["results"]
    assert result["verified"] is True and result["packages"] == 1


# --- RPM ------------------------------------------------------------------------------


def test_a_signed_rpm_repository_syncs_verified(rig: Rig) -> None:
    sign_rpm_repo(rig.azl, rig.signer, kind="zst")
    args = rig.rpm_args(rig.key_file())
    code, out, err = rig.sync(*args, "--json")
    assert code == 0, err
    (result,) = json.loads(out)["results"]
    assert (result["status"], result["packages"], result["verified"]) == ("updated", 9, True)
    rig.server.log.clear()
    code, out, _ = rig.sync(*args, "--json")
    assert json.loads(out)["results"][0]["status"] == "unchanged"
    assert not [path for path in rig.server.log if "primary" in path]


def _rpm_primary_changed(root: Path, signer: Signer | None, rig: Rig | None) -> None:
    # a new signed repomd.xml, but the primary served is not the one it lists
    sign_rpm_repo(root, signer, primary=rpm_primary(RPM_LEGIT))
    (primary,) = (root / "repodata").glob("*-primary.xml.gz")
    primary.write_bytes(gzip.compress(rpm_primary().replace(b"moby-engine", b"moby-evil!!")))


def _rpm_repomd_changed(root: Path, signer: Signer, rig: Rig) -> None:
    repomd = root / "repodata" / "repomd.xml"
    repomd.write_bytes(repomd.read_bytes().replace(b"<revision>1<", b"<revision>2<"))


def _rpm_other_key(root: Path, signer: Signer, rig: Rig) -> None:
    sign_rpm_repo(root, rig.stranger)
    (root / "repodata" / "repomd.xml.key").write_bytes(signer.public_key())


def _rpm_no_signature(root: Path, signer: Signer, rig: Rig) -> None:
    (root / "repodata" / "repomd.xml.asc").unlink()


# (the Debian mirror or the RPM repository, where it is served, its dist, its package count)
_KINDS: dict[str, tuple[Callable[..., Path], str, str, int]] = {
    "deb": (sign_deb_mirror, "elxr", "elxr12", 21),
    "rpm": (sign_rpm_repo, "azl/x86_64", "azl3", 9),
}


@pytest.mark.parametrize(
    ("kind", "tamper", "names", "what"),
    [
        ("deb", _tamper_index, "binary-amd64/Packages.xz:", "mismatch"),
        ("deb", _tamper_release, "dists/aria/InRelease", "bad signature"),
        ("deb", _tamper_detached_release, "dists/aria/Release", "bad signature"),
        ("deb", _other_key, "dists/aria/InRelease", "signed by an unknown key"),
        ("deb", _no_signature, "dists/aria/Release.gpg", "missing signature"),
        ("deb", _expired, "dists/aria/InRelease", "expired on Sat, 01 Jan 2000"),
        ("rpm", _rpm_primary_changed, "-primary.xml.gz:", "mismatch"),
        ("rpm", _rpm_repomd_changed, "repodata/repomd.xml:", "bad signature"),
        ("rpm", _rpm_other_key, "repodata/repomd.xml:", "signed by an unknown key"),
        ("rpm", _rpm_no_signature, "repodata/repomd.xml.asc:", "missing signature"),
    ],
    ids=[
        "deb-index-changed",
        "deb-inrelease-changed",
        "deb-release-changed",
        "deb-other-key",
        "deb-no-signature",
        "deb-expired",
        "rpm-primary-changed",
        "rpm-repomd-changed",
        "rpm-other-key",
        "rpm-no-signature",
    ],
)
def test_a_repository_that_fails_verification_is_refused_and_keeps_the_index(
    rig: Rig, kind: str, tamper: Callable[[Path, Signer, Rig], None], names: str, what: str
) -> None:
    sign, folder, dist, packages = _KINDS[kind]
    root = sign(rig.server.root / folder, rig.signer)
    key = rig.key_file()
    args = rig.deb_args(key) if kind == "deb" else rig.rpm_args(key)
    line = rig.refused_after(args, dist, lambda: tamper(root, rig.signer, rig))
    assert names in line and what in line, line
    assert f"kept the previous index ({packages} packages" in line and "Traceback" not in line
    assert "slipped-in" not in str(rig.snapshot(dist))


def test_rpm_with_repo_gpg_check_off_still_checks_primary(rig: Rig) -> None:
    root = sign_rpm_repo(rig.azl, None)
    args = rig.rpm_args("repodata/repomd.xml.key")  # never read
    config = Path(args[1])
    config.write_text(config.read_text().replace("repoGPGCheck: true", "repoGPGCheck: false"))
    code, _, err = rig.sync(*args)
    assert code == 0 and "repoGPGCheck: false" in err
    _rpm_primary_changed(root, None, None)
    code, _, err = rig.sync(*args)
    assert code == 2 and "mismatch" in err


def test_the_signing_home_is_private(signer: Signer) -> None:
    assert oct(os.stat(signer.home).st_mode & 0o777) == "0o700"


# --- what a verified sync pins (issue 20, items 6 and 7) ------------------------------


def _first_sync(rig: Rig) -> tuple[str, ...]:
    sign_deb_mirror(rig.elxr, rig.signer)
    args = rig.deb_args(rig.key_file())
    code, _, err = rig.sync(*args)
    assert code == 0, err
    return args


def test_a_signed_release_of_another_suite_is_refused(rig: Rig) -> None:
    # a valid signature by the right key, but a Release for sid served as aria
    sign_deb_mirror(rig.elxr, rig.signer, header={"Suite": "sid", "Codename": "sid"})
    args = rig.deb_args(rig.key_file())
    empty = rig.snapshot("elxr12")
    line = rig.refused(*args)
    assert "Suite: sid" in line and "not for the configured suite aria" in line, line
    assert rig.snapshot("elxr12") == empty
    # the codename alone may name it, as apt allows
    sign_deb_mirror(rig.elxr, rig.signer, header={"Suite": "stable", "Codename": "aria"})
    assert rig.sync(*args)[0] == 0


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ({"Origin": "Someone Else"}, "Origin 'oic-ai tests' -> 'Someone Else'"),
        ({"Label": "evil"}, "Label None -> 'evil'"),
        ({"Codename": "aria-old", "Suite": "aria"}, "Codename 'aria' -> 'aria-old'"),
        ({"Date": "Sun, 01 Jan 2023 12:00:00 UTC"}, "a replayed Release"),
    ],
    ids=["origin", "label", "codename", "older-date"],
)
def test_a_changed_or_older_release_is_refused_unless_accepted(
    rig: Rig, header: dict[str, str], words: str
) -> None:
    args = _first_sync(rig)
    before = rig.snapshot("elxr12")
    sign_deb_mirror(rig.elxr, rig.signer, components={"main": deb_packages(EXTRA)}, header=header)
    line = rig.refused(*args)
    assert words in line and "--accept-change" in line, line
    assert rig.snapshot("elxr12") == before
    code, _, err = rig.sync(*args, "--accept-change")
    assert code == 0, err
    assert rig.snapshot("elxr12") != before
    assert rig.sync(*args)[0] == 0  # the accepted values are the new pins


def test_a_newer_release_of_the_same_repository_is_fine(rig: Rig) -> None:
    args = _first_sync(rig)
    newer = {"Date": "Tue, 24 Nov 2026 12:00:00 UTC"}
    sign_deb_mirror(rig.elxr, rig.signer, components={"main": deb_packages(LEGIT)}, header=newer)
    code, _, err = rig.sync(*args)
    assert code == 0 and err == ""


def test_a_new_signing_key_is_refused_naming_both_fingerprints(rig: Rig) -> None:
    signer, stranger = rig.signer, rig.stranger
    args = _first_sync(rig)
    before = rig.snapshot("elxr12")
    # the key file and the mirror are swapped together
    Path(rig.key_file()).write_bytes(stranger.public_key())
    sign_deb_mirror(rig.elxr, stranger, components={"main": deb_packages(EXTRA)})
    line = rig.refused(*args)
    assert stranger.fingerprint in line and signer.fingerprint in line, line
    assert "oic-ai packages sync --accept-change" in line
    assert rig.snapshot("elxr12") == before
    assert rig.sync(*args, "--accept-change")[0] == 0
    assert rig.sync(*args)[0] == 0  # the new key is the pin now


def test_an_rpm_repository_pins_its_key_too(rig: Rig) -> None:
    signer, stranger = rig.signer, rig.stranger
    root = sign_rpm_repo(rig.azl, signer)
    key = rig.key_file()
    args = rig.rpm_args(key)
    assert rig.sync(*args)[0] == 0
    Path(key).write_bytes(stranger.public_key())
    sign_rpm_repo(root, stranger)
    code, _, err = rig.sync(*args)
    assert code == 2 and signer.fingerprint in err and stranger.fingerprint in err


@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "relative"])
def test_a_key_over_plain_http_is_refused(rig: Rig, relative: bool) -> None:
    if relative:
        sign_rpm_repo(rig.azl, rig.signer)
        args = rig.rpm_args("repodata/repomd.xml.key")
        dist = "azl3"
    else:
        sign_deb_mirror(rig.elxr, rig.signer)
        (rig.server.root / "keys").mkdir()
        (rig.server.root / "keys" / "public.asc").write_bytes(rig.signer.public_key())
        args = rig.deb_args(f"{rig.server.url}/keys/public.asc")
        dist = "elxr12"
    empty = rig.snapshot(dist)
    line = rig.refused(*args)
    assert "the key URL is not https" in line and "local key file" in line, line
    assert not [path for path in rig.server.log if path.endswith(".key") or "/keys/" in path]
    assert rig.snapshot(dist) == empty
    code, _, err = rig.sync(*args, "--insecure")
    assert code == 0 and "--insecure" in err
