"""Clause accounting: every clause of a request ends as exactly one outcome.

After the rules and the clause readers ran, each clause (:mod:`.clauses`) is:

* ``applied`` when a rule or reader took its words (the operations they belong to);
* ``base`` in create mode when it described what the image is for, which chose the base;
* ``context`` when it asks for no change ("thanks", "our test bench is a NUC");
* ``reference`` when it refers to an earlier turn ("undo that"): the conversation route
  handles those, the planner only says so;
* ``not_applied`` otherwise, with the reason and a suggestion.

Words no rule took are read by the operation bank (:mod:`.bank`); below its threshold
the clause is reported, never guessed. Only ``not_applied`` clauses reach the plan's
``not_applied`` list; the whole accounting is the plan's ``clauses``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from oic_ai.tools.courtesy import is_acknowledgement
from oic_ai.tools.edit_plan import ClauseOutcome, ClauseOutcomeKind
from oic_ai.tools.planner.asking import (
    FIELD_NOUNS,
    IMPERATIVES,
    KEEPS,
    Reading,
    is_bullet_line,
    names_something,
    read_clause,
)
from oic_ai.tools.planner.bank import BankMatch, load_bank
from oic_ai.tools.planner.clauses import Clause, split_clauses
from oic_ai.tools.planner.component_asks import asks_for_component, report_component
from oic_ai.tools.planner.field_family import (
    FAMILY,
    field_family,
    named_field,
    only_field_nouns,
)
from oic_ai.tools.planner.fillers import fill
from oic_ai.tools.planner.heads import (
    NOT_OPERATIONS,
    VERBS,
    Unread,
    checks_item,
    head_clause,
    introduces_applied,
    tells_what_it_does,
)
from oic_ai.tools.planner.languages import foreign_remark
from oic_ai.tools.planner.lexicon import is_english
from oic_ai.tools.planner.reasons import (
    continues_own_task,
    continues_relative,
    exclamation_before_a_reply,
    no_kind,
    reason_after_change,
    reason_before_so,
    refuses_a_kind,
    wish_before_change,
    wish_then_change,
)
from oic_ai.tools.planner.remark_model import REMARK_FLOOR, load_remark_model
from oic_ai.tools.planner.remarks import (
    CONNECTORS,
    has_words,
    is_remark,
    machine_role,
    mostly_english,
    names_parts_of,
    remark_label,
)
from oic_ai.tools.planner.rules.beyond import INDIRECT_QUESTION, job_asked, no_rule_for
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.tables import table_header
from oic_ai.tools.planner.text import Token, tokenize
from oic_ai.tools.planner.words import ADD_VERBS, FILLER, REMOVE_VERBS, RETRIEVAL_WORDS

NO_RULE = (
    "no rule for this; try a concrete change such as 'add htop', 'make the disk 8GiB' or "
    "'hostname edge-01'"
)
REFERENCE = "refers to an earlier turn; the conversation handles it, not the planner"


def account(state: PlanState) -> list[ClauseOutcome]:
    """Give every clause of the request its outcome; report the ``not_applied`` ones."""
    clauses = split_clauses(state.text.original)
    words = [t for t in tokenize(state.text.work) if t.kind == "word"]
    # a value the plan used, said again ("ops needs an admin account named ops")
    used = {*state.user_names, *(state.hostname or "").split()}
    unread: list[Unread] = []
    for clause in clauses:
        inside = [t for t in words if clause.start <= t.start < clause.end]
        meaningful = []
        for token in inside:
            if token.text in FILLER or token.text in used:
                continue
            if state.mode == "create" and (
                token.text in RETRIEVAL_WORDS or token.text.removesuffix("s") in RETRIEVAL_WORDS
            ):
                state.use_case_words.append((token.start, token.text.removesuffix("s")))
                continue
            if token.text.replace(".", "").isdigit() and _after_claim(state, token.start):
                continue  # "RHEL-compatible 10": the number of what was read before it
            meaningful.append(token)
        owners = [
            _owner(state, owner)
            for start, end, owner in state.text.claims
            if start < clause.end and end > clause.start
        ]
        if (
            not owners
            and not meaningful
            and any(t.text in VERBS for t in inside[:-1])
            and not _points_back(state, clause, inside)
        ):
            # "remove all packages": a verb whose object no rule took asks for something
            meaningful = list(inside)
        if not owners and is_acknowledgement(clause.text):
            meaningful = []  # "Got it. Now give /var its own partition": it asks nothing
        unread.append(Unread(clause, inside, meaningful, list(dict.fromkeys(owners))))
    matches = _bank_matches(unread)
    outcomes: list[ClauseOutcome] = []
    for index, item in enumerate(unread):
        if _appositive_of_context(state, item, unread, index, outcomes):
            # "our gateway app (gwctl) is deployed later": the name in parentheses names
            # what the remark before it is about, and asks no more than that remark
            outcomes.append(ClauseOutcome(text=item.clause.text, outcome="context"))
            continue
        outcomes.append(_outcome(state, item, matches.get(index), unread, index, outcomes))
    return outcomes


_REMARKS = frozenset({"context", "base"})


def _appositive_of_context(
    state: PlanState,
    item: Unread,
    unread: Sequence[Unread],
    index: int,
    outcomes: Sequence[ClauseOutcome],
) -> bool:
    """True for a name in parentheses right after a clause that asked for nothing."""
    clause = item.clause
    if not clause.parenthetical or index == 0 or item.owners or not outcomes:
        return False
    before = unread[index - 1]
    if before.clause.sentence != clause.sentence or outcomes[-1].outcome not in _REMARKS:
        return False
    if any(o not in NOT_OPERATIONS for o in before.owners):
        return False  # the clause before must be a remark of its own, not a change read
    between = state.text.original[before.clause.end : clause.start]
    if between.strip() not in ("", "("):
        return False
    words = [t.text for t in item.meaningful]
    return 0 < len(words) <= 3 and not any(re.search(r"[/=:]", w) or w.isdigit() for w in words)


# "add that one", "add those pls", "add it": the object is what the request named before
_POINTING = frozenset(
    "it that this those these them one ones too also as well pls please "
    # where it goes: "put that in the image", "bake this into the template"
    "in into onto on to inside the image template build there".split()
)


def _points_back(state: PlanState, clause: Clause, inside: Sequence[Token]) -> bool:
    """True for "add it" when an earlier part of the same request was read as a change."""
    verbs = [i for i, t in enumerate(inside) if t.text in VERBS]
    objects = [t.text for t in inside[verbs[-1] + 1 :]] if verbs else []
    verb = inside[verbs[-1]].text if verbs else ""
    # "remove it" after "add htop" still asks; after "mosquitto not needed" it points back
    same_way = verb in ADD_VERBS or (verb in REMOVE_VERBS and bool(state.remove or state.absent))
    return (
        bool(objects)
        and same_way
        and set(objects) <= _POINTING
        and bool({"it", "that", "this", "those", "these", "them"} & set(objects))
        and any(
            end <= clause.start and owner not in NOT_OPERATIONS
            for _, end, owner in state.text.claims
        )
    )


def _applied_anywhere(unread: Sequence[Unread]) -> set[str]:
    return {o for item in unread for o in item.owners if o not in NOT_OPERATIONS}


def _after_claim(state: PlanState, start: int) -> bool:
    """True when a read span ends just before ``start`` (only spaces between)."""
    return any(
        end <= start and not state.text.original[end:start].strip(" ;,")
        for _, end, _ in state.text.claims
    )


def _owner(state: PlanState, owner: str) -> str:
    # in create mode a target the base already has is what chose the base
    if owner == "target" and state.mode == "create" and not state.set_target:
        return "base"
    return owner


def _bank_matches(unread: Sequence[Unread]) -> dict[int, BankMatch]:
    """The bank's reading of each clause with meaningful words left, by clause index."""
    wanted = {i: _words(item) for i, item in enumerate(unread) if item.meaningful}
    if not wanted:
        return {}
    bank = load_bank()
    if bank is None:
        return {}
    found = bank.match(list(wanted.values()))
    return dict(zip(wanted, found, strict=True))


