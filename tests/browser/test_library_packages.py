"""The library, the Packages tab and long requests (issue 25, points 13, 14 and 15).

The server runs where the composer's own config is found (``os-image-composer.yml`` in its
working folder, as the composer looks for it), with a ``config_dir`` that holds the
upstream layout ``osv/<os>/<dist>/providerconfigs/``, so the page can name the
providerconfig for the template's target.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import UiServer, ui_server_at
from .driver import wait_until
from .page import CREATE, ask, button, by_label, open_page, shot, tab, turns, within


@pytest.fixture(scope="module")
def composer_ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[UiServer, Path]]:
    """``oic-ai serve`` in a folder with the composer's config and an amd64 providerconfig."""
    root = tmp_path_factory.mktemp("composer")
    configs = root / "composer-config" / "osv" / "ubuntu" / "ubuntu24" / "providerconfigs"
    configs.mkdir(parents=True)
    provider = configs / "amd64_repo.yml"
    provider.write_text(
        "name: ubuntu24-main\ntype: deb\nbaseURL: http://archive.example.com/ubuntu\n"
        "component: main\ngpgCheck: false\n"
    )
    (root / "os-image-composer.yml").write_text("config_dir: composer-config\nworkers: 2\n")
    with ui_server_at(root) as ui:
        yield ui, provider


def test_the_library_filters_as_you_type_and_previews_wide(
    composer_ui: tuple[UiServer, Path], browser: Any
) -> None:
    ui, _ = composer_ui
    open_page(browser, ui.url)
    tab(browser, "Library")
    library = by_label(browser, "Library")
    wait_until(browser, lambda d: len(within(library, "li[data-template]")) > 5, "the library")
    everything = len(within(library, "li[data-template]"))
    browser.find_element("id", "search-q").send_keys("debian")  # no Enter, no button
    wait_until(
        browser,
        lambda d: 0 < len(within(library, "li[data-template]")) < everything,
        "the list to filter",
    )
    for row in within(library, "li[data-template]"):
        assert "debian" in row.text.lower()
    # Search ranks by meaning and keeps the descriptions
    button(browser, "Search").click()
    wait_until(browser, lambda d: "semantic" in library.text, "scored results")
    first = within(library, "li[data-template]")[0]
    description = within(first, "div.meta")
    assert description and "·" in description[0].text, first.text
    # the preview opens in the wide panel, with description, target and package count
    within(first, "button.open")[0].click()
    panel = by_label(browser, "Template panel")
    preview = browser.find_element("id", "library-preview")
    wait_until(browser, lambda d: preview.is_displayed(), "the preview")
    assert within(panel, "#library-preview") == [preview]
    info = browser.find_element("id", "preview-info").text
    assert "debian" in info and "packages" in info and "·" in info, info
    assert preview.size["width"] > by_label(browser, "Sessions and library").size["width"]
    shot(browser, "library-preview")
    button(browser, "Close").click()
    assert not preview.is_displayed()


def test_the_packages_tab_lists_names_the_providerconfig_and_the_command(
    composer_ui: tuple[UiServer, Path], browser: Any
) -> None:
    ui, provider = composer_ui
    open_page(browser, ui.url)
    ask(browser, CREATE)
    tab(browser, "Packages")
    pane = browser.find_element("id", "pane-packages")
    wait_until(browser, lambda d: within(pane, ".chip"), "the package list")
    marks = {
        c.get_attribute("data-package"): c.get_attribute("data-mark") for c in within(pane, ".chip")
    }
    assert marks.get("htop") == "unverified" and set(marks.values()) == {"unverified"}, marks
    assert "no package index for ubuntu24/x86_64" in pane.text
    assert within(pane, "code.providerconfig")[0].text == str(provider)
    command = within(pane, "code.cmd")[0].text
    assert command == (
        f"oic-ai packages sync --repo-config {provider} --dist ubuntu24 --arch x86_64"
    )
    copy = button(browser, "Copy the sync command")
    copy.click()
    wait_until(browser, lambda d: copy.text == "Copied", "the copy confirmation")
    shot(browser, "packages-tab")


def test_a_long_request_states_the_limit_before_send(
    composer_ui: tuple[UiServer, Path], browser: Any
) -> None:
    ui, _ = composer_ui
    open_page(browser, ui.url)
    count = browser.find_element("id", "request-count")
    assert "2000" in count.text  # the limit is there before anything is typed
    box = by_label(browser, "Request")
    text = "minimal ubuntu 24.04 raw image for x86_64 " + "with htop " * 210
    browser.execute_script(
        "arguments[0].value = arguments[1];"
        "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
        box,
        text,
    )
    wait_until(browser, lambda d: "over the limit" in count.text, "the over-limit warning")
    assert f"{len(text)} / 2000" in count.text and count.is_displayed()
    assert box.get_attribute("aria-invalid") == "true"
    assert turns(browser) == 0  # stated before Send
    shot(browser, "long-request")
