"""Rule: a change of mind inside the request ("add virt-manager... no wait, no GUI tools").

"no wait", "scratch that", "actually no", "strike that" take back the clause just before
them: no rule reads it, and the summary says it was taken back. Said first in a request,
they refer to the earlier turn instead, which the accounting leaves to the conversation.

A correction that gives a bare value replaces only the value it corrects, and the slot it
was said for keeps it: "hostname lab-pi.. no, just lab-node" sets the hostname lab-node,
"groups wheel and audit.. no, just wheel" keeps wheel alone ("just" and "only" restrict
the whole list), "disk 8GB, no wait, 16GB" is 16GB. The abandoned value leaves no trace.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.clauses import Clause, split_clauses
from oic_ai.tools.planner.rules.user_words import ATTRIBUTE_NEXT
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import RequestText, tokenize
from oic_ai.tools.planner.words import FILLER, KEEP_VERBS, NAMING_VERBS

_TAKE_BACK = re.compile(
    r"\b(?:no\s*,?\s*wait|wait\s*,?\s*no|scratch\s+that|strike\s+that|actually\s*,?\s*no|"
    r"no\s*,?\s*actually|never\s*mind(?:\s+that)?|forget\s+(?:that|it)|i\s+take\s+that\s+back"
    # "add docker... on second thought, podman", "add vim. oh wait, nano instead", "add vim
    # or actually emacs", "add mariadb-server, sorry I meant postgresql"
    r"|on\s+second\s+thoughts?|oh\s*,?\s*wait|or\s*,?\s*actually|sorry\s*,?\s*i\s+meant)\b"
)


# "X.. no, just Y", "X? hmm no, Y", "X, nope, make it Y": a "no" after a clause's end that
# corrects it ("add htop, no ssh" is no correction: the "no" there has no comma of its own)
_RESTRICTING = r"(?:just|only|rather|make\s+(?:it|that)|i\s+mean)\b"
# right after a clause's end: a stop, a comma, a dash
_AFTER_BREAK = (
    r"(?:(?<=[.?!\u2026,;])|(?<=[.?!\u2026,;]\s)|(?<=\s[-\u2013\u2014])|(?<=\s[-\u2013\u2014]\s))"
)
_NO_CORRECTION = re.compile(
    rf"{_AFTER_BREAK}[ \t]*"
    r"(?:(?:hmm+|hm+|uh+|um+|erm?|oh|ah|well|wait)[,\s]+)?(?:no|nope|nah)"
    rf"(?:\s*,\s*(?P<restrict1>{_RESTRICTING})?|\s+(?P<restrict2>{_RESTRICTING}))[ \t]*"
)
# "hostname lab-pi... actually lab-node", "to lab-pi, sorry, lab-node", "lab-pi I mean
# lab-node": words that correct only when a bare value of the same shape follows them
# ("actually, add htop too" corrects nothing; "the disk, make it 8 gigs" is no correction)
_SOFT_CORRECTION = re.compile(
    rf"(?:{_AFTER_BREAK}[ \t]*(?:(?:hmm+|hm+|uh+|um+|erm?|well|oh)[,\s]+)?(?:actually|sorry|rather)"
    r"|(?P<inside>\b(?:i\s+mean|or\s+rather)))\b\s*[,:]?[ \t]*"
    r"(?P<restrict>(?:just|only)\s+)?"
)
_CONTINUING = re.compile(r"(?:and|or|plus|&)\s")
# words that say what to do rather than a value: what follows a correction is no bare value
_NOT_VALUES = (
    FILLER
    | KEEP_VERBS
    | NAMING_VERBS
    | frozenset("we i they you it he she we're they're it's i'm who".split())
)


# words that name the slot a value is for, never the value
_SLOTS = frozenset(
    "hostname host name user users account group groups disk size partition partitions kernel "
    "cmdline console output outputs format formats artifact artifacts repo repository priority "
    "timezone locale shell".split()
)


def taken_back(original: str, at: int) -> bool:
    """True when the clause around ``at`` is taken back by a "no wait" right after it.

    "the kiosks are the same arm boxes... no wait, they're x86": arm is not what is meant.
    """
    after = next((c for c in split_clauses(original) if c.end > at), None)
    if after is None:
        return False
    rest = original[after.end : after.end + 40].lstrip(" \t.,;:!?\u2026-\u2013\u2014")
    return _TAKE_BACK.match(rest.lower()) is not None


def rule_take_back(state: PlanState) -> None:
    """Drop the clause a later "no wait" takes back, and an option the user declines."""
    text = state.text
    clauses = split_clauses(text.original)
    for match in text.matches(_NO_CORRECTION):
        restrict = bool(match.group("restrict1") or match.group("restrict2"))
        before = [
            c for c in clauses if c.end <= match.start() and text.work[c.start : c.end].strip()
        ]
        if not before:
            continue  # "no, just htop" first: it answers the earlier turn
        taken = _corrected(before, restrict)
        if _amends_one(text, taken, match.end()):
            text.consume(*match.span(), "context")
            continue
        if _replace_value(text, clauses, taken, *match.span()):
            continue
        if text.original[: match.start()].rstrip().endswith(("?", "...", "\u2026")):
            # "and nosmt? hmm no, leave smt alone": the option asked about is declined
            for clause in taken:
                text.consume(clause.start, clause.end, "context")
            text.consume(*match.span(), "context")
            state.notes.append(f"'{_said(text, taken)}' was taken back")
    clauses = split_clauses(text.original)
    for match in text.matches(_SOFT_CORRECTION):
        before = [
            c for c in clauses if c.end <= match.start() and text.work[c.start : c.end].strip()
        ]
        around = [c for c in clauses if c.start < match.start() < c.end]
        if match.group("inside") and around:
            # "hostname lab-pi I mean lab-node": the clause up to the marker is corrected
            said = text.original[around[0].start : match.start()].rstrip(" ,")
            before = [*before, Clause(around[0].start, around[0].start + len(said), said, 0)]
        taken = _corrected(before, bool(match.group("restrict"))) if before else []
        if taken and _replace_value(text, clauses, taken, *match.span()):
            clauses = split_clauses(text.original)
    for match in text.matches(_TAKE_BACK):
        before = [
            c for c in clauses if c.end <= match.start() and text.work[c.start : c.end].strip()
        ]
        before += _inside(text, clauses, match.start())
        # "add jq, well, scratch that", "add nginx. nah, forget it": an interjection is no
        # clause to take back
        before = [c for c in before if not _interjection(c.text, _OPENING_NO)]
        if not before:
            # "scratch that, ..." first: it refers to the earlier turn. "no wait i wanted
            # slam toolbox": the interjection's "no" negates none of what follows it
            if _OPENING_INTERJECTION.fullmatch(match.group()) and text.work[match.end() :].strip(
                " \t,.;:!?\u2026-\u2013\u2014" + RequestText.BLANK
            ):
                text.consume(*match.span(), "context")
            continue
        if _amends_one(text, before[-1:], match.end()):
            text.consume(*match.span(), "context")
            continue
        if _replace_value(text, clauses, before[-1:], match.start(), _new_value_at(text, match)):
            continue
        last = before[-1]
        inside = any(c.parenthetical and c.start <= match.start() < c.end + 1 for c in clauses)
        outer = [c for c in before if not c.parenthetical]
        if inside and last.parenthetical and outer:
            # "the Fluke tool (a windows thing, forget it)": the remark withdraws what it
            # is about, the clause before the parenthesis
            for remark in before:
                if remark.parenthetical and remark.start > outer[-1].start:
                    text.consume(remark.start, remark.end, "context")
            last = outer[-1]
        text.consume(last.start, last.end, "context")
        text.consume(*match.span(), "context")
        state.notes.append(f"'{last.text}' was taken back ('{text.raw(*match.span())}')")
    _declined(state, clauses)


# after a take-back, why the value was wrong ("I don't think usernames can have dots"), then
# the verb that gives the new one ("make it drchen", "call it lab-2", "use 400")
_REASON_THEN_VALUE = re.compile(
    r"[ \t,]*(?:(?:i|we|it|that|they|you|those|these|dots|names|usernames)\b[^.,;!?\n\x1f]{0,60}"
    r"[,;.][ \t]*)?(?:(?:so|then)\s+)?(?:make\s+(?:it|that|him|her)|call\s+(?:it|him|her)"
    r"|name\s+(?:it|him|her)|use|let'?s\s+(?:say|use))\s+(?=[\"'`]?[\w/])"
)


def _new_value_at(text: RequestText, marker: re.Match[str]) -> int:
    """Where the new value after the take-back ``marker`` starts.

    Right after the marker ("disk 8GB, no wait, 16GB"), or after the reason and the verb
    that give it ("dr.chen? no wait I don't think usernames can have dots, make it drchen").
    """
    given = _REASON_THEN_VALUE.match(text.work, marker.end())
    return given.end() if given else marker.end()


# the take-backs that are interjections of their own ("no wait", "no, actually")
_OPENING_INTERJECTION = re.compile(r"no\s*,?\s*wait|wait\s*,?\s*no|no\s*,?\s*actually")
# words that only hold the floor before a correction: "hmm", "uh, well"
_HESITATION = re.compile(r"(?:(?:hmm+|hm+|uh+|um+|erm?|oh|ah|well|ok(?:ay)?|so)[\s,.\u2026]*)+")
# the same and a "no" that opens the correction's own clause: "add evtest? nah forget it"
_OPENING_NO = re.compile(
    r"(?:(?:hmm+|hm+|uh+|um+|erm?|oh|ah|well|ok(?:ay)?|so|nah|nope|no|meh|eh)[\s,.\u2026]*)+"
)


def _interjection(said: str, pattern: re.Pattern[str] = _HESITATION) -> bool:
    """True for words that only hold the floor ("hmm", "uhh, well", "oh"), or none."""
    words = said.lower().strip()
    return bool(pattern.fullmatch(words)) or all(
        t.text in FILLER for t in tokenize(words) if t.kind == "word"
    )


def _inside(text: RequestText, clauses: list[Clause], marker: int) -> list[Clause]:
    """The words of the marker's own clause before it ("add nginx no wait caddy"), if any."""
    for clause in clauses:
        if clause.start < marker < clause.end:
            said = text.original[clause.start : marker].rstrip(" ,.\u2026-\u2013\u2014")
            if _interjection(said, _OPENING_NO):
                return []  # "... hmm forget that": an interjection, the clause before counts
            if text.work[clause.start : clause.start + len(said)].strip():
                return [Clause(clause.start, clause.start + len(said), said, clause.sentence)]
    return []


