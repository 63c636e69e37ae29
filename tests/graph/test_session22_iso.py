"""An installer ISO's partitions: the layout of the disk it installs on (session 22).

The composer's ISO default configs carry a disk layout (an ESP and a root on the rest,
"optional for ISO"); a partition asked for on an installer writes that layout out with the
partition in it, and the composer's own loader accepts the result. A disk size or a disk
artifact on an installer is still reported.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from oic_ai.graph.agent import TemplateAgent
from tests.support.upval import judge, require_upval


def test_a_partition_on_an_installer_iso_is_built_by_the_composer(
    agent: TemplateAgent, tmp_path: Path
) -> None:
    first = agent.generate("an Azure Linux 3 installer ISO for x86_64 with chrony")
    turn = agent.generate(
        "our security people insist on a separate /var/log partition. 2 GiB, ext4 please.",
        session=first.session,
    )
    assert turn.not_applied == []
    doc = yaml.safe_load(turn.template or "")
    assert doc["target"]["imageType"] == "iso"
    mounts = {p["mountPoint"]: p for p in doc["disk"]["partitions"]}
    assert set(mounts) == {"/boot/efi", "/var/log", "/"}
    assert (mounts["/var/log"]["start"], mounts["/var/log"]["end"]) == ("513MiB", "2561MiB")
    assert mounts["/var/log"]["fsType"] == "ext4"
    assert "size" not in doc["disk"]
    assert any("installer ISO's partitions" in w for w in turn.warnings)
    path = tmp_path / "iso.yml"
    path.write_text(turn.template or "", encoding="utf-8")
    verdict = judge(require_upval(), [path])[path.resolve()]
    assert verdict.buildable, verdict.error


def test_a_disk_size_on_an_installer_iso_is_still_reported(agent: TemplateAgent) -> None:
    first = agent.generate("an Azure Linux 3 installer ISO for x86_64")
    turn = agent.generate("make the disk 16 GiB", session=first.session)
    assert turn.template == first.template
    assert any("has no disk size or disk artifacts" in n for n in turn.not_applied)


def test_an_installer_without_a_disk_block_is_described_by_its_default_layout() -> None:
    from oic_ai.tools.explain_template import describe_template
    from tests.conftest import OUR_TEMPLATES

    text = (OUR_TEMPLATES / "azl3-x86_64-installer-iso.yml").read_text(encoding="utf-8")
    answer = describe_template(text, "what is the disk layout?")
    assert "the disk it installs on" in answer and "none" not in answer
