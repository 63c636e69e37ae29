"""Package trust figures: what verification adds to ``packages sync``, and the weights check.

A Debian mirror holding this machine's real bookworm index (``apt-cache dumpavail``,
xz-compressed) and an RPM repository are signed with a throwaway ed25519 key and served
on a loopback port. Each is synced into a fresh data folder, verified (``InRelease`` /
``repomd.xml.asc`` checked by gpgv, SHA256 and size of the index) and unverified
(``--insecure``), several rounds each; then a verified re-sync of the unchanged
repository. Last, the SHA-256 check of the embedding model's files: hashed (first load)
against cached (later loads). Prints a Markdown table.

Usage: python bench/package_trust.py [--rounds N]
"""

from __future__ import annotations

import argparse
import hashlib
import lzma
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from _common import ROOT

GPG = shutil.which("gpg")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def gpg(home: Path, *args: str, data: bytes | None = None) -> bytes:
    assert GPG is not None
    done = subprocess.run(
        [GPG, "--homedir", str(home), "--batch", "--yes", "--passphrase", ""]
        + ["--pinentry-mode", "loopback", *args],
        input=data,
        capture_output=True,
        check=True,
    )
    return done.stdout


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build(www: Path, home: Path) -> tuple[int, int]:
    """Write and sign the Debian mirror and the RPM repository; return their index sizes."""
    dump = subprocess.run(["apt-cache", "dumpavail"], capture_output=True, check=True).stdout
    packed = lzma.compress(dump, preset=6)
    folder = www / "deb" / "dists" / "bookworm"
    (folder / "main" / "binary-amd64").mkdir(parents=True)
    (folder / "main" / "binary-amd64" / "Packages.xz").write_bytes(packed)
    release = (
        "Suite: bookworm\nCodename: bookworm\nComponents: main\nSHA256:\n"
        f" {sha(packed)} {len(packed)} main/binary-amd64/Packages.xz\n"
    ).encode()
    (folder / "InRelease").write_bytes(gpg(home, "--clearsign", data=release))

    primary = (ROOT / "tests" / "fixtures" / "packages" / "primary.xml").read_bytes()
    repodata = www / "rpm" / "x86_64" / "repodata"
    repodata.mkdir(parents=True)
    (repodata / "primary.xml").write_bytes(primary)
    repomd = (
        '<repomd xmlns="http://linux.duke.edu/metadata/repo"><data type="primary">'
        f'<checksum type="sha256">{sha(primary)}</checksum>'
        f'<location href="repodata/primary.xml"/><size>{len(primary)}</size></data></repomd>'
    ).encode()
    (repodata / "repomd.xml").write_bytes(repomd)
    (repodata / "repomd.xml.asc").write_bytes(gpg(home, "--armor", "--detach-sign", data=repomd))
    (repodata / "repomd.xml.key").write_bytes(gpg(home, "--armor", "--export"))
    return len(dump), len(packed)


def configs(work: Path, url: str) -> dict[str, Path]:
    deb = work / "osv" / "wind-river-elxr" / "elxr12" / "providerconfigs" / "amd64_repo.yml"
    deb.parent.mkdir(parents=True)
    key = work / "key.asc"
    deb.write_text(
        f'name: bookworm\ntype: deb\nbaseURL: "{url}/deb"\n'
        f'releaseFile: "{url}/deb/dists/bookworm/Release"\ncomponent: main\n'
        f'gpgCheck: true\nrepoGPGCheck: true\npbGPGKey: "{key}"\n',
        encoding="utf-8",
    )
    rpm = work / "osv" / "azure-linux" / "azl3" / "providerconfigs" / "x86_64_repo.yml"
    rpm.parent.mkdir(parents=True)
    rpm.write_text(
        f'name: azl\ntype: rpm\nbaseURL: "{url}/rpm/{{arch}}"\n'
        'gpgCheck: true\nrepoGPGCheck: true\ngpgKey: "repodata/repomd.xml.key"\n',
        encoding="utf-8",
    )
    return {"deb": deb, "rpm": rpm}


def sync_seconds(config: Path, data: Path, insecure: bool) -> float:
    from oic_ai.services.packages import SyncRequest, sync_packages
    from oic_ai.stores.settings import load_settings

    settings = load_settings(env={"OIC_AI_DATA_DIR": str(data)})
    request = SyncRequest(repo_config=str(config), insecure=insecure)
    started = time.perf_counter()
    outcome = sync_packages(settings, request)
    seconds = time.perf_counter() - started
    assert outcome.ok and all(r.verified is (not insecure) for r in outcome.results), outcome
    return seconds