# a name right after the correction, then what is said of it ("carol no sudo")
_NAME_THEN = re.compile(r"[ \t,]*(?P<name>[a-z_][a-z0-9_-]*)(?![\w-])")


def _amends_one(text: RequestText, taken: list[Clause], at: int) -> bool:
    """True when the correction at ``at`` names one user of ``taken`` and changes only it.

    "users alice bob carol all sudo, no wait carol no sudo": carol was listed; the words
    after her name are a user's attribute; the list stands and carol's sudo changes.
    """
    named = _NAME_THEN.match(text.work, at)
    if named is None or not ATTRIBUTE_NEXT.match(text.work, named.end()):
        return False
    said = re.compile(rf"(?<![\w-]){re.escape(named['name'])}(?![\w-])")
    return any(said.search(text.work, c.start, c.end) for c in taken)


def _shape(word: str) -> bool:
    """A value's shape: True for a number or size ("800", "16gb", "2-3"), else False."""
    return word.rpartition("=")[2][:1].isdigit()


def _said(text: RequestText, clauses: list[Clause]) -> str:
    return text.original[clauses[0].start : clauses[-1].end]


def _corrected(before: list[Clause], restrict: bool) -> list[Clause]:
    """The clauses a correction corrects: the last one, and for "just" its whole list.

    "groups wheel and audit.. no, just wheel": "and audit" continues "groups wheel", and
    "just" says the list is wheel alone. A list runs over clauses that start with "and" or
    "or", and over single words after a comma ("users alice, bob.. no, just alice").
    """
    taken = [before[-1]]
    if not restrict:
        return taken
    for clause in reversed(before[:-1]):
        first = taken[0]
        joined = _CONTINUING.match(first.text.lower()) is not None or (
            len(first.text.split()) == 1 and not clause.ends_with_colon
        )
        if not joined or clause.parenthetical != first.parenthetical:
            break
        taken.insert(0, clause)
    return taken


