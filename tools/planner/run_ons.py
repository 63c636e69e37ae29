"""Where shorthand left out the comma: a change, then what the user says about it.

People type "drop rsyslog journald forwarding is enough for us" or "add linuxptp the joints
sync over ptp on eth0" with no punctuation between the change and the sentence after it.
Read as one clause, the package's object runs on into the remark and nothing is applied.
A change verb followed by what it acts on (package names the planner knows, a user,
kernel option or mount point of the template, secure boot or immutability), then words that open a
sentence of their own (a subject such as "we", "people" or "the ...", or a finite verb such
as "is", "says", "covers" within the next few words), gets a comma at that boundary before
the rules read the request. Nothing else moves: a name the planner does not know, a word
that continues the object ("as", "to", "for", "too", "please", "and"), or a remainder
without a subject or verb ("add nginx web server") is left as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from oic_ai.tools.planner.words import NEGATED_NEED, TAKE_OUT

_VERB = re.compile(
    rf"(?<![\w-])(?:{TAKE_OUT}|add|install|include|take|undo|put\s+in|throw\s+in)(?![\w-])",
    re.IGNORECASE,
)
# where a clause starts: "parted out gdisk is enough" names its object first
_CLAUSE_START = re.compile(r"(?:^|[.;!?\n]|\b(?:and|also|oh|ok|okay)\b)\s*", re.IGNORECASE)
# what follows a named object to take it out ("parted out", "rsyslog gone")
_POSTFIX = frozenset("out gone".split())
_SETTING = re.compile(r"secure[\s-]?boot|immutab\w*", re.IGNORECASE)
_WORD = re.compile(
    rf"{_SETTING.pattern}|/[\w./-]*\w|[A-Za-z0-9](?:(?:[\w.+'=-]|,(?=\d))*[\w+])?"
    r"|[,;:.!?()\[\]\n\"`]",
    re.IGNORECASE,
)
# words that join the next name to the object
_LINKS = frozenset("and or & + nor plus".split())
# words that belong to the object (a particle, politeness, a count)
_PARTICLES = frozenset(
    """
    out off too also again entirely completely altogether please pls plz now first both
    either each package packages pkg pkgs tool tools user account login partition mount
    option parameter param arg argument repo repository thing things stuff bit bits setting
    settings entry entries line reservation gone
    """.split()
)
# where a change puts its object, after "to"/"into"/"on" ("to the kernel cmdline", "into
# the image"): the object goes on through it
_PLACES = frozenset(
    """
    kernel cmdline command line boot args arguments parameters params image template
    package packages list
    """.split()
)
# "add to it tcpdump ...": the place said before the object
_BEFORE_OBJECT = frozenset("it that this them".split())
# words that attach a phrase to the object ("as the web server", "to the image"), or that
# start a clause the splitter already sees ("so that ...", "because ..."): nothing to mark
_ATTACHING = frozenset(
    """
    in on to into onto from for with without as at via by if unless when while instead than
    then but so because since although though whereas of about over under across through
    after before until within per against between
    """.split()
)
# words that open a sentence of their own: a subject ...
_SUBJECTS = frozenset(
    """
    we we're we'll we've we'd i i'm i'll i've they they're they'll it it's its he he's she
    she's you you're people everyone everybody nobody someone somebody our their my his her
    this that these those there there's the all none
    """.split()
)
# ... or a verb with a tense (an object has none)
_FINITE = frozenset(
    """
    is isn't are aren't was wasn't were weren't be been has hasn't have haven't had does
    doesn't do don't did didn't will won't would wouldn't can can't could couldn't should
    shouldn't must may might says said say covers covered handles handle handled use uses
    used need needs needed want wants wanted run runs ran ships shipped turns turned keeps
    kept broke breaks bricked already never still just moved switched replaced
    """.split()
)
_ARTICLES = frozenset("the a an".split())
# a subject that is only a determiner needs more words after it ("add htop the package")
_DETERMINERS = frozenset("the this that these those all none".split())
_SUBJECT_WITHIN = 3
_VERB_WITHIN = 4


def mark_run_ons(text: str, is_object: Callable[[str], bool]) -> str:
    """``text`` with a comma where a change's object ends and a remark begins.

    Args:
        text: The request as read.
        is_object: Whether a word names something a change acts on: a package the
            planner knows, or a user, kernel option or mount point of the template.
    """
    cuts: list[int] = []
    for verb in _VERB.finditer(text):
        cut = _boundary(text, verb.end(), is_object)
        if cut is not None:
            cuts.append(cut)
    for start in _CLAUSE_START.finditer(text):
        cut = _boundary(text, start.end(), is_object, postfix=True)
        if cut is not None:
            cuts.append(cut)
    for cut in sorted(set(cuts), reverse=True):
        text = f"{text[:cut]},{text[cut:]}"
    return text


def _boundary(
    text: str, start: int, is_object: Callable[[str], bool], *, postfix: bool = False
) -> int | None:
    """Where the object after ``start`` ends and a remark begins, or None.

    With ``postfix``, ``start`` is a clause's start and its object must be followed by a
    word that takes it out ("parted out gdisk is enough").
    """
    words = list(_WORD.finditer(text, start))
    index = 0
    named = 0
    last_end = start
    linked = False
    taken_out = False
    while index < len(words):
        written = words[index].group()
        word = written.lower()
        if postfix and taken_out:
            break  # "parted out": the object ended there
        if (_SETTING.fullmatch(written) or is_object(written)) and word not in _SUBJECTS:
            named += 1
            linked = False
        elif named and word in _LINKS:
            linked = True
            index += 1
            continue
        elif (named and word in _PARTICLES) or (not named and word in _ARTICLES):
            taken_out = taken_out or word in _POSTFIX
        elif not postfix and (placed := _place(words, index, named)):
            index += placed
            last_end = words[index - 1].end()
            continue
        else:
            break
        last_end = words[index].end()
        index += 1
    if not named or linked or index >= len(words) or (postfix and not taken_out):
        return None
    rest: list[str] = []
    for found in words[index:]:
        if not found.group()[0].isalnum():
            break  # the writer's own punctuation: a boundary is already there
        rest.append(found.group().lower())
    if len(rest) < 2 or rest[0] in _ATTACHING:
        return None
    subject = [w for w in rest[:_SUBJECT_WITHIN] if w in _SUBJECTS]
    if (
        any(w not in _DETERMINERS for w in subject)
        or (subject and len(rest) > 2)
        or any(w in _FINITE for w in rest[:_VERB_WITHIN])
    ):
        return last_end
    return None


def _place(words: list[re.Match[str]], index: int, named: int) -> int:
    """How many words from ``index`` say where the object goes (0 for none).

    "to the kernel cmdline" after the object, "to it" before it ("add to it tcpdump").
    """
    said = [w.group().lower() for w in words[index : index + 5]]
    if not said or said[0] not in ("to", "into", "on", "onto", "in"):
        return 0
    if not named:
        return 2 if len(said) > 1 and said[1] in _BEFORE_OBJECT else 0
    taken = 1 + (len(said) > 1 and said[1] in _ARTICLES)
    places = 0
    while taken + places < len(said) and said[taken + places] in _PLACES:
        places += 1
    return taken + places if places else 0


# "we don't need the X": the need said away, before what it is about
_NOT_NEEDED = re.compile(
    rf"(?<![\w'-]){NEGATED_NEED}\s+(?:the\s+|that\s+|any\s+)?(?=\S)", re.IGNORECASE
)


def needs_as_removals(text: str, is_present: Callable[[str], bool]) -> str:
    """``text`` with "we don't need X" said as "remove X" when the template has X.

    "we don't need ffmpeg, gst is enough", "we don't need bob, he left", "we no longer
    want quiet" take out what the image has, as "drop X" does. Only for something the
    template has (a package, user, kernel option or mount point, secure boot or
    immutability): "we don't need docker" of an image without docker adds nothing and
    removes nothing, and keeps its own reading.
    """
    for found in reversed(list(_NOT_NEEDED.finditer(text))):
        following = _WORD.match(text, found.end())
        if following is None:
            continue
        written = following.group()
        if _SETTING.fullmatch(written) or is_present(written):
            text = f"{text[: found.start()]}remove {text[found.end() :]}"
    return text