def _names(state: PlanState) -> frozenset[str]:
    """The package names the planner knows for this request."""
    return frozenset(state.known_names())


def _words(item: Unread) -> str:
    return " ".join(t.text for t in item.tokens)


def _quoted(state: PlanState, item: Unread) -> str:
    """The clause's unread words as written, without the joining word before them."""
    tokens = item.meaningful or item.tokens
    while len(tokens) > 1 and tokens[0].text in CONNECTORS:
        tokens = tokens[1:]
    if not tokens:
        return item.clause.text
    before = [t for t in item.tokens if t.start <= tokens[0].start]
    while len(before) > 1 and before[0].text in CONNECTORS:
        before = before[1:]
    start = before[0].start
    end = max(t.end for t in tokens)
    return " ".join(state.text.raw(start, end).split()).strip(" ,;.:")


def _outcome(
    state: PlanState,
    item: Unread,
    match: BankMatch | None,
    unread: Sequence[Unread],
    index: int,
    before: Sequence[ClauseOutcome] = (),
) -> ClauseOutcome:
    operations = [o for o in item.owners if o not in NOT_OPERATIONS]
    text = item.clause.text
    if not item.meaningful:
        if operations:
            return ClauseOutcome(text=text, outcome="applied", operations=operations)
        if "rejected" in item.owners:
            return ClauseOutcome(text=text, outcome="not_applied", reason=_rejection(state, text))
        if "base" in item.owners or (state.mode == "create" and item.owners):
            return ClauseOutcome(text=text, outcome="base", reason=_base(state))
        return ClauseOutcome(text=text, outcome="context")
    packages = [*state.add, *state.facts.packages]
    if all(o == "context" for o in item.owners) and asks_for_component(text, packages):
        return report_component(state, text, _quoted(state, item))  # "also the X runtime"
    label = match.label if match is not None else None
    if label is None and match is not None and is_remark(item.tokens, match):
        label = remark_label(match)
    label = named_field(item, label)
    if operations and _subject_of_applied(state, item):
        # "the monitoring agent needs the kernel parameter audit=1": who needs it
        return ClauseOutcome(text=text, outcome="applied", operations=operations)
    words = has_words(item.tokens)
    if label is not None and label.outcome in ("context", "use") and not words:
        label = None  # "bbbbbb wmxbgm": no word of it is a word, so it is not a remark
    family = FAMILY.get(label.name, "?") if label is not None else "?"
    if family == "?":
        family = field_family(item)
    if family in operations or (
        (words or only_field_nouns(item))
        and family in _applied_anywhere(unread)
        and family != "packages"  # "add htop and remove all packages" is no reference
        and not re.search(r"[\d/=]", _words(item))
    ):
        # "turn off the CPU mitigations with mitigations=off", "20GB ... fix the disk":
        # words that only name an operation the request applied
        return ClauseOutcome(text=text, outcome="applied", operations=operations or [family])
    if label is not None and label.outcome in ("context", "use"):
        if operations:
            return ClauseOutcome(text=text, outcome="applied", operations=operations)
        if label.outcome == "use" and state.mode == "create":
            return ClauseOutcome(text=text, outcome="base", reason=_base(state))
        if not _commands(state, item):
            return ClauseOutcome(text=text, outcome="context")
        # "configure log rotation", "make the VM have 4 vCPUs": the bank's context and use
        # examples are statements, and a clause headed by a verb in the imperative states
        # nothing; it asks
        label = None
    if label is not None and label.outcome == "reference":
        state.notes.append(f"'{_quoted(state, item)}' {REFERENCE}")
        return ClauseOutcome(text=text, outcome="reference", reason=REFERENCE)
    if label is not None and label.outcome == "operation" and not operations:
        # "use kiosk-7 as the hostname": the bank names the operation, a filler its value
        owner = fill(state, label.name, item.tokens)
        if owner is not None:
            return ClauseOutcome(text=text, outcome="applied", operations=[owner])
    if not operations and label is None:
        # "the hostname in the old config was kiosk-$SITE, just use kiosk-04": the field
        # was named in the clause before, the value comes in this one
        owner = _fill_from_before(state, item, unread, index)
        if owner is not None:
            return ClauseOutcome(text=text, outcome="applied", operations=[owner])
    if introduces_applied(item, unread, index):
        return ClauseOutcome(text=text, outcome="context")
    remarks = {i for i, o in enumerate(before) if o.outcome in _REMARKS}
    if head_clause(state, item, unread, index, remarks):
        # "could you build me a debian image for a home NAS": the request's head clause
        # in create mode described the image, which chose the base
        if operations:
            return ClauseOutcome(text=text, outcome="applied", operations=operations)
        return ClauseOutcome(text=text, outcome="base", reason=_base(state))
    if reason_after_change(
        state.text.original,
        item,
        unread,
        index,
        lambda word: _is_package(state, word),
        # ("add logrotate, nginx logs get big": a reason may speak of what the image has)
        {*state.add, *state.remove, *state.present, *state.absent, *state.facts.packages},
        label is not None and label.outcome == "not_applied",
    ):
        # "drop strace, security review flagged it": why the change before it is made
        return ClauseOutcome(text=text, outcome="context")
    if not operations and wish_then_change(item, unread, index):
        return ClauseOutcome(text=text, outcome="context")  # "ops wants X gone. remove X"
    if not operations and wish_before_change(
        item,
        unread,
        index,
        lambda word: _is_package(state, word),
        label is not None and label.outcome == "not_applied",
    ):
        return ClauseOutcome(text=text, outcome="context")  # "screen must not sleep - add X"
    if not operations and continues_relative(item, unread, index, lambda w: _is_package(state, w)):
        # "boxes that collect the data and push it upstream": the description goes on
        return ClauseOutcome(text=text, outcome="context")
    asking = _asking(state, item, unread, index)
    relayed = (  # "Priya asked whether we can set the timezone": the answer is no
        label is not None and label.outcome == "not_applied" and INDIRECT_QUESTION.search(text)
    )
    # "never suspend": no verb the grammar knows, but an example of a wish no field holds
    sure = match is not None and match.score >= _BANK_SURE and asking.why == "names no change"
    bank_asks = sure and label is not None and label.outcome == "not_applied"
    if (
        asking.asking != "asks"
        and not relayed
        and not bank_asks
        and not (label is not None and label.outcome == "reference")
    ):
        # "my lead (Marguerite)", "he left", "for the field techs": it asks for nothing
        if operations:
            return ClauseOutcome(text=text, outcome="applied", operations=operations)
        if asking.asking == "purpose" and state.mode == "create":
            return ClauseOutcome(text=text, outcome="base", reason=_base(state))
        return ClauseOutcome(text=text, outcome="context")
    if not operations and foreign_remark(state.text.written, _words(item).split(), _names(state)):
        return ClauseOutcome(text=text, outcome="context")  # a remark in another language
    if (
        label is None
        and not operations
        and asking.why.startswith("unknown word")
        and _applied_anywhere(unread)
        and mostly_english(item.tokens)
    ):
        # "add linuxptp, the joints sync over ptp on eth0": no request form, no value,
        # field or package, only a word nobody knows among English ones, beside a change
        # the request made: it tells about the machine ("bbbbbb qqq" has no English word
        # and is still reported)
        return ClauseOutcome(text=text, outcome="context")
    if label is None and not operations and _told(state, item, asking):
        return ClauseOutcome(text=text, outcome="context")
    reason = NO_RULE if label is not None else no_rule_for(text, NO_RULE)
    if label is not None and label.outcome == "not_applied":
        reason = label.reason
    elif label is not None and label.outcome == "operation":
        reason = label.reason + (f"; try '{label.suggestion}'" if label.suggestion else "")
    entry = f"'{_quoted(state, item)}' — {reason}"
    if entry not in state.not_applied:
        state.not_applied.append(entry)
    kind: ClauseOutcomeKind = "not_applied"
    return ClauseOutcome(text=text, outcome=kind, operations=operations, reason=reason)


