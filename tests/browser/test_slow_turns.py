"""Turns made slow on purpose (issue 25, points 2, 5 and 6): typing during a run, the live
answer bubble, and Stop.

The server plans with provider ``openai`` against a loopback fake model server
(``tests/support/fake_chat_server.py``) whose reply is delayed on demand, so a turn stays
inside ``generate`` as long as a test needs it to.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.fake_chat_server import FakeChatServer

from .conftest import UiServer, ui_server_at
from .driver import wait_until
from .page import (
    ask,
    button,
    by_label,
    idle,
    open_page,
    session_id,
    shot,
    status,
    template_text,
    turns,
    wait_turn,
    within,
)

CREATE = "minimal ubuntu 24.04 raw image for x86_64"
PLAN = {"summary": "add htop", "operations": [{"op": "add_packages", "packages": ["htop"]}]}
DELAY = 30.0  # the reply waits this long (or until the fake stops): far past any Stop


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[UiServer, FakeChatServer]]:
    """``oic-ai serve`` planning with ``openai`` on a fake model server that can be slowed."""
    with FakeChatServer([PLAN]) as chat:
        env = {
            "OIC_AI_PROVIDER": "openai",
            "OPENAI_BASE_URL": chat.openai_url,
            "OPENAI_API_KEY": "sk-test-page",
        }
        with ui_server_at(tmp_path_factory.mktemp("slow"), env=env) as ui:
            yield ui, chat


def start_slow_turn(driver: Any, chat: FakeChatServer, text: str) -> int:
    """Send ``text`` with the model slowed; returns once the model has the request."""
    chat.fail("slow", delay=DELAY)
    asked = len(chat.requests)
    before = turns(driver)
    box = by_label(driver, "Request")
    box.clear()
    box.send_keys(text)
    by_label(driver, "Send").click()
    wait_until(driver, lambda d: len(chat.requests) > asked, "the model to be asked", limit=120)
    return before


def start_create_turn(slow: tuple[UiServer, FakeChatServer], driver: Any) -> int:
    """A fresh page that sends the create request with the model slowed (see above)."""
    ui, chat = slow
    chat.fail(None)
    open_page(driver, ui.url)
    return start_slow_turn(driver, chat, CREATE)


def let_the_turn_finish(driver: Any, chat: FakeChatServer, before: int) -> None:
    """Wake the delayed reply now and wait for the turn to end."""
    chat.fail(None)
    chat.stopping.set()
    try:
        wait_turn(driver, before)
    finally:
        chat.stopping.clear()


def runs_of(ui: UiServer, thread: str) -> list[dict[str, Any]]:
    """The thread's runs, from the LangGraph API."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"{ui.server.url}/threads/{thread}/runs", timeout=30) as answer:
        return list(json.loads(answer.read()))


def test_text_typed_during_a_turn_is_never_touched(
    slow: tuple[UiServer, FakeChatServer], browser: Any
) -> None:
    chat = slow[1]
    before = start_create_turn(slow, browser)
    box = by_label(browser, "Request")
    assert box.get_attribute("value") == ""  # the sent request left the box once accepted
    box.send_keys("add vim to it")
    box.send_keys("\n")  # Enter while the turn runs: nothing is sent, nothing is cleared
    assert box.get_attribute("value") == "add vim to it"
    shot(browser, "typing-during-run")
    let_the_turn_finish(browser, chat, before)
    assert box.get_attribute("value") == "add vim to it"
    assert "add vim to it" not in browser.find_element("id", "conversation").text


def test_one_live_answer_bubble_per_turn(
    slow: tuple[UiServer, FakeChatServer], browser: Any
) -> None:
    chat = slow[1]
    before = start_create_turn(slow, browser)
    conversation = browser.find_element("id", "conversation")
    pending = within(conversation, "li.assistant.pending")
    assert len(pending) == 1
    steps_list = by_label(browser, "Steps")
    assert within(pending[0], 'ol[aria-label="Steps"]') == [steps_list]
    assert steps_list.is_displayed() and within(steps_list, '[data-node="classify"]')
    inside = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.top >= 0 && r.top < window.innerHeight;",
        pending[0],
    )
    assert inside, "the pending answer is not scrolled into view"
    shot(browser, "pending")
    let_the_turn_finish(browser, chat, before)
    answers = within(conversation, "li.assistant")
    assert len(answers) == 1 and not within(conversation, "li.pending")
    # the steps fold into one line that expands
    box = within(answers[0], "details.steps-box")[0]
    assert box.get_attribute("open") is None
    line = within(box, "summary")[0].text
    assert "\n" not in line and "steps" in line and "Valid" in line, line
    within(box, "summary")[0].click()
    assert by_label(browser, "Steps").is_displayed()


def test_stop_cancels_the_run_and_keeps_the_template(
    slow: tuple[UiServer, FakeChatServer], browser: Any
) -> None:
    ui, chat = slow
    chat.fail(None)
    open_page(browser, ui.url)
    assert ask(browser, CREATE) in ("valid", "valid_with_warnings")
    good = template_text(browser)
    sid = session_id(browser)
    start_slow_turn(browser, chat, "add curl")
    stop = wait_until(
        browser, lambda d: (lambda b: b if b.is_enabled() else None)(button(d, "Stop")), "Stop"
    )
    shot(browser, "before-stop")
    stop.click()
    wait_until(browser, idle, "the stopped turn to end", limit=30)
    assert chat.fault == "slow"  # the model never answered: the stop did not wait for it
    answer = within(browser.find_element("id", "conversation"), "li.assistant")[-1]
    assert "stopped" in answer.text.lower()
    assert template_text(browser) == good
    assert status(browser) in ("valid", "valid_with_warnings")
    assert [r["status"] for r in runs_of(ui, sid)][0] == "interrupted"  # the newest first
    shot(browser, "stopped")
    # a reload shows the same: the last good template and its status
    browser.refresh()
    open_page(browser, browser.current_url)
    wait_until(browser, lambda d: template_text(d) == good, "the template after a reload")
    assert status(browser) in ("valid", "valid_with_warnings")
    # the session goes on from its last good template
    chat.fail(None)
    assert ask(browser, "add htop") in ("valid", "valid_with_warnings")
    assert session_id(browser) == sid and "- htop" in template_text(browser)
    browser.refresh()
    open_page(browser, browser.current_url)
    wait_until(browser, lambda d: "- htop" in template_text(d), "the session after a reload")
