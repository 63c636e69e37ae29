"""Kernel options pointed at with a pronoun: "add both", "take that one back out".

- "I read about module.sig_enforce=1 and lockdown=integrity on the kernel command line,
  please add both": the options were read; "add both" (them, those, all of them) asks
  nothing more.
- "lockdown breaks the display driver. Take that one back out but keep sig_enforce": an
  option of the command line named by its key (or, for a module parameter, by the part
  after the module's dot), then "that one" / "it" removed: the one option named goes, the
  sentence that named it is its reason, and an option said to be kept stays.
- "lockdown isn't needed", "quiet can go", "we can do without lockdown", "leave loglevel
  off", "the quiet flag? leave it off": an option said to go after its key is named. The
  option goes when the line has it; a known option the line lacks is noted as not there.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.clauses import split_clauses
from oic_ai.tools.planner.rules.kernel import (
    _KEY,
    _an_option,
    _arg_key,
    _family,
    _remove_cmdline_args,
)
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import GOES_AWAY, NOT_NEEDED, TAKE_OUT

# "please add both", "put them in too", "include those two as well"
_ADD_THEM = re.compile(
    r"^[\s,;\x1f]*(?:(?:so|and|then)\s+)?(?:(?:please|pls|can\s+you|could\s+you)\s+)?"
    r"(?:add|include|put|use|apply|set|append)\s+(?:both(?:\s+of\s+them)?|them(?:\s+both|\s+all)?"
    r"|all\s+of\s+them|(?:those|these|the)\s+two|those|these)(?:\s+in)?"
    r"(?:\s+(?:too|as\s+well|also|please|pls|then))*[\s.!]*$"
)
# "but keep sig_enforce", "keep the cstate ones", "leave max_cstate alone"
_KEPT = re.compile(
    r"\b(?:but\s+)?(?:keep|leave)\s+(?:the\s+)?(?P<form>[a-z_][a-z0-9_.-]*[a-z0-9_])(?![\w=.-])"
    r"(?:\s+(?:options?|flags?|ones?|settings|params|stuff|bits|things|alone|as\s+(?:it\s+)?is"
    r"|in|on)\b)*"
)
# "take that one back out", "remove it", "drop that one again"
_THAT_ONE_OUT = re.compile(
    rf"\b(?:{TAKE_OUT}|take|pull)\s+(?:that|this|it)(?:\s+one)?(?:\s+(?:again|back))?"
    r"(?:\s+(?:out|off))?(?:\s+again)?\b"
)


# an option's key (with its value or not), then a word for what it is
_NAMED = (
    rf"(?:the\s+)?['\"`]?(?P<{{0}}>{_KEY}(?:=[^\s,;'\"`?]+)?)['\"`]?"
    r"(?:\s+(?:option|flag|setting|param(?:eter)?|argument|entry|thing|bit|one))?"
)
_STILL = r"(?:\s+(?:anymore|any\s+more|now|either|here|at\s+all|for\s+(?:us|this|now)))?"
_ARG, _ARG2, _ARG3 = (_NAMED.format(name) for name in ("arg", "arg2", "arg3"))
_SAID_TO_GO = re.compile(
    # "lockdown isn't needed", "quiet can go", "loglevel=7: not needed", "the quiet flag?
    # leave it off"
    rf"(?<![\w.=/-]){_ARG}\s*(?:[:,\u2013\u2014-]\s*|\?\s*(?:just\s+|so\s+)?)?"
    rf"(?:{NOT_NEEDED}|{GOES_AWAY}|(?:is\s+)?unnecessary|(?:is\s+)?superfluous"
    r"|(?:leave|keep)\s+it\s+(?:off|out)"
    rf"|(?<=\?\s)(?:just\s+|so\s+)?{TAKE_OUT}\s+it)"
    rf"{_STILL}\b"
    # "we can do without lockdown", "leave loglevel off", "no need for quiet"
    rf"|\b(?:(?:do|go|live|manage|cope|get\s+by)\s+without|no\s+need\s+for)\s+{_ARG2}"
    rf"(?![\w=.-]){_STILL}"
    rf"|\bleave\s+{_ARG3}\s+(?:off|out)\b"
)


def rule_options_said_to_go(state: PlanState) -> None:
    """Remove an option said to go after its key ("lockdown isn't needed").

    A word the line has no option for, and that is no known option, is another rule's: "htop
    isn't needed" is a package's, "a GUI isn't needed" a remark.
    """
    text = state.text
    keys = {_arg_key(a).lower() for a in [*state.current_cmdline.split(), *state.append_cmdline]}
    for match in text.matches(_SAID_TO_GO):
        group = "arg" if match.group("arg") else "arg2" if match.group("arg2") else "arg3"
        arg = text.raw(*match.span(group)).rstrip(".")
        key = _arg_key(arg).lower()
        if key == "console" or (key not in keys and not _an_option(state, arg)):
            continue  # a serial console is the console rule's; a word is another rule's
        if key in keys and key in state.facts.packages:
            continue  # "audit isn't needed" with the audit package there: not sure which
        text.consume(*match.span())
        _remove_cmdline_args(state, [arg])


def rule_kernel_pointed(state: PlanState) -> None:
    """Read "add both" after options, and "take that one out" after an option's key."""
    add_them(state)
    _that_one_out(state)
    _kept(state)