_A_BIT_OF = re.compile(r"\bbits?\s+of\b", re.IGNORECASE)
_BANK_SURE = 0.8  # a bank match this close is its example said again


def _told(state: PlanState, item: Unread, asking: Reading) -> bool:
    """True when the remark model reads an English clause that names nothing as a remark.

    "Blame the network team for that one", "nvm, found it myself": no rule read it, no
    example of the bank is near it, it names no value, field or package, and only the
    grammar's weakest sign said it asks (a word taken for a verb because an object
    follows it, an unknown turn of phrase; never a wish); the model (:mod:`.remark_model`)
    says whether it tells or asks. Words nobody knows ("bbbbbb", "jeez") stay reported.
    """
    words = [t.text for t in item.tokens]
    head = asking.why.split("'")[1] if asking.why.startswith("imperative '") else ""
    if (
        asking.why.startswith("wish")  # "the NOC wants dashboards to work" asks
        or head in IMPERATIVES  # "enable the thing we discussed": a verb of change asks
        or item.clause.ends_with_colon  # "pw policy: min 12 chars": it heads what it asks
        or names_something(item.clause.text, words)
        or any(_is_package(state, w) for w in words)
        or re.search(r"\d", item.clause.text)  # "lockout after 5 bad tries": a setting's value
        or not all(is_english(w) for w in words if w not in CONNECTORS)
    ):
        return False
    model = load_remark_model()
    return model is not None and model.probabilities([item.clause.text])[0] >= REMARK_FLOOR


