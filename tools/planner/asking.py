"""Does a clause ask for something? The test that keeps context out of ``not_applied``.

A request mixes what it asks for with who asked ("my lead, Marguerite"), headers ("Request
ref CHG-1", "Requirements:"), small talk ("thx", "lol"), purposes ("for the field techs",
"to serve as a build host") and reasons ("he left", "nobody uses it"). Only a clause that
asks for something may be reported as not applied; the rest is context.

A clause asks when it has (in this order):

* an imperative at its head ("add", "set", "point", "join", after "and", "also", "ok" ...);
* a wish or an obligation anywhere ("need", "want", "should", "must", "has to", "please",
  "can you");
* otherwise, when it is a statement (a subject pronoun first, "nobody uses it", or an
  auxiliary or reporting verb: "the hypervisor handles ...", "tmux isn't approved"), it asks
  nothing, whatever it names;
* a purpose or reason at its head ("for the sd cards", "to serve as", "per Jonathan")
  asks nothing;
* a value (a size, a path, a URL, ``key=value``, a device, an address), a field noun (one a
  template holds, such as "hostname" or "partition", or one it cannot, such as "timezone"
  or "wifi") or a package name asks;
* a list item under a header ("- the docker CLI") asks: the header asked for the list;
* anything else (a name, a team, a noun phrase) asks nothing.

The word classes below are closed classes (how people ask, state and introduce), not
phrases from any request.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from oic_ai.tools.planner.words import PEOPLE

Asking = Literal["asks", "context", "purpose"]

# words before the head of a clause that carry nothing ("and also just add ...")
_LEAD = frozenset(
    (
        "and then also plus so but or just now ok okay oh hmm hm um uh well actually anyway "
        "anyways right fine sure yes yeah yep great cool alright good perfect wait oops sorry "
        "thanks thank thx ty cheers lol haha hey hi hello dear finally lastly first second "
        "third next additionally furthermore moreover besides meanwhile again instead maybe "
        "perhaps otherwise still really honestly basically kindly pls plz please only "
        "ah aha ahh argh ugh meh btw fyi rofl lmao np "
        # chat shorthand for a remark or a change of mind ("nvm", "tbh", "iirc")
        "nvm nevermind tbh tbf imo imho afaik iirc idk ngl fwiw rn tho "
        # greetings and thanks people write in other languages
        "hola ola olá opa oi bonjour salut coucou ciao hallo servus moin grüezi hej hei "
        "tere ahoj czesc cześć merci gracias danke obrigado obrigada grazie tak dank bedankt "
        "buongiorno bom dia buenos buenas guten tag"
    ).split()
)
# verbs that ask for a change when they head a clause (the imperative)
IMPERATIVES = frozenset(
    (
        "add install put include set make change remove drop delete give create enable "
        "disable turn switch use replace rename call name move resize bump increase grow "
        "shrink convert keep leave lose configure point join enroll register forward mount "
        "format build prepare produce do apply update upgrade pin allow block open close lock "
        "harden encrypt sign start stop run append raise lower reduce double halve split merge "
        "restore revert undo scratch get take throw toss pop bring ship bundle provide "
        "define assign grant revoke expand extend cut trim limit cap partition carve attach "
        "mark flag swap tweak adjust edit fix correct reset ensure uninstall purge strip skip "
        "exclude omit go stay ditch nuke kill activate deactivate setup install configure "
        "send write copy generate compress deliver output export sync schedule disallow deny "
        "permit require set-up rebuild retarget port base target "
        # verbs of what people ask a machine to do, which no template may hold ("email me
        # when the build is done", "enforce password complexity"): rarely a noun at the
        # head of a clause
        "enforce email notify alert rotate mirror validate provision deploy expose bind "
        "serve publish upload download fetch ping restrict isolate reserve dedicate "
        "preinstall pre-install preload blacklist whitelist unblock autostart persist "
        "reboot restart shutdown "
        "wipe erase randomize randomise unlock unmask hide"
    ).split()
)
# what an imperative's object starts with
_OBJECTS = frozenset(
    "it the a an my our this that these those them its some all every me us him".split()
)
# words that are never a verb at the head of a clause
_FUNCTION = frozenset(
    (
        "a an the of in on at for to from by with as per via about into onto over under "
        "what which who whom whose where when why how if unless whether than then not no "
        "all any each every some both either neither more most less much many few one two "
        "three first next last same other another such own "
        "because since although though whereas while once until "
        "that after before during within without across through between around behind"
    ).split()
)
# a wish or an obligation, wherever it stands ("the disk should be ...", "we need ...")
_WISH = frozenset(
    "need needs want wants should must shall require requires please pls plz kindly ensure".split()
)
_WISH_PAIRS = (
    ("have", "to"),
    ("has", "to"),
    ("had", "to"),
    ("got", "to"),
    ("would", "like"),
    ("'d", "like"),
    ("i'd", "like"),
    ("we'd", "like"),
    ("would", "love"),
    ("make", "sure"),
    ("can", "you"),
    ("could", "you"),
    ("would", "you"),
    ("will", "you"),
    *((modal, "u") for modal in ("can", "could", "would", "will")),  # chat: "can u add it"
    ("can", "we"),
    ("could", "we"),
    ("can", "i"),
    ("let's", ""),
    ("lets", ""),
    ("let", "me"),
)
# a subject at the head makes a statement, unless a wish follows ("we need", "it should")
_SUBJECTS = frozenset(
    (
        "i we he she they it its it's i'm we're they're he's she's we've i've they've we'll "
        "i'll they'll he'll she'll it'll that'll there'll you'll you're you've "
        "nobody noone everyone everybody someone somebody nothing "
        "everything there there's here's that's this these those who which "
        "nobody's everyone's everybody's someone's somebody's nothing's everything's"
    ).split()
)
# auxiliaries and reporting or stative verbs: a clause with one states something
_STATING = frozenset(
    (
        "is are was were isn't aren't wasn't weren't been being am will won't 'll has have had "
        "hasn't haven't hadn't does doesn't did didn't can't cannot couldn't wouldn't "
        "shouldn't may might "
        "says said say asked asks told tells mentioned mentions thinks think thought "
        "know knows knew guess believe believes suppose hope hopes means meant matters "
        "handles handled uses used runs ran owns owned manages managed covers covered lives "
        "sits sat comes came goes went works worked left passed decided approved mandated "
        "changed chaired signed remembers remember forgot happens happened sounds looks "
        "seems seemed takes took wrote writes sent sends reported reports "
        "insists insisted recommends recommended prefers preferred likes liked hates "
        "agreed agrees expects expected plans planned turns turned gonna "
        # negations typed without the apostrophe ("lab boards dont have keys")
        "dont doesnt didnt isnt arent wasnt werent wont cant hasnt havent already"
    ).split()
)
# verbs that report what someone else said, thought or forgot
REPORTING = frozenset(
    "says said say tells told thinks thought forgot forgets mentioned mentions reckons "
    "claims claimed insists insisted".split()
)
# verbs that ask the assistant to choose or explain rather than change
_ADVICE = frozenset("pick choose decide recommend suggest explain tell advise".split())
# what such a verb asks about when it asks for advice ("the right one", "why", "me")
_ADVICE_OBJECTS = frozenset("right best why which whichever appropriate correct one me".split())


def names_something(text: str, words: list[str]) -> bool:
    """True when a clause names a value or a field a template holds (or cannot hold)."""
    return bool(_VALUE.search(text)) or any(w in FIELD_NOUNS for w in words)


# what people say to close a message ("let me know if ...", "ping me if anything is unclear")
_COURTESY = re.compile(
    r"(?:let\s+(?:me|us)\s+know|(?:ping|tell|ask)\s+(?:me|us)\s+if"
    r"|have\s+a\s+(?:good|nice|great|lovely)\b|hope\s+(?:that|this|it)\s+(?:makes|helps)"
    # stepping away from the chat: "brb lunch", "gotta run", "back in 10"
    r"|(?:brb|afk|gtg|g2g|ttyl|bbl|cya)\b|gotta\s+(?:go|run)\b|talk\s+(?:to\s+you\s+)?"
    r"(?:later|soon|tomorrow)\b|back\s+in\s+(?:a\s+(?:bit|sec|min)|\d+)"
    r"|(?:off\s+to|heading\s+to)\s+(?:lunch|a\s+meeting)\b"
    # where the work stands: "debugging done", "the pilot is over"
    r"|(?:(?:the|our|my)\s+)?(?:\w+ing|pilot|trial|tests?|poc|rollout|migration)\s+(?:is\s+|'s\s+)?"
    r"(?:done|finished|over|complete|completed)$)"
)
# adverbs between a subject and its verb ("only supports", "still runs")
_FREQUENCY = frozenset("only still also just already really always never usually".split())
# a pronoun subject pointing back, and the words of being there ("they must never ship")
_POINTING = frozenset("they it those these".split())
_PRESENCE = frozenset(
    "never not ever ship exist appear end up be there present installed included again "
    "in the image at all".split()
)
# whoever it may be ("if anyone needs root ...")
_ANYONE = frozenset("someone somebody anyone anybody everyone everybody".split())
# determiners that open a definite subject, and the plural present verbs that state what
# such a subject does ("the cameras use", "our techs run")
_DEFINITE = frozenset(
    "the our their his her its these those some most many several few both all other".split()
)
_PRESENT_STATING = frozenset(
    "use run own handle manage cover live sit come go work rely depend publish talk "
    "connect terminate ship prefer like hate love know".split()
)
# words that open a purpose or a reason ("for the techs", "so that", "per Jonathan")
_PURPOSE = frozenset(
    "for to because since as per via from by with regarding re although though whereas "
    "onto into".split()
)
# nouns of what a template holds, and of what people ask for that it cannot hold
FIELD_NOUNS = frozenset(
    (
        "hostname hostnames fqdn disk disks size partition partitions swap filesystem "
        "filesystems fs mount mountpoint user users account accounts login logins sudo "
        "sudoer sudoers admin group groups shell password passwords kernel cmdline console "
        "consoles serial baud tty option options parameter parameters param params argument "
        "arguments bootloader grub efi uefi bios secureboot immutable immutability read-only "
        "repo repos repository repositories mirror mirrors priority component components "
        "codename suite key keys certificate certificates cert package packages iso raw qcow2 "
        "vhd vhdx vmdk img artifact artifacts compression arch architecture timezone "
        "time-zone locale keyboard ntp dns ip ipv4 ipv6 address gateway vlan wifi wi-fi "
        "wireless ssid dhcp ldap sssd domain autologin auto-login banner motd syslog "
        "firewall port ports proxy cron service services selinux apparmor encryption luks "
        "raid lvm lockdown quiet splash loglevel"
    ).split()
)
_TWO_WORD_FIELDS = frozenset({("secure", "boot"), ("time", "zone"), ("command", "line")})
# a word: letters of any alphabet ("içinde" is one word, not "i" and "inde") and digits
_WORD = re.compile(r"[^\W_](?:[^\W_]|[._+'/:=-])*(?:[^\W_]|\+)|[^\W_]|'d")
_VALUE = re.compile(
    r"(?:https?|file)://\S+"  # a URL
    r"|(?<![\w/])/[\w.-]+(?:/[\w.-]*)*"  # a path
    r"|\b\d+(?:[.,]\d+)?\s*(?:[kmgt]i?b|gigs?|megs?|g|m)\b"  # a size
    r"|\b[\w.-]+=\S+"  # key=value
    r"|\btty[a-z]*\d+\b"  # a device
    r"|\b\d{1,3}(?:\.\d{1,3}){3}\b",  # an address
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d{1,2}[.)])\s+")
# a pipe between two commands: a command line shown, not a request
_SHELL = re.compile(r"\S\s+\|\s+[a-z]")


@dataclass(frozen=True)
class Reading:
    """Why a clause asks or not.

    Attributes:
        asking: ``asks``, ``context`` or ``purpose`` (context that says what it is for).
        why: The signal that decided it, for tests and debugging.
    """

    asking: Asking
    why: str


def words_of(text: str) -> list[str]:
    """The lower-case words of ``text``, apostrophes kept ("isn't", "it's")."""
    lowered = text.lower().replace("’", "'")
    return _WORD.findall(lowered)


def _has_wish(words: list[str]) -> str:
    for index, word in enumerate(words):
        if word in _WISH:
            return word
        after = words[index + 1] if index + 1 < len(words) else ""
        for first, second in _WISH_PAIRS:
            if word == first and (not second or after == second):
                return f"{first} {second}".strip()
    return ""


def _head(words: list[str]) -> list[str]:
    index = 0
    while index < len(words) - 1 and words[index] in _LEAD:
        index += 1
    if words[index : index + 2] == ["do", "not"] and index + 2 < len(words):
        return ["don't", *words[index + 2 :]]  # "do not add anything": "do" is no verb here
    return words[index:]


def read_clause(
    text: str,
    *,
    is_package: Callable[[str], bool] | None = None,
    bullet: bool = False,
) -> Reading:
    """Whether the clause ``text`` asks for something (see the module's rules).

    Args:
        text: The clause as written.
        is_package: Says whether a word is a package name someone knows.
        bullet: True when the clause is an item of a list (a line starting with ``-``).
    """
    from oic_ai.tools.planner.text import CONTROL

    if CONTROL.search(text):
        # terminal escapes or bidi tricks: not text anyone typed, so never quiet context
        return Reading("asks", "characters that are not text")
    words = words_of(text)
    if not words or all(w.isdigit() or w in _LEAD for w in words):
        return Reading("context", "no words")
    head = _head(words)
    if head[0] in ("forget", "skip", "ignore") and not names_something(text, words):
        # "ok forget the pi 2", "so skip that one": what was talked about is set aside; a
        # change it names was read by its rule before this clause is weighed
        return Reading("context", f"sets aside ({head[0]!r})")
    from oic_ai.tools.planner.withdrawals import withdraws_unheld

    if withdraws_unheld(words, is_package, FIELD_NOUNS):
        # "ok never mind the wifi", "nvm the firewall then": a wish taken back whose thing
        # no template holds, so nothing was applied for it and nothing is left to change
        return Reading("context", "takes back a wish no template holds")
    if head[0] in ("no", "without") and set(head[1:]) <= _PERIPHERALS and len(head) > 1:
        # "No keyboard", "no keyboard or mouse": what the device lacks, not a setting
        return Reading("context", "a device without a peripheral")
    verb = next((w for w in head[:3] if w not in ("could", "can", "would", "you")), "")
    if verb in _ADVICE and _ADVICE_OBJECTS & set(words) and not names_something(text, words):
        # "pick the right one", "could you tell me why": asks the assistant to choose
        # or explain, which the answer does; it names no change
        return Reading("context", f"asks for advice ({verb!r})")
    if words[0] == "so" and _MODALS & set(words[1:5]) and not ({"you", "i"} & set(words[1:3])):
        # "so cage can grab the seat", "so that the techs can log in": what a change is for
        return Reading("purpose", "so ... can")
    if (
        words[0] == "so"
        and len(words) > 2
        and words[1] not in IMPERATIVES | _LEAD | {"you", "i", "we", "please", "pls"}
        and not _has_wish(words)
        and not _VALUE.search(text)
    ):
        # "so nodes boot without a local disk", "so the techs see the logs": a subject
        # and what it then does; no request form after "so"
        return Reading("purpose", "so ... (what follows from it)")
    if len(head) > 2 and head[0] in IMPERATIVES and head[1] == "of" and not _VALUE.search(text):
        # "change of plan for the v2 boards": the verb's noun, heading a remark
        return Reading("context", f"a noun ({head[0]!r} of)")
    if _DECLINED.match(" ".join(words)) and not _VALUE.search(text):
        # "don't bother with a hostname", "no need to set the disk size": a value the user
        # will not give, so the template's own stays; nothing to change or report
        return Reading("context", "declines to give a value")
    if _COURTESY.match(" ".join(head)):
        # "let me know if you need anything else", "have a good one": said to the
        # assistant about the conversation, not about the image
        return Reading("context", "courtesy")
    if _whole_image(words):
        # "give me the equivalent", "please draft it", "can I get one": the image itself,
        # which the request (or the template so far) already is
        return Reading("context", "asks for the image as a whole")
    if head[0] in _KEEP and not (_STATE_WORDS & set(head)):
        # "keep the runner user as is", "leave nohz_full alone": what stays as it is
        # ("leave out the docs", "keep ssh disabled" still ask); "keep tty0 though" keeps a
        # value, which the planner checks against the template (KEEPS)
        kept_value = _VALUE.search(text)
        if kept_value:
            return Reading("asks", f"{KEEPS} {kept_value.group()!r}")
        if _WHOLE & set(head[1:]):
            return Reading("context", f"says what stays ({head[0]!r})")
        # "keep the runner user", "keep the logs for 90 days": a thing kept, which the
        # planner checks against the template (only what it has can stay)
        objects = [w for w in head[1:] if w not in _FUNCTION and w not in _LEAD]
        return Reading("asks", f"{KEEPS} {' '.join(objects)!r}")
    if (
        head[0] in ("have", "get")
        and len(head) > 2
        and head[1] not in _SUBJECTS | {"you", "to", "been", "got", "had", "a", "an", "fun"}
        and words[0] == head[0]
    ):
        # "have rsyslog forward everything to splunk", "get the kiosk to reboot nightly": a
        # thing made to do something, asked at the head of a clause
        return Reading("asks", f"imperative {head[0]!r}")
    if (
        len(head) > 2
        and head[0].endswith("s")
        and head[1] in _FLOATING
        and head[2] in _PRESENT_STATING | _PLURAL_VERBS
    ):
        # "builds all happen inside containers": a plural subject, a floating quantifier
        return Reading("context", f"statement ({head[2]!r})")
    if head[0] in IMPERATIVES and not (len(head) > 1 and head[1] in ("you", "we", "i")):
        return Reading("asks", f"imperative {head[0]!r}")
    if (
        len(head) > 1
        and head[1] in _OBJECTS
        and head[0] not in _FUNCTION | _DEFINITE  # "our IT guy left": a determiner
        and head[0].isalpha()
        and not head[0].endswith(("ed", "ing"))  # "reviewed it", "reading the": no imperative
        and not _singular_present(head[0])  # "prints a label": what something does
        and _english(head[0])
    ):
        # "paint it blue", "rewire the console": a word followed by its object is a verb
        return Reading("asks", f"imperative {head[0]!r}")
    if (
        head[0] in _NOT_YET
        and len(head) > 2
        and head[1] in IMPERATIVES | {"touch", "mess"}
        and (_THE_REST & set(head[2:]) or _UNASKED.search(" ".join(head[2:])))
    ):
        # "please don't change anything else", "don't touch the rest": keeps the rest
        return Reading("context", "keeps the rest as it is")
    if "yet" in words and _NOT_YET & set(words[: words.index("yet")]):
        # "please don't try to install it from the distro yet": put off, nothing now
        return Reading("context", "deferred ('not ... yet')")
    wish = _has_wish(words)
    if wish and _nobodys(words, wish):
        # "scripts that nobody wants to touch": a wish no one has is a remark
        return Reading("context", f"nobody's wish ({wish!r})")
    reported = next((w for w in head[1:3] if w in REPORTING), "")
    if wish and reported and head[0] not in IMPERATIVES and not names_something(text, words):
        # "IT says they need to see the logs", "I forgot the script needs it": someone's
        # need reported as the reason for a change, which names no value or field
        return Reading("context", f"reported ({reported!r})")
    if wish and _fronted_purpose(words, wish, is_package) and not names_something(text, words):
        # "cpu 1 we need for the ethercat master": what the thing before "we" is for
        return Reading("context", f"a fronted object and its purpose ({wish!r})")
    if wish and _vague_likeness(words, wish) and not names_something(text, words):
        # "I want something close to that behaviour", "we'd like something similar": what
        # the change just asked is meant to give, naming nothing of its own
        return Reading("context", f"a wish for something like it ({wish!r})")
    if wish and _wish_for_information(words, wish) and not names_something(text, words):
        # "our IT department wants the list before approving": the answer is what is
        # wanted, not a change
        return Reading("context", f"a wish for information ({wish!r})")
    if wish and _wish_to_do(words, wish) and not names_something(text, words):
        # "our KVM lab wants to consume it", "we want to test it first": what someone
        # means to do with the image, not a change to it
        return Reading("context", f"a wish to do ({wish!r})")
    named = names_something(text, words) or (
        is_package is not None and any(is_package(w) for w in words)
    )
    if wish and head[0] in _SUBJECTS and _relative_wish(words, wish) and not named:
        # "we've got runners that need an identical image": the wish is the relative
        # clause's, which describes a noun of a statement
        return Reading("context", f"statement (a relative clause's {wish!r})")
    if wish and head[0] in _POINTING and set(head[1:]) <= _PRESENCE | _WISH | _NOT_YET:
        # "... no testuser account, they must never ship": what was just asked, said again
        return Reading("context", "says again what must (not) be there")
    if wish and words[0] == "if" and words[1] in _ANYONE | PEOPLE and not named:
        # "if someone needs to edit a file they should go through config management": a
        # rule for people, on a condition, that names nothing an image holds
        return Reading("context", "a condition on people")
    if wish:
        return Reading("asks", f"wish {wish!r}")
    if _DEFERRED & set(words) and head[0] not in IMPERATIVES:
        # "pkgs from it come later", "gps pps for time later": nothing asked now
        return Reading("context", "deferred")
    kept = next((w for w in head[1:] if w in _STAYING), "")
    if kept and not _VALUE.search(text):
        # "the rest of the options stay", "that one remains": what stays as it is
        return Reading("context", f"says what stays ({kept!r})")
    stated = next((w for w in head if w in _STATING), "")
    if not stated and head[0] not in IMPERATIVES:
        # "hostname gets set per VM by cloud-init": what happens to it, in the passive
        stated = next(
            (
                b
                for a, b in zip(head[1:5], head[2:6], strict=False)
                if a == "gets" and (_past(b) or b in _IRREGULAR_PARTICIPLES)
            ),
            "",
        )
    if not stated and head[0] in _DEFINITE and len(head) > 2:
        # "the rescue flows use scp", "our runners handle it", "some teams still run
        # hyper-v": a definite or quantified subject and a verb of what is (not the
        # first word after the determiner: that is the noun)
        stated = next((w for w in head[2:] if w in _PRESENT_STATING), "")
        if not stated and not names_something(text, words):
            # "the QA team switched to nightly builds", "the platform team standardised on
            # podman": a past verb after the noun, whatever package it names
            stated = next((w for w in head[2:4] if _past(w)), "")
        at = next(
            (
                i
                for i in range(2, 6)
                if i < len(head)
                and _singular_present(head[i])
                and (i < 4 or head[i - 1] in _FREQUENCY)  # "the vendor's runtime only supports"
            ),
            0,
        )
        if (
            not stated
            and at
            and not FIELD_NOUNS & set(head[1:at])
            and not _VALUE.search(text)
            and not (is_package is not None and any(is_package(w) for w in words))
        ):
            # "the robot talks to its controller over a USB serial adapter", "the label
            # printer hangs off the serial port": a thing of the world and what it does,
            # naming no value or package, describes the machine
            stated = head[at]
    if not stated and head[0] in PEOPLE and len(head) > 1:
        # "people use screen from the jump host", "techs prefer vim": people and a verb
        verb = head[1]
        stated = verb if verb in _PRESENT_STATING | _STATING or _past(verb) else ""
    if head[0] in _SUBJECTS or stated:
        return Reading("context", f"statement ({stated or head[0]!r})")
    if _SHELL.search(text) and not _VALUE.search(text):
        # "dpkg -l | grep ^ii": a command shown to say where a list came from
        return Reading("context", "a command line shown")
    if len(head) > 1 and head[0].endswith("ing") and head[1] in _BACKGROUND_PLACES:
        # "coming from mkosi", "moving off CentOS": where the user comes from; "testing on a
        # NUC first", "running it in the lab": what the user does with the image
        if head[1] in ("from", "off", "over") or (
            len(head[0]) > 5
            and inflected(head[0])
            and head[0] not in IMPERATIVES
            and not _VALUE.search(text)
        ):
            return Reading("context", f"background ({head[0]!r})")
    if (
        head[0] == "for"
        and len(head) > 3
        and head[1] in ("each", "every", "all", "both", "any")
        and (verb := next((w for w in head[3:6] if w in IMPERATIVES), ""))
    ):
        # "for each user put the ssh key from our vault": what is done to each, asked
        return Reading("asks", f"imperative {verb!r}")
    if head[0] in _PURPOSE and not _VALUE.search(" ".join(head[1:])):
        return Reading("purpose", f"purpose {head[0]!r}")
    value = _VALUE.search(text)
    if value:
        return Reading("asks", f"value {value.group()!r}")
    if (
        len(head) > 2
        and head[0] not in _FUNCTION | FIELD_NOUNS
        and _past(head[1])
        and not (is_package is not None and is_package(head[0]))
    ):
        # "Finance pushed back on the disk", "security flagged it": what someone did
        return Reading("context", f"statement ({head[1]!r})")
    field = next((w for w in words if w in FIELD_NOUNS), "")
    if not field:
        pairs = zip(words, words[1:], strict=False)
        field = " ".join(next((p for p in pairs if p in _TWO_WORD_FIELDS), ()))
    if field:
        return Reading("asks", f"field {field!r}")
    if (
        len(head) > 2
        and head[0] not in _FUNCTION
        and _past(head[1])
        and not (is_package is not None and is_package(head[0]))
    ):
        # "security flagged it in the audit": someone did something, whatever it names
        return Reading("context", f"statement ({head[1]!r})")
    if is_package is not None:
        # a package name that is also an everyday word ("touch screen", "our last audit")
        # names the package only beside another sign that it asks
        package = next((w for w in words if is_package(w) and not _english(w)), "")
        if package:
            return Reading("asks", f"package {package!r}")
    if bullet:
        return Reading("asks", "list item")
    if (
        len(head) > 2
        and head[1].endswith(("s", "ed"))
        and not head[1].endswith("ss")
        and head[0] not in _FUNCTION
        and inflected(head[1])
    ):
        # "TLS terminates at the LB", "security flagged it": a subject and its verb,
        # naming no value, field or package, state a reason
        return Reading("context", f"statement ({head[1]!r})")
    unknown = [w for w in re.findall(r"[A-Za-z][\w'-]*", text) if not _plain(w)]
    if unknown:
        # "bbbbbb qqq": not words, not names: nothing says it asks nothing
        return Reading("asks", f"unknown word {unknown[0]!r}")
    return Reading("context", "names no change")


_MODALS = frozenset("can could will would may might".split())
# where or with what a gerund at the head of a clause does its work ("testing on a NUC")
_BACKGROUND_PLACES = frozenset("from off over on in at with onto into against".split())
# verbs that say something stays as it is
_STAYING = frozenset("stay stays remain remains".split())
# the start of a reading that keeps a value ("keep tty0"): the value follows it, quoted
KEEPS = "keeps the value"
# what "keep" names when it keeps the whole or says so ("keep it as is", "keep the rest")
_WHOLE = frozenset("it everything rest else alone though too as is this that them".split())
# verbs that keep what is there, and the words after them that ask for a state instead
_KEEP = frozenset("keep leave retain".split())
_STATE_WORDS = frozenset(
    "out off away disabled enabled on open closed running below under above without "
    "smaller bigger larger shorter longer lower higher locked unlocked encrypted "
    "read-only readonly immutable mutable signed patched updated hardened".split()
)
# words that put what a clause says off to later
_DEFERRED = frozenset("later afterwards eventually".split())
_NOT_YET = frozenset("not don't dont never no".split())
# a value the user declines to give: "don't bother with a hostname", "no need to set the
# disk size", "never mind the image version", "forget about a password for now" (only a
# field whose value stays as the template has it; "skip swap" removes a partition)
_DECLINED = re.compile(
    r"^(?:(?:please|pls|just|and|but|so|oh|ok|okay|also|then|you)\s+)*"
    r"(?:(?:do\s+not|don't|dont|no\s+need\s+to|needn't)\s+(?:bother|worry)"
    r"(?:\s+(?:with|about))?|no\s+need\s+(?:for|to)|never\s*mind|forget(?:\s+about)?|skip)"
    r"(?:\s+(?:set|setting|give|giving|pick|picking|choose|choosing|change|changing|naming|"
    r"a|an|the|any|its|it|up))*"
    r"\s+(?:host\s*names?|fqdn|(?:disk\s+)?size|disk\s+sizing|image\s+(?:name|version)|"
    r"version|passwords?|root\s+password|time\s*zone|locale)"
    r"(?:\s+(?:for\s+(?:now|them|it|these|those)|at\s+all|either|then|anyway|here))*$"
)
# what a negated change leaves alone ("don't touch anything else")
_THE_REST = frozenset("else rest other others otherwise extra additional unasked".split())
# what nobody asked for: "anything I did not ask for", "stuff we never requested"
_UNASKED = re.compile(
    r"\b(?:i|we)\s+(?:did\s+not|didn't|didnt|never|have\s+not|haven't)\s+"
    r"(?:ask|asked|request|requested|list|listed|mention|mentioned|name|named|say|said)\b"
)
_RELATIVE = frozenset("that which who whose".split())


def states(text: str) -> str:
    """The verb of a statement ("the layer cache eats everything"), or "" when it asks.

    A word after the clause's first word that is an English verb form in -s or -ed, with no
    imperative at the head, no wish, no value and no field noun anywhere.
    """
    words = words_of(text)
    head = _head(words)
    if not head or head[0] in IMPERATIVES or _has_wish(words) or _VALUE.search(text):
        return ""
    if FIELD_NOUNS & set(words):
        return ""  # "ops gets sudo": a field said with a verb still asks
    for word in head[1:5]:
        if (
            word.endswith(("s", "ed"))
            and not word.endswith("ss")
            and word not in FIELD_NOUNS
            and word not in _FUNCTION
            and (_past(word) or (word.endswith("s") and _english(word[:-1]) and len(word) > 3))
        ):
            return word
    return ""


def _nobodys(words: list[str], wish: str) -> bool:
    """True when the wish word's subject is "nobody" ("that nobody wants to touch")."""
    first = wish.split()[0]
    at = words.index(first) if first in words else -1
    return (at > 0 and words[at - 1] in ("nobody", "noone")) or words[at - 2 : at] == ["no", "one"]


def _relative_wish(words: list[str], wish: str) -> bool:
    """True when the first wish word follows a relative pronoun ("runners that need")."""
    first = wish.split()[0]
    at = words.index(first) if first in words else -1
    return at > 0 and any(w in _RELATIVE for w in words[:at])


# quantifiers that float after a plural subject: "builds all happen", "logs both go"
_FLOATING = frozenset("all both always usually never mostly".split())
# verbs after such a subject ("drops all inbound" is a verb and its object, no subject)
_PLURAL_VERBS = frozenset("happen get need stay end boot start break fail land share".split())
# participles without -ed that follow "gets": "gets set", "gets built", "gets put"
_IRREGULAR_PARTICIPLES = frozenset("set put built made done run kept sent shipped written".split())


def _past(word: str) -> bool:
    """True for an English past form ("standardised", "moved"), never an imperative."""
    return word.endswith("ed") and word not in IMPERATIVES and len(word) > 4 and inflected(word)


# verbs that ask for the image itself, and the words that name it
# (and the go-ahead itself: "kindly do the needful", "go ahead and do it", "please proceed")
_MAKING = frozenset(
    "give draft get build make produce create generate prepare write do proceed go try".split()
)
_THE_IMAGE = frozenset(
    "me us it one that this the a an equivalent same template image version thing draft "
    "please pls can could would you i we needful kindly ahead and so let's lets let then".split()
)


def _whole_image(words: list[str]) -> bool:
    """True for "give me the equivalent", "please draft it": the image, nothing in it."""
    rest = [w for w in words if w not in _LEAD]
    return bool(_MAKING & set(rest)) and all(w in _MAKING or w in _THE_IMAGE for w in rest)


def _fronted_purpose(words: list[str], wish: str, is_package: Callable[[str], bool] | None) -> bool:
    """True for "<thing> we need for <purpose>": the object before its subject, no package.

    "mosquitto we need for telemetry" still asks (a package is fronted).
    """
    last = wish.split()[-1]
    if last not in words:
        return False
    at = words.index(last)
    fronted = words[: at - 1]
    return (
        at >= 2
        and words[at - 1] in ("we", "i", "they")
        and words[at + 1 : at + 2] == ["for"]
        and not FIELD_NOUNS & set(fronted)
        and not (is_package is not None and any(is_package(w) for w in fronted))
    )


# an object that only likens: "something close to that behaviour", "anything similar"
_LIKENING = frozenset("something anything similar close closer like alike comparable".split())
_LIKENED = _LIKENING | frozenset(
    "to that this it the same behaviour behavior feel way as what we had before there "
    "setup one kind of sort roughly more or less".split()
)


def _vague_likeness(words: list[str], wish: str) -> bool:
    """True when a wish's object is an indefinite likeness and nothing else."""
    last = wish.split()[-1]
    if last not in words:
        return False
    after = [w.strip(".,!?") for w in words[words.index(last) + 1 :]]
    return bool(after) and after[0] in _LIKENING and all(w in _LIKENED for w in after)


_INFORMATION = frozenset(
    "list details detail overview info information summary answer breakdown report "
    "documentation docs explanation".split()
)


_PERIPHERALS = frozenset(
    "a an any or and nor keyboard keyboards mouse mice monitor monitors display displays "
    "touchscreen touchscreens attached connected local".split()
)


def _wish_for_information(words: list[str], wish: str) -> bool:
    """True when a wish's object is a piece of information: "wants the list", "needs details"."""
    last = wish.split()[-1]
    if last not in words:
        return False
    at = words.index(last) + 1
    after = [w.strip(".,!?") for w in words[at : at + 2]]
    if after and after[0] in ("the", "a", "an", "some", "more", "that", "this", "full"):
        after = after[1:]
    return bool(after) and after[0] in _INFORMATION


def _wish_to_do(words: list[str], wish: str) -> bool:
    """True when a wish's object is "to" and a verb that changes nothing in an image.

    Also for a pronoun and a purpose ("I need it for the change ticket"): what the thing
    named before is for.
    """
    last = wish.split()[-1]
    if last not in words:
        return False
    at = words.index(last)
    after = words[at + 1 : at + 3]
    # "need to be enrolled", "has to have X": a passive or possessive wish on the image
    if len(after) == 2 and after[0] in ("it", "this", "that", "them") and after[1] == "for":
        return True  # "I need it for the change ticket": what the answer is for
    return (
        len(after) == 2
        and after[0] == "to"
        and after[1] not in IMPERATIVES
        and after[1] not in ("be", "have", "get")
    )


def _singular_present(word: str) -> bool:
    """True for a present verb after a singular subject ("talks", "sits", "goes")."""
    stem = word.removesuffix("es") if word.endswith(("ches", "shes", "oes")) else word[:-1]
    return (
        word.endswith("s")
        and not word.endswith(("ss", "us", "is"))
        and stem not in IMPERATIVES | FIELD_NOUNS
        and (stem in _PRESENT_STATING or _english(stem))
        and len(stem) > 2
    )


def inflected(word: str) -> bool:
    """True for an English verb form ending in -s or -ed ("terminates", "flagged")."""
    stems = [word, word[:-1], word[:-2], word[:-3]]
    return any(len(stem) > 2 and _english(stem) for stem in stems)


def _english(word: str) -> bool:
    from oic_ai.tools.planner.lexicon import english_words, is_english

    return not english_words() or is_english(word, compounds=True)


def _plain(word: str) -> bool:
    """An English word, a name written with a capital ("Ingrid"), or small talk ("thx")."""
    lowered = word.lower()
    if re.search(r"[a-z0-9]-(?:style|like|ish|grade|class|ready|friendly|flavou?red)$", lowered):
        return True  # "vRAN-style", "NUC-class": a description made from a name
    return (
        word[0].isupper()
        or lowered in _LEAD
        or all(_english(part) for part in re.split(r"[-_']", lowered) if len(part) > 1)
    )


def is_bullet_line(text: str, position: int) -> bool:
    """True when the line holding ``position`` in ``text`` is a list item."""
    start = text.rfind("\n", 0, position) + 1
    return _BULLET.match(text[start:position]) is not None
