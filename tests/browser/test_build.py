"""The page's Build action on a server with a composer and a user: stages, then verify.

``oic-ai serve`` runs with ``ai.composer.path`` naming a recorded real composer run,
replayed (tests/support/replay_composer.py), which "builds" a small real image; the
server reads that image and streams the stages and the verify table to the page. The
real composer runs in ``make e2e-build``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES
from tests.stores.test_composer_run import replay_composer
from tests.support.disk_images import built_image

from .conftest import UiServer, add_user, ui_server_at
from .driver import wait_until
from .page import ask, by_label, open_page
from .test_token import open_with_token


@pytest.fixture(scope="module")
def builder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[UiServer, str]]:
    """A server with user alice and a composer (the replayed run), and alice's token."""
    root = tmp_path_factory.mktemp("builder")
    token = add_user(root)
    composer = replay_composer(root)
    (root / "config.yaml").write_text(f"ai:\n  composer:\n    path: {composer}\n")
    with pytest.MonkeyPatch.context() as patch:  # the server inherits the replay's settings
        patch.setenv("OIC_REPLAY_LOG", str(FIXTURES / "composer" / "build-ok.log"))
        patch.setenv("OIC_REPLAY_ARTIFACTS", str(root / "artifacts"))
        patch.setenv("OIC_REPLAY_IMAGE", str(built_image(root / "made.raw")))
        with ui_server_at(root) as ui:
            yield ui, token


def test_build_streams_the_stages_then_shows_the_verify_table(
    builder: tuple[UiServer, str], browser: Any
) -> None:
    ui, token = builder
    open_with_token(browser, ui.url, token)
    wait_until(browser, lambda d: by_label(d, "Build").is_displayed(), "the Build button")
    ask(browser, "a minimal debian 13 raw image with hostname build-01")
    by_label(browser, "Build").click()
    log = by_label(browser, "Build log")
    if os.geteuid() != 0:  # the server says so in one line
        wait_until(browser, lambda d: "needs root" in log.text, "the refusal")
        return
    wait_until(browser, lambda d: "Built:" in log.text, "the build to finish", limit=120)
    assert "install packages: Image package installation..." in log.text
    table = by_label(browser, "Verify")
    rows = table.find_elements("css selector", "tr")
    assert len(rows) > 10
    texts = [row.text for row in rows]
    assert any(t.startswith("ok os") for t in texts)
    assert any("hostname" in t and "build-01" in t and "fixture-host" in t for t in texts)
    browser.save_screenshot(str(browser.shots / f"{browser.shot_prefix}-verify.png"))


def test_without_a_composer_the_page_has_no_build_action(browser: Any, tmp_path: Path) -> None:
    with ui_server_at(tmp_path) as ui:
        open_page(browser, ui.url)
        assert not by_label(browser, "Build").is_displayed()
