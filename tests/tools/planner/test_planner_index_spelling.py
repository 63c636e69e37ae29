"""The builtin planner reads misspellings against the synced package index too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from oic_ai.stores.package_index import PackageIndex
from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.text import reading_notices
from oic_ai.tools.retrieval.spelling import index_package_names
from tests.conftest import OUR_TEMPLATES
from tests.support.package_index import UBUNTU24, add_packages

UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text()


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    """A data folder whose synced index has a package called 'contaner', and 'mdadm'."""
    index = PackageIndex.for_data_dir(tmp_path)
    add_packages(index, UBUNTU24, "contaner", "mdadm", "bash")
    index.close()
    yield tmp_path


def added(request: str, names: object) -> list[str]:
    plan = plan_request(request, UBUNTU, mode="refine", packages=names)  # type: ignore[arg-type]
    return [p for op in plan.operations if op.op == "add_packages" for p in op.packages]


def test_a_real_package_of_the_index_is_never_read_as_another_word(data_dir: Path) -> None:
    names = index_package_names(data_dir)
    assert names is not None
    assert "contaner" in added("add contaner", names)  # the index has it: as written
    assert reading_notices("add contaner", names) == []
    # without an index it is a misspelling of a known word, and the answer says so
    assert reading_notices("add contaner", None) == ["read 'contaner' as 'container'"]


def test_a_misspelt_index_name_is_read_as_it(data_dir: Path) -> None:
    names = index_package_names(data_dir)
    assert "mdadm" in added("add mdadmm", names)
    assert "read 'mdadmm' as 'mdadm'" in reading_notices("add mdadmm", names)


def test_the_same_names_object_while_the_index_is_unchanged(data_dir: Path) -> None:
    assert index_package_names(data_dir) is index_package_names(data_dir)
    assert index_package_names(data_dir / "elsewhere") is None