def _commands(state: PlanState, item: Unread) -> bool:
    """True when the clause, none of it read, is headed by a verb in the imperative.

    A polite frame read as context ("can you", "pls") leaves the clause unread, and a
    clause that opens with a wish addressed to the assistant ("can you schedule ...") asks
    as an imperative does.
    """
    if any(owner != "context" for owner in item.owners):
        return False
    known = lambda word: _is_package(state, word)  # noqa: E731
    why = read_clause(item.clause.text, is_package=known).why
    addressed = why[5:].strip("'\"") if why.startswith("wish") else ""
    opening = " ".join(item.clause.text.lower().split()[:5])
    if addressed in _ADDRESSED and addressed in opening:
        # "could you make sure it's there once" asks to check, not to change
        return not re.search(rf"\byou {_CHECKING}", opening)
    verb = why.split()[-1].strip("'\"") if why.startswith("imperative") else ""
    words = [t.text for t in item.tokens]
    if re.match(_CHECKING, verb) or (verb == "make" and "sure" in opening.split()[:4]):
        return False  # "make sure it only shows up once": a check of what was asked
    if verb in IMPERATIVES:
        return verb not in _KEEPING
    if len(words) > 2 and words[0] in ("plus", "also") and words[1] in ("a", "an", "some"):
        return True  # "plus a cron job that reboots it nightly": one more thing asked for
    # "text us once it's built": a word whose object is "me" or "us" is a verb, listed or not
    return bool(verb) and verb in words[:-1] and words[words.index(verb) + 1] in ("me", "us")


