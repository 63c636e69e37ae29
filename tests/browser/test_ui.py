"""The browser front door, end to end: headless Debian Chromium against a real ``oic-ai serve``.

Every test drives the page only through what a user sees (the contract's aria-labels and
visible texts) and checks the outcome on the page and, where it matters, on disk or
through the CLI. The ``browser`` fixture fails a test that leaves console errors.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import OUR_TEMPLATES

from .conftest import UiServer, ui_server_at
from .driver import wait_until
from .page import (
    CREATE,
    alert,
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
    step_texts,
    steps,
    tab,
    template_text,
    turns,
    unfold_steps,
    wait_turn,
    within,
)


def line_of(text: str, needle: str) -> int:
    """The 1-based number of the first line of ``text`` containing ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the text")


def wait_findings(driver: Any, what: str, check: Any) -> list[tuple[int | None, str, str]]:
    """Wait until the Findings list satisfies ``check``; returns it."""
    seen: list[list[tuple[int | None, str, str]]] = []

    def ready(d: Any) -> bool:
        seen[:] = [findings(d)]
        return bool(check(seen[0]))

    wait_until(driver, ready, what)
    return seen[0]


def answer_dialog(driver: Any, value: str | None, ok: bool = True) -> None:
    """Fill the page's dialog (when it has a field) and press its OK or Cancel button."""
    from selenium.webdriver.common.by import By

    dialog = wait_until(
        driver,
        lambda d: (lambda x: x if x.is_displayed() else None)(d.find_element(By.ID, "dialog")),
        "the dialog",
    )
    seq = dialog.get_attribute("data-seq")
    if value is not None:
        field = dialog.find_element(By.ID, "dialog-input")
        field.clear()
        field.send_keys(value)
    dialog.find_element(By.ID, "dialog-ok" if ok else "dialog-cancel").click()
    # closed, or already the next question (the same <dialog>, asked again)
    wait_until(
        driver,
        lambda d: not dialog.is_displayed() or dialog.get_attribute("data-seq") != seq,
        "the dialog to close",
    )


def notice(driver: Any) -> str:
    """The page's last notice."""
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.CSS_SELECTOR, '[role="status"]').text)


def sessions_json(ui: UiServer) -> list[dict[str, Any]]:
    """``oic-ai sessions list --json`` on the server's data folder."""
    done = ui.cli("sessions", "list", "--json")
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout)["sessions"])


