"""Rules: kernel option values read as the slots of the sentence that names the option.

The phrase rules before these read values in the word orders they know. What they leave of
a sentence that names an option is read here by the shape of its values, whatever the
order of the words around them:

- Huge pages: a sentence about huge pages holds a page size and a count ("1G hugepages
  x16", "hugepages, 2048 of the 2M ones"), and maybe the default size ("the default
  hugepage size also 1G"). A size is a page's only when the kernel has pages of that size;
  a sentence with two page sizes or two counts is left to the report (which pool is which?).
- A value corrected: "the isolated cores are 2-31, not 4-31" replaces 4-31 wherever the
  command line has it ("in both places"), in every option whose value or last list item
  it is, unless the sentence names one of them. The new value must have the old one's
  shape (a CPU list for a CPU list, a size for a size).
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.clauses import sentence_at, sentence_spans, split_clauses
from oic_ai.tools.planner.rules.kernel import _arg_key, _default_size, add_cmdline_args
from oic_ai.tools.planner.rules.kernel_params import kernel_size
from oic_ai.tools.planner.state import PlanState

# "hugepages", "huge pages", "huge-page", "hugepage"; never "transparent huge pages"
_HUGE_WORD = re.compile(r"(?<!transparent\s)\bhuge\s*-?\s*pages?\b")
# the sizes of huge pages kernels have (x86: 2M, 1G; arm64 with 4K or 64K granules: 64K,
# 2M, 32M, 1G, 512M, 16G); the request text writes "1G" as "1gib"
_PAGE_SIZES = frozenset(("64K", "2M", "32M", "512M", "1G", "16G"))
_SIZE = re.compile(r"(?<![\w.=,-])(?P<n>\d{1,3})\s*(?P<unit>[kmg])(?:i?b)?(?![\w.-])")
# a count of pages: "x16", "16x", "2048" ("2048 of the 2M ones")
_COUNT = re.compile(
    r"(?<![\w.=,-])(?:[x×*]\s*(?P<times>\d{1,7})|(?P<n>\d{1,7})(?:\s*[x×*])?)"
    r"(?![\w.,-]|\s*[kmg%])"
)
_DEFAULT = re.compile(
    r"\bdefault\s+(?:huge\s*-?\s*page\s+size|hugepagesz|page\s+size)\s+"
    r"(?:(?:is|=|to|should\s+be|must\s+be|as)\s+)?(?:(?:also|too)\s+)?"
    rf"(?P<size>{_SIZE.pattern})"
)
# the words before the huge pages that ask for them: "reserve hugepages", "set up some"
_ASKING = re.compile(
    r"\b(?:reserve|allocate|set\s+up|configure|add|enable|give\s+(?:it|me))"
    r"(?:\s+(?:some|the|a\s+pool\s+of))?\s+$"
)
# a memory size, not a page's: "16G of RAM"
_OF_MEMORY = re.compile(r"\s*(?:of\s+)?(?:ram|memory)\b")
# what may stand between huge pages, their size and their count: "1G hugepages x16",
# "hugepages, 2048 of the 2M ones", "16 pages of 2M each"
_BETWEEN = re.compile(
    r"(?:[\s,:=()\x1f-]|\b(?:of|the|those|them|ones?|pages?|each|sized?|with|at|x|×)\b)*"
)


def _page_size(match: re.Match[str]) -> str | None:
    size = f"{int(match['n'])}{match['unit'].upper()}"
    return size if size in _PAGE_SIZES else None


def _next_to(anchors: list[tuple[int, int]], start: int, end: int, work: str) -> bool:
    """True when only filler words stand between ``start:end`` and one of ``anchors``."""
    for a_start, a_end in anchors:
        gap = (a_end, start) if a_end <= start else (end, a_start) if end <= a_start else None
        if gap is not None and _BETWEEN.fullmatch(work, *gap):
            return True
    return False


def _huge_pages(state: PlanState) -> None:
    text = state.text
    said = text.original.lower()
    for start, end in sentence_spans(split_clauses(text.original)):
        anchors = [m.span() for m in _HUGE_WORD.finditer(said, start, end)]
        if not anchors:
            continue
        args: list[str] = []
        default = _DEFAULT.search(text.work, start, end)
        if default is not None:
            size = _SIZE.search(default["size"])
            page = _page_size(size) if size else None
            if page is not None:
                text.consume(*default.span())
                args.append(f"default_hugepagesz={page}")
        values = (*_SIZE.finditer(text.work, start, end), *_COUNT.finditer(text.work, start, end))
        found = [m for m in values if not _OF_MEMORY.match(text.work, m.end())]
        # the values next to the words, then the values next to those ("2048 of the 2M ones")
        taken: list[re.Match[str]] = []
        while more := [
            m
            for m in found
            if m not in taken
            and not any(t.start() < m.end() and m.start() < t.end() for t in taken)
            and _next_to([*anchors, *(t.span() for t in taken)], *m.span(), text.work)
        ]:
            taken.append(min(more, key=lambda m: m.start()))
        sizes = [m for m in taken if m.re is _SIZE]
        counts = [m for m in taken if m.re is _COUNT]
        pages = [_page_size(m) for m in sizes]
        every_page = [m for m in _SIZE.finditer(text.work, start, end) if _page_size(m)]
        if len(sizes) > 1 or len(every_page) > 1 or len(counts) > 1 or None in pages:
            add_cmdline_args(state, args)
            continue  # two pools, or a size no page has: the report says what is left
        spans = [m.span() for m in taken]
        used = [a for a in anchors if taken and _next_to(spans, *a, text.work)]
        for a_start, a_end in used:  # "reserve hugepages": the words that asked for them
            verb = _ASKING.search(text.work, max(start, a_start - 30), a_start)
            text.consume(verb.start() if verb else a_start, a_end)
        for span in spans:
            text.consume(*span)
        if pages and pages[0]:
            args += [f"hugepagesz={pages[0]}", *_default_size(state, pages[0])]
        if counts:
            args.append(f"hugepages={counts[0]['times'] or counts[0]['n']}")
        add_cmdline_args(state, args)


# "2-31, not 4-31", "2-31 and not 4-31", "1G rather than 2M": a value for the old one
_VALUE = r"\d{1,4}(?:-\d{1,4})?(?:,\d{1,4}(?:-\d{1,4})?)*(?:[kmg](?:i?b)?)?"
_CORRECTED = re.compile(
    rf"(?<![\w.=,-])(?P<new>{_VALUE})\s*,?\s*(?:(?:and\s+)?not|instead\s+of|rather\s+than)\s+"
    rf"(?:the\s+)?(?P<old>{_VALUE})(?![\w-]|[.,]\w)"
)
# "in both places", "everywhere", "for all of them": the correction holds for each option
_EVERY_PLACE = re.compile(
    r"^[\s.,;:\x1f]*(?:and\s+)?(?:(?:in|for|on)\s+)?(?:both|all|each|every)"
    r"(?:\s+(?:of\s+them|places?|options?|spots?|keys?))?\b[.!]?"
    r"|^[\s.,;:\x1f]*(?:and\s+)?everywhere\b[.!]?"
)


def _replaced(arg: str, old: str, new: str) -> str | None:
    """``arg`` with ``old`` as its value (or its value's last list item) replaced by ``new``."""
    key, _, value = arg.partition("=")
    if value == old:
        return f"{key}={new}"
    items = value.split(",")
    # "isolcpus=managed_irq,domain,4-31": the CPU list after the flags
    if len(items) > 1 and items[-1] == old and not any(i[:1].isdigit() for i in items[:-1]):
        return f"{key}={','.join([*items[:-1], new])}"
    return None


def _value_corrections(state: PlanState) -> None:
    text = state.text
    args = [*state.current_cmdline.split(), *state.append_cmdline]
    for match in text.matches(_CORRECTED):
        old, new = kernel_size(match["old"]), kernel_size(match["new"])
        if old == new or (old[-1:].isdigit() != new[-1:].isdigit()):
            continue  # a size for a CPU list is no correction of it
        changed = {
            arg: replaced
            for arg in args
            if not arg.startswith("console=") and (replaced := _replaced(arg, old, new))
        }
        if not changed:
            continue
        sentence = sentence_at(split_clauses(text.original), match.start())
        said = text.original.lower()[sentence[0] if sentence else 0 : match.start()]
        said = said.replace("_", " ")
        named = {arg for arg in changed if _arg_key(arg).replace("_", " ") in said}
        every = _EVERY_PLACE.match(text.work, match.end())
        if named and every is None:
            changed = {arg: changed[arg] for arg in named}
        text.consume(match.start(), every.end() if every else match.end())
        add_cmdline_args(state, list(changed.values()))


def rule_kernel_slots(state: PlanState) -> None:
    """Huge pages by the shape of their values; a value corrected wherever the line has it."""
    _huge_pages(state)
    _value_corrections(state)