# imperatives that ask to check, not to change ("make sure it is there once")
_CHECKING = r"(?:make sure|ensure|check|confirm|verify|double)\b"
# wishes said to the assistant: the polite form of an imperative
_ADDRESSED = frozenset(("can you", "could you", "would you", "will you"))
# imperatives that ask for no change ("keep it simple", "leave the rest as is", "start
# from this")
_KEEPING = frozenset("keep leave stay go stick retain use let do build start begin".split())


def _asking(state: PlanState, item: Unread, unread: Sequence[Unread], index: int) -> Reading:
    """Whether the clause's unread words ask for something (:mod:`.asking`)."""
    original = state.text.original
    clause = item.clause
    known = lambda word: _is_package(state, word)  # noqa: E731
    if any(owner != "context" for owner in item.owners):
        # a clause something was read from: only its unread words can ask for more
        # ("stay on x86" with x86 read, "raw disk image for the sd cards")
        rest = [t for t in item.meaningful if t.text not in _LEAD_WORDS]
        purpose = _purpose_tail(state, item)
        if purpose is not None:
            # "emit a qcow2 for the KVM runners": who the change is for asks nothing more
            rest = [t for t in rest if t.start < purpose]
            if len(rest) == 1 and rest[0].text in IMPERATIVES:
                rest = []  # the verb of the change that was read ("emit")
        # "give me a raw disk version of the same thing for the VMs": the verb, who gets it,
        # the word for another version of the image and who it is for; the format was read
        restating = [t for t in rest if t.text not in _RESTATING]
        if restating and restating[0].text in IMPERATIVES and len(restating) < len(rest):
            if len(restating) == 1 or restating[1].text == "for":
                rest = []
        said = " ".join(state.text.raw(t.start, t.end) for t in rest)
        subject = _SUBJECT_BEFORE.search(original, clause.start, rest[0].start) if rest else None
        if subject is not None:
            said = f"{subject.group(1)} {said}"  # "We start the new X project": a statement
        reading = job_asked(said) or read_clause(said, is_package=known)  # "backup at 2am"
        if reading.why.startswith(("value", "package", "job")) or (
            reading.why.startswith("imperative") and len(rest) > 1
        ):
            return reading
        return Reading("context", "only the rest of a clause that was read")
    if not item.owners and continues_own_task(item, unread, index, known):
        return Reading("context", "continues what the user will do themselves")
    if reason_before_so(item, unread, index):
        # "security wants the serial console to work, so the command line needs ...":
        # the change after "so" was read; what comes before it says why
        return Reading("context", "the reason for the change after it")
    # a parenthesis on a list line is an aside of the item, not an item of its own
    if table_header(original, clause.start):
        return Reading("context", "a table's header row")  # "| mount | size | fs |"
    bullet = is_bullet_line(original, clause.start) and not clause.parenthetical
    reading = read_clause(clause.text, is_package=known, bullet=bullet)
    if reading.why.startswith(KEEPS) and _in_template(state, reading.why[len(KEEPS) :]):
        # "drop the serial console, keep tty0 though": the value kept is the template's
        return Reading("context", "keeps a value the template has")
    if not reading.why.startswith(("wish", "imperative")) and checks_item(original, clause.start):
        # "Acceptance criteria: 1) boots on the test rig": how the image will be checked,
        # not a change; an item that asks ("MUST include nfs-utils") is still read
        return Reading("context", "a check under a header of checks")
    if reading.why.startswith(("wish", "unknown word", "package")) and _names_read_values(
        state, item
    ):
        # "nouveau has to stay out of the way; modprobe.blacklist=nouveau is fine": the
        # names it says are inside a value the request applied, which it explains
        return Reading("context", "names only what a value the request applied holds")
    if reading.why.startswith("unknown word") and exclamation_before_a_reply(
        original, clause.start, clause.end, known
    ):
        return Reading("context", "a reaction before the reply")  # "jeez. fine, 24.04"
    if (state.remove or state.absent) and (
        (reading.why.startswith("wish") and refuses_a_kind(item)) or no_kind(item, known)
    ):
        # "remove cloud-init. we don't want anything pulling config from the network", "drop
        # vim. no editors on a jump box": a refusal of a kind of thing after a removal
        return Reading("context", "why the request removed something")
    if reading.why.startswith(("wish", "imperative")) and machine_role(clause.text, state):
        return Reading("context", "what the machine is to become")  # "turn it into a NAS"
    if reading.why.startswith("wish") and names_parts_of(item.tokens, [*state.add]):
        return Reading("context", "describes a package this request changed")  # "the runtime"
    if reading.why.startswith(("package", "unknown word")) and (
        _only_changed_names(state, item) or tells_what_it_does(state, item)
    ):  # "put vim and tmux on it, techs live in tmux": named again, it tells why
        return Reading("context", "names only packages this request changed")
    if (
        reading.why.startswith(("unknown word", "names no change"))
        and _continues_purpose(unread, index)
        and has_words(item.tokens)  # "for arm64 and bbbbbb bbbbbb" continues nothing
    ):
        # "add strace for the network and syscall tests": the second half of the purpose
        return Reading("purpose", "continues the purpose before it")
    if (
        reading.why == "names no change"
        and index > 0
        and _names_a_thing(state, item)
        and _continues_list(state, unread, index)
    ):
        return Reading("asks", "an item of the list before it")
    if (
        reading.why == "names no change"
        and not clause.parenthetical  # "(security finding SF-3)": an aside
        and any(t.text.removesuffix("s") in RETRIEVAL_WORDS for t in item.meaningful)
        and not _A_BIT_OF.search(clause.text)  # "bit of background": a quantity, no image
    ):
        # refine mode: "a small headless edge server" describes another image
        return Reading("asks", "describes an image")
    if (
        reading.why.startswith("unknown word")
        and clause.parenthetical
        and not {t.text for t in item.tokens[:1]} & (VERBS | CONNECTORS | {"with"})
    ):
        # "(UEFI, cortex-a53)", "(PXE -> kernel + initrd, root on tmpfs)": an aside that
        # describes the machine or the old setup; an asked-for name would come with a verb
        return Reading("context", "an aside that describes")
    if reading.why.startswith("field") and (clause.ends_with_colon or clause.parenthetical):
        # "Kernel command line:", "Required packages:" head what follows; "(same as the
        # hostname)" is an aside: neither asks by itself
        return Reading("context", "a header or an aside")
    if reading.why.startswith(("wish", "imperative")) and _only_subject(state, item):
        # "my lead wants a diskless netboot image": what is wanted was read, who wants it
        # is context
        return Reading("context", "the subject of a request that was read")
    return reading