def test_create_refine_and_watch_the_steps(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    assert ask(browser, CREATE) in ("valid", "valid_with_warnings")
    nodes = steps(browser)
    assert nodes[:3] == ["classify", "retrieve", "generate"], nodes
    assert nodes.index("validate") < nodes.index("verify_packages") < nodes.index("respond")
    texts = step_texts(browser)
    assert "classify: create" in texts[0]
    unfold_steps(browser)
    retrieve = within(by_label(browser, "Steps"), '[data-node="retrieve"]')[0]
    assert "candidate templates" in retrieve.text
    header = [th.text for th in within(retrieve, "th")]
    assert header == ["template", "score", "semantic", "keyword", "package"]
    assert "ubuntu24-x86_64-minimal-raw.yml" in retrieve.text
    template = template_text(browser)
    assert "dist: ubuntu24" in template and "- htop" in template
    # the answer: summary, sources with their scores
    answer = within(browser.find_element("id", "conversation"), "li.assistant")[-1]
    assert "Started from ubuntu24-x86_64-minimal-raw.yml" in answer.text
    assert "sources" in answer.text.lower() and "0." in answer.text
    # highlighting: keys and comments are marked up, the text is unchanged
    assert within(by_label(browser, "Template"), ".y-key")
    shot(browser, "created")

    assert ask(browser, "add vim") in ("valid", "valid_with_warnings")
    assert "retrieve" not in steps(browser)  # a refinement does not search again
    assert "classify: refine" in step_texts(browser)[0]
    assert "- vim" in template_text(browser)
    tab(browser, "Diff")
    added = [e.text for e in within(browser.find_element("id", "diff"), ".d-add")]
    assert any(line.rstrip().endswith("+ - vim") or "- vim" in line for line in added), added
    shot(browser, "refined-diff")


def test_download_and_copy(ui_server: UiServer, browser: Any, tmp_path: Path) -> None:
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    browser.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    button(browser, "Download .yml").click()
    saved = wait_until(browser, lambda d: [p for p in downloads.glob("*.yml")], "the download")
    assert saved[0].name == "ubuntu24-x86_64-minimal-htop.yml"  # the base spells it so
    assert saved[0].read_text() == template_text(browser)
    button(browser, "Copy", by_label(browser, "Template panel")).click()
    wait_until(browser, lambda d: "copied" in notice(d), "the copy notice")


def test_an_edit_shows_its_finding_on_its_line(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    tab(browser, "Editor")
    text = editor_text(browser)
    assert text == template_text(browser)
    line = line_of(text, "compression: zstd")
    set_editor(browser, text.replace("compression: zstd", "compression: zst"))
    found = wait_findings(browser, "a finding", lambda f: any(x[0] == line for x in f))
    assert [x for x in found if x[0] == line][0][1] == "error"
    assert f"line {line}" in [x for x in found if x[0] == line][0][2]
    gutter = browser.find_element("css selector", f'#gutter [data-line="{line}"]')
    assert "finding" in gutter.get_attribute("class") and "error" in gutter.get_attribute("class")
    # a click on the finding selects its line in the editor
    within(by_label(browser, "Findings"), f'li[data-line="{line}"] button')[0].click()
    selected = browser.execute_script(
        "const e = arguments[0]; return e.value.slice(e.selectionStart, e.selectionEnd)",
        by_label(browser, "Template editor"),
    )
    assert selected.strip() == "compression: zst"
    shot(browser, "finding")
    # fixing the text clears the finding (live, without Apply)
    set_editor(browser, text)
    wait_findings(browser, "no error", lambda f: not [x for x in f if x[1] == "error"])


def test_apply_fixes_and_save_into_the_library(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    tab(browser, "Editor")
    text = editor_text(browser)
    edited = text.replace("    - htop\n", "    - htop\n    - tmux\n    - tmux\n")
    assert edited != text
    set_editor(browser, edited)
    wait_findings(browser, "the duplicate", lambda f: any("tmux" in x[2] for x in f))
    before = turns(browser)
    button(browser, "Apply").click()
    # the user's own edit is reported, not fixed without asking (issue 25, point 4)
    assert wait_turn(browser, before) == "invalid"
    assert "fix" not in steps(browser)
    before = turns(browser)
    button(browser, "Fix it").click()
    assert wait_turn(browser, before) in ("valid", "valid_with_warnings")
    nodes = steps(browser)
    assert "generate" not in nodes and "retrieve" not in nodes, nodes  # an edit is not planned
    assert "fix" in nodes
    assert any("fixed 1 error" in t for t in step_texts(browser)), step_texts(browser)
    applied = template_text(browser)
    assert applied.count("- tmux") == 1
    shot(browser, "applied")

    # Save: a name, written into the library folder, found by the library's search
    button(browser, "Save").click()
    answer_dialog(browser, "browser-saved")
    wait_until(browser, lambda d: "Saved as" in notice(d), "the saved notice")
    saved = ui_server.templates / "browser-saved.yml"
    assert saved.read_text() == editor_text(browser)
    # the same name again: asked, and Cancel keeps the file
    browser.allowed_console.append("409")
    set_editor(browser, editor_text(browser).replace("- tmux", "- tmux\n    - screen"))
    button(browser, "Save").click()
    answer_dialog(browser, "browser-saved")
    answer_dialog(browser, None, ok=False)
    wait_until(browser, lambda d: "Not saved" in notice(d), "the kept notice")
    assert "screen" not in saved.read_text()
    button(browser, "Save").click()
    answer_dialog(browser, "browser-saved")
    answer_dialog(browser, None, ok=True)
    wait_until(browser, lambda d: "screen" in saved.read_text(), "the overwrite")
    # a name that would leave the folder: the server's one line, on the page
    browser.allowed_console.append("422")
    button(browser, "Save").click()
    answer_dialog(browser, "../escape")
    refused = wait_until(browser, alert, "the refusal of the name")
    assert "has a folder part" in refused and len(refused.splitlines()) == 1
    assert not (ui_server.templates.parent / "escape.yml").exists()
    # an invalid template is refused before any name is asked
    set_editor(browser, editor_text(browser).replace("compression: zstd", "compression: zst"))
    button(browser, "Save").click()
    wait_until(browser, lambda d: "Not saved" in alert(d), "the refusal")
    assert "compression: zst\n" not in saved.read_text()
    # the library lists and finds it
    tab(browser, "Library")
    browser.find_element("id", "search-q").send_keys("browser-saved ubuntu htop tmux")
    button(browser, "Search").click()
    library = by_label(browser, "Library")
    wait_until(browser, lambda d: "browser-saved" in library.text, "the saved template in search")
    shot(browser, "saved")


def test_an_invalid_edit_keeps_the_last_good_template(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    good = template_text(browser)
    tab(browser, "Editor")
    broken = editor_text(browser).replace("hostname: ubuntu-minimal", "hostname: Bad_Host!")
    set_editor(browser, broken)
    before = turns(browser)
    button(browser, "Apply").click()
    assert wait_turn(browser, before) == "invalid"
    message = alert(browser)
    assert message.startswith("The result is invalid") and "last good template" in message
    assert template_text(browser) == good
    assert editor_text(browser) == broken  # nothing lost: the edit stays in the editor
    shot(browser, "invalid-edit")


def test_a_library_template_as_a_starting_point(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    tab(browser, "Library")
    library = by_label(browser, "Library")
    wait_until(browser, lambda d: "debian13-x86_64-minimal-raw" in library.text, "the library")
    browser.find_element("id", "search-q").send_keys("debian trixie minimal raw")
    button(browser, "Search").click()
    wait_until(browser, lambda d: "semantic" in library.text, "scored results")
    first = within(library, "li")[0]
    assert "debian13" in first.text
    file_name = str(first.get_attribute("data-template"))
    name = file_name.removesuffix(".yml")
    within(first, "button")[0].click()
    wait_until(browser, lambda d: "image:" in d.find_element("id", "preview-yaml").text, "preview")
    original = (ui_server.templates / file_name).read_text()
    button(browser, "Use as starting point").click()
    status = wait_turn(browser, 0)
    assert status in ("valid", "valid_with_warnings")
    sid = session_id(browser)
    conversation = browser.find_element("id", "conversation").text
    assert f"start from {name}" in conversation
    view = template_text(browser)
    assert view.splitlines()[:5] == original.splitlines()[:5]
    assert "retrieve" not in steps(browser)
    listed = {s["id"]: s for s in sessions_json(ui_server)}
    assert listed[sid]["turns"] == 1
    shot(browser, "starting-point")
    # the next request refines it
    assert ask(browser, "add curl") in ("valid", "valid_with_warnings")
    assert "- curl" in template_text(browser) and session_id(browser) == sid


def test_fork_and_resume(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    first = template_text(browser)
    ask(browser, "add vim")
    ask(browser, "hostname fork-me")
    original = session_id(browser)
    assert "fork-me" in template_text(browser)
    button(browser, "Fork from turn 1").click()
    wait_until(browser, lambda d: session_id(d) != original, "the fork")
    forked = session_id(browser)
    wait_until(browser, lambda d: template_text(d) == first, "the fork's template")
    assert len(within(browser.find_element("id", "conversation"), "li.assistant")) == 1
    sessions = by_label(browser, "Sessions")
    wait_until(browser, lambda d: "fork of" in sessions.text, "the fork in the list")
    shot(browser, "forked")
    # the fork continues on its own
    ask(browser, "add curl")
    assert "- curl" in template_text(browser) and "- vim" not in template_text(browser)
    # resume the original from the list: three turns, its own template
    # the list is redrawn after the turn: find the row again if it was replaced under us
    row = f'li[data-session="{original}"] button.open'

    def open_original(driver: Any) -> bool:
        found = within(by_label(driver, "Sessions"), row)
        if found:
            found[0].click()
        return bool(found)

    wait_until(browser, open_original, "the original in the list")
    wait_until(browser, lambda d: session_id(d) == original, "the resumed session")
    wait_until(browser, lambda d: "fork-me" in template_text(d), "the original template")
    assert "- curl" not in template_text(browser)
    assert len(within(browser.find_element("id", "conversation"), "li.assistant")) == 3
    assert forked in {s["id"] for s in sessions_json(ui_server)}


def test_the_cli_and_the_page_share_sessions(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    sid = session_id(browser)
    listed = {s["id"]: s for s in sessions_json(ui_server)}
    assert sid in listed and listed[sid]["turns"] == 1
    replay = ui_server.cli("sessions", "replay", sid, "--json")
    assert replay.returncode == 0, replay.stderr
    assert [t["request"] for t in json.loads(replay.stdout)["turns"]] == [CREATE]
    # a CLI turn on the browser's session shows in the page after a reload
    done = ui_server.cli("generate", "--session", sid, "add wget", "--json")
    assert done.returncode == 0, done.stderr
    browser.refresh()
    wait_until(browser, lambda d: "- wget" in template_text(d), "the CLI's turn in the page")
    assert "add wget" in browser.find_element("id", "conversation").text
    assert len(within(browser.find_element("id", "conversation"), "li.assistant")) == 2
    shot(browser, "cli-turn")


def test_rename_and_delete_a_session(ui_server: UiServer, browser: Any) -> None:
    open_page(browser, ui_server.url)
    ask(browser, CREATE)
    sid = session_id(browser)
    sessions = by_label(browser, "Sessions")
    entry = wait_until(
        browser, lambda d: within(sessions, f'li[data-session="{sid}"]'), "the session entry"
    )[0]
    within(entry, "button.rename")[0].click()
    answer_dialog(browser, "browser renamed")
    wait_until(browser, lambda d: "browser renamed" in sessions.text, "the new title")
    assert {s["id"]: s for s in sessions_json(ui_server)}[sid]["title"] == "browser renamed"
    entry = within(sessions, f'li[data-session="{sid}"]')[0]
    within(entry, "button.delete")[0].click()
    answer_dialog(browser, None, ok=False)  # Cancel keeps it
    time.sleep(0.3)
    assert sid in {s["id"] for s in sessions_json(ui_server)}
    entry = within(sessions, f'li[data-session="{sid}"]')[0]
    within(entry, "button.delete")[0].click()
    answer_dialog(browser, None, ok=True)
    wait_until(browser, lambda d: not within(sessions, f'li[data-session="{sid}"]'), "removal")
    assert sid not in {s["id"] for s in sessions_json(ui_server)}
    assert "new session" in browser.find_element("id", "session-title").text


def test_a_lost_connection_is_one_message_and_keeps_the_template(
    browser: Any, stopped_server: str
) -> None:
    _, message = send_while_down(browser, "add vim")
    assert message.startswith("Lost the connection to the server"), message
    assert len(message.splitlines()) == 1
    assert template_text(browser) == stopped_server
    assert by_label(browser, "Send").is_enabled()
    shot(browser, "lost-connection")


def debian_index(path: Path, names: list[str]) -> Path:
    """A Debian ``Packages`` file that has exactly ``names`` (amd64)."""
    stanzas = [f"Package: {n}\nVersion: 1.0-1\nArchitecture: amd64\n" for n in names]
    path.write_text("\n".join(stanzas))
    return path


def test_a_package_suggestion_is_applied_as_a_turn(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import yaml

    root = tmp_path_factory.mktemp("packages")
    base = yaml.safe_load((OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text())
    system = base["systemConfig"]
    names = [*system["packages"], *system["kernel"]["packages"], "htop", "tmux"]
    index = debian_index(root / "Packages", names)
    with ui_server_at(root, packages={"ubuntu24/x86_64": index}) as ui:
        open_page(browser, ui.url)
        ask(browser, CREATE)
        verify = [t for t in step_texts(browser) if t.startswith("verify packages")]
        assert verify and "found, 0 missing" in verify[0], verify
        tab(browser, "Editor")
        set_editor(
            browser, editor_text(browser).replace("    - htop\n", "    - htop\n    - tmuxx\n")
        )
        tab(browser, "Packages")
        button(browser, "Check the editor's packages").click()
        panel = browser.find_element("id", "packages")
        wait_until(browser, lambda d: "1 missing" in panel.text, "the missing package")
        assert "tmuxx" in panel.text
        shot(browser, "suggestion")
        before = turns(browser)
        button(browser, "Replace tmuxx with tmux").click()
        assert wait_turn(browser, before) == "valid"
        template = template_text(browser)
        assert "- tmux\n" in template and "tmuxx" not in template
        assert "0 missing" in panel.text
