"""``oic-ai packages sync|check|status`` as a user runs them: exit codes, JSON, errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from oic_ai.cli.main import main
from tests.stores.package_repos import DEB_PACKAGES, compress, deb_packages, write_rpm_repo
from tests.support.cli import modules_after, oic

TEMPLATE = """\
image: {{name: t, version: "1"}}
target: {{os: {os}, dist: {dist}, arch: x86_64, imageType: raw}}
systemConfig:
  name: t
  packages: [{packages}]
"""


def write_template(
    folder: Path, name: str, packages: str, os_name: str = "wind-river-elxr", dist: str = "elxr12"
) -> Path:
    path = folder / name
    path.write_text(TEMPLATE.format(os=os_name, dist=dist, packages=packages), encoding="utf-8")
    return path


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return oic(*args, stdin=stdin.decode() if stdin is not None else None, timeout=120)


def check(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> tuple[int, str]:
    """``packages check ARGS --data-dir DATA_DIR`` in-process: its exit code and stdout."""
    code = main(["packages", "check", *args, "--data-dir", str(data_dir)])
    return code, capsys.readouterr().out


@pytest.fixture
def synced(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    code = main(
        ["packages", "sync", "--index", str(DEB_PACKAGES), "--dist", "elxr12"]
        + ["--arch", "x86_64", "--data-dir", str(data_dir), "--json"]
    )
    assert code == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is True
    (result,) = payload["results"]
    assert (result["status"], result["packages"], result["dist"]) == ("imported", 21, "elxr12")
    return data_dir


def test_check_json_follows_the_contract_and_exits_one_on_missing(
    synced: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write_template(tmp_path, "bad.yml", "openssh-server, docker-ce, python, 'python3-*'")
    good = write_template(tmp_path, "good.yml", "openssh-server, qemu-kvm")
    code = main(["packages", "check", str(bad), str(good), "--data-dir", str(synced), "--json"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err == ""  # --json stays quiet
    first, second = json.loads(captured.out)["templates"]
    assert {"path", "checked", "found", "missing", "suggestions"} <= set(first)
    assert first["path"] == str(bad) and first["checked"] is True
    assert first["missing"] == ["docker-ce", "python"]
    assert first["found"] == ["openssh-server", "python3-*"]
    assert first["globbed"] == {"python3-*": 2}
    assert first["suggestions"]["docker-ce"][0] == "docker.io"
    assert first["suggestions"]["python"][0] == "python3"
    assert second["missing"] == [] and second["by_provides"] == {"qemu-kvm": ["qemu-system-x86"]}


@pytest.mark.parametrize(
    ("name", "packages", "exit_code", "shown"),
    [
        pytest.param(
            "good.yml",
            "openssh-server, cloud-init, 'libva*'",
            0,
            [
                "good.yml (elxr12/x86_64): all found (3 found, 1 glob, 0 missing)",
                "libva*",
                "3 packages: libva-drm2, libva-x11-2, libva2",
            ],
            id="exits_zero_when_everything_is_found",
        ),
        pytest.param(
            "bad.yml",
            "docker-ce, qemu-kvm",
            1,
            [
                "missing packages (1 found, 1 by provides, 1 missing)",
                "docker-ce",
                "try: docker.io",
                "provided by qemu-system-x86",
                "Checked 1 of 1 template; 1 missing package.",
            ],
            id="human_table_lists_missing_with_suggestions",
        ),
    ],
)
def test_check_in_words(
    synced: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    packages: str,
    exit_code: int,
    shown: list[str],
) -> None:
    code, out = check(capsys, synced, str(write_template(tmp_path, name, packages)))
    assert code == exit_code
    assert [text for text in shown if text not in out] == []


def test_a_target_without_index_is_not_checked_and_says_how(
    synced: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    azl = write_template(tmp_path, "azl.yml", "docker-ce", "azure-linux", "azl3")
    code, out = check(capsys, synced, str(azl), "--json")
    assert code == 0
    (report,) = json.loads(out)["templates"]
    assert report["checked"] is False and report["missing"] == [] and report["found"] == []
    assert report["reason"] == "no package index for azl3/x86_64"
    assert "oic-ai packages sync" in report["fix"]
    code, out = check(capsys, synced, str(azl))
    assert code == 0
    assert "not checked: no package index for azl3/x86_64" in out
    assert "to check it: run 'oic-ai packages sync --repo-config" in out


def test_a_folder_of_templates_is_expanded(
    synced: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "lib"
    folder.mkdir()
    write_template(folder, "a.yml", "openssh-server")
    write_template(folder, "b.yml", "cloud-init")
    code, out = check(capsys, synced, str(folder), "--json")
    assert code == 0
    assert len(json.loads(out)["templates"]) == 2


def test_rpm_import_and_check(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = write_rpm_repo(tmp_path / "azl3-repo", kind="zst")
    assert (
        main(
            ["packages", "sync", "--index", str(repo), "--os", "azure-linux", "--dist", "azl3"]
            + ["--data-dir", str(data_dir), "--json"]
        )
        == 0
    )
    capsys.readouterr()
    azl = write_template(tmp_path, "azl.yml", "moby-engine, docker-ce", "azure-linux", "azl3")
    code, out = check(capsys, data_dir, str(azl), "--json")
    assert code == 1
    (report,) = json.loads(out)["templates"]
    assert report["missing"] == ["docker-ce"]
    assert report["suggestions"]["docker-ce"][0] == "moby-engine"


def test_status_lists_sources(synced: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["packages", "status", "--data-dir", str(synced), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["sources"]
    assert (row["dist"], row["arch"], row["scope"], row["packages"]) == (
        "elxr12",
        "x86_64",
        "base",
        21,
    )
    assert main(["packages", "status", "--data-dir", str(synced)]) == 0
    assert "elxr12/x86_64" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "{tmp}/missing.yml"], "missing.yml does not exist; check the path"),
        (["check", "{tmp}/broken.yml"], "broken.yml is not valid YAML"),
        (["check", "{tmp}/list.yml"], "list.yml does not hold a template"),
        (
            ["sync", "--index", "{tmp}/nope", "--dist", "elxr12"],
            "does not exist; check the --index",
        ),
        (
            ["sync", "--index", "{tmp}/broken.yml", "--dist", "elxr12"],
            "not a Debian Packages index",
        ),
        (["sync", "--index", "{packages}", "--dist", "elxr99"], "unknown dist 'elxr99'"),
        (["sync", "--index", "{packages}"], "no target dist given; pass --dist"),
        (
            ["sync", "--index", "{packages}", "--os", "ubuntu", "--dist", "elxr12"],
            "os 'ubuntu' does not ship elxr12; use --os wind-river-elxr",
        ),
        (["sync", "--index", "{packages}", "--dist", "azl3"], "is a deb index but azl3 uses rpm"),
        (["sync"], "no repositories have been synced yet; pass --repo-config"),
        (["sync", "--repo-config", "{tmp}/none.yml"], "none.yml does not exist"),
        (["sync", "--repo-config", "{tmp}/list.yml", "--dist", "elxr12"], "describes no enabled"),
    ],
)
def test_user_errors_are_one_line_and_exit_two(
    tmp_path: Path, data_dir: Path, args: list[str], message: str
) -> None:
    (tmp_path / "broken.yml").write_text("a: [unclosed\n", encoding="utf-8")
    (tmp_path / "list.yml").write_text("- 1\n- 2\n", encoding="utf-8")
    filled = [a.format(tmp=tmp_path, packages=DEB_PACKAGES) for a in args]
    result = run("packages", *filled, "--data-dir", str(data_dir))
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("oic-ai: ")


def test_conflicting_sources_are_a_usage_error() -> None:
    result = run("packages", "sync", "--index", "a", "--repo-config", "b")
    assert result.returncode == 2
    assert "not allowed with argument" in result.stderr and "Traceback" not in result.stderr


def test_packages_without_action_prints_help_and_exits_two() -> None:
    result = run("packages")
    assert result.returncode == 2 and "sync" in result.stderr and "check" in result.stderr


def test_import_from_stdin_as_a_fresh_process(data_dir: Path, tmp_path: Path) -> None:
    packed = compress(deb_packages(), "")
    result = run(
        "packages",
        "sync",
        "--index",
        "-",
        "--dist",
        "debian13",
        "--data-dir",
        str(data_dir),
        stdin=packed,
    )
    assert result.returncode == 0, result.stderr
    assert "imported" in result.stdout and "21" in result.stdout
    template = write_template(tmp_path, "d.yml", "docker-ce", "debian", "debian13")
    checked = run("packages", "check", str(template), "--data-dir", str(data_dir), "--json")
    assert checked.returncode == 1 and checked.stderr == ""
    (report,) = json.loads(checked.stdout)["templates"]
    assert report["suggestions"]["docker-ce"][0] == "docker.io"


def test_data_dir_from_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OIC_AI_DATA_DIR", str(tmp_path / "env-data"))
    assert main(["packages", "sync", "--index", str(DEB_PACKAGES), "--dist", "elxr12"]) == 0
    assert (tmp_path / "env-data" / "packages.sqlite").is_file()
    assert "Package index:" in capsys.readouterr().out


def test_other_commands_do_not_import_package_code() -> None:
    loaded = modules_after(
        "from oic_ai.cli.parser import build_parser\n"
        "build_parser().parse_args(['validate', 'x.yml'])"
    )
    heavy = {
        "oic_ai.stores.package_index",
        "oic_ai.stores.package_sources",
        "oic_ai.stores.package_fetch",
    }
    heavy |= {"oic_ai.tools.verify_packages", "sqlite3", "rapidfuzz", "urllib.request"}
    assert loaded & heavy == set()