def _in_template(state: PlanState, quoted: str) -> bool:
    """True when the value (or every word) quoted in a reading stands in the base template.

    Nouns of the template's own fields ("user", "console") count as in it.
    """
    value = quoted.strip(" '\"").lower()
    facts = repr(state.facts).lower()
    if not value:
        return False
    return value in facts or all(
        w in facts or w.removesuffix("s") in FIELD_NOUNS or w in FIELD_NOUNS for w in value.split()
    )


# the field nouns whose value a following clause may give, with the bank label filling it
_FILLED_FIELDS = {"hostname": "hostname", "hostnames": "hostname", "fqdn": "hostname"}


def _fill_from_before(
    state: PlanState, item: Unread, unread: Sequence[Unread], index: int
) -> str | None:
    """Fill the field the clause before named (same sentence, nothing read for it)."""
    if index == 0:
        return None
    before = unread[index - 1]
    if before.clause.sentence != item.clause.sentence:
        return None
    labels = {_FILLED_FIELDS[t.text] for t in before.tokens if t.text in _FILLED_FIELDS}
    if len(labels) != 1 or any(o not in NOT_OPERATIONS for o in before.owners):
        return None
    return fill(state, labels.pop(), item.tokens)


# (a restating noun may come first: "the raw disk version for the ones we flash", and an
# "as well": "a qcow2 as well for testing")
_PURPOSE_START = re.compile(
    r"\s*(?:(?:version|variant|copy|flavou?r|edition|one)\s+)?(?:(?:as\s+well|too|also),?\s+)?"
    r"(?:for|so|to|because|since)\b"
)


