"""Keys, gpgv verdicts, Release and repomd parsing, digests (stores/package_trust.py).

Signatures are made by a throwaway key with gpg and checked by Debian's gpgv.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest

from oic_ai.stores.package_fetch import Fetcher
from oic_ai.stores.package_trust import (
    Keyring,
    Listed,
    TrustError,
    _judge,
    check_digest,
    check_valid_until,
    dearmor,
    find_gpgv,
    keyring_for,
    parse_release,
    repomd_primary,
    resolve_key_location,
)
from tests.stores.signed_repos import Signer

RELEASE = b"Origin: t\nSuite: aria\nSHA256:\n " + b"a" * 64 + b" 12 main/binary-amd64/Packages\n"


def keyring(*keys: bytes) -> Keyring:
    return Keyring([(f"key{n}", dearmor(key)) for n, key in enumerate(keys)], find_gpgv())


def test_dearmor_gives_the_binary_key(signer: Signer) -> None:
    assert dearmor(signer.public_key()) == signer.public_key(armored=False)
    binary = signer.public_key(armored=False)
    assert dearmor(binary) is binary
    two = signer.public_key() + b"\n" + signer.public_key()
    assert dearmor(two) == binary * 2
    with pytest.raises(TrustError, match="not an OpenPGP public key"):
        dearmor(b"<html>not found</html>", "http://x/key")
    with pytest.raises(TrustError, match="bad base64"):
        dearmor(b"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n!!!\n-----END PGP PUBLIC KEY BLOCK-----")


def test_a_good_clearsigned_file_gives_its_signed_text(signer: Signer) -> None:
    with keyring(signer.public_key()) as ring:
        text, fingerprint = ring.verify("InRelease", signer.clearsign(RELEASE))
    assert text.strip() == RELEASE.strip() and fingerprint == signer.fingerprint


# what gpgv 2.2 printed for an InRelease signed by two keys, one of them not in the keyring
TWO_SIGNATURES = """[GNUPG:] NEWSIG one@example.invalid
[GNUPG:] KEY_CONSIDERED 588C39F1AF12DC1E59E4F24DBF196ABB62DCFB23 0
[GNUPG:] GOODSIG BF196ABB62DCFB23 Test One <one@example.invalid>
[GNUPG:] VALIDSIG 588C39F1AF12DC1E59E4F24DBF196ABB62DCFB23 2026-11-23 1795451894 0 4 0 22 8 01 \
588C39F1AF12DC1E59E4F24DBF196ABB62DCFB23
[GNUPG:] NEWSIG two@example.invalid
[GNUPG:] ERRSIG 537340E8901D7BE0 22 8 01 1795451894 9 3F56EE1CCEC2466D7894DE47537340E8901D7BE0
[GNUPG:] NO_PUBKEY 537340E8901D7BE0
""".replace("\\\n", "")


def test_one_good_signature_among_unknown_ones_counts() -> None:
    # gpgv exits 2 here (one signature has no key), yet one signature is good: apt's rule
    assert _judge("InRelease", TWO_SIGNATURES, 2, "k") == "588C39F1AF12DC1E59E4F24DBF196ABB62DCFB23"
    with pytest.raises(TrustError, match="bad signature"):
        _judge("InRelease", TWO_SIGNATURES + "[GNUPG:] BADSIG 537340E8901D7BE0 x\n", 1, "k")
    with pytest.raises(TrustError, match="weak digest"):
        _judge("InRelease", TWO_SIGNATURES.replace(" 22 8 01 588C", " 22 2 01 588C"), 2, "k")


@pytest.mark.parametrize(
    ("case", "what"),
    [
        ("changed", "bad signature"),
        ("other-key", "signed by an unknown key"),
        ("not-signed", "holds no OpenPGP signature"),
    ],
)
def test_verdicts(signer: Signer, stranger: Signer, case: str, what: str) -> None:
    signature = signer.detach(RELEASE)
    data = RELEASE
    if case == "changed":
        data = RELEASE.replace(b"aria", b"evil")
    elif case == "other-key":
        signature = stranger.detach(RELEASE)
    elif case == "not-signed":
        signature = b"just text\n"
    with keyring(signer.public_key()) as ring, pytest.raises(TrustError) as caught:
        ring.verify("http://repo/dists/aria/Release", signature, data)
    assert str(caught.value).startswith(f"http://repo/dists/aria/Release: {what}")


def test_the_keyring_folder_is_removed(signer: Signer) -> None:
    with keyring(signer.public_key()) as ring:
        assert ring.folder is not None and ring.folder.is_dir()
        folder = ring.folder
    assert not folder.exists()


def test_keys_come_from_a_file_a_file_url_or_a_path_under_the_repository(
    signer: Signer, tmp_path: Path
) -> None:
    local = tmp_path / "key.asc"
    local.write_bytes(signer.public_key())
    assert resolve_key_location(str(local), "http://r/x86_64") == str(local)
    assert resolve_key_location("repodata/repomd.xml.key", "http://r/x86_64") == (
        "http://r/x86_64/repodata/repomd.xml.key"
    )
    with keyring_for([f"file://{local}"], "http://r", Fetcher(), repo="r") as ring:
        assert ring.keys[0][1] == signer.public_key(armored=False)
    with pytest.raises(TrustError, match="no key is configured"):
        with keyring_for([], "http://r", Fetcher(), repo="r"):
            pass
    with pytest.raises(TrustError, match="cannot read the key"):
        with keyring_for([str(tmp_path / "none.gpg")], "http://r", Fetcher(), repo="r"):
            pass


def test_parse_release_reads_the_sha256_list_only() -> None:
    text = (
        "Suite: aria\nMD5Sum:\n 0123456789abcdef0123456789abcdef 12 main/binary-amd64/Packages\n"
        f"SHA256:\n {'b' * 64}     1234 main/binary-amd64/Packages.xz\n"
        f" {'c' * 64} 99 contrib/binary-amd64/Packages\nAcquire-By-Hash: yes\n"
    )
    files = parse_release(text, "Release")
    assert set(files) == {"main/binary-amd64/Packages.xz", "contrib/binary-amd64/Packages"}
    assert files["main/binary-amd64/Packages.xz"].size == 1234
    with pytest.raises(TrustError, match="lists no SHA256"):
        parse_release("Suite: aria\nMD5Sum:\n 0 1 x\n", "Release")


def test_repomd_primary_entry() -> None:
    repomd = (
        b'<repomd xmlns="http://linux.duke.edu/metadata/repo"><data type="other">'
        b'<location href="o.xml"/></data><data type="primary">'
        b'<checksum type="sha512">ABC</checksum><location href="repodata/p.xml.zst"/>'
        b"<size>42</size></data></repomd>"
    )
    listed = repomd_primary(repomd, "repomd.xml")
    assert listed == Listed("repodata/p.xml.zst", "sha512", "abc", 42)
    with pytest.raises(TrustError, match="unknown checksum type 'md5'"):
        repomd_primary(repomd.replace(b"sha512", b"md5"), "repomd.xml")
    with pytest.raises(TrustError, match="not valid XML"):
        repomd_primary(b"<repomd", "repomd.xml")


def test_check_digest_size_then_checksum() -> None:
    data = b"Package: a\n"
    listed = Listed("p", "sha256", hashlib.sha256(data).hexdigest(), len(data))
    stream = io.BytesIO(data)
    check_digest(stream, listed, "p")
    assert stream.tell() == 0
    with pytest.raises(TrustError, match="size mismatch: 12 bytes"):
        check_digest(io.BytesIO(data + b"x"), listed, "p")
    with pytest.raises(TrustError, match="SHA256 mismatch"):
        check_digest(io.BytesIO(b"Package: b\n"), listed, "p")


# --- the composer's own providerconfigs (read in place, never fetched) ----------------


@pytest.mark.parametrize(
    ("config", "kind", "keys"),
    [
        (
            "ubuntu/ubuntu24/providerconfigs/amd64_repo.yml",
            "deb",
            ("/usr/share/keyrings/ubuntu-archive-keyring.gpg",),
        ),
        ("wind-river-elxr/elxr12/providerconfigs/amd64_repo.yml", "deb", None),
        ("azure-linux/azl3/providerconfigs/x86_64_repo.yml", "rpm", ("repodata/repomd.xml.key",)),
        ("edge-microvisor-toolkit/emt3/providerconfigs/x86_64_repo.yml", "rpm", None),
    ],
)
def test_upstream_providerconfigs_turn_verification_on_with_their_keys(
    config: str, kind: str, keys: tuple[str, ...] | None
) -> None:
    from oic_ai.stores.package_repos import repos_from_providerconfig
    from tests.conftest import REFERENCE

    path = REFERENCE / "config" / "osv" / config
    if not path.is_file():
        pytest.skip(f"reference configs not found at {path}")
    repos = repos_from_providerconfig(path)
    for repo in repos:
        assert repo.kind == kind and repo.gpg_check and repo.repo_gpg_check
        assert repo.trust().verified and repo.keys
        if keys is not None:
            assert repo.keys == keys
    if "emt3" in config:
        assert len(repos[0].keys) == 2  # gpgKeys: a list
    if "ubuntu24" in config:
        assert repos[0].release_sign.endswith("/dists/noble/Release.gpg")
    assert not repos[0].trust(insecure=True).signature


def test_an_expired_release_is_refused() -> None:
    text = "Suite: bookworm-security\nValid-Until: Mon, 23 Nov 2026 12:00:00 UTC\n"
    noon = 1_795_435_200  # 2026-11-23 12:00 UTC
    check_valid_until(text, "InRelease", now=noon - 60)
    with pytest.raises(TrustError, match="InRelease: expired on Mon, 23 Nov 2026"):
        check_valid_until(text, "InRelease", now=noon + 60)
    with pytest.raises(TrustError, match="unreadable Valid-Until"):
        check_valid_until("Valid-Until: soon\n", "InRelease")
    check_valid_until("Suite: aria\n", "InRelease")  # no date: nothing to check
