"""Answers people can read (issue 25, points 5, 7, 8 and 9): one bubble per turn with what
belongs to it, the status as a badge with its warnings in Findings, formatted answers with
Copy and relative times, and the Summary tab beside YAML, Diff and Editor."""

from __future__ import annotations

from typing import Any

from .conftest import UiServer
from .driver import wait_until
from .page import (
    CREATE,
    ask,
    button,
    by_label,
    findings,
    open_page,
    session_id,
    shot,
    tab,
    template_text,
    within,
)

NOT_APPLIED = "add vim and make it minimal"


def conversation(driver: Any) -> Any:
    """The list of turns."""
    return driver.find_element("id", "conversation")


def answers(driver: Any) -> list[Any]:
    """The answer bubbles, oldest first."""
    return within(conversation(driver), "li.assistant")


def test_each_turn_is_one_answer_with_only_its_own_details(
    ui_server: UiServer, browser: Any
) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    ask(browser, NOT_APPLIED)
    bubbles = answers(browser)
    assert len(bubbles) == 2 and len(within(conversation(browser), "li.user")) == 2
    # sources only on the turn that retrieved
    assert within(bubbles[0], "table.scores") and not within(bubbles[1], "table.scores")
    # "not applied" once
    text = str(conversation(browser).get_attribute("textContent"))
    assert text.count("make it minimal' — no rule") == 1, text
    # the package-sync hint once, in the Packages tab, not in any answer
    assert "packages sync" not in text
    tab(browser, "Packages")
    pane = browser.find_element("id", "pane-packages")
    wait_until(browser, lambda d: "oic-ai packages sync" in pane.text, "the sync command")
    shot(browser, "answers")


def test_the_status_is_a_badge_and_its_warnings_are_findings(
    ui_server: UiServer, browser: Any
) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    assert ask(browser, "add photoshop") == "valid_with_warnings"
    badge = by_label(browser, "Status")
    warnings = [f for f in findings(browser) if f[1] == "warning"]
    assert warnings, "valid_with_warnings with no findings"
    assert any("photoshop" in f[2] for f in warnings), warnings  # a package warning
    expected = f"Valid · {len(warnings)} warning" + ("s" if len(warnings) > 1 else "")
    assert badge.text == expected, (badge.text, warnings)
    colour = browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor", badge)
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent")
    assert "No findings" not in by_label(browser, "Findings").text
    shot(browser, "badge")


def test_answers_are_formatted_with_copy_and_times(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    ask(browser, "add vim and curl")
    last = answers(browser)[-1]
    changes = within(last, "ul.changes > li")
    assert changes, last.text
    assert {"vim", "curl"} <= {c.text for c in within(last, "ul.changes code")}
    assert "Changes:" not in last.text  # a list, not a run-on line
    times = within(last, "time")
    assert times and times[0].text == "just now"
    session_row = within(by_label(browser, "Sessions"), "li[aria-current='true']")[0]
    assert within(session_row, "time")[0].text == "just now"
    copy = button(browser, "Copy answer 2")
    copy.click()
    wait_until(browser, lambda d: copy.text == "Copied", "the copy confirmation")
    shot(browser, "formatted")


def test_summary_and_a_diff_not_emptied_by_a_question(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    ask(browser, "add vim")
    ask(browser, "what does this template do?")
    tabs = [t.text for t in browser.find_elements("css selector", '[role="tab"]')]
    assert tabs[-5:] == ["Summary", "YAML", "Diff", "Editor", "Packages"], tabs
    tab(browser, "Summary")
    summary = browser.find_element("id", "summary")
    wait_until(browser, lambda d: "ubuntu24" in summary.text, "the summary")
    assert "x86_64" in summary.text and "raw" in summary.text
    segments = within(summary, ".diskbar .seg")
    assert [s.text for s in segments] == ["/boot/efi", "/"]
    widths = [s.size["width"] for s in segments]
    assert widths[1] > widths[0] * 5  # the root takes most of the disk
    marks = {
        c.get_attribute("data-package"): c.get_attribute("data-mark")
        for c in within(summary, ".chip")
    }
    assert marks.get("htop") == "unverified" and marks.get("vim") == "unverified", marks
    assert "users" in summary.text.lower() and "repositories" in summary.text.lower()
    shot(browser, "summary")
    tab(browser, "Diff")
    caption = browser.find_element("id", "diff-caption")
    wait_until(browser, lambda d: "Turn 2" in caption.text, "the last real change")
    added = [e.text for e in within(browser.find_element("id", "diff"), ".d-add")]
    assert any("- vim" in line for line in added), added  # the question changed nothing


HOLD_THE_READ_BACK = """
const done = arguments[arguments.length - 1];
const original = window.fetch;
window.oicQueued = null;
window.fetch = async (path, init) => {
  const url = String(path), method = (init && init.method) || "GET";
  const id = (url.match(/\\/threads\\/([^/?]+)/) || [])[1];
  if (method === "POST" && url.endsWith("/runs/stream")) {
    const response = await original(path, init);
    // another client's turn, queued on the same session while this one runs
    const queued = await original(`/threads/${id}/runs`, { method: "POST",
      headers: init.headers, body: JSON.stringify({ assistant_id: "oic-ai",
        input: { messages: [{ role: "user", content: "add vim" }] },
        multitask_strategy: "enqueue" }) });
    window.oicQueued = (await queued.json()).run_id;
    return response;
  }
  if (method === "GET" && /\\/state$/.test(url) && window.oicQueued) {
    // a read of the thread after the turn: by then the queued turn has run
    const headers = init && init.headers;
    await original(`/threads/${id}/runs/${window.oicQueued}/join`, { headers });
  }
  return original(path, init);
};
done();
"""


def test_a_turn_shows_its_own_result_when_another_client_queued_the_next(
    ui_server: UiServer, browser: Any
) -> None:
    """The answer, template and status are this run's, not the thread's a moment later."""
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    browser.execute_async_script(HOLD_THE_READ_BACK)
    ask(browser, "add tmux")
    assert browser.execute_script("return window.oicQueued"), "the second run was not queued"
    last = answers(browser)[-1]
    assert last.get_attribute("data-turn") == "2"
    assert "tmux" in last.text and "vim" not in last.text, last.text
    shown = template_text(browser)
    assert "- tmux" in shown and "- vim" not in shown
    # the queued turn ran after it: a reload shows it as turn 3
    browser.execute_script(
        "return fetch(`/threads/${arguments[0]}/runs/${window.oicQueued}/join`)",
        session_id(browser),
    )
    browser.refresh()
    open_page(browser, browser.current_url)
    wait_until(browser, lambda d: "- vim" in template_text(d), "the queued turn after a reload")
    assert answers(browser)[-1].get_attribute("data-turn") == "3"