def _value_span(
    text: RequestText, clauses: list[Clause], marker: int, start: int
) -> tuple[int, int] | None:
    """Where the bare value said right after the correction ``marker:start`` is, if any.

    The value runs to its clause's end, on over clauses that continue it ("wheel and
    adm"); a word that asks or says something ("call it X", "they're headless") makes it
    no bare value.
    """
    after = [c for c in clauses if c.end > start]
    if not after or (after[0].start < marker and not after[0].start <= start < after[0].end):
        return None
    end = None
    for index, clause in enumerate(after):
        if index and (
            clause.sentence != after[0].sentence or not _CONTINUING.match(clause.text.lower())
        ):
            break
        begin = max(clause.start, start)
        words = [t.text for t in tokenize(text.work[begin : clause.end]) if t.kind == "word"]
        if index:
            words = words[1:]  # the "and" that joins it
        if not words or len(words) > 4 or any(w in _NOT_VALUES for w in words):
            break
        end = clause.end
    if end is None:
        return None
    begin = max(after[0].start, start)
    return begin + len(text.work[begin:end]) - len(text.work[begin:end].lstrip(" ,")), end


def _replace_value(
    text: RequestText,
    clauses: list[Clause],
    taken: list[Clause],
    marker: int,
    start: int,
) -> bool:
    """Put the bare value said at ``start`` in place of the value ``taken`` says.

    The head of the corrected clause stays ("hostname", "groups", "disk"); its value, the
    correction and the words between go, and the new value moves up to the head, so every
    rule reads "hostname lab-node". False (nothing changed) unless a bare value follows.
    """
    span = _value_span(text, clauses, marker, start)
    if span is None:
        return False
    start, end = span
    value_words = [t for t in tokenize(text.work[start:end]) if t.kind == "word"]
    first = taken[0]
    words = [t for t in tokenize(text.work[first.start : first.end]) if t.kind == "word"]
    if not words:
        return False
    # as many words as the new value has; in a list, as many as one of its items
    size = len(value_words)
    if len(taken) > 1:
        item = [t for t in tokenize(text.work[taken[-1].start : taken[-1].end]) if t.kind == "word"]
        size = max(1, len(item) - (1 if _CONTINUING.match(taken[-1].text.lower()) else 0))
    keep = len(words) - min(size, len(words) - 1) if len(words) > 1 else 0
    if len(taken) == 1 and len(value_words) > 1:
        return False
    if len(taken) == 1:
        # the word of the new value's shape: "priority 800 on that repo. no, 400" is 800
        # ("qcow2 output, or rather vhdx": never a word that names the slot)
        shape = _shape(value_words[0].text)
        shaped = [
            i
            for i, w in enumerate(words)
            if _shape(w.text) == shape and w.text not in _NOT_VALUES | _SLOTS
        ]
        if not shaped:
            return False  # "the boxes have tiny SSDs, actually 6 gigs": nothing of its shape
        keep, size = shaped[-1], 1
    if words[keep].text in _NOT_VALUES | _SLOTS:
        return False
    at = first.start + words[keep].start
    while at > first.start and text.work[at - 1] == "/":
        at -= 1  # a path's leading "/" is no word of its own: "/bin/bash.. nah /sbin/nologin"
    if "=" in words[keep].text:
        return False  # a kernel option's value: the kernel rules keep the last one said
    # what the clause says after the old value stays after the new one ("priority 400 on
    # that repo"); a list's old values run to its end
    old_end = first.start + words[min(keep + size, len(words)) - 1].end
    tail_end = taken[-1].end if len(taken) == 1 else old_end
    if text.BLANK in text.work[at:end]:
        return False  # a rule before this one read part of it
    glued = re.match(r"\S*", text.work[old_end:tail_end])  # "lab-pi-": the "-" goes too
    old_end += glued.end() if glued else 0
    new_work = text.work[start:end] + text.work[old_end : max(old_end, tail_end)]
    new_original = text.original[start:end] + text.original[old_end : max(old_end, tail_end)]
    pad = end - at - len(new_work)
    text.work = text.work[:at] + new_work + text.BLANK * pad + text.work[end:]
    text.original = text.original[:at] + new_original + " " * pad + text.original[end:]
    text.claims.append((at + len(new_work), end, "context"))
    return True


