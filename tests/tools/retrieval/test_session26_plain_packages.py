"""A plain base asked for with packages after it: the packages are additions, not a purpose.

"ubuntu 24.04 minimal raw with nginx" started from the web-server template (its /var/www
and /var/log partitions, its hostname web01): the purpose reading already read nginx as an
addition to the minimal base, but the package part of the score still counted it for the
template that has nginx. A request without "minimal" still finds the web server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.settings import load_settings
from oic_ai.tools.search_templates import open_search


@pytest.fixture(scope="module")
def search(tmp_path_factory: pytest.TempPathFactory) -> Any:
    data = Path(tmp_path_factory.mktemp("search")) / "data"
    return open_search(load_settings(data_dir=data, env={}, provider="builtin"))


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("ubuntu 24.04 minimal raw with nginx", "ubuntu24-x86_64-minimal-raw.yml"),
        (
            "ubuntu 24.04 minimal raw with htop, tmux, jq and nginx",
            "ubuntu24-x86_64-minimal-raw.yml",
        ),
        ("a bare ubuntu 24.04 image, add nginx", "ubuntu24-x86_64-minimal-raw.yml"),
        ("ubuntu 24.04 with nginx", "ubuntu24-x86_64-web-server-raw.yml"),
        ("ubuntu 24.04 web server with nginx", "ubuntu24-x86_64-web-server-raw.yml"),
    ],
)
def test_packages_after_a_plain_base_do_not_pick_another_base(
    search: Any, query: str, first: str
) -> None:
    results = search.search(query, top_k=3, filters={"dist": "ubuntu24"}, default_arch="x86_64")
    assert results.results[0].template == first, [r.template for r in results.results]


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("unattended-upgrades must be installed", "unattended-upgrades must be installed"),
        ("make sure nginx is installed", "make sure nginx is installed"),
        ("add dokcer", "add docker"),  # a misspelling is still read
        ("debain 13 minimal", "debian 13 minimal"),
        ("instal htop", "install htop"),
    ],
)
def test_another_ending_of_an_english_word_is_no_misspelling(said: str, read: str) -> None:
    from oic_ai.tools.retrieval.spelling import read_cached

    assert read_cached(said).expanded == read


def test_installed_asks_for_no_installer(search: Any) -> None:
    classified = search.classify("aide and fail2ban must be installed")
    assert "image_type" not in classified.targets