def _kept(state: PlanState) -> None:
    """Options of the kernel line that stay ask nothing: "..., keep the hugepage stuff".

    The word names the key of an option the line keeps, or a part of such keys, and the
    kernel line was changed in the same request (what is kept is kept from that change).
    """
    text = state.text
    if not any(owner == "kernel" for _, _, owner in text.claims):
        return
    keys = {_arg_key(a).lower() for a in [*state.current_cmdline.split(), *state.append_cmdline]}
    for match in text.matches(_KEPT):
        form = match.group("form")
        if text.BLANK in match.group() or not (form in keys or _family(keys, form)):
            continue
        text.consume(*match.span(), "context")


def add_them(state: PlanState) -> None:
    """A clause that only adds "both" / "them" after kernel options were read is context."""
    text = state.text
    kernel = [s for s, _, owner in text.claims if owner == "kernel"]
    if not kernel:
        return
    for clause in split_clauses(text.original):
        piece = text.work[clause.start : clause.end]
        if _ADD_THEM.match(piece) and any(s < clause.start for s in kernel):
            text.consume(clause.start, clause.end, "context")


def _said_forms(args: list[str]) -> dict[str, str]:
    """The words that name each option's key: the key, and a module parameter's own name."""
    forms: dict[str, str] = {}
    for arg in args:
        key = _arg_key(arg).lower()
        if key == "console" or len(key) < 4:
            continue
        forms[key] = key
        if "." in key:
            forms.setdefault(key.rsplit(".", 1)[1], key)
    return forms


def _that_one_out(state: PlanState) -> None:
    text = state.text
    args = [*state.current_cmdline.split(), *state.append_cmdline]
    forms = _said_forms(args)
    if not forms:
        return
    words = "|".join(sorted(map(re.escape, forms), key=len, reverse=True))
    # the key alone, or written out with a value: "idle=poll burns too much power, drop it"
    named = re.compile(rf"(?<![\w.=/-])(?P<form>{words})(?:=[^\s,;'\"`]+)?(?![\w=.-])")
    keys_of = {**{w: [w] for w in forms.values()}, **{f: [k] for f, k in forms.items()}}
    for removal in text.matches(_THAT_ONE_OUT):
        # what stays: an option by its key, or by a part of its keys ("keep the cstate ones")
        keeps = [
            m
            for m in _KEPT.finditer(text.work)
            if text.BLANK not in m.group()
            and (keys_of.get(m.group("form")) or _family(forms.values(), m.group("form")))
        ]
        kept_keys = {
            k for m in keeps for k in keys_of.get(m["form"]) or _family(forms.values(), m["form"])
        }
        mentions = [
            m
            for m in named.finditer(text.work, 0, removal.start())
            if forms[m.group("form")] not in kept_keys
        ]
        keys = {forms[m.group("form")] for m in mentions}
        if len(keys) != 1:
            continue  # none, or several: which one is not sure
        key = keys.pop()
        text.consume(*removal.span())
        _remove_cmdline_args(state, [a for a in args if _arg_key(a).lower() == key][:1])
        for clause in split_clauses(text.original):
            if any(clause.start <= m.start() < clause.end for m in mentions):
                text.consume(clause.start, clause.end, "context")  # why it goes
        for match in keeps:
            text.consume(*match.span(), "context")
