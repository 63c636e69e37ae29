"""A server with users: the page asks for a token once, keeps it for the tab only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import oic

from .conftest import UiServer, add_user, ui_server_at
from .driver import wait_until
from .page import ask, template_text, wait_ready


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[UiServer, str]]:
    """``oic-ai serve`` with one user, and that user's token."""
    root = tmp_path_factory.mktemp("guarded")
    token = add_user(root)
    with ui_server_at(root) as ui:
        yield ui, token


def answer_token(driver: Any, token: str) -> None:
    """Wait for the token question, type ``token`` and confirm."""
    from selenium.webdriver.common.by import By

    wait_until(
        driver,
        lambda d: d.execute_script("return document.querySelector('dialog').open"),
        "the token question",
    )
    dialog = driver.find_element(By.TAG_NAME, "dialog")
    assert "needs a token" in dialog.text
    field = driver.find_element(By.ID, "dialog-input")
    assert field.get_attribute("type") == "password"
    field.send_keys(token)
    driver.find_element(By.ID, "dialog-ok").click()


def open_with_token(driver: Any, url: str, token: str) -> None:
    """Load the page of a server with users, give ``token`` when it asks, wait until it starts."""
    driver.allowed_console.append("401")  # the refusals that make the page ask
    driver.get(url)
    answer_token(driver, token)
    wait_ready(driver, "the page to start with the token")


def test_the_page_asks_for_a_token_and_keeps_it_for_the_tab(
    guarded: tuple[UiServer, str], browser: Any
) -> None:
    ui, token = guarded
    browser.allowed_console.append("401")  # the refusals that make the page ask
    browser.get(ui.url)
    answer_token(browser, "not-a-token")
    answer_token(browser, token)  # a wrong token is refused and asked for again
    wait_ready(browser, "the page to start with the token")
    assert ask(browser, "a minimal ubuntu 24.04 image for x86_64") in (
        "valid",
        "valid_with_warnings",
    )
    assert "dist: ubuntu24" in template_text(browser)
    kept = browser.execute_script(
        "return [sessionStorage.getItem('oic-ai-token'), localStorage.length]"
    )
    assert kept == [token, 0]  # this tab only: nothing in localStorage
    # the session is alice's: the server lists it for her token, and for no one else
    listed = oic("sessions", "list", "--json", env={**ui.env, "OIC_AI_SERVER_URL": ui.server.url,
                                                     "OIC_AI_TOKEN": token})  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)["sessions"]) == 1
    # a new tab starts without the token and asks again
    browser.switch_to.new_window("tab")
    browser.get(ui.url)
    answer_token(browser, token)
    wait_ready(browser, "the second tab to start")


def test_without_a_token_the_api_refuses(guarded: tuple[UiServer, str], tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    ui, _ = guarded
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(ui.server.url + "/api/v1/sessions", timeout=30)
    assert refused.value.code == 401