# a bare answer a user gives to their own question ("swap? no.", "gui? nope, not needed")
_DECLINING = frozenset(
    "no nope nah not none needed necessary required thanks skip it hmm hm uh um well oh ah".split()
)
_NEGATIVE = frozenset("no nope nah not none skip".split())


def _declined(state: PlanState, clauses: list[Clause]) -> None:
    """Drop "swap?" answered "no." by the clause after it: an option the user declines."""
    text = state.text
    for asked, answer in zip(clauses, clauses[1:], strict=False):
        if not text.original[asked.end : answer.start].lstrip().startswith("?"):
            continue
        words = set(re.findall(r"[a-z']+", answer.text.lower()))
        if words and words <= _DECLINING and words & _NEGATIVE:
            text.consume(asked.start, answer.end, "context")
            state.notes.append(f"'{asked.text}' was declined ('{answer.text}')")


# How people wrap a request: "I was wondering if you could add htop", "would it be possible
# to", "please make sure", "for compliance reasons", "by the way". The wrapper asks for
# nothing itself; what it wraps is read as if said plainly.
_FRAMING = re.compile(
    r"\b(?:i\s+was\s+wondering\s+(?:if|whether)\s+(?:you|we)\s+(?:could|can|might)"
    r"|(?:would|could|will)\s+it\s+be\s+possible\s+to|is\s+it\s+possible\s+to"
    r"|it\s+would\s+be\s+(?:great|nice|good|helpful|ideal|awesome|perfect)\s+(?:if|to)"
    r"|(?:could|can|would|will)\s+you\s+(?:please\s+|kindly\s+)*"
    r"|(?:please\s+)?(?:make\s+sure|ensure|see\s+to\s+it)(?:\s+that)?"
    r"|(?:i|we)(?:'d|\s+would)\s+(?:like|love|appreciate\s+it\s+if)\s+(?:you\s+to|if\s+you\s+(?:could|can))?"
    r"|do\s+you\s+mind|if\s+(?:possible|you\s+can)|ideally|preferably|if\s+it\s+helps"
    r"|(?:i'?m\s+|we'?re\s+|i\s+am\s+|we\s+are\s+)?(?:looking|searching|asking)\s+for"
    r"|(?:hey|hi|hello)(?:\s+there)?"
    r"|(?:for|due\s+to)\s+(?:compliance|security|licensing|legal|historical|performance|"
    r"practical|policy|audit)\s+reasons|as\s+discussed(?:\s+(?:with|in)\s+[\w\s]{1,30}?(?=,))?"
    r"|as\s+agreed|per\s+(?:our|the)\s+[\w\s]{1,20}?policy|by\s+the\s+way|btw|fyi"
    r"|just\s+to\s+confirm|note\s+that|keep\s+in\s+mind(?:\s+that)?|don'?t\s+forget\s+to"
    r"|one\s+more\s+thing|last\s+thing"
    # "whatever the old one had, minus the debug stuff": the template as it is, then a change
    r"|(?:whatever|everything|all)\s+(?:that\s+)?the\s+(?:old|previous|original|earlier|last)"
    r"\s+(?:one|image|template|build|box)\s+(?:had|has|came\s+with)"
    r"(?=\s*,?\s*(?:minus|except|but|without|less|apart\s+from|other\s+than)\b))\b",
    re.IGNORECASE,
)


def rule_framing(state: PlanState) -> None:
    """Read a request's politeness and hedges as context, so what they wrap reads plainly."""
    for match in state.text.matches(_FRAMING):
        state.text.consume(*match.span(), "context")
