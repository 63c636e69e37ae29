"""What a user does on the page, in terms of its contract ``aria-label``s.

Only the labels in the issue (Request, Send, Template, Status, Steps, Template editor,
Findings, Sessions, Library) and visible texts are used to find things, so a test breaks
when the page stops being usable by a screen reader the same way.
"""

from __future__ import annotations

import re
from typing import Any

from .driver import wait_until

FINAL = ("valid", "valid_with_warnings", "invalid")
CREATE = "minimal ubuntu 24.04 raw image for x86_64 with htop"  # the usual first request


def by_label(driver: Any, label: str) -> Any:
    """The one element with ``aria-label=label``."""
    from selenium.webdriver.common.by import By

    found = driver.find_elements(By.CSS_SELECTOR, f'[aria-label="{label}"]')
    assert len(found) == 1, f"{len(found)} elements labelled {label!r}"
    return found[0]


def within(element: Any, css: str) -> list[Any]:
    """Elements under ``element`` matching ``css``."""
    from selenium.webdriver.common.by import By

    return list(element.find_elements(By.CSS_SELECTOR, css))


def button(driver: Any, text: str, scope: Any = None) -> Any:
    """The visible button whose text or aria-label is ``text``."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    root = scope or driver
    for _ in range(5):  # a list redrawn meanwhile (sessions refresh after a turn): look again
        try:
            for candidate in root.find_elements(By.TAG_NAME, "button"):
                if candidate.is_displayed() and text in (
                    candidate.text.strip(),
                    candidate.get_attribute("aria-label"),
                ):
                    return candidate
        except StaleElementReferenceException:
            continue
        break
    raise AssertionError(f"no visible button {text!r}")


def wait_ready(driver: Any, what: str = "the page to start") -> None:
    """Wait until the page has started (listed the sessions); ``what`` names it on a timeout."""
    wait_until(
        driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), what
    )


def open_page(driver: Any, url: str) -> None:
    """Load the page and wait until it has listed the sessions."""
    driver.get(url)
    wait_ready(driver)


def idle(driver: Any) -> bool:
    """True when no turn is running."""
    return not driver.execute_script("return document.body.classList.contains('busy')")


def wait_turn(driver: Any, turns_before: int) -> str:
    """Wait for the turn after ``turns_before`` to end; returns the final status."""
    wait_until(
        driver,
        lambda d: idle(d) and d.execute_script("return window.oicTimings.turns") > turns_before,
        "the turn to finish",
    )
    return status(driver)


def status(driver: Any) -> str:
    """The status of the session on the page (the badge's ``data-status``)."""
    badge = by_label(driver, "Status")
    value = str(badge.get_attribute("data-status") or badge.text)  # the text before issue 25
    assert value in FINAL, (value, badge.text, alert(driver))
    return value


def turns(driver: Any) -> int:
    """Turns the page has run since it was loaded."""
    return int(driver.execute_script("return window.oicTimings.turns"))


def ask(driver: Any, text: str) -> str:
    """Type ``text`` into Request, press Send, wait for the turn; returns the status."""
    before = turns(driver)
    box = by_label(driver, "Request")
    box.clear()
    box.send_keys(text)
    by_label(driver, "Send").click()
    return wait_turn(driver, before)


def steps(driver: Any) -> list[str]:
    """The nodes of the Steps list, in order."""
    return [
        str(item.get_attribute("data-node"))
        for item in within(by_label(driver, "Steps"), ":scope > li")
    ]


def step_texts(driver: Any) -> list[str]:
    """The texts of the Steps list, in order (folded away or not)."""
    return [
        " ".join(str(item.get_attribute("textContent")).split())
        for item in within(by_label(driver, "Steps"), ":scope > li")
    ]


def alert(driver: Any) -> str:
    """The page's error message ('' when none shows)."""
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.CSS_SELECTOR, '[role="alert"]')
    return str(box.text) if box.is_displayed() else ""


def send_while_down(driver: Any, text: str) -> tuple[Any, str]:
    """Type ``text`` and Send after the page's server has stopped.

    Returns the Request box and the error message the page then shows.
    """
    driver.allowed_console.extend(["ERR_CONNECTION_REFUSED", "Failed to fetch"])
    box = by_label(driver, "Request")
    box.send_keys(text)
    by_label(driver, "Send").click()
    return box, wait_until(driver, alert, "the error message")


def editor_text(driver: Any) -> str:
    """The editor's current text."""
    return str(by_label(driver, "Template editor").get_attribute("value"))


def template_text(driver: Any) -> str:
    """The YAML the Template view shows (line numbers are CSS, not text)."""
    return str(
        driver.execute_script("return arguments[0].textContent", by_label(driver, "Template"))
    )


def tab(driver: Any, name: str) -> None:
    """Select a tab by its text."""
    from selenium.webdriver.common.by import By

    for candidate in driver.find_elements(By.CSS_SELECTOR, '[role="tab"]'):
        if candidate.text.strip() == name:
            candidate.click()
            return
    raise AssertionError(f"no tab {name!r}")


def set_editor(driver: Any, text: str) -> None:
    """Replace the editor's text as typing would (an input event follows)."""
    editor = by_label(driver, "Template editor")
    driver.execute_script(
        "arguments[0].value = arguments[1];"
        "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
        editor,
        text,
    )


def findings(driver: Any) -> list[tuple[int | None, str, str]]:
    """(line, level, text) of each finding in the Findings list."""
    out: list[tuple[int | None, str, str]] = []
    for item in within(by_label(driver, "Findings"), "li.finding"):
        line = item.get_attribute("data-line")
        level = "error" if "error" in str(item.get_attribute("class")) else "warning"
        out.append((int(line) if line else None, level, str(item.text)))
    return out


def session_id(driver: Any) -> str:
    """The session on the page, from the address (``#session=ID``)."""
    match = re.search(r"session=([0-9a-f-]{36})", str(driver.current_url))
    assert match, driver.current_url
    return match.group(1)


def shot(driver: Any, name: str) -> None:
    """A screenshot into the run's screenshot folder."""
    driver.save_screenshot(str(driver.shots / f"{driver.shot_prefix}-{name}.png"))


def unfold_steps(driver: Any) -> Any:
    """Expand the last turn's folded steps (a click on their one-line summary)."""
    from selenium.webdriver.common.by import By

    steps_list = by_label(driver, "Steps")
    box = steps_list.find_element(By.XPATH, "./ancestor::details[1]")
    if box.get_attribute("open") is None:
        box.find_element(By.TAG_NAME, "summary").click()
    return steps_list