def components(work: Path, rounds: int) -> list[tuple[str, str]]:
    """The two costs verification adds, alone: gpgv on InRelease, SHA256 of the index."""
    import io

    from oic_ai.stores.package_trust import Keyring, Listed, check_digest, dearmor, find_gpgv

    in_release = (work / "www" / "deb" / "dists" / "bookworm" / "InRelease").read_bytes()
    packed = work / "www" / "deb" / "dists" / "bookworm" / "main" / "binary-amd64"
    data = (packed / "Packages.xz").read_bytes()
    listed = Listed("Packages.xz", "sha256", sha(data), len(data))
    key = dearmor((work / "key.asc").read_bytes())
    gpgv, digest = [], []
    for _ in range(rounds * 4):
        with Keyring([("key", key)], find_gpgv()) as ring:
            started = time.perf_counter()
            ring.verify("InRelease", in_release)
            gpgv.append(time.perf_counter() - started)
        started = time.perf_counter()
        check_digest(io.BytesIO(data), listed, "Packages.xz")
        digest.append(time.perf_counter() - started)
    return [
        ("gpgv on InRelease (one subprocess), median", f"{statistics.median(gpgv) * 1000:.1f} ms"),
        (
            f"SHA256 + size of Packages.xz ({len(data) / 1e6:.1f} MB), median",
            f"{statistics.median(digest) * 1000:.1f} ms",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if GPG is None or shutil.which("gpgv") is None or shutil.which("apt-cache") is None:
        print("gpg, gpgv and apt-cache are needed (Debian's gnupg, gpgv, apt)")
        return
    work = Path(tempfile.mkdtemp(prefix="oic-bench-trust-"))
    home = Path(tempfile.mkdtemp(prefix="oic-gpg-"))
    os.chmod(home, 0o700)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(work / "www")))
    try:
        gpg(home, "--quick-gen-key", "Bench Key <bench@example.invalid>", "ed25519", "sign")
        (work / "key.asc").write_bytes(gpg(home, "--armor", "--export"))
        plain, packed = build(work / "www", home)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}"
        picked = configs(work, url)
        rows = [
            ("Debian index served (bookworm)", f"{plain / 1e6:.1f} MB, {packed / 1e6:.1f} MB xz")
        ]
        for kind, config in picked.items():
            timings: dict[bool, list[float]] = {True: [], False: []}
            for round_number in range(args.rounds):
                for insecure in (False, True):
                    data = work / f"data-{kind}-{round_number}-{insecure}"
                    timings[insecure].append(sync_seconds(config, data, insecure))
            verified = statistics.median(timings[False])
            unverified = statistics.median(timings[True])
            rows.append(
                (
                    f"{kind}: sync, verified / --insecure, median of {args.rounds}",
                    f"{verified * 1000:.0f} / {unverified * 1000:.0f} ms "
                    f"(+{(verified - unverified) * 1000:.0f} ms)",
                )
            )
            again = [
                sync_seconds(config, work / f"data-{kind}-0-False", False)
                for _ in range(args.rounds)
            ]
            rows.append(
                (
                    f"{kind}: verified re-sync, unchanged (metadata + gpgv only), median",
                    f"{statistics.median(again) * 1000:.0f} ms",
                )
            )

        rows.extend(components(work, args.rounds))

        from oic_ai.stores.embeddings.minilm import model_dir
        from oic_ai.stores.embeddings.weights import verify_model_files

        files = ("config.json", "tokenizer.json", "model.safetensors", "sentence_bert_config.json")
        size = sum((model_dir() / name).stat().st_size for name in files)
        first, cached = [], []
        for round_number in range(args.rounds):
            cache = work / f"weights-{round_number}.json"
            started = time.perf_counter()
            verify_model_files(model_dir(), "all-MiniLM-L6-v2", files, cache)
            first.append(time.perf_counter() - started)
            started = time.perf_counter()
            assert verify_model_files(model_dir(), "all-MiniLM-L6-v2", files, cache) == 0
            cached.append(time.perf_counter() - started)
        rows.append(
            (
                f"weights SHA-256 check ({size / 1e6:.1f} MB), first load, median",
                f"{statistics.median(first) * 1000:.0f} ms",
            )
        )
        rows.append(
            (
                "weights check, cached (stat only), median",
                f"{statistics.median(cached) * 1000:.2f} ms",
            )
        )
    finally:
        server.shutdown()
        server.server_close()
        subprocess.run(
            ["gpgconf", "--homedir", str(home), "--kill", "gpg-agent"], capture_output=True
        )
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    print("| figure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
