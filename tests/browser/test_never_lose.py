"""Never lose what the user typed (issue 25, points 1, 3 and 4): a failed Send keeps the
text and offers Retry, unapplied edits survive a switch and a reload, and a deliberate edit
is never fixed without asking."""

from __future__ import annotations

from typing import Any

from .conftest import UiServer
from .driver import wait_until
from .page import (
    CREATE,
    ask,
    button,
    by_label,
    editor_text,
    findings,
    open_page,
    send_while_down,
    session_id,
    set_editor,
    shot,
    status,
    steps,
    tab,
    template_text,
    turns,
    wait_turn,
    within,
)


def dialog_focus(driver: Any) -> str:
    """The id of the focused element once the page's dialog is open."""
    wait_until(
        driver, lambda d: d.execute_script("return document.getElementById('dialog').open"), "dlg"
    )
    return str(driver.execute_script("return document.activeElement.id"))


def test_a_failed_send_keeps_the_text_and_offers_retry(browser: Any, stopped_server: str) -> None:
    box, message = send_while_down(browser, "add vim and curl")
    assert message.startswith("Lost the connection to the server"), message
    assert box.get_attribute("value") == "add vim and curl"  # nothing typed is lost
    conversation = browser.find_element("id", "conversation")
    failed = within(conversation, "li.user.failed")
    assert len(failed) == 1 and "add vim and curl" in failed[0].text
    assert not within(conversation, "li.pending")
    visible = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.bottom > 0 && r.top < window.innerHeight;",
        failed[0],
    )
    assert visible, "the failed request is out of view"
    retry = button(browser, "Retry", failed[0])
    shot(browser, "failed-send")
    retry.click()  # tried again: still down, one failed bubble, the text still there
    wait_until(browser, lambda d: len(within(conversation, "li.user.failed")) == 1, "retry")
    wait_until(browser, lambda d: by_label(d, "Send").is_enabled(), "the retry to end")
    assert len(within(conversation, "li.user.failed")) == 1
    assert box.get_attribute("value") == "add vim and curl"


def test_an_unapplied_edit_survives_a_switch_and_a_reload(
    ui_server: UiServer, browser: Any
) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    first = session_id(browser)
    good = template_text(browser)
    tab(browser, "Editor")
    drafted = good.replace("hostname: ubuntu-minimal", "hostname: my-draft-host")
    assert drafted != good
    set_editor(browser, drafted)
    # another session, then back: the draft is still there
    button(browser, "New session").click()
    assert editor_text(browser) == ""
    ask(browser, "debian 13 minimal raw image for x86_64")
    second = session_id(browser)

    def open_first(driver: Any) -> bool:
        # the list re-renders when the second session lands: find the row and click it in
        # one go, again if it went stale in between
        rows = within(by_label(driver, "Sessions"), f'li[data-session="{first}"] button.open')
        if rows:
            rows[0].click()
        return bool(rows)

    wait_until(browser, open_first, "the first session's row")
    wait_until(browser, lambda d: session_id(d) == first, "the first session")
    wait_until(browser, lambda d: editor_text(d) == drafted, "the draft after a switch")
    # a reload: the draft comes back, marked as not applied; the template is unchanged
    browser.refresh()
    open_page(browser, browser.current_url)
    wait_until(browser, lambda d: editor_text(d) == drafted, "the draft after a reload")
    assert template_text(browser) == good
    assert "not applied" in browser.find_element("id", "edit-state").text
    shot(browser, "draft-restored")
    # Revert asks first, with Cancel focused; keeping it keeps the draft
    button(browser, "Revert").click()
    assert dialog_focus(browser) == "dialog-cancel"
    browser.find_element("id", "dialog-cancel").click()
    assert editor_text(browser) == drafted
    button(browser, "Revert").click()
    dialog_focus(browser)
    browser.find_element("id", "dialog-ok").click()
    wait_until(browser, lambda d: editor_text(d) == good, "the revert")
    browser.refresh()
    open_page(browser, browser.current_url)
    assert editor_text(browser) == good  # discarded for good
    assert second != first


def test_a_deliberate_edit_is_not_fixed_without_asking(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    good = template_text(browser)
    tab(browser, "Editor")
    moved = good.replace("      start: 257MiB\n", "      start: 200MiB\n", 1)
    assert moved != good
    set_editor(browser, moved)
    before = turns(browser)
    button(browser, "Apply").click()
    assert wait_turn(browser, before) == "invalid"
    assert "fix" not in steps(browser)
    assert template_text(browser) == good  # the session keeps its last good template
    assert editor_text(browser) == moved  # and the edit stays as written
    codes = [
        item.get_attribute("data-code")
        for item in within(by_label(browser, "Findings"), "li.finding")
    ]
    assert "partition-overlap" in codes, (codes, findings(browser))
    answer = within(browser.find_element("id", "conversation"), "li.assistant")[-1]
    assert "kept as you wrote it" in answer.text
    shot(browser, "own-edit-invalid")
    before = turns(browser)
    button(browser, "Fix it", answer).click()
    assert wait_turn(browser, before) in ("valid", "valid_with_warnings")
    assert "fix" in steps(browser)
    assert "start: 200MiB" not in template_text(browser)
    assert status(browser) in ("valid", "valid_with_warnings")
