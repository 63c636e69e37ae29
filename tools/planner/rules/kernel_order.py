"""Rule: a kernel option named first, then what happens to it (object-before-verb order).

People who learned English as a second language, and terse admins, often put the option
first: "hugepages remove", "loglevel drop it", "hugepages make 32 instead of 16", "the
isolcpus change to 2-3", "nohz_full should be 2-7", "only isolcpus keep". The option must be
one the kernel command line has (a word the line has no option for is left to the other
rules, a package perhaps); "console" is the console rule's. A value replaces the option's
old one ("instead of 16", "not 8" name the old value and are read with it).
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.rules.kernel import (
    _KEY,
    SHOULD,
    _arg_key,
    _family,
    _more_removed,
    _remove_cmdline_args,
    add_cmdline_args,
    cmdline_keys,
)
from oic_ai.tools.planner.rules.kernel_params import FLAGS
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import GOES_AWAY

_OPTION_WORD = r"(?:\s+(?:option|param|parameter|argument|arg|setting|value|flag))?"
# the old value said with the new one: "32 instead of 16", "16 not 8", "16, not 8"
_OLD = r"(?:\s*,?\s*(?:instead\s+of|rather\s+than|not)\s+(?P<old>[^\s,;\x1f]+?))?"
_VALUE = r"(?P<value>[0-9][^\s,;\x1f]*?|on|off|force|never|always|madvise)"
_END = r"(?=$|[\s,;\x1f]|\.(?:\s|$))"
_KEY_FIRST = rf"(?:\b(?:the|that|this)\s+)?(?<![\w.=/-])(?P<key>{_KEY}){_OPTION_WORD}"
# "hugepages remove", "loglevel drop it", "the quiet flag remove please", "isolcpus and
# nohz_full remove"
_REMOVED_AFTER = re.compile(
    rf"(?:\b(?:the|that|this|those)\s+)?(?<![\w.=/-])(?P<keys>{_KEY}(?:(?:\s*,\s*(?:and\s+)?"
    rf"|\s+and\s+){_KEY})*){_OPTION_WORD}s?"
    r"\s+(?:(?:please|pls)\s+)?(?:remove|delete|drop|take\s+out|away|out|gone)"
    r"(?:\s+(?:it|that|this|them|both))?(?:\s+(?:please|pls))?" + _END
)
# "isolcpus 2-3 -> 1-3", "loglevel 4 to 7": the old value, then the new one
_FROM_TO = re.compile(
    rf"(?<![\w.=/-])(?P<key>{_KEY})\s+(?:from\s+)?(?P<old>[0-9][^\s,;\x1f]*?)\s*(?:->|=>|→|\bto\b)\s*"
    + _VALUE
    + _END
)
# "hugepages make 32", "the isolcpus change to 2-3", "nohz_full should be 2-7 now"
_CHANGED_AFTER = re.compile(
    _KEY_FIRST + r"\s+(?:(?:please|pls)\s+)?(?:(?:change|set|make|switch|update|put)"
    r"(?:\s+(?:it|that|this))?(?:\s+(?:to|=|at))?|(?:" + SHOULD + r"|needs?\s+to)\s+(?:now\s+)?be"
    r"|(?:to|becomes?|->|=>|→))\s+(?:now\s+)?"
    + _VALUE
    + _END
    + _OLD
    + _END
    # "hugepages: 128" (a written-out key=value is the kernel rule's)
    + rf"|(?<![\w.=/-])(?P<key2>{_KEY})\s*:\s*(?P<value2>[0-9][^\s,;\x1f]*?)"
    + _END
    + _OLD.replace("old>", "old2>")
    + _END
)
_LISTED_BEFORE = re.compile(rf"{_KEY}\s*(?:,\s*(?:and\s+)?|\s+and\s+|/\s*|&\s*)$")
# "only isolcpus keep", "keep only isolcpus": what stays; it asks nothing more
_ONLY_KEPT = re.compile(
    rf"\bonly\s+(?:the\s+)?(?P<key>{_KEY}){_OPTION_WORD}\s+(?:keep|stays?|remains?)\b"
    rf"|\bkeep\s+only\s+(?:the\s+)?(?P<key2>{_KEY})(?![\w.=-])"
)


# "if quiet is in there take it out", "in case loglevel is set, drop it": removed when there
_IF_THERE_REMOVE = re.compile(
    rf"\b(?:if|in\s+case|when)\s+(?:the\s+)?(?P<key>{_KEY}){_OPTION_WORD}\s+(?:is|was)\s+"
    r"(?:(?:in|on)\s+(?:there|it|the\s+(?:cmdline|command\s+line|kernel\s+line))|there|set|present)"
    r"\s*,?\s*(?:then\s+)?(?:please\s+)?(?:take\s+(?:it|that)\s+out|(?:remove|drop|delete|strip"
    r"|get\s+rid\s+of|lose|kill)\s+(?:it|that))\b"
)


# "if there's a console=ttyS0 entry it can go", "loglevel=7 should be dropped", "the quiet
# flag has to go": an option said first, then that it goes (removed when there)
OPTION_GOES = re.compile(
    r"(?:\b(?:if|in\s+case)\s+there(?:'s|\s+is|\s+are)\s+)?(?:\b(?:a|an|the|any|that|this)\s+)?"
    rf"(?<![\w.=/-])['\"`]?(?P<arg>{_KEY}(?:=[^\s,;'\"`\x1f]+)?)['\"`]?"
    r"(?:\s+(?:entry|entries|one|option|param|parameter|argument|arg|setting|value|flag)"
    r"(?:\s+(?:on|in)\s+(?:there|the\s+(?:cmdline|command\s+line|kernel\s+line)))?)?"
    rf"\s*,?\s*(?:(?:then|so)\s+)?(?:(?:it|that|this|they)\s+)?{GOES_AWAY}\b"
)


def rule_kernel_order(state: PlanState) -> None:
    """Options named before their verb: removed, given a new value, or kept."""
    text = state.text
    keys = cmdline_keys(state)
    keys.discard("console")
    values: dict[str, list[str]] = {}
    for arg in [*state.current_cmdline.split(), *state.append_cmdline]:
        values.setdefault(_arg_key(arg), []).append(arg.partition("=")[2])
    for match in text.matches(OPTION_GOES):
        arg = text.raw(*match.span("arg")).rstrip(".")
        if _arg_key(arg) not in keys and "=" not in arg and arg.lower() not in FLAGS:
            continue  # "htop can go": no option, a package perhaps
        text.consume(*match.span())
        _remove_cmdline_args(state, [arg])  # a note when it is not there
    for match in text.matches(_IF_THERE_REMOVE):
        text.consume(*match.span())
        _remove_cmdline_args(state, [match.group("key")])  # a note when it is not there
    for match in text.matches(_REMOVED_AFTER):
        said = re.split(r"(\s*,\s*(?:and\s+)?|\s+and\s+)", match.group("keys"))
        # the options run back from the verb: "ok, loglevel drop" names loglevel; a word the
        # line has no option for ends the run (a package, another rule's)
        named: list[str] = []
        start = match.end("keys")
        for at in range(len(said) - 1, -1, -2):
            options = [said[at]] if said[at] in keys else _family(keys, said[at])
            if not options:
                break
            named = options + named
            start = match.start("keys") + len("".join(said[:at]))
        if not named:
            continue
        text.consume(start, match.end())
        _remove_cmdline_args(state, [*named, *_more_removed(state, match.end(), keys)])
    for pattern in (_CHANGED_AFTER, _FROM_TO):
        for match in text.matches(pattern):
            group = "key" if match.group("key") else "key2"
            key = match.group(group)
            if key not in keys or _LISTED_BEFORE.search(text.work, 0, match.start(group)):
                continue  # "isolcpus, nohz_full should be 2-7": the keys' rule reads the list
            if pattern is _FROM_TO and match.group("old") not in values.get(key, ()):
                continue  # "isolcpus 2 to 5" is a range unless 2 is the value it has
            value = match.group("value") or match.group("value2")
            text.consume(*match.span())
            add_cmdline_args(state, [f"{key}={value.rstrip('.')}"])
    for match in text.matches(_ONLY_KEPT):
        if (match.group("key") or match.group("key2")) in keys:
            text.consume(*match.span(), "context")
