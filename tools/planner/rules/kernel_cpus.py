"""One CPU list for every CPU-list option of the line: "1-3 isolated, for all three options".

"I want cores 1-3 isolated, for all three options", "use 4-7 for both of them", "all the
cpu options should be 2-5", "move each of them to cores 1-3": a new CPU list said once, for
all the options of the command line that take one (``isolcpus``, ``nohz_full``,
``rcu_nocbs``, ...). A count said with it ("all three") must be the number of those
options, else which ones is not sure and the words are left to be reported. Flags before an
option's list stay ("isolcpus=managed_irq,domain,2-7" becomes "...,domain,1-3").
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.clauses import split_clauses
from oic_ai.tools.planner.rules.kernel import _arg_key, add_cmdline_args
from oic_ai.tools.planner.rules.kernel_params import CPU_LIST_KEYS, cpu_list
from oic_ai.tools.planner.state import PlanState

_COUNTS = {"both": 2, "two": 2, "three": 3, "four": 4, "five": 5}
_NOUN = r"(?:options|flags|params|parameters|args|arguments|settings|keys|ones|lists|masks)"
# "for all three options", "for each of them", "across both", "all the cpu options"
_ALL = re.compile(
    r"\b(?:(?:for|on|to|across|in|with|into)\s+)?(?:all|each|every|both)"
    r"(?:\s+of)?(?:\s+(?:the|those|these|them))?"
    r"(?:\s+(?P<n>two|three|four|five|[2-9]))?"
    rf"(?:\s+(?:(?:cpu|core|isolation)\s+)?{_NOUN})?(?![\w-])"
)
_RANGE = r"\d{1,4}\s*(?:-|–|\bto\b|\bthrough\b|\bthru\b)\s*\d{1,4}"
_ONE = rf"(?:{_RANGE}|\d{{1,4}})"
# a CPU list: a range or a list, or any list said after "cores"/"cpus" (or a single CPU
# after "to"); "a 4 core box" is no list
_CPUS = re.compile(
    rf"(?:\b(?:cores?|cpus?)\s+(?P<v>{_ONE}(?:\s*,\s*{_ONE})*)"
    rf"|(?<![\w.=-])(?P<v2>{_RANGE}(?:\s*,\s*{_ONE})*|\d{{1,4}}(?:\s*,\s*\d{{1,4}})+)"
    # one CPU said as what the lists become: "change to 3 for all three parameters"
    r"|(?<=\bto\s)(?P<v3>\d{1,4}))"
    r"(?![\w.=%-])(?!\s*(?:gb|gib|mb|mib|core|cpu|%))(?:\s+(?:isolated|as\s+isolated))?"
)


def rule_all_cpu_options(state: PlanState) -> None:
    """A CPU list said for all the line's CPU-list options sets each of them."""
    text = state.text
    args = [*state.current_cmdline.split(), *state.append_cmdline]
    listed = {_arg_key(a): a.partition("=")[2] for a in args if _arg_key(a) in CPU_LIST_KEYS}
    if len(listed) < 2:
        return
    sentences: dict[int, tuple[int, int]] = {}
    for clause in split_clauses(text.original):
        start, end = sentences.get(clause.sentence, (clause.start, clause.end))
        sentences[clause.sentence] = (min(start, clause.start), max(end, clause.end))
    for start, end in sentences.values():
        every = [m for m in _ALL.finditer(text.work, start, end) if text.BLANK not in m.group()]
        cpus = [m for m in _CPUS.finditer(text.work, start, end) if text.BLANK not in m.group()]
        if len(every) != 1 or len(cpus) != 1:
            continue
        said = every[0]["n"] or ("both" if "both" in every[0].group() else None)
        if said is not None and _COUNTS.get(said, int(said) if said.isdigit() else 0) != len(
            listed
        ):
            continue  # "all three" of a line with two: which ones is not sure
        value = cpu_list(cpus[0]["v"] or cpus[0]["v2"] or cpus[0]["v3"])
        text.consume(*cpus[0].span())
        text.consume(*every[0].span())
        add_cmdline_args(state, [f"{key}={_with_flags(old, value)}" for key, old in listed.items()])


def _with_flags(old: str, value: str) -> str:
    """``value`` after the flags ``old`` has before its CPUs ("managed_irq,domain,")."""
    flags = [p for p in old.split(",") if p and not re.fullmatch(r"\d{1,4}(?:-\d{1,4})?", p)]
    return ",".join([*flags, value])
