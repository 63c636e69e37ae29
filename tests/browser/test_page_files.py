"""The page's files on their own: offline, complete, labelled (no browser needed).

The page must load nothing from the network but its own server: no absolute URL, no CDN,
no file that is not in ``oic_ai/web/static/``. The contract's aria-labels are each on one
element of ``index.html``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from tests.conftest import PROJECT

STATIC = PROJECT / "oic_ai" / "web" / "static"
CONTRACT_LABELS = (
    "Request",
    "Send",
    "Template",
    "Status",
    "Steps",
    "Template editor",
    "Findings",
    "Sessions",
    "Library",
)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.labels: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("src", "href"):
            if values.get(name):
                self.links.append(str(values[name]))
        if values.get("aria-label"):
            self.labels.append(str(values["aria-label"]))
        if values.get("id"):
            self.ids.append(str(values["id"]))


def page() -> _Page:
    parsed = _Page()
    parsed.feed((STATIC / "index.html").read_text())
    return parsed


def test_the_page_loads_only_its_own_files() -> None:
    for link in page().links:
        assert link == "data:," or (STATIC / link).is_file(), link
    for path in STATIC.iterdir():
        text = path.read_text()
        assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), path.name
        assert "@import" not in text and "import(" not in text, path.name


def test_the_contract_labels_are_each_on_one_element() -> None:
    labels = page().labels
    for label in CONTRACT_LABELS:
        assert labels.count(label) == 1, (label, labels.count(label))


def test_the_ids_the_script_uses_exist_once() -> None:
    ids = page().ids
    assert len(ids) == len(set(ids)), "duplicate ids"
    script = "\n".join(path.read_text() for path in sorted(STATIC.glob("*.js")))
    used = set(re.findall(r'\$\("([a-z-]+)"\)', script))
    assert used and used <= set(ids), sorted(used - set(ids))


def test_the_page_is_light() -> None:
    total = sum(p.stat().st_size for p in STATIC.iterdir() if p.is_file())
    assert total < 500 * 1024, total  # the budget for the whole page