def _purpose_tail(state: PlanState, item: Unread) -> int | None:
    """Where a purpose starts after what the clause applied ("... for the KVM runners")."""
    ends = [e for s, e, o in state.text.claims if item.clause.start <= s < item.clause.end]
    if not ends:
        return None
    last = max(ends)
    tail = state.text.original[last : item.clause.end]
    found = _PURPOSE_START.match(tail)
    if found is None or re.search(r"[\d/=]", tail):
        return None
    return last + found.start()


_RESTATING = frozenset(
    "me us version versions variant copy flavor flavour edition of same thing one".split()
)
# a subject pronoun right before the unread words: they state, they do not command
_SUBJECT_BEFORE = re.compile(r"\b(we|i|they|he|she)\s+$", re.IGNORECASE)
_LEAD_WORDS = frozenset("and then also plus so but or just now ok okay oh well please".split())


def _only_subject(state: PlanState, item: Unread) -> bool:
    """True when every unread word stands before the clause's wish or imperative word."""
    tokens = [t for t in item.tokens if t.text not in _LEAD_WORDS]
    head = next(
        (i for i, t in enumerate(tokens) if read_clause(t.text).why.startswith(("wish", "imper"))),
        None,
    )
    if head is None or head == 0:
        return False
    first = tokens[head].start
    return all(t.end <= first for t in item.meaningful) and not any(
        read_clause(state.text.raw(t.start, t.end)).why.startswith(("value", "field", "package"))
        for t in item.meaningful
    )


def _is_package(state: PlanState, word: str) -> bool:
    from oic_ai.tools.planner.rules.package_names import known as _known

    return word not in FILLER and _known(state, word, upstream=False)


_PURPOSE_TAIL = re.compile(r"\b(?:for|to)\s+(?:the\s+|our\s+|a\s+|an\s+)?[\w-]+$")


def _continues_purpose(unread: Sequence[Unread], index: int) -> bool:
    """True for "and syscall tests" after "... for the network": one purpose, two halves."""
    if index == 0:
        return False
    item, before = unread[index].clause, unread[index - 1].clause
    first = item.text.split(maxsplit=1)[0].lower() if item.text else ""
    tail = _PURPOSE_TAIL.search(before.text.rstrip(" ,"))
    return (
        item.sentence == before.sentence
        and first in ("and", "or")
        and len(item.text.split()) <= 4
        and tail is not None
        and not _names_target(tail.group())
    )


def _names_target(text: str) -> bool:
    """True for "for arm64", "for debian": a target, not a purpose a clause may continue."""
    from oic_ai.tools.retrieval.query_classifier import detect_target_spans

    return any(m.kind in ("dist", "os", "arch", "image_type") for m in detect_target_spans(text))


