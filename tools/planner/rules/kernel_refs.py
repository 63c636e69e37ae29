"""Kernel options pointed at with a pronoun: "add both", "take that one back out".

- "I read about module.sig_enforce=1 and lockdown=integrity on the kernel command line,
  please add both": the options were read; "add both" (them, those, all of them) asks
  nothing more.
- "lockdown breaks the display driver. Take that one back out but keep sig_enforce": an
  option of the command line named by its key (or, for a module parameter, by the part
  after the module's dot), then "that one" / "it" removed: the one option named goes, the
  sentence that named it is its reason, and an option said to be kept stays.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.clauses import split_clauses
from oic_ai.tools.planner.rules.kernel import _arg_key, _family, _remove_cmdline_args
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import TAKE_OUT

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
