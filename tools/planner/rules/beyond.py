"""Rule: wishes no template can hold are reported before any rule can read them.

Some clauses name something an OS image template has no field for: a Wi-Fi network and its
passphrase, a BIOS setting, a login banner, automatic login, enrolment in a management
service, SSH server settings. Read by the other rules, their words turn into changes
nobody asked for (a network name "OFFICE-5G" read as a 5 GiB disk, "banner" as a user
name, "in the BIOS" as legacy boot). The operation bank's ``not_applied`` labels carry a
``words`` pattern that decides such a clause on its own; this rule runs first and reports
every clause that matches one, with the label's reason, so nothing of it reaches the
template; one that only states (asks nothing, :mod:`..asking`) is context, read by no rule
either. A short heading ending with a colon just before such a clause ("also wifi:")
belongs to it.

:func:`beyond_template` gives the same reading to the question path (an "is it possible
that ...?" about such a wish is answered that it cannot be done).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from oic_ai.stores.operation_bank import BankLabel, load_bank_data
from oic_ai.tools.planner.clauses import Clause, split_clauses
from oic_ai.tools.planner.state import PlanState

if TYPE_CHECKING:
    from oic_ai.tools.planner.asking import Reading

# a heading ("also wifi:", "network:") has at most this many words
_HEADING_WORDS = 3


@dataclass(frozen=True)
class Beyond:
    """One clause (or heading and clause) no template can hold.

    Attributes:
        start: Where it starts in the text.
        end: Where it ends.
        label: The bank label that decided it (its ``reason`` says why and what to do).
    """

    start: int
    end: int
    label: BankLabel


def _labels() -> list[BankLabel]:
    return [label for label in load_bank_data().labels.values() if label.words is not None]


def beyond_template(text: str, work: str | None = None) -> list[Beyond]:
    """The clauses of ``text`` that ask for something no template field can hold.

    Args:
        text: The request (as written, or as the planner reads it).
        work: The same text with spans other rules used blanked (same offsets); the
            words are searched in it. ``text`` when None.
    """
    work = text if work is None else work
    labels = _labels()
    clauses = split_clauses(text)
    found: list[Beyond] = []
    for index, clause in enumerate(clauses):
        piece = work[clause.start : clause.end]
        label = next((lb for lb in labels if lb.words and lb.words.search(piece)), None)
        if label is None:
            continue
        if label.part and label.words is not None:
            found += _parts(label, label.words, piece, clause.start)
            continue
        start = clause.start
        heading = _heading(clauses, index) or _set_up_for(clauses, index)
        if heading is not None and not (found and found[-1].end >= heading.start):
            start = heading.start
        found.append(Beyond(start, clause.end, label))
    return found


# what joins a part to the rest of its clause, and a hedge after it ("if you can")
_JOIN = re.compile(r"(?:\b(?:with|and|using|plus|also|its|their)\s+)+$", re.IGNORECASE)
_HEDGE = re.compile(
    r"\s*(?:if\s+(?:you|it|that|we)\s+can|if\s+possible|please|pls)\b", re.IGNORECASE
)


def _parts(label: BankLabel, words: re.Pattern[str], piece: str, at: int) -> list[Beyond]:
    """Each span of ``piece`` (a clause starting at ``at``) that ``words`` decides alone."""
    found = []
    for match in words.finditer(piece):
        start, end = match.span()
        join = _JOIN.search(piece, 0, start) if piece[:start].strip() else None
        if join is not None and not piece[join.end() : start].strip():
            start = join.start()
        hedge = _HEDGE.match(piece, end)
        end = hedge.end() if hedge else end
        found.append(Beyond(at + start, at + end, label))
    return found


def _heading(clauses: list[Clause], index: int) -> Clause | None:
    """The short colon-ended clause right before ``clauses[index]`` in its sentence."""
    if index == 0:
        return None
    before = clauses[index - 1]
    words = re.findall(r"[\w-]+", before.text)
    if before.ends_with_colon and before.sentence == clauses[index].sentence:
        return before if len(words) <= _HEADING_WORDS else None
    return None


# a clause that only sets something up ("and set up the firewall", "configure the BIOS"),
# then what it is for
_SET_UP = re.compile(
    r"^\W*(?:(?:and|then|also|please|pls|just)\s+)*(?:set\s*up|configure|tune|adjust|tweak|"
    r"lock\s+down|sort\s+out)\s+(?:(?:also|too|as\s+well)\s+)?(?:the\s+|a\s+|its\s+|their\s+)?"
    r"[\w-]+(?:\s+[\w-]+)?\W*$",
    re.IGNORECASE,
)
_FOR_WHAT = re.compile(r"^\W*(?:so(?:\s+that)?|such\s+that|to|in\s+order\s+to)\b", re.IGNORECASE)


def _set_up_for(clauses: list[Clause], index: int) -> Clause | None:
    """The clause before ``clauses[index]`` when it only sets up what the latter is for.

    "and set up the firewall so only ssh gets through": the setting up is the wish the
    clause after it says, no firewall package of its own; "install nftables and only allow
    ssh" names a package, which stays.
    """
    if index == 0 or not _FOR_WHAT.match(clauses[index].text):
        return None
    before = clauses[index - 1]
    if before.sentence != clauses[index].sentence or not _SET_UP.match(before.text):
        return None
    return before


_ADDED_NOUN = re.compile(
    r"\W*(?:(?:oh|ah|ok|okay)\W+)?(?:and|also|plus|as\s+well\s+as)\s+"
    r"(?:our|the|my|a|an|their|its|his|her|some)\b",
    re.IGNORECASE,
)
# "Priya asked whether we can set the timezone": a question relayed in a statement is
# still a question, and its answer is that the template cannot
INDIRECT_QUESTION = re.compile(
    r"\b(?:whether|if)\s+(?:we|you|it|they|one|the\s+[\w-]+)\s+(?:can|could|may|might)\b"
    r"(?!\s*not\b|n['’]t|['’]t)",
    re.IGNORECASE,
)


# a colon and what follows it on the line, up to a sentence's end
_CONFIG_VALUE = re.compile(r"\s*:\s*\S[^\n;]*?(?=[.!?]\s|[.!?]?$|;|\n)", re.M)
# a configuration key right before that colon: camelCase, snake_case or dotted
# ("cgroupDriver", "max_connections", "net.core.somaxconn"), never a plain word ("review");
# or the path of the file the lines after it go in ("in /etc/default/app: X=1")
_CONFIG_KEY = re.compile(r"(?:\b[a-z][a-z0-9]*(?:[A-Z_.][A-Za-z0-9]+)+|/[\w.@+-]+)\s*$")


# a request after a statement that points back at what it stated, in the same sentence:
# "... - can you put that in so it joins by itself?", "..., bake that in"
_POINTER = re.compile(
    r"[^.?!\n]{0,80}?\b(?:(?:can|could|would|will)\s+you\s+(?:please\s+|pls\s+)?(?:just\s+)?)?"
    r"(?:put|add|bake|set|include|save|store|configure|build|pre-?configure)\s+"
    r"(?:that|it|this|those|them|these|all\s+that)\s+(?:in|into|on|up|there)\b[^.?!\n]*",
    re.IGNORECASE,
)


def rule_beyond_template(state: PlanState) -> None:
    """Report every clause no template can hold; no later rule reads its words."""
    from oic_ai.tools.planner.asking import is_bullet_line, read_clause

    text = state.text
    for item in beyond_template(text.original, text.work):
        if item.label.part:  # a part of an asking clause: "add a user ... with uid 1001"
            state.reject(item.start, item.end, item.label.reason)
            continue
        end = item.end
        value = _CONFIG_VALUE.match(text.original, end)
        if value is not None and _CONFIG_KEY.search(text.original, item.start, end):
            # "with cgroupDriver: systemd": a setting's key and value, the clause's own
            end = value.end()
        said = text.original[item.start : end]
        # "5) Daily backups pushed to our S3 bucket" under "we need:": a list item asks, as
        # the accounting reads it, though its words alone would state
        reading = read_clause(said, bullet=is_bullet_line(text.original, item.start))
        # a heading that asks in the imperative ("enforce a password policy: 14 characters")
        # is the wish itself; a heading of nouns introduces the list after it
        heads_a_list = (
            value is not None and end == item.end and not reading.why.startswith("imperative")
        )
        if item.label.name == "conventions" and re.match(r"\s*:\s*\S", text.original[end:]):
            heads_a_list = True  # "add the usual stuff: jq, curl": the list names the set
        # "and our CA bundle for the registry": a message that opens by adding a noun to
        # the last turn's request asks for it, with no verb of its own
        added = not text.original[: item.start].strip() and _ADDED_NOUN.match(said) is not None
        pointer = _POINTER.match(text.original, end)
        if pointer is not None and not heads_a_list and reading.asking != "asks":
            # "the wifi is called StaffNet and the password is X - can you put that in?":
            # what was stated is asked for by the pointer after it
            state.reject(item.start, pointer.end(), item.label.reason)
            continue
        if heads_a_list or (
            reading.asking != "asks" and not INDIRECT_QUESTION.search(said) and not added
        ):
            # "items from the security review:" heads the list after it, read on its own;
            # "the lab boards dont have keys enrolled": a statement, no wish; no rule reads it
            text.consume(item.start, end, "context")
            continue
        # "daily backups pushed to our S3 bucket": a job at set times, whatever it does
        timed = scheduled(said) and item.label.name != "schedules"
        state.reject(item.start, end, schedules_reason() if timed else item.label.reason)


# --- jobs at set times ---------------------------------------------------------------------
# "Also a cron job that prunes docker images nightly", "a systemd timer that reboots it
# weekly", "daily backups pushed to our S3 bucket": a template has no field for a job that
# runs at set times. Such a clause is reported with the bank's ``schedules`` reason (ship a
# timer or a cron entry as an additional file) instead of the general "no rule for this";
# whether the clause asks at all is the accounting's ("the nightly backup runs from the
# NAS" stays context).
# the job itself ("cron job", "crontab entry", "systemd timer"), or a thing done at a time
# word ("nightly backups", "a daily reboot", "prunes the images every night")
_SCHEDULED = re.compile(
    r"\b(?:cron\s*jobs?|cronjobs?|crontab(?:\s+(?:entr(?:y|ies)|lines?|jobs?))?|systemd\s+timers?"
    r"|(?:nightly|daily|weekly|hourly|monthly)\s+(?:backups?|jobs?|tasks?|reboots?|restarts?"
    r"|clean-?ups?|prunes?|snapshots?|exports?|syncs?|scripts?)"
    r"|(?:every|each|once\s+(?:a|an|per|every))\s+(?:night|day|hour|week|month|morning|evening)"
    r"|(?:at|around)\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)\b)",
    re.IGNORECASE,
)


def scheduled(text: str) -> bool:
    """Whether ``text`` names a job at set times."""
    return _SCHEDULED.search(text) is not None


def schedules_reason() -> str:
    """The operation bank's reason for a job at set times ("" when the bank has none)."""
    from oic_ai.stores.operation_bank import load_bank_data

    label = load_bank_data().labels.get("schedules")
    return label.reason if label is not None else ""


def job_asked(said: str) -> Reading | None:
    """An asking reading of words that name a job at set times, left unread beside a change.

    "a daily backup at 2am of /srv to the usb disk with rsync": rsync was read, the job
    was not, and it asks.
    """
    from oic_ai.tools.planner.asking import Reading

    return Reading("asks", "job at set times") if scheduled(said) else None


def no_rule_for(text: str, default: str) -> str:
    """The reason to report a clause no rule read: the schedules one for a job at set times."""
    return schedules_reason() if scheduled(text) else default