def _names_read_values(state: PlanState, item: Unread) -> bool:
    """True when every name of the clause (no common word) is inside a value that was read.

    Only values (``key=value`` options, paths, URLs) count, and the clause names no value
    of its own.
    """
    from oic_ai.tools.planner.lexicon import is_common

    if re.search(r"[\d/=]", item.clause.text):
        return False
    names = [t.text for t in item.meaningful if not is_common(t.text)]
    values = [
        state.text.original[s:e].lower()
        for s, e, o in state.text.claims
        if o not in NOT_OPERATIONS and not (item.clause.start <= s < item.clause.end)
    ]
    pieces = {p for v in values if re.search(r"[=/]", v) for p in re.split(r"[\s=/,.:]+", v)}
    return bool(names) and all(n in pieces for n in names)


def _only_changed_names(state: PlanState, item: Unread) -> bool:
    """True when every package name in the clause is one this request added or removed."""
    from oic_ai.tools.planner.lexicon import is_english

    changed = {*state.add, *state.remove, *state.present, *state.absent}
    named = [
        t.text
        for t in item.meaningful
        if t.text in changed or _is_package(state, t.text) or not is_english(t.text)
    ]
    return bool(named) and all(
        name in changed or _changed_as(state, name, changed) for name in named
    )


def _changed_as(state: PlanState, word: str, changed: set[str]) -> bool:
    """True when ``word`` names a capability whose packages are among ``changed``."""
    target = state.target
    if not target.known:
        return False
    return any(
        set(c.packages_for(target.os, target.dist, target.arch)) & changed
        for c in state.catalog.find(word)
    )


def _names_a_thing(state: PlanState, item: Unread) -> bool:
    """True when a clause could be an item of a list: a name, not only ordinary words.

    "and the Fluke tool" names something; "not needed", "rest stays", "belt and braces" do
    not, so they are no items of the list before them.
    """
    from oic_ai.tools.planner.lexicon import english_words, is_english

    if not english_words():
        return True  # no lexicon without the model: keep reading it as an item
    for token in item.meaningful:
        raw = state.text.raw(token.start, token.end)
        if _is_package(state, token.text) or (raw[:1].isupper() and token.start > 0):
            return True
        if not all(is_english(p, compounds=True) for p in re.split(r"[-_]", token.text) if p):
            return True
    return False


def _continues_list(state: PlanState, unread: Sequence[Unread], index: int) -> bool:
    """True for "and the Fluke tool" after "put ethtool, lm-sensors": an item of its list."""
    item = unread[index].clause
    while index > 0:
        before = unread[index - 1].clause
        if item.sentence != before.sentence or item.parenthetical or before.parenthetical:
            return False
        if "," not in state.text.original[before.end : item.start]:
            return False
        why = read_clause(before.text).why
        if why.startswith(("imperative", "wish")):
            return True
        if why.startswith(("statement", "purpose")):
            return False
        item, index = before, index - 1
    return False


_PREDICATES = re.compile(r"\s*(?:needs?|requires?|wants?|uses?|runs?|gets?|must|should)\b")


def _subject_of_applied(state: PlanState, item: Unread) -> bool:
    """True when the unread words are the subject of what the clause applied."""
    claims = sorted(
        (s, e) for s, e, o in state.text.claims if item.clause.start <= s < item.clause.end
    )
    if not claims or not item.meaningful:
        return False
    first = claims[0][0]
    if not all(t.end <= first for t in item.meaningful):
        return False
    between = state.text.original[max(t.end for t in item.meaningful) : first]
    # "mkosi had a separate /var partition": the old tool that had what was read
    return bool(_PREDICATES.match(state.text.original, first) or _HAD.fullmatch(between))


_HAD = re.compile(r"\s*(?:had|has|have|used|ran|shipped|was|were)\s*")


def _rejection(state: PlanState, text: str) -> str:
    for entry in state.not_applied:
        quoted, _, reason = entry.partition(" — ")
        quoted = quoted.strip("'[]()").lower()
        # the entry quotes the clause, or a heading and its clause ("also wifi: ssid X")
        if quoted in text.lower() or text.lower() in quoted.split(": "):
            return reason
    return "not applied"


def _base(state: PlanState) -> str:
    name = state.facts.image.name or "the closest library template"
    return f"chose the base: started from {name}"
