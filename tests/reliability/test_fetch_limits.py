"""``packages sync`` against hostile repositories: drips, compression bombs, huge bodies.

A loopback server plays the repository. The drip is bounded by the whole-transfer deadline
(10 x ``--timeout``); the bomb and the huge body by the index size limit
(``ai.packages.max_index_mb``). Memory is measured as the peak RSS of the CLI process.
Each refusal keeps the previous index.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from oic_ai.cli.main import main
from oic_ai.stores.package_index import PackageIndex
from tests.conftest import PROJECT
from tests.stores.package_repos import deb_packages
from tests.support.cli import cli_env, oic, one_line_error
from tests.support.loopback import LoopbackHandler, LoopbackServer

MIB = 1 << 20
GUARD = 120.0  # a hang fails the test instead of hanging the suite
RSS_BOUND_MIB = 300  # the CLI itself needs about 100 MiB; the old code needed GBs here
STANZA = b"Package: bomb\nVersion: 1\nArchitecture: amd64\nDescription: " + b"x" * 200 + b"\n\n"
SUITE_PATH = "/elxr/dists/aria/main/binary-amd64/"


def gzip_bomb(size: int) -> bytes:
    """A gzip stream of ``size`` bytes of repeated stanzas (a few hundred KiB on the wire)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = STANZA * (MIB // len(STANZA))
    parts = [packer.compress(block) for _ in range(size // len(block))]
    return b"".join([*parts, packer.flush()])


class _Handler(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        repo: HostileRepo = self.owner
        path = self.path.split("?")[0]
        if path.startswith("/loop"):
            self.send_response(302)
            self.send_header("Location", path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        name = path.rsplit("/", 1)[-1]
        if repo.mode == "good" and name == "Packages.gz":
            self.send_bytes(200, zlib_gzip(deb_packages()), "application/octet-stream")
        elif repo.mode == "bomb" and name == "Packages.gz":
            self.send_bytes(200, repo.bomb, "application/octet-stream")
        elif repo.mode == "huge" and name == "Packages":
            self._stream_huge(repo)
        elif repo.mode == "drip" and name == "Packages.xz":
            self._drip(repo)
        elif repo.mode == "drip-headers" and name == "Packages.xz":
            self._drip_headers(repo)
        else:
            self.send_bytes(404, b"not found", "text/plain")

    def _stream_huge(self, repo: HostileRepo) -> None:
        """A plain body of ``repo.huge`` bytes, with no Content-Length (read to the end)."""
        try:
            self.send_response(200)
            self.end_headers()
            block = STANZA * (MIB // len(STANZA))
            sent = 0
            while sent < repo.huge and not repo.stopping.is_set():
                self.wfile.write(block)
                sent += len(block)
        except OSError:
            pass

    def _drip_headers(self, repo: HostileRepo) -> None:
        """A status line, then a header that never ends, one byte every 0.1 s."""
        try:
            self.wfile.write(b"HTTP/1.0 200 OK\r\nX-Drip: ")
            self.wfile.flush()
            while not repo.stopping.wait(0.1):
                self.wfile.write(b"a")
                self.wfile.flush()
        except OSError:
            pass

    def _drip(self, repo: HostileRepo) -> None:
        """One byte every 0.1 s of a body that claims a megabyte: each read is quick."""
        try:
            self.send_response(200)
            self.send_header("Content-Length", str(MIB))
            self.end_headers()
            while not repo.stopping.wait(0.1):
                self.wfile.write(b"P")
                self.wfile.flush()
        except OSError:
            pass


def zlib_gzip(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    return packer.compress(data) + packer.flush()


class HostileRepo(LoopbackServer):
    """A Debian mirror that answers well, with a bomb, a huge body or a drip."""

    handler = _Handler

    def __init__(self) -> None:
        super().__init__()
        self.mode = "good"
        self.bomb = b""
        self.huge = 0


@pytest.fixture
def repo() -> Iterator[HostileRepo]:
    with HostileRepo() as server:
        yield server


def providerconfig(tmp_path: Path, url: str) -> Path:
    folder = tmp_path / "osv" / "wind-river-elxr" / "elxr12" / "providerconfigs"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "amd64_repo.yml"
    path.write_text(
        f'name: "aria"\ntype: "deb"\nbaseURL: "{url}/elxr"\n'
        f'releaseFile: "{url}/elxr/dists/aria/Release"\ncomponent: "main"\n'
        "gpgCheck: false\n",  # unsigned: these tests are about the fetch limits
        encoding="utf-8",
    )
    return path


def config(tmp_path: Path, max_index_mb: int) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(f"ai:\n  packages:\n    max_index_mb: {max_index_mb}\n", encoding="utf-8")
    return path


# VmHWM is the peak RSS of this process image only: ru_maxrss would also carry the peak of
# the (large) pytest process across fork and exec.
_MEASURED = """
import os, sys
from oic_ai.cli.main import main
code = main(sys.argv[1:])
with open("/proc/self/status") as status:
    kib = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
with open(os.environ["RSS_REPORT"], "w") as report:
    report.write(kib)
sys.exit(code)
"""


def measured_sync(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``oic-ai packages sync ARGS`` in a fresh process; return it and its peak RSS (MiB)."""
    report = tmp_path / "rss.txt"
    report.unlink(missing_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, "packages", "sync", *args],
        cwd=PROJECT,
        env=cli_env(RSS_REPORT=str(report)),
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    return done, int(report.read_text()) // 1024


def synced_packages(data_dir: Path) -> int:
    index = PackageIndex.for_data_dir(data_dir)
    try:
        return sum(row.packages for row in index.sources("elxr12", "x86_64"))
    finally:
        index.close()


@pytest.mark.parametrize(
    ("mode", "retries", "expected"),
    [
        ("drip", "0", ("took longer than 3s", "10 x --timeout", "Packages.xz")),
        ("drip-headers", "2", ("download of Packages.xz took longer than 3s",)),
    ],
    ids=["dripping-body", "dripping-headers"],
)
def test_a_dripping_repository_fails_at_the_whole_transfer_deadline(
    repo: HostileRepo, tmp_path: Path, mode: str, retries: str, expected: tuple[str, ...]
) -> None:
    repo.mode = mode
    data_dir = tmp_path / "data"
    args = ("--repo-config", str(providerconfig(tmp_path, repo.url)), "--data-dir", str(data_dir))
    done = oic("packages", "sync", *args, "--timeout", "0.3", "--retries", retries, timeout=GUARD)
    line = one_line_error(done, 3)
    for part in expected:
        assert part in line, line


def test_a_compression_bomb_is_refused_past_the_limit_and_keeps_the_index(
    repo: HostileRepo, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    source = str(providerconfig(tmp_path, repo.url))
    common = ("--repo-config", source, "--data-dir", str(data_dir))
    done, _ = measured_sync(tmp_path, *common)
    assert done.returncode == 0, done.stderr
    before = synced_packages(data_dir)
    assert before == 21

    repo.mode = "bomb"
    repo.bomb = gzip_bomb(128 * MIB)
    assert len(repo.bomb) < MIB  # small on the wire
    done, peak = measured_sync(tmp_path, *common, "--config", str(config(tmp_path, 16)), "--json")
    line = one_line_error(done, 2)  # not retryable: the index itself is refused
    assert "inflates to more than 16 MiB" in line and "ai.packages.max_index_mb" in line
    (result,) = json.loads(done.stdout)["results"]
    assert (
        result["status"] == "failed"
        and "kept the previous index (21 packages" in (result["message"])
    )
    assert synced_packages(data_dir) == before
    assert peak < RSS_BOUND_MIB, f"peak RSS {peak} MiB"


def test_a_bomb_under_the_limit_is_parsed_as_a_stream(repo: HostileRepo, tmp_path: Path) -> None:
    repo.mode = "bomb"
    repo.bomb = gzip_bomb(160 * MIB)  # under the default 512 MiB limit
    data_dir = tmp_path / "data"
    source = str(providerconfig(tmp_path, repo.url))
    done, peak = measured_sync(tmp_path, "--repo-config", source, "--data-dir", str(data_dir))
    assert peak < RSS_BOUND_MIB, f"peak RSS {peak} MiB"
    assert done.returncode == 0, done.stderr
    assert synced_packages(data_dir) == 1  # the same stanza, repeated, is one package


def test_a_huge_plain_body_is_refused_while_it_downloads(repo: HostileRepo, tmp_path: Path) -> None:
    repo.mode = "huge"
    repo.huge = 160 * MIB
    data_dir = tmp_path / "data"
    source = str(providerconfig(tmp_path, repo.url))
    done, peak = measured_sync(
        tmp_path,
        "--repo-config",
        source,
        "--data-dir",
        str(data_dir),
        "--config",
        str(config(tmp_path, 16)),
    )
    line = one_line_error(done, 2)
    assert "Packages is more than 16 MiB" in line
    assert peak < RSS_BOUND_MIB, f"peak RSS {peak} MiB"


def test_an_index_file_over_the_limit_is_refused_on_import(tmp_path: Path) -> None:
    bomb = tmp_path / "Packages.gz"
    bomb.write_bytes(gzip_bomb(32 * MIB))
    data_dir = tmp_path / "data"
    code = main(
        [
            "packages",
            "sync",
            "--index",
            str(bomb),
            "--dist",
            "elxr12",
            "--data-dir",
            str(data_dir),
            "--config",
            str(config(tmp_path, 8)),
        ]
    )
    assert code == 2
    assert synced_packages(data_dir) == 0


def test_a_redirect_loop_is_one_line(
    repo: HostileRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "osv" / "azure-linux" / "azl3" / "providerconfigs" / "x86_64_repo.yml"
    path.parent.mkdir(parents=True)
    path.write_text(f'name: loop\ntype: rpm\nbaseURL: "{repo.url}/loop"\n', encoding="utf-8")
    code = main(["packages", "sync", "--repo-config", str(path), "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    (line,) = err.strip().splitlines()
    assert "redirects loop" in line and "Traceback" not in err
    assert code == 3


def test_the_limits_are_settings() -> None:
    from oic_ai.stores.settings import load_settings

    settings = load_settings(env={})
    assert settings.packages_max_index_mb == 512
    assert settings.packages_transfer_timeout == 0.0
