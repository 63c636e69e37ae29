"""The registry's buildable targets agree with the composer's own loader, one by one.

``stores/data/targets.yaml`` says, per dist, which arches each image type has OS defaults
for. This test writes one small template for every os/dist/arch/imageType the schema allows
(buildable or not) and asks ``upval`` whether the composer has defaults for it: the two
answers must be the same for every combination, so the agent's ``unsupported`` answers are
right even where the tool is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from oic_ai.stores.targets import load_targets
from tests.support.upval import judge, require_upval


def _probe(os_name: str, dist: str, arch: str, image_type: str) -> str:
    name = f"probe-{dist}-{arch}-{image_type}"
    return yaml.safe_dump(
        {
            "image": {"name": name, "version": "1.0"},
            "target": {"os": os_name, "dist": dist, "arch": arch, "imageType": image_type},
            "systemConfig": {"name": name},
        },
        sort_keys=False,
    )


def test_every_combination_is_buildable_exactly_when_the_composer_has_defaults(
    tmp_path: Path,
) -> None:
    upval = require_upval()
    targets = load_targets()
    files: dict[Path, tuple[str, str, str, str]] = {}
    for combination in targets.combinations():
        path = (tmp_path / ("-".join(combination) + ".yml")).resolve()
        path.write_text(_probe(*combination), encoding="utf-8")
        files[path] = combination
    verdicts = judge(upval, list(files))
    rejected = {files[p]: v.error for p, v in verdicts.items() if not v.user_ok}
    assert rejected == {}, "every probe must load; only the defaults may be missing"
    disagree = {
        files[path]: ("composer has defaults" if v.defaults_loaded else "composer has none")
        for path, v in verdicts.items()
        if v.defaults_loaded != targets.buildable(*files[path][1:])
    }
    assert disagree == {}
    buildable = [c for c in files.values() if targets.buildable(*c[1:])]
    # raw on both arches, iso and img on x86_64 only; el10's own ISO defaults do not load
    assert len(buildable) == 4 * len(targets.dists) - 1
    assert not targets.buildable("el10", "x86_64", "iso")
    assert len(files) > len(buildable)


@pytest.mark.parametrize(
    ("dist", "arch", "image_type", "nearest"),
    [
        (
            "ubuntu24",
            "aarch64",
            "iso",
            [("ubuntu24", "x86_64", "iso"), ("ubuntu24", "aarch64", "raw")],
        ),
        (
            "debian13",
            "aarch64",
            "img",
            [("debian13", "x86_64", "img"), ("debian13", "aarch64", "raw")],
        ),
        ("emt3", "armv7hl", "raw", [("emt3", "x86_64", "raw"), ("emt3", "aarch64", "raw")]),
        ("el10", "x86_64", "iso", [("el10", "x86_64", "raw"), ("el10", "x86_64", "img")]),
        ("azl3", "x86_64", "iso", [("azl3", "x86_64", "iso")]),
    ],
)
def test_the_nearest_buildable_combination_keeps_the_image_type_first(
    dist: str, arch: str, image_type: str, nearest: list[tuple[str, str, str]]
) -> None:
    assert list(load_targets().nearest_buildable(dist, arch, image_type)) == nearest


def test_a_malformed_builds_entry_is_refused() -> None:
    from oic_ai.stores.targets import TARGETS_PATH, parse_targets

    data = yaml.safe_load(TARGETS_PATH.read_text(encoding="utf-8"))
    data["oses"]["ubuntu"]["dists"]["ubuntu24"]["builds"] = {"vmdk": ["x86_64"]}
    with pytest.raises(ValueError, match="ubuntu24 builds"):
        parse_targets(data)
