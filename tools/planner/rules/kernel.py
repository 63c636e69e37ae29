"""Rules: kernel version and command line ("kernel 6.12", "add isolcpus=2-3 to the cmdline")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from oic_ai.tools.planner.rules.kernel_params import FLAGS, TOOLS_AFTER, is_kernel_key
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import ADVERBS, CLAUSE_END, GOES_AWAY, TAKE_OUT

_KERNEL_VERSION = re.compile(
    r"(?:\b(?:use|set|switch\s+to|upgrade\s+to|downgrade\s+to|pin|with|change|bump|move\s+to)\s+)?"
    r"(?:(?:the|a)\s+)?(?:(?:kernel|linux)(?:\s+version)?\s*(?:to\s+|=\s*|:\s*|of\s+|at\s+)?"
    r"v?(?P<v1>\d+\.\d+(?:\.\d+)?)|(?P<v2>\d+\.\d+(?:\.\d+)?)\s+kernel)" + CLAUSE_END
)
_NOT_KERNEL_BEFORE = re.compile(
    r"(?:azure|red\s*hat|rocky|alma|wind\s+river|oracle|ubuntu|debian|elxr|emt|toolkit)\s*$"
)
_CMDLINE_WORDS = (
    r"(?:(?:kernel(?:'s)?\s+)?(?:cmdline|command[\s-]?line|boot\s+(?:args|arguments|parameters|"
    r"params|options)|bootargs)|kernel\s+(?:args|arguments|parameters|params|options|line)"
    # the short labels people type: "kcmdline:", "kernel_cmdline:", "kargs", "kopts"
    r"|k[_-]?cmdline|kernel[_-](?:cmdline|args|opts|params)|kargs|kernelopts|kopts|kparams)"
)
_KEY = r"[a-z0-9_.-]+"
# "should" and the short forms people type or dictate ("hugepages shd be 2048")
SHOULD = r"(?:should|shd|shld|shud|must)"
# An option is one token: a comma inside its value ("isolcpus=2,3", "console=ttyS0,115200")
# continues it unless a new ``key=`` follows; atomic, so it never backtracks into two.
_VALUE = rf"[^\s,;]+(?:,(?!{_KEY}=)[^\s,;]+)*"
_ARG = rf"(?>{_KEY}(?:={_VALUE})?)"
_ONE_ARG = re.compile(_ARG, re.IGNORECASE)
# separators are required between arguments so the repetition cannot backtrack badly
_ARGS = (
    rf"(?:\"[^\"]*\"|'[^']*'|{_ARG}(?:(?:\s*,\s*|\s+(?:and\s+)?)"
    rf"(?!(?:to|from|on|in|into|and)\b){_ARG})*)"
)
_CMDLINE_ADD = re.compile(
    rf"\b(?:add|append|put|include|with|set)\s+(?P<args>{_ARGS})\s+(?:to|on|in|into)\s+"
    rf"(?:the\s+)?{_CMDLINE_WORDS}"
)
# "pass audit=1 to the kernel"
_CMDLINE_PASS = re.compile(
    rf"\b(?:pass|give|hand)\s+(?P<args>{_ARGS})\s+to\s+(?:the\s+)?(?:kernel|{_CMDLINE_WORDS})\b"
)
_CMDLINE_REMOVE = re.compile(
    rf"\b(?:remove|drop|delete|strip)\s+(?P<args>{_ARGS})\s+from\s+(?:the\s+)?{_CMDLINE_WORDS}"
)
_CMDLINE_SET = re.compile(
    rf"\b(?:set|change|make|replace)\s+(?:the\s+)?{_CMDLINE_WORDS}\s*(?:to|=|:|with)\s*"
    r"(?P<value>\"[^\"]*\"|'[^']*'|[^,;\x1f]+?)(?=$|[,;\x1f]|\s+(?:and|then)\s)"
)
# "set isolcpus to 4-7 on the kernel command line": a value for a key
_CMDLINE_KEY_SET = re.compile(
    rf"\b(?:set|change|make|switch)\s+(?:the\s+)?(?P<key>{_KEY})(?:\s+(?:option|argument))?"
    rf"\s+to\s+(?P<value>{_VALUE})\s+(?:on|in)\s+(?:the\s+)?{_CMDLINE_WORDS}"
)
_CMDLINE_INLINE = re.compile(
    rf"\b{_CMDLINE_WORDS}\s*(?:\+=|:|\+)\s*(?:(?:add|append|include|put|plus|with)\s+)?"
    rf"(?P<args>{_ARGS})"
    rf"|\b(?:kernel|boot)\s+(?:params?|parameters?|options?|args?|arguments?|flags?)\s+"
    rf"(?P<args2>{_KEY}={_VALUE}(?:(?:\s*,\s*|\s+(?:and\s+)?){_KEY}={_VALUE})*)"
)
# "loglevel 3", "panic 30", "loglevel down to 3": a key that takes a value, and the value
_KEY_VALUE_WORDS = re.compile(
    r"(?:\b(?:the\s+)?(?:kernel|boot)\s+(?:option|param|parameter|arg|argument)\s+)?"
    r"(?<![\w.=-])(?P<key>[a-z_][a-z0-9_.]*)\s+(?:(?:(?:down|up|back)\s+to|to|of|at|should\s+be|=)\s*)?"
    r"(?P<value>\d{1,6}|off|on(?!\s+(?:the|a|an|this|that|its|our|my|kernel|cmdline|boot)\b))"
    r"(?=$|[\s,;.\x1f)])(?!\s*(?:gb|gib|mb|mib|tb|%|baud))"
)
# keys known to take a value, besides the ones the command line already has
_VALUE_KEYS = frozenset(
    "loglevel panic nmi_watchdog mitigations audit selinux apparmor enforcing "
    "consoleblank maxcpus nr_cpus hugepages transparent_hugepage ipv6.disable".split()
)
# keys that take 0 or 1, never "on"/"off"
_BOOLEAN_KEYS = frozenset("selinux apparmor audit enforcing".split())
# "... guc is wrong, set it to 2": a value for the option the request just named
_IT_VALUE = re.compile(
    r"\b(?:set|change|make|put|switch)\s+it\s+(?:to\s+|=\s*|at\s+)?(?P<value>[^\s,;\x1f]+?)"
    r"(?=$|[\s,;\x1f]|\.(?:\s|$))"
)
# "add the kernel option nomodeset", "add the options ip=dhcp and rd.neednet=1"; a terse note
# opening its clause with the label: "kernel param rd.debug pls"
_CMDLINE_NAMED = re.compile(
    r"(?:\b(?:add|append|set|use|with|include|put|enable|plus|needs?|requires?|wants?)\s+"
    r"|(?:^|(?<=[,;:.!?(\x1f])|(?<=[,;:.!?]\s))[ \t]*(?=(?:the\s+)?(?:kernel|boot|cmdline)\s))"
    r"(?:the\s+|a\s+|an\s+)?"
    r"(?:(?P<kernel>kernel|boot|cmdline|command[\s-]line)\s+)?"
    r"(?:options?|arguments?|args?|parameters?|params?|flags?)\s+"
    rf"(?P<args>{_ARGS})"
)
# "the nomodeset kernel option", "needs audit=1 as a boot parameter"
_CMDLINE_AFTER = re.compile(
    rf"(?:\b(?:the|a|an)\s+)?(?P<args>{_ARG})\s+(?:(?:as\s+)?(?:a|the)\s+)?"
    r"(?:kernel|boot|cmdline)\s+(?:options?|arguments?|args?|parameters?|params?|flags?)\b"
)
# "nomodeset on the kernel command line": one option, said where it goes
# "'quiet splash' on the kernel command line": quoted, several
_CMDLINE_ON = re.compile(
    rf"(?:\b(?:put|have|want|need|use)\s+)?(?:\bthe\s+)?(?P<args>\"[^\"]*\"|'[^']*'|{_ARG})\s+"
    r"(?:on|in|to)\s+"
    rf"(?:the\s+)?{_CMDLINE_WORDS}"
)
# what the user sees there, not what they ask for: "I notice selinux=0 on the cmdline"
_OBSERVED = re.compile(
    r"\b(?:notice[sd]?|see|saw|seen|spotted|found|there(?:'s|\s+is)|why\s+is|what\s+is)\s+"
    r"(?:the\s+|a\s+|an\s+)?$"
)
# "make sure ip=dhcp is on the kernel command line"
_CMDLINE_STATED = re.compile(
    r"(?:\b(?:make\s+sure|ensure|check\s+that)\s+)?"
    rf"(?P<args>{_ARGS})\s+(?:is|are|should\s+be|must\s+be|stays?)\s+(?:on|in)\s+(?:the\s+)?"
    rf"{_CMDLINE_WORDS}"
)
# "change isolcpus to cores 2-3": a new value for a key the command line has
_KEY_CHANGE = re.compile(
    rf"\b(?:set|change|make|switch|update|move)\s+(?:the\s+)?(?P<key>{_KEY})"
    r"(?:\s+(?:option|argument|parameter|value))?\s+to\s+(?:(?:cores?|cpus?)\s+)?"
    r"(?P<value>[^\s,;\x1f]+?)(?=$|[\s,;\x1f]|\.(?:\s|$))"
)
# the word that only weighs a new value: "nohz_full should only be 4-7", "is now 2-3"
_ADVERB = r"(?:now|really|actually|just|only|simply|instead|rather)"
# "isolcpus and nohz_full should be 4-15 now", "set isolcpus, nohz_full to 4-15": one new
# value for several keys the command line has
_KEYS_BECOME = re.compile(
    rf"(?:\b(?:set|change|make|switch|update|move)\s+(?:the\s+)?)?"
    rf"(?P<keys>{_KEY}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*/\s*|\s*&\s*){_KEY})*)"
    r"(?:\s+(?:options?|arguments?|parameters?|values?))?\s+"
    rf"(?:(?:{SHOULD}|need\s+to|needs\s+to|has\s+to|have\s+to|ought\s+to)\s+(?:{_ADVERB}\s+)?be"
    r"|to|=|becomes?|is|are)\s+"
    rf"(?:{_ADVERB}\s+)?(?P<value>[^\s,;\x1f]+?)(?=$|[\s,;\x1f]|\.(?:\s|$))"
    # "quiet should be on the cmdline" says where, not what
    rf"(?!\s+(?:on|in|from|off)\s+(?:the\s+|my\s+|our\s+)?{_CMDLINE_WORDS})"
)
# ", not 16", "instead of 16": the value the option had, said after its new one
_NOT_OLD = re.compile(
    r"\s*[,;]?\s*(?:(?:and\s+)?not|instead\s+of|rather\s+than)\s+(?P<old>[^\s,;\x1f]+?)(?=$|[\s,;\x1f]|\.(?:\s|$))"
)
# "leave rcu_nocbs alone", "keep loglevel as it is": an option that stays
_KEY_KEEP = re.compile(
    rf"\b(?:leave|keep|don'?t\s+touch|do\s+not\s+touch)\s+(?:the\s+)?(?P<key>{_KEY})(?![\w.=-])"
    r"(?:\s+(?:option|argument|parameter|setting))?"
    r"(?:\s+(?:alone|as\s+(?:it\s+)?is|unchanged|untouched|where\s+it\s+is))?"
)
_QUIET = re.compile(r"\b(?:quiet|silent)(?:\s+boot)?\b|\bboot\s+(?:quietly|silently)\b")
# A whole word on its own: never part of a URL ("?a=b"), a bracket ("[trusted=yes]") or a
# longer word, which the leftovers then report instead.
# A quote around it is no part of it: "add 'ip=dhcp' and `rd.neednet=1`".
_BARE_ARG = re.compile(
    r"(?<![^\s,;\x1f'\"`])(?P<arg>(?>[a-z_][a-z0-9_.-]*=[^\s,;\x1f\[\](){}<>\"'`]+"
    r"(?:,(?![a-z_][a-z0-9_.-]*=)[^\s,;\x1f\[\](){}<>\"'`]+)*))"
    r"(?=$|[\s,;\x1f'\"`])"
)
# options alone in parentheses: "disable the spectre mitigations (mitigations=off)"
_PAREN_ARGS = re.compile(
    r"\(\s*(?P<args>[a-z_][a-z0-9_.-]*=[^\s,;()\x1f]+(?:[\s,]+[a-z_][a-z0-9_.-]*=[^\s,;()\x1f]+)*)"
    r"\s*\)"
)


# "remove the loglevel option", "take loglevel off the kernel command line", "get rid of
# console=tty0", "the cmdline should not have loglevel": an option the command line has
# "scratch the isolcpus thing", "remove the hugepages stuff": every option of that family
_KEY_REMOVE = re.compile(
    rf"\b(?:{TAKE_OUT}(?:\s+out)?|(?:disable|forget|rip|pull)(?:\s+out)?"
    rf"|take(?:\s+(?:out|off))?|no\s+more|no\s+longer)\s+(?:the\s+|all\s+(?:the\s+)?|those\s+|that\s+)?"
    rf"['\"`]?(?P<arg>{_KEY}(?:=[^\s,;'\"`]+(?:,(?!{_KEY}=)[^\s,;'\"`]+)*)?)['\"`]?(?:\s+(?:option|argument|parameter|flag|setting|entry|one|value"
    rf"|(?P<family>stuff|things?|bits?|settings|options|params|parameters|arguments|business)))?"
    rf"(?:\s+(?:off|out)(?:\s+of)?)?(?:\s+(?:from|off|of)\s+(?:the\s+)?{_CMDLINE_WORDS})?"
    rf"|\b{_CMDLINE_WORDS}\s+(?:should|must)\s+not\s+(?:have|contain|include)\s+"
    rf"(?P<arg2>{_KEY}(?:={_VALUE})?)"
)
# "replace loglevel=4 with loglevel=7"
_ARG_REPLACE = re.compile(
    rf"\b(?:replace|swap)\s+(?P<old>{_KEY}(?:={_VALUE})?)\s+(?:with|by|for)\s+"
    rf"(?P<new>{_KEY}={_VALUE})"
)
# "loglevel=3 instead of loglevel=7", "use mitigations=auto rather than mitigations=off": the
# new option first, then the one it replaces, which is never added (the line may not have it)
_ARG_INSTEAD = re.compile(
    rf"(?<![\w.=-])(?P<new>{_KEY}={_VALUE})\s*,?\s+(?:instead\s+of|rather\s+than|in\s+place\s+of|"
    rf"not|replacing)\s+(?:the\s+)?(?:old\s+)?(?P<old>{_KEY}={_VALUE})"
)
# "kcmdline: +isolcpus=2-3 -loglevel=7": options after the command line's label, each
# with a sign that adds ("+") or takes away ("-"); an option without a sign is added
# "cmdline -= quiet", "cmdline += nomodeset": the operator signs every option after it
_CMDLINE_SIGNED = re.compile(rf"\b{_CMDLINE_WORDS}\s*(?P<op>[+-]=|[:=])?")
_SIGNED_ARG = re.compile(
    # an option starts with a letter or digit: a list's "- " bullet is none
    rf"(?:\s*,\s*|\s+)?(?P<sign>[+-])?(?=[a-z0-9_])(?P<arg>(?>{_KEY}(?:={_VALUE})?))(?![\w=])"
)
_GOES_AFTER = re.compile(
    rf"(?:\s+(?:flag|option|one|entry|setting))?\s*,?\s*(?:(?:it|that)\s+)?{GOES_AWAY}\b"
)
_NEGATED_QUIET = re.compile(rf"\b(?:no|not|without|disable|{TAKE_OUT})\s+(?:the\s+)?['\"`]?$")


def rule_kernel(state: PlanState) -> None:
    """Set, extend or trim the kernel command line, and pick the kernel version."""
    text = state.text
    _signed_args(state)
    for match in (m for p in (_ARG_REPLACE, _ARG_INSTEAD) for m in text.matches(p)):
        old, new = (text.raw(*match.span(g)).rstrip(".") for g in ("old", "new"))
        if match.re is _ARG_INSTEAD and _arg_key(old) != _arg_key(new):
            continue  # "audit=1 not apparmor=0": two options, not one replacing the other
        text.consume(*match.span())
        _remove_cmdline_args(state, [old])
        add_cmdline_args(state, [new])
    for match in text.matches(_KEY_REMOVE):
        arg = text.raw(*match.span("arg" if match.group("arg") else "arg2")).rstrip(".")
        keys = {_arg_key(a) for a in state.current_cmdline.split()}
        family = _family(keys, arg) if match.group("family") and "=" not in arg else []
        if _arg_key(arg) not in keys and not family:
            if "=" not in arg and TOOLS_AFTER.match(text.work, match.end("arg")):
                continue  # "drop the debug stuff": tools for debugging, the package rule's
            # "remove loglevel=7", "remove i915.force_probe": an option, just not there
            if _an_option(state, arg):
                text.consume(*match.span())
                state.notes.append(f"{arg} is not on the kernel command line")
                _remove_cmdline_args(state, _more_removed(state, match.end(), keys))
            continue  # not an option the command line has: another rule's (a package)
        text.consume(*match.span())
        _remove_cmdline_args(state, family or [arg, *_more_removed(state, match.end(), keys)])
    for match in text.matches(_CMDLINE_SET):
        value = text.raw(*match.span("value")).strip().strip("\"'")
        text.consume(*match.span())
        state.cmdline = " ".join(value.split())
        state.append_cmdline.clear()
    for match in text.matches(_CMDLINE_REMOVE):
        args = _split_args(text.raw(*match.span("args")))
        text.consume(*match.span())
        _remove_cmdline_args(state, args)
    for match in text.matches(_CMDLINE_KEY_SET):
        key, value = (text.raw(*match.span(group)) for group in ("key", "value"))
        text.consume(*match.span())
        add_cmdline_args(state, [f"{key}={value}"])
    for pattern in (_CMDLINE_ADD, _CMDLINE_PASS, _CMDLINE_INLINE, _CMDLINE_STATED):
        for match in text.matches(pattern):
            group = "args" if match.group("args") else "args2"
            args = _split_args(text.raw(*match.span(group)))
            if pattern in (_CMDLINE_ADD, _CMDLINE_PASS) and _option_words(args, state) != args:
                continue  # "set up 512 hugepages on the kernel line": words, not options
            if pattern is _CMDLINE_INLINE and _option_words(args, state) != args:
                # "cmdline: isolcpus=2-3 for the rt cores": the options, not the words after
                args = _option_words(args, state)
                if not args:
                    continue
                last = text.work.find(args[-1].lower(), match.start(group))
                text.consume(match.start(), last + len(args[-1]))
                add_cmdline_args(state, args)
                continue
            text.consume(*match.span())
            add_cmdline_args(state, args)
    for match in text.matches(_CMDLINE_ON):
        args = _option_words(_split_args(text.raw(*match.span("args"))), state)
        if _OBSERVED.search(text.work, max(0, match.start() - 30), match.start()):
            text.consume(*match.span(), "context")  # "I notice selinux=0 on the cmdline"
            continue
        if args and ("=" in args[0] or args[0].lower() in FLAGS):
            text.consume(*match.span())
            add_cmdline_args(state, args)
    for match in text.matches(_CMDLINE_AFTER):
        args = _option_words(_split_args(text.raw(*match.span("args"))), state)
        if args:
            text.consume(*match.span())
            add_cmdline_args(state, args)
    for match in text.matches(_CMDLINE_NAMED):
        args = _option_words(_split_args(text.raw(*match.span("args"))), state)
        if not args or (not match.group("kernel") and not all("=" in a for a in args)):
            continue  # "add the options" without a key=value is not surely the kernel's
        last = text.work.find(args[-1].lower(), match.start("args"))
        text.consume(match.start(), last + len(args[-1]) if last >= 0 else match.end())
        add_cmdline_args(state, args)
    for match in text.matches(_KEY_CHANGE):
        key, value = match.group("key"), text.raw(*match.span("value")).rstrip(".")
        keys = cmdline_keys(state)
        if key not in keys or key == "console":
            continue
        end = match.end()
        said = _NOT_OLD.match(text.work, end)
        if said is not None and _had_value(state, [key], said["old"]):
            end = said.end()  # "change hugepages to 8 instead of 16"
        text.consume(match.start(), end)
        add_cmdline_args(state, [f"{key}={value}"])
    _purposes(state)
    _hugepages(state)
    _count_change(state)
    _counted(state)
    _key_values(state)
    keys = cmdline_keys(state)
    for match in text.matches(_KEYS_BECOME):
        named = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*/\s*|\s*&\s*", match.group("keys"))
        # "remove rsync. and isolcpus / nohz_full should be 1-3": the list of options
        # starts after the words the line has no option for
        while named and named[0] not in keys:
            named.pop(0)
        if not named or not all(k in keys and k != "console" for k in named):
            continue
        value = text.raw(*match.span("value")).rstrip(".")
        if len(named) == 1 and not _a_new_value(state, named[0], value):
            continue
        first = text.work.find(named[0], match.start("keys"))
        end = match.end()
        said = _NOT_OLD.match(text.work, end)
        if said is not None and _had_value(state, named, said["old"]):
            end = said.end()  # "hugepages must be 8, not 16": the old value, said to go
        text.consume(first, end)
        add_cmdline_args(state, [f"{key}={value}" for key in named])
    for match in text.matches(_KEY_KEEP):
        if match.group("key") in keys:
            text.consume(*match.span(), "context")
    for match in text.matches(_QUIET):
        text.consume(*match.span())
        goes = _GOES_AFTER.match(text.work, match.end())
        if goes is not None or _NEGATED_QUIET.search(
            text.work, max(0, match.start() - 20), match.start()
        ):
            if goes is not None:
                text.consume(*goes.span())
            _remove_cmdline_args(state, ["quiet"])  # "no quiet boot", "quiet can go"
            continue
        add_cmdline_args(state, ["quiet"])
    for match in text.matches(_KERNEL_VERSION):
        if _NOT_KERNEL_BEFORE.search(text.work, 0, match.start()):
            continue
        version = match.group("v1") or match.group("v2")
        if int(version.split(".")[0]) >= 10:
            continue  # "linux 24.04" is a distribution version, not a kernel
        text.consume(*match.span())
        if version == state.facts.kernel.version:
            state.notes.append(f"the kernel is already {version}")
        else:
            state.kernel_version = version


def _signed_args(state: PlanState) -> None:
    """Options listed after the command line's label with signs: "+" adds, "-" removes.

    "kcmdline: +isolcpus=2-3 -loglevel=7 +quiet" adds ``isolcpus=2-3`` and ``quiet`` and
    takes ``loglevel=7`` away. A list with no sign at all is the other rules' to read; a
    word that is no option (an English word, not a known flag) ends the list.
    """
    text = state.text
    for label in text.matches(_CMDLINE_SIGNED):
        at, read = label.end(), []
        while (match := _SIGNED_ARG.match(text.work, at)) is not None:
            arg = text.raw(*match.span("arg")).rstrip(".")
            if not _option_words([arg]):
                break
            read.append((match.group("sign") or (label.group("op") or " ")[0].strip(), arg))
            at = match.end()
        if not any(sign for sign, _ in read):
            continue
        text.consume(label.start(), at)
        _remove_cmdline_args(state, [arg for sign, arg in read if sign == "-"])
        add_cmdline_args(state, [arg for sign, arg in read if sign != "-"])


# "take out intel_iommu=on and iommu=pt": the next option in a list after a removal
_NEXT_ARG = re.compile(
    rf"(?:\s*,\s*(?:and\s+|or\s+|also\s+|plus\s+)?|\s+(?:and|or|&|plus|as\s+well\s+as)\s+)(?:the\s+)?"
    rf"['\"`]?(?P<arg>{_KEY}(?:={_VALUE})?)['\"`]?(?![\w=.-])"
)


def _more_removed(state: PlanState, at: int, keys: set[str]) -> list[str]:
    """The options listed after the first one a removal names, while the line has them.

    A word the command line has no option for ends the list: "drop loglevel and htop"
    leaves htop to the package rule. An option it just does not have is taken away too
    ("remove quiet and splash" of a line without splash): never left to be added.
    """
    text, more = state.text, []
    while (match := _NEXT_ARG.match(text.work, at)) is not None:
        arg = text.raw(*match.span("arg")).rstrip(".")
        if _arg_key(arg) not in keys:
            if not _an_option(state, arg):
                break
            state.notes.append(f"{arg} is not on the kernel command line")
        else:
            more.append(arg)
        text.consume(match.start("arg"), match.end())
        at = match.end()
    return more


def _an_option(state: PlanState, arg: str) -> bool:
    """True for a kernel option by its form, key or flag ("loglevel=7", "splash")."""
    return "=" in arg or is_kernel_key(state, arg) or arg.lower() in FLAGS


def _family(keys: Iterable[str], word: str) -> list[str]:
    """The option keys ``word`` names as a family: "hugepages" names ``hugepagesz`` too.

    A key is in the family when the word (without a plural "s") is part of it; a word
    shorter than four letters names no family.
    """
    stem = word.lower()
    stem = stem[:-1] if stem.endswith("s") and len(stem) > 4 else stem
    if len(stem) < 4:
        return []
    return sorted(key for key in keys if stem in key.lower())


def _key_values(state: PlanState) -> None:
    """Values for options said without "=": "loglevel 3", "guc is wrong, set it to 2"."""
    text = state.text
    args = [*state.current_cmdline.split(), *state.append_cmdline]
    valued = {_arg_key(a) for a in args if "=" in a and _arg_key(a) != "console"}
    for match in text.matches(_KEY_VALUE_WORDS):
        key = match.group("key")
        if key not in valued and key not in _VALUE_KEYS:
            continue
        text.consume(*match.span())
        value = match.group("value")
        if key in _BOOLEAN_KEYS:  # "selinux off" is selinux=0: these take 0 or 1
            value = {"off": "0", "on": "1"}.get(value, value)
        add_cmdline_args(state, [f"{key}={value}"])
    for match in text.matches(_IT_VALUE):
        key = _named_key(state, valued, match.start())
        if key is None or _a_word_not_a_value(match.group("value")):
            continue  # "set it again": no value
        text.consume(*match.span())
        add_cmdline_args(state, [f"{key}={text.raw(*match.span('value')).rstrip('.')}"])


# the words an option takes as its value ("transparent_hugepage=never", "audit=on")
_VALUE_WORDS = frozenset(
    "on off yes no true false never always madvise force auto full none strict".split()
)


def _a_new_value(state: PlanState, key: str, value: str) -> bool:
    """True when ``value`` can be ``key``'s new value ("hugepages must be 8").

    The key must have a value now, and ``value`` must look like one: "loglevel is gone",
    "isolcpus is wrong" ask something else.
    """
    had = [a for a in [*state.current_cmdline.split(), *state.append_cmdline] if _arg_key(a) == key]
    if not any("=" in a for a in had):
        return False
    return bool(re.fullmatch(r"[\w.,:/+-]+", value)) and not _a_word_not_a_value(value)


def _had_value(state: PlanState, keys: list[str], old: str) -> bool:
    """True when ``old`` is the value one of ``keys`` has on the command line now."""
    args = [*state.current_cmdline.split(), *state.append_cmdline]
    return any(a == f"{k}={old.rstrip('.')}" for a in args for k in keys)


def _a_word_not_a_value(value: str) -> bool:
    """An English word no option takes as its value: "set it again", "set it back"."""
    from oic_ai.tools.planner.lexicon import is_english

    return value.lower() not in _VALUE_WORDS and is_english(value.lower())


def _named_key(state: PlanState, keys: set[str], before: int) -> str | None:
    """The one option key the request names before ``before``, whole or by a part of it.

    "enable_guc" and "guc" name ``i915.enable_guc``; an English word such as "enable"
    names nothing.
    """
    from oic_ai.tools.planner.lexicon import is_english

    said = set(re.findall(r"[a-z0-9_.]+", state.text.original[:before].lower()))
    named = set()
    for key in keys:
        parts = {key, *re.split(r"[._]", key), *key.split(".")[1:]}
        parts = {p for p in parts if len(p) >= 3 and (p == key or not is_english(p))}
        if parts & said:
            named.add(key)
    return named.pop() if len(named) == 1 else None


def rule_bare_kernel_args(state: PlanState) -> None:
    """``key=value`` words left over can only be kernel arguments in a template request.

    So are the flags no package or English word is named like ("boot with nomodeset").
    """
    for match in state.text.matches(_PAREN_ARGS):
        args = _split_args(state.text.raw(*match.span("args")))
        if _described(state, match.start(), [_arg_key(a) for a in args]):
            state.text.consume(*match.span())
            add_cmdline_args(state, args)
    for match in state.text.matches(_BARE_ARG):
        arg = state.text.raw(*match.span("arg")).rstrip(".")
        state.text.consume(*match.span())
        add_cmdline_args(state, [arg])
    _joined_flags(state)
    _purposes(state)
    for match in state.text.matches(_BARE_FLAG):
        lead = _FLAG_LEAD.search(state.text.work, max(0, match.start() - 12), match.start())
        state.text.consume(lead.start() if lead else match.start(), match.end())
        add_cmdline_args(state, [match.group("flag")])
    from oic_ai.tools.planner.rules.kernel_mind import settle_changes_of_mind

    settle_changes_of_mind(state)  # "isolcpus=2-3 ..., actually 2-5": the last value wins


def _described(state: PlanState, opening: int, keys: list[str]) -> bool:
    """Whether options in parentheses at ``opening`` are the kernel's (reading their words).

    "disable the spectre mitigations (mitigations=off)": the clause just before the
    parenthesis names a part of the option's key, so it describes the option and is read
    with it. A clause that names something else ("add htop (loglevel=3)") leaves the
    parenthesis to be reported: it may be a note on the package.
    """
    from oic_ai.tools.planner.clauses import split_clauses

    text = state.text
    head = text.work[:opening].rstrip(" \t\n")
    if head.endswith(text.BLANK) and _kernel_claimed(state, len(head) - 1):
        return True  # "1G hugepages (default_hugepagesz=1G ...)": what the kernel rule read
    before = [c for c in split_clauses(text.original) if c.end <= opening]
    if not before or text.work[before[-1].end : opening].strip():
        return False
    clause = before[-1]
    said = re.findall(r"[a-z0-9_]+", text.work[clause.start : clause.end])
    words = {w for w in said if len(w) >= 4}
    parts = {p for key in keys for p in re.split(r"[._]", key.lower()) if len(p) >= 4}
    if not any(w.rstrip("s") in p or p in w for w in words for p in parts):
        return False
    text.consume(clause.start, clause.end, "context")
    return True


# a flag joined to an option just read ("add quiet and splash", "loglevel=3, quiet"), or a
# value for an option key given as a count ("hugepages, 1024 of them", "1024 hugepages")
_JOINED_AFTER = re.compile(
    r"\x1f\s*(?:(?:,|and|&|\+|plus)\s*)?(?P<flag>[a-z][a-z0-9_]*)\b(?![=.-])"
    # or what it is for: "quiet and splash for a cleaner boot"
    r"(?=\s*(?:$|[,;.!?)\x1f]|(?:and|to|on|in|too|as\s+well|please|for)\b))"
)
_JOINED_BEFORE = re.compile(
    r"(?<![\w=.-])(?P<flag>[a-z][a-z0-9_]*)\s*(?:(?:,|and|&|\+|plus)\s*)?\x1f"
)
# keys whose value is a count ("512 hugepages"); "2 audit rules" is no audit=2
_COUNT_KEYS = frozenset(("hugepages", "maxcpus", "nr_cpus"))
_COUNTED = re.compile(
    r"(?<![\w=.-])(?P<key>[a-z_][a-z0-9_.]*)\s*,?\s*(?P<value>\d{1,6})\s+of\s+them\b"
    r"|(?<![\w=.-])(?P<value2>\d{1,6})\s+(?:(?:static|persistent|pre-?allocated|reserved)\s+)?"
    r"(?P<key2>[a-z_][a-z0-9_.]*)\b(?![=.-])"
)


_HUGE = r"huge\s*-?\s*pages?"
_PAGE_SIZE = r"(?P<n{0}>\d{{1,4}})\s*(?P<unit{0}>[gmk])(?:i?b)?\b"
# "hugepages of 1G size", "1 GB huge pages", "hugepage size 2M": the size of a huge page
_HUGE_SIZE = re.compile(
    rf"\b{_HUGE}\s+(?:(?:of|at|with)\s+(?:a\s+)?(?:size\s+(?:of\s+)?)?|sized?\s+"
    rf"|size\s*(?:of\s+|=\s*|:\s*|to\s+)?)(?:{_PAGE_SIZE.format(1)})(?:\s+(?:size|each|pages?))?"
    rf"|(?<![\w.=-]){_PAGE_SIZE.format(2)}\s*(?:-\s*)?(?:sized?\s+)?{_HUGE}\b"
    # "hugepages: 1G pages, 16 of them", "huge pages - 2M ones"
    rf"|\b{_HUGE}\s*(?::|-|—|–)\s*{_PAGE_SIZE.format(3)}\s*(?:pages?|ones|each|size)\b"
    # "1024 hugepages of 2M": how many before the words, the size after them
    rf"|(?<![\w.=-])(?P<count5>\d{{1,7}})\s+(?:(?:static|persistent|reserved)\s+)?{_HUGE}\s+"
    rf"(?:of|at|sized?)\s+(?:size\s+)?{_PAGE_SIZE.format(5)}(?:\s+(?:each|pages?|size))?"
    # "hugepages: 8 pages of 1G", "huge pages - 16 x 2M": how many, then the size of each
    rf"|\b{_HUGE}\s*(?::|-|—|–|=)?\s*(?P<count4>\d{{1,7}})\s*(?:(?:huge\s*-?\s*)?pages?\s+)?"
    rf"(?:of|at|x|×)\s*(?:size\s+)?{_PAGE_SIZE.format(4)}(?:\s+(?:each|pages?|size))?"
    # "hugepages need to be 2M", "make the huge pages 2MB", "switch hugepages to 2M pages":
    # a size said as the huge pages' value is a page's size, never a count or the disk's
    rf"|\b{_HUGE}\s+(?:(?:(?:{SHOULD}|needs?\s+to|has\s+to|have\s+to|ought\s+to)\s+"
    rf"(?:{_ADVERB}\s+)?be|to|=|becomes?|are|is)\s+)?(?:{_ADVERB}\s+)?{_PAGE_SIZE.format(6)}"
    r"(?:\s+(?:each|pages?|ones|size))?"
)
# "..., 16 pages", "16 of them", "count 16": how many, said in the sentence about them
_HUGE_COUNT = re.compile(
    r"(?<![\w.=-])(?P<count>\d{1,7})\s+(?:of\s+them|pages?)\b"
    # "16 x 1G hugepages", "16× 1G pages"
    r"|(?<![\w.=-])(?P<count3>\d{1,7})\s*(?:x|×|\*)(?=[\s\x1f])"
    r"|\b(?:count|number)\s*(?:of\s+)?(?:[:=]\s*|to\s+|is\s+)?(?P<count2>\d{1,7})\b"
)


def _hugepages(state: PlanState) -> None:
    """Huge pages said in words: a page size and a count.

    "hugepages of 1G size, 16 pages" is ``hugepagesz=1G hugepages=16``. The size is a
    page's, never the disk's.
    """
    from oic_ai.tools.planner.clauses import split_clauses

    text = state.text
    sentences: dict[int, tuple[int, int]] = {}
    for clause in split_clauses(text.original):
        start, end = sentences.get(clause.sentence, (clause.start, clause.end))
        sentences[clause.sentence] = (min(start, clause.start), max(end, clause.end))
    for start, end in sentences.values():
        size = _HUGE_SIZE.search(text.work, start, end)
        if size is None:
            continue
        groups = ("1", "2", "3", "4", "5", "6")
        unit = next(u for u in size.group(*(f"unit{g}" for g in groups)) if u).upper()
        number = next(n for n in size.group(*(f"n{g}" for g in groups)) if n)
        end_at = size.end()
        said = _NOT_OLD.match(text.work, end_at)
        if said is not None and re.fullmatch(r"\d{1,4}\s*[gmk](?:i?b)?", said["old"], re.I):
            end_at = said.end()  # "2M not 1G": the old size, said to go
        text.consume(size.start(), end_at)
        args = [f"hugepagesz={number}{unit}", *_default_size(state, f"{number}{unit}")]
        count = _HUGE_COUNT.search(text.work, start, end)
        if size.group("count4") or size.group("count5"):
            args.append(f"hugepages={size.group('count4') or size.group('count5')}")
        elif count is not None:
            text.consume(*count.span())
            number = count.group("count") or count.group("count2") or count.group("count3")
            args.append(f"hugepages={number}")
        add_cmdline_args(state, args)


def _default_size(state: PlanState, size: str) -> list[str]:
    """``default_hugepagesz`` set with a new page size, when the line has it at the old size.

    "default_hugepagesz=1G hugepagesz=1G" then "hugepages of 2M" moves both: a default size
    left at 1G would name pages the line no longer reserves.
    """
    args = [*state.current_cmdline.split(), *state.append_cmdline]
    sizes = {_arg_key(a): a.partition("=")[2] for a in args if "=" in a}
    old = sizes.get("hugepagesz")
    if "default_hugepagesz" in sizes and old and sizes["default_hugepagesz"] == old != size:
        return [f"default_hugepagesz={size}"]
    return []


# "lower the hugepage count to 4", "set the number of hugepages to 4": a new count for a
# counted option the command line has
_COUNT_CHANGE = re.compile(
    r"\b(?:set|change|make|lower|raise|reduce|increase|bump|drop|cut|decrease|bring|take)"
    r"\s+(?:the\s+)?(?:(?:number|count)\s+of\s+)?(?P<word>huge\s*pages?|[a-z_][a-z0-9_.]*)"
    r"(?:\s+(?:count|number))?\s+(?:(?:down|up|back)\s+)?to\s+(?P<value>\d{1,7})\b(?![.,]?\d)"
    r"(?!\s*(?:gb|gib|mb|mib|tb|%))"
)


def _count_change(state: PlanState) -> None:
    """A new value for a counted option, named by its word ("hugepage count" is hugepages)."""
    text = state.text
    keys = cmdline_keys(state)
    for match in text.matches(_COUNT_CHANGE):
        word = re.sub(r"\s+", "", match.group("word"))
        named = [k for k in keys if k in _COUNT_KEYS and k in (word, word + "s")]
        if len(named) != 1:
            continue
        text.consume(*match.span())
        add_cmdline_args(state, [f"{named[0]}={match.group('value')}"])


# "add isolcpus=2,3 to the kernel line for realtime": what the option is for
_PURPOSE = re.compile(r"\x1f[ \t]*(?P<purpose>(?:for|so\s+that)\s+[^,;.!?:\x1f\n]+)")


def _purposes(state: PlanState) -> None:
    """A purpose said right after kernel options describes them; it asks for nothing more.

    "isolcpus=2,3 ... for realtime" is no request for a realtime kernel.
    """
    for match in state.text.matches(_PURPOSE):
        before = state.text.original[: match.start("purpose")].rstrip()
        if before.endswith((".", "!", "?")):
            continue  # "hugepages=64. For debugging we need numactl": a sentence of its own
        if _kernel_claimed(state, match.start()):
            state.text.consume(*match.span("purpose"), "context")


def _kernel_claimed(state: PlanState, at: int) -> bool:
    return any(s <= at < e and o == "kernel" for s, e, o in state.text.claims)


def _counted(state: PlanState) -> None:
    """A count of a key that takes one: "512 hugepages", "hugepages, 512 of them"."""
    text = state.text
    for match in text.matches(_COUNTED):
        key = match.group("key") or match.group("key2")
        if key not in _COUNT_KEYS:
            continue
        text.consume(*match.span())
        add_cmdline_args(state, [f"{key}={match.group('value') or match.group('value2')}"])


def _joined_flags(state: PlanState) -> None:
    """Flags and counted values said next to options the kernel rule read."""
    text = state.text
    for pattern in (_JOINED_AFTER, _JOINED_BEFORE):
        for match in text.matches(pattern):
            flag = match.group("flag")
            # the blank right before the flag: "\s" takes in a run of blanks too, and the
            # run may start in what another rule read ("I'd like quiet and splash")
            after = text.work.rfind(text.BLANK, 0, match.start("flag"))
            blank = after if pattern is _JOINED_AFTER else match.end() - 1
            if _is_flag(state, flag) and _kernel_claimed(state, blank):
                text.consume(*match.span("flag"))
                add_cmdline_args(state, [flag])


def _is_flag(state: PlanState, word: str) -> bool:
    """A known flag, or a snake_case word no package is named like ("slab_nomerge").

    Debian package names never hold "_"; one the catalog or the library knows stays a
    package.
    """
    if word in FLAGS:
        return True
    return "_" in word.strip("_") and word not in state.known_names()


# kernel flags that are nothing else: never a package, never an English word
_BARE_FLAG = re.compile(
    r"(?<![\w=.-])(?P<flag>nomodeset|noapic|nolapic|nosmp|noacpi|nosplash|earlyprintk|"
    r"ignore_loglevel|nokaslr|nopti|noibrs|nosmt|nosmap|nosmep)(?![\w=.-])"
)
_OPTION_WORD = re.compile(rf"{_KEY}={_VALUE}", re.IGNORECASE)


def option_word(word: str) -> bool:
    """A word that can only be a kernel option.

    ``key=value``, or a bare flag that is no English word (earlyprintk, nomodeset).
    """
    return _OPTION_WORD.fullmatch(word) is not None or _BARE_FLAG.fullmatch(word) is not None


_FLAG_LEAD = re.compile(r"\bboot(?:s|ing)?\s+(?:it\s+)?with\s+$")


def _option_words(args: list[str], state: PlanState | None = None) -> list[str]:
    """The leading arguments that are options: key=value, a known flag, or no English word.

    "net.ifnames=0, only once please" gives ``net.ifnames=0``. With ``state``, a package the
    catalog or the library knows is no option either ("add ffmpeg and htop, quiet on the
    cmdline" names two packages, then one option).
    """
    from oic_ai.tools.planner.lexicon import is_english

    kept: list[str] = []
    for arg in args:
        if "=" in arg or arg.lower() in FLAGS:
            kept.append(arg)
            continue
        known = state is not None and arg.lower() in state.known_names()
        if arg.lower() in ADVERBS or is_english(arg) or known:
            break  # "pls" is a courtesy, no option; an English word or a package ends them
        kept.append(arg)
    return kept


def _split_args(raw: str) -> list[str]:
    """The options in ``raw``, each one token; commas inside an option's value stay in it.

    A full stop that ends the sentence is not part of the last option ("panic=10.").
    """
    raw = raw.strip().strip("\"'")
    return [a.rstrip(".") for a in _ONE_ARG.findall(raw) if a.lower() != "and"]


def _arg_key(arg: str) -> str:
    return arg.split("=", 1)[0]


def cmdline_keys(state: PlanState) -> set[str]:
    """The keys of the options the kernel line has and those the plan appends."""
    return {_arg_key(a) for a in [*state.current_cmdline.split(), *state.append_cmdline]}


def _unpunctuated(arg: str) -> str:
    """``arg`` without the sentence's end: "can you add loglevel=3?" adds ``loglevel=3``."""
    return arg.rstrip("?!.;:") or arg


def add_cmdline_args(state: PlanState, args: Iterable[str]) -> None:
    """Append arguments; the applier replaces an argument with the same key (loglevel=)."""
    current = state.current_cmdline.split()
    for said in args:
        arg = _unpunctuated(said)
        if arg in current or arg in state.append_cmdline:
            state.notes.append(f"{arg} is already on the kernel command line")
        else:
            state.append_cmdline.append(arg)


def _remove_cmdline_args(state: PlanState, args: Iterable[str]) -> None:
    current = state.current_cmdline.split()
    keep = list(current)
    for arg in map(_unpunctuated, args):
        hits = [
            old
            for old in keep
            if old == arg
            or ("=" not in arg and _arg_key(old) == arg)
            or (arg.startswith("console=") and old.startswith(arg + ","))  # any speed
        ]
        if not hits:
            state.notes.append(f"{arg} is not on the kernel command line")
        keep = [old for old in keep if old not in hits]
    if keep != current:
        state.cmdline = " ".join([*keep, *state.append_cmdline])
        state.append_cmdline.clear()
