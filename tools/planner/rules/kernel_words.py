"""Rules: kernel options said in words, and options the user only talks about.

- Options described by what they do: "transparent hugepages disabled" is
  ``transparent_hugepage=never``, "isolate cores 4-15" is ``isolcpus=4-15``, "SELinux off on
  the kernel command line" is ``selinux=0``. One table (:data:`_DESCRIBED`) says which words
  name which option and which states give which value; an option whose words are also a
  system setting (SELinux, AppArmor, IPv6) is read only when the sentence names the kernel
  command line, or the line has that option already.
- "same range for nohz_full and rcu_nocbs": the value the request just gave another
  option, for the options named.
- Options the user observes or asks about ("I think the command line has quiet and splash
  on it?") are no request to add them; "get rid of both" right after removes them (or says
  they are not there).
- "..., both on the kernel command line": where the options just read go; it asks nothing
  more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oic_ai.tools.planner.clauses import sentence_spans, split_clauses
from oic_ai.tools.planner.rules.kernel import (
    _ARGS,
    _CMDLINE_WORDS,
    _KEY,
    _arg_key,
    _hugepages,
    _option_words,
    _remove_cmdline_args,
    _split_args,
    add_cmdline_args,
    cmdline_keys,
)
from oic_ai.tools.planner.rules.kernel_cpus import rule_all_cpu_options
from oic_ai.tools.planner.rules.kernel_order import rule_kernel_order
from oic_ai.tools.planner.rules.kernel_params import (
    CPU_LIST_KEYS,
    CPUS_SAID,
    SIZE_KEYS,
    cpu_list,
    cpu_list_said,
    kernel_size,
    key_said,
    spoken_keys,
)
from oic_ai.tools.planner.rules.kernel_refs import rule_kernel_pointed
from oic_ai.tools.planner.rules.kernel_slots import rule_kernel_slots
from oic_ai.tools.planner.state import PlanState, family_of
from oic_ai.tools.planner.words import TAKE_OUT

_CPUS = rf"(?P<value>{CPUS_SAID})"
_OFF = r"disabled?|off|never|no|turned\s+off|switched\s+off|gone"
_ON = r"enabled?|on|always|turned\s+on|switched\s+on"


@dataclass(frozen=True)
class _Described:
    """An option named by words: its key, the words, and the value each state gives."""

    key: str
    words: str  # the option's name in words (a regex)
    off: str | None  # the value "disabled" gives, when the option has states
    on: str | None  # the value "enabled" gives
    system: bool  # the words also name a system setting: read only next to the cmdline


_DESCRIBED = (
    _Described(
        "transparent_hugepage", r"transparent\s+huge\s*-?\s*pages?|thp", "never", "always", False
    ),
    _Described("selinux", r"selinux", "0", "1", True),
    _Described("apparmor", r"apparmor", "0", "1", True),
    _Described("audit", r"(?:kernel\s+)?audit(?:ing)?(?:\s+subsystem)?", "0", "1", True),
    _Described("ipv6.disable", r"ipv6", "1", "0", True),
    _Described("nmi_watchdog", r"(?:the\s+)?nmi\s+watchdog", "0", "1", False),
    _Described("intel_iommu", r"(?:the\s+)?intel\s+iommu|vt-d", "off", "on", False),
    # the kernel's FIPS mode ("FIPS mode on the kernel command line", "fips enabled (kernel
    # arg)"); alone, "enable FIPS mode" is a compliance wish the template cannot meet
    _Described("fips", r"fips(?:[\s-]+(?:140(?:-[23])?\s+)?mode)?", "0", "1", True),
    _Described("mitigations", r"(?:cpu\s+|spectre\s+)?mitigations", "off", "auto", False),
)
_STATE_AFTER = (
    r"\s+(?:(?:to\s+be|should\s+be|must\s+be|needs?\s+to\s+be|(?:has|have)\s+to\s+be|be|is|are|"
    r"set\s+to|turned|"
    r"switched|=)\s*)?(?:(?P<off>{off})|(?P<on>{on}))\b"
)
_STATE_BEFORE = (
    r"\b(?:(?P<off2>disable|turn\s+off|switch\s+off|no|without)|(?P<on2>enable|turn\s+on|"
    r"switch\s+on))\s+(?:the\s+)?"
)
# "isolate cores 4-15 (instead of 2-15)": the CPUs taken from the scheduler
_ISOLATE = re.compile(
    r"\bisolat(?:e|ed|ing)\s+(?:the\s+)?(?:cores?|cpus?|cpu\s+cores?)\s+"
    + _CPUS
    + r"(?:\s+(?:instead\s+of|rather\s+than|not|in\s+place\s+of)\s+(?:cores?\s+|cpus?\s+)?"
    r"\d{1,4}(?:\s*-\s*\d{1,4})?)?"
    # "cores 2-3 isolated", "I want 1-3 isolated": a range needs no "cores" before it
    r"|(?:\b(?:cores?|cpus?)\s+|(?<![\w.=-])(?=\d{1,4}\s*(?:-|–|\bto\b)\s*\d))"
    + _CPUS.replace("value", "value2")
    + r"\s+(?:isolated|should\s+be\s+isolated|to\s+be\s+isolated)\b"
)
# "(same range for nohz_full and rcu_nocbs)", "the same value for nohz_full"
_SAME_FOR = re.compile(
    r"\b(?:the\s+)?same\s+(?:range|value|cores|cpus|list|setting|mask)\s+(?:for|on|in)\s+"
    rf"(?P<keys>{_KEY}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+){_KEY})*)"
)
# "the command line has quiet and splash on it?", "I see loglevel=4 and quiet in the cmdline"
_OBSERVED = re.compile(
    rf"\b{_CMDLINE_WORDS}\s+(?:already\s+|still\s+|now\s+)?(?:has|have|contains?|includes?|"
    rf"carries|shows?)\s+(?P<args>{_ARGS})(?:\s+(?:on|in)\s+(?:it|there))?"
)
# "get rid of both", "drop them", "remove those two"
_PRONOUN_REMOVE = re.compile(
    rf"\b(?:{TAKE_OUT}|take\s+(?:out|off)"
    r"|turn\s+off)\s+(?:both(?:\s+of\s+them)?|them(?:\s+both|\s+all)?|all\s+of\s+them|"
    r"(?:those|these)(?:\s+two|\s+options|\s+flags)?)\b"
)
# "..., both on the kernel command line": where what was just read goes
_WHERE_ONLY = re.compile(
    r"^[\s,;\x1f]*(?:(?:and\s+)?(?:both|all\s+(?:of\s+)?(?:them|these|three)|each)\s+)?"
    rf"(?:on|in|to|into)\s+(?:the\s+)?{_CMDLINE_WORDS}[\s.!]*$"
)


# "need the noisy boot for debugging", "verbose boot please": the opposite of a quiet boot
_VERBOSE_BOOT = re.compile(
    r"\b(?:noisy|verbose|chatty|loud|talkative)\s+boot(?:s|ing)?\b"
    r"|\bboot(?:s|ing)?\s+(?:noisily|verbosely|loudly)\b"
    r"|\b(?:make|makes|making)\s+(?:the\s+)?boot(?:ing)?\s+(?:more\s+)?(?:verbose|noisy|chatty)\b"
    r"|\b(?:see|show|showing|visible|print|printing)\s+(?:all\s+)?(?:the\s+)?boot\s+"
    r"(?:messages|logs?|output)\b|\bboot\s+(?:messages|logs?|output)\s+(?:visible|shown|on\s+screen)\b"
)


def _verbose_boot(state: PlanState) -> None:
    """A verbose boot takes ``quiet`` (and the ``splash`` that hides the messages) away."""
    text = state.text
    for match in text.matches(_VERBOSE_BOOT):
        text.consume(*match.span())
        present = [a for a in ("quiet", "splash") if a in state.current_cmdline.split()]
        if not present:
            state.notes.append("the boot is already verbose: no quiet on the kernel command line")
            continue
        _remove_cmdline_args(state, present)


def rule_kernel_described(state: PlanState) -> None:
    """Options said by what they do; options the request only observes or asks about.

    Runs before the kernel rule, so "SELinux off" is ``selinux=0``, never ``selinux=off``,
    and an observed "quiet" is not read as a request for it.
    """
    _observed(state)
    _panic_words(state)  # "panic on oops and reboot after 10 seconds"
    rule_all_cpu_options(state)  # "1-3 isolated, for all three options"
    _hugepages(state)  # "hugepages: 1G pages" is a page size, never hugepages=1G
    rule_kernel_order(state)  # "hugepages remove", "the isolcpus change to 2-3"
    _keys_without_equals(state)  # "isolcpus 2-7", "crashkernel 256M"
    _verbose_boot(state)
    text = state.text
    keys = cmdline_keys(state)
    for clause_start, clause_end, sentence_names_cmdline in _sentences(state):
        if sentence_names_cmdline or "selinux" in keys:
            _selinux_mode(state, clause_start, clause_end)
        for described in _DESCRIBED:
            if described.system and not (sentence_names_cmdline or described.key in keys):
                continue
            _read_described(state, described, clause_start, clause_end)
        for match in _ISOLATE.finditer(text.work, clause_start, clause_end):
            value = cpu_list(match.group("value") or match.group("value2"))
            text.consume(*match.span())
            add_cmdline_args(state, [f"isolcpus={value}"])


# the request text writes "256M" as "256mib"; the kernel takes "256M"
_SIZE = r"\d{1,6}\s*[kmg](?:i?b)?"
# the keys read with a value and no "=", as people say them ("nohz full", "huge pages")
_SAID_KEYS = CPU_LIST_KEYS | SIZE_KEYS | {"hugepages"}
_KEY_ALTERNATIVES = spoken_keys(_SAID_KEYS)
# "isolcpus 2-7", "nohz full on cores 2-7", "hugepagesz of 1G", "crashkernel: 256M",
# "huge pages 1024"
_KEY_WITHOUT_EQUALS = re.compile(
    rf"(?<![\w.=/-])(?P<key>{_KEY_ALTERNATIVES})(?![\w.=-])\s*:?\s+"
    r"(?:(?:on|for|to|at|of|with|=)\s+)?(?:(?:the\s+)?(?:cores?|cpus?|cpu\s+cores?)\s+)?"
    rf"(?P<value>{CPUS_SAID}|{_SIZE})(?![\w.-])(?!\s*(?:gb|gib|mb|mib|tb|%))"
    # "1024 huge pages": a count before the key that takes one
    r"|(?<![\w.=-])(?P<count>\d{1,7})\s+(?:(?:static|persistent|reserved)\s+)?"
    r"(?P<counted>huge[\s-]?pages)\b(?![=.-])"
)
# "nohz_full and rcu_nocbs on the same cpus (as isolcpus)", "nohz_full to the same",
# "rcu_nocbs same as isolcpus", "rcu_nocbs also on those cores"
_CPU_NOUN = r"(?:cpus|cores|cpu\s+list|range|list|value|mask|set)"
_A_KEY = rf"(?:{spoken_keys(CPU_LIST_KEYS)}|{_KEY})"
_ON_THE_SAME = re.compile(
    rf"(?<![\w.=/-])(?P<keys>{_A_KEY}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*/\s*){_A_KEY})*)\s+"
    r"(?:(?:also|too)\s+)?(?:(?:set\s+)?(?:on|for|with|to|at|use|using|as)\s+)?"
    rf"(?:(?:the\s+)?same(?:\s+{_CPU_NOUN})?(?:\s+as\s+(?:the\s+)?(?P<as>{_KEY}))?"
    rf"|(?:those|these)\s+{_CPU_NOUN})(?![\w-])"
)


def _keys_without_equals(state: PlanState) -> None:
    """Read "isolcpus 2-7" as ``isolcpus=2-7``, "crashkernel 256M" as ``crashkernel=256M``."""
    text = state.text
    for match in text.matches(_KEY_WITHOUT_EQUALS):
        if match.group("count"):
            text.consume(*match.span())
            add_cmdline_args(state, [f"hugepages={match.group('count')}"])
            continue
        key, value = key_said(match.group("key"), _SAID_KEYS), match.group("value")
        if key == "hugepages":
            if not value.isdigit():
                continue  # "huge pages 2M" is a page size, read before
            text.consume(*match.span())
            add_cmdline_args(state, [f"hugepages={value}"])
            continue
        listed = re.fullmatch(CPUS_SAID, value) is not None
        if listed:
            value = cpu_list(value)  # "2 to 7" is 2-7
        if (key in CPU_LIST_KEYS) != listed:
            continue  # "isolcpus 2G" is no CPU list, "hugepagesz 2-3" no size
        if key in SIZE_KEYS:  # the kernel writes sizes 1G, 256M
            value = kernel_size(value)
        text.consume(*match.span())
        add_cmdline_args(state, [f"{key}={value}"])


def _on_the_same(state: PlanState) -> None:
    """Read "X and Y on the same cpus" as X and Y with the CPU list already set.

    Runs after the kernel rule, so a list set earlier in the same sentence ("set isolcpus
    to 2-7 and nohz_full to the same") is there to copy.
    """
    text = state.text
    for match in text.matches(_ON_THE_SAME):
        said = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*/\s*", match.group("keys"))
        # "set ... and nohz_full to the same": the keys start after the other words
        while said and key_said(said[0], CPU_LIST_KEYS) is None:
            said.pop(0)
        keys = [key_said(k, CPU_LIST_KEYS) or "" for k in said]
        if not keys or not all(keys):
            continue
        value = cpu_list_said(state, match.group("as"))
        if value is None:
            state.notes.append(
                f"{', '.join(keys)}: no one CPU list on the kernel command line to copy"
            )
            continue
        text.consume(text.work.find(said[0], match.start("keys")), match.end())
        add_cmdline_args(state, [f"{key}={value}" for key in keys])


def _observed(state: PlanState) -> None:
    """Options the request observes; "get rid of both" right after removes them."""
    text = state.text
    observed: list[str] = []
    for match in text.matches(_OBSERVED):
        args = _option_words(_split_args(text.raw(*match.span("args"))))
        if not args:
            continue
        last = text.work.find(args[-1].lower(), match.start("args"))
        end = match.end() if len(args) == len(_split_args(match.group("args"))) else last
        text.consume(match.start(), max(end, last + len(args[-1])), "context")
        observed.extend(args)
    if not observed:
        return
    for match in text.matches(_PRONOUN_REMOVE):
        text.consume(*match.span())
        _remove_cmdline_args(state, observed)


# "rest of the args stay", "the other options are fine as they are": nothing else changes
_REST_STAYS = re.compile(
    r"\b(?:the\s+)?(?:rest|others?|remaining\s+(?:ones|options|args|params))"
    r"(?:\s+of\s+(?:\w{1,4}\s+)?(?:args|arguments|options|params|parameters|flags|cmdline|"
    r"command\s+line|kernel\s+(?:args|options|params)))?\s+"
    r"(?:(?:can|should|must|will)\s+)?(?:stays?|remains?|unchanged|untouched|as\s+(?:is|they\s+are)"
    r"|(?:is|are|be)\s+(?:fine|ok|okay|good|unchanged|untouched|as\s+(?:is|they\s+are)))\b"
)


def rule_kernel_words(state: PlanState) -> None:
    """A value shared with other options ("same range for X"), and "where" clauses."""
    text = state.text
    if any(owner == "kernel" for _, _, owner in text.claims):
        for match in text.matches(_REST_STAYS):
            text.consume(*match.span(), "context")
    _on_the_same(state)  # "nohz_full and rcu_nocbs on the same cpus"
    for match in text.matches(_SAME_FOR):
        last = _last_value(state, match.start())
        if last is None:
            continue
        named = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", match.group("keys"))
        text.consume(*match.span())
        add_cmdline_args(state, [f"{key}={last}" for key in named])
    _where_only(state)
    _housekeeping(state)
    rule_kernel_pointed(state)  # "please add both", "take that one back out"
    rule_kernel_slots(state)  # "1G hugepages x16", "2-31, not 4-31. In both places."


# "cores 2 and 3 for housekeeping", "housekeeping on cpus 0-1": the CPUs left to the
# system, i.e. outside the isolated ones (the kernel's "housekeeping" CPUs)
_SOME_CPUS = r"\d{1,4}(?:\s*(?:-|–|\bto\b|\bthrough\b)\s*\d{1,4})?"
_CPUS_LISTED = rf"{_SOME_CPUS}(?:\s*(?:,|\band\b|&|\+)\s*{_SOME_CPUS})*"
_HOUSEKEEPING = re.compile(
    rf"\b(?:cores?|cpus?|cpu\s+cores?)\s+(?P<cpus>{_CPUS_LISTED})\s+(?:(?:are|is|stay|remain)\s+)?"
    r"(?:for|as|to\s+do|doing|handl(?:e|es|ing))\s+(?:the\s+)?(?:os\s+|system\s+)?housekeeping"
    rf"|\bhousekeeping\s+(?:on|to|=|:)?\s*(?:the\s+)?(?:cores?|cpus?)\s+(?P<cpus2>{_CPUS_LISTED})"
)
_CLAUSE_LEAD = re.compile(
    r"(?:[—–-]+\s*|\b(?:so|since|as|because)\s+)?(?:(?:they|we|i|you)\s+(?:want|need|keep|use|reserve)\s+)?$"
)


def _housekeeping(state: PlanState) -> None:
    """CPUs said to be for housekeeping, outside the isolated ones, are a reason, not a change.

    "change isolcpus to 4-15 — they want cores 2 and 3 for housekeeping too": the kernel
    keeps the CPUs outside ``isolcpus`` for its own work, so naming them asks nothing
    more. CPUs the isolated list holds are left to be reported.
    """
    text = state.text
    isolated = _cpus(cpu_list_said(state, "isolcpus") or "")
    if not isolated:
        return
    for match in text.matches(_HOUSEKEEPING):
        named = _cpus(
            cpu_list(
                re.sub(r"\s*(?:\band\b|&|\+)\s*", ",", match.group("cpus") or match.group("cpus2"))
            )
        )
        if not named or named & isolated:
            continue
        lead = _CLAUSE_LEAD.search(text.work, max(0, match.start() - 30), match.start())
        tail = re.match(r"\s+(?:too|as\s+well|also)\b", text.work[match.end() :])
        text.consume(
            lead.start() if lead else match.start(),
            match.end() + (tail.end() if tail else 0),
            "context",
        )


def _cpus(listed: str) -> set[int]:
    """The CPU numbers of a kernel CPU list ("2-3,8" is {2, 3, 8})."""
    found: set[int] = set()
    for part in listed.split(","):
        low, _, high = part.partition("-")
        if low.isdigit() and (not high or high.isdigit()):
            found |= set(range(int(low), int(high or low) + 1))
    return found


def _sentences(state: PlanState) -> list[tuple[int, int, bool]]:
    """``(start, end, names the command line)`` of each sentence of the request."""
    cmdline = re.compile(rf"\b{_CMDLINE_WORDS}|\bkernel\b")
    return [
        (start, end, bool(cmdline.search(state.text.original.lower(), start, end)))
        for start, end in sentence_spans(split_clauses(state.text.original))
    ]


def _read_described(state: PlanState, described: _Described, start: int, end: int) -> None:
    text = state.text
    off, on = described.off, described.on
    after = re.compile(rf"\b(?:{described.words})\b" + _STATE_AFTER.format(off=_OFF, on=_ON))
    before = re.compile(_STATE_BEFORE + rf"(?:{described.words})\b")
    # the state before the words first: "disable ipv6 on the kernel command line" is off,
    # though "ipv6 on" stands in it ("FIPS mode on the kernel command line" is on)
    for pattern in (before, after):
        for match in list(pattern.finditer(text.work, start, end)):
            if text.BLANK in text.work[match.start() : match.end()]:
                continue
            turned_off = bool(match.groupdict().get("off") or match.groupdict().get("off2"))
            value = off if turned_off else on
            if value is None:
                continue
            text.consume(*match.span())
            add_cmdline_args(state, [f"{described.key}={value}"])


# the kernel's panic behaviour in words: "panic on oops" is ``oops=panic``; "reboot after 10
# seconds" beside a panic is ``panic=10`` (the seconds before the kernel reboots)
_PANIC_ON_OOPS = re.compile(r"\bpanic\s+on\s+(?:an?\s+|kernel\s+)?oops(?:es)?\b")
_REBOOT_AFTER = re.compile(
    r"\b(?:and\s+)?(?:auto(?:matically)?[\s-]+)?reboot(?:s|ing)?\s+(?:automatically\s+)?"
    r"(?:after|in)\s+(?P<seconds>\d{1,4})\s*(?:s|secs?|seconds?)\b"
)


def _panic_words(state: PlanState) -> None:
    """Read "panic on oops" and, in a sentence about a panic, "reboot after N seconds"."""
    text = state.text
    for start, end in sentence_spans(split_clauses(text.original)):
        if "panic" not in text.original[start:end].lower():
            continue
        for match in list(_PANIC_ON_OOPS.finditer(text.work, start, end)):
            text.consume(*match.span())
            add_cmdline_args(state, ["oops=panic"])
        for match in list(_REBOOT_AFTER.finditer(text.work, start, end)):
            text.consume(*match.span())
            add_cmdline_args(state, [f"panic={match.group('seconds')}"])


# SELinux in a mode: "SELinux enforcing", "selinux should be permissive", "enforcing SELinux",
# "SELinux though: policy installed and enforcing"
_SELINUX_MODE = re.compile(
    r"\bselinux\b(?:[^.;!?\n=]{0,40}?[\s:,])?(?<!\bnot\s)(?<!n't\s)"
    r"(?:(?P<on>enforcing)|(?P<off>permissive))(?:\s+mode)?\b"
    r"|\b(?:(?P<on2>enforcing)|(?P<off2>permissive))\s+selinux\b"
)


def _selinux_mode(state: PlanState, start: int, end: int) -> None:
    """SELinux on in a mode (``selinux=1 enforcing=1``), with its policy on rpm systems.

    Booting with SELinux on and no policy installed stops the boot, so the policy of the
    catalog's mandatory-access-control capability comes with it when none is there.
    """
    for match in list(_SELINUX_MODE.finditer(state.text.work, start, end)):
        enforcing = "1" if match.group("on") or match.group("on2") else "0"
        state.text.consume(*match.span())
        add_cmdline_args(state, ["selinux=1", f"enforcing={enforcing}"])
        target = state.target
        if family_of(target.os, target.dist) != "rpm":
            state.warn(
                "SELinux on a Debian-family system also needs its policy (selinux-basics, "
                "selinux-policy-default) and security=selinux; add them if you mean it"
            )
            continue
        names = state.catalog.get("mandatory-access-control").packages_for(target.os, target.dist)
        have = {*state.facts.packages, *state.add}
        if names and not any(name.startswith("selinux-policy") for name in have):
            state.add += [n for n in names if n not in have]
            state.features.append((match.start(), "mandatory-access-control"))


def _last_value(state: PlanState, before: int) -> str | None:
    """The value of the option this request set, said last before ``before``.

    "Change hugepages to 16, and isolate cores 4-15 (same range for ...)" gives ``4-15``:
    the value whose words come last, whatever order the rules read them in.
    """
    said = state.text.original.lower()
    best: tuple[int, str] | None = None
    for arg in state.append_cmdline:
        if "=" not in arg or _arg_key(arg) == "console":
            continue
        value = arg.split("=", 1)[1]
        where = said.rfind(value.lower(), 0, before)
        if where >= 0 and (best is None or where > best[0]):
            best = (where, value)
    return best[1] if best else None


def _where_only(state: PlanState) -> None:
    """A clause that only says where options go, in a sentence that gave options."""
    text = state.text
    kernel = [(s, e) for s, e, owner in text.claims if owner == "kernel"]
    for clause in split_clauses(text.original):
        piece = text.work[clause.start : clause.end]
        if not _WHERE_ONLY.match(piece) or not piece.replace(text.BLANK, "").strip():
            continue
        same_sentence = [
            c
            for c in split_clauses(text.original)
            if c.sentence == clause.sentence and c.end <= clause.start
        ]
        if any(
            s < clause.start and any(c.start <= s < c.end for c in same_sentence) for s, _ in kernel
        ):
            text.consume(clause.start, clause.end, "context")
