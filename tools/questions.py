"""Questions about the template inside a request: "packages?", "who has sudo?".

A request is read sentence by sentence (and clause by clause inside a sentence). A part
is a question when it ends with a question mark and opens with a question word ("what",
"which", "who", "does", "is" ...), or names only what a template holds ("packages?",
"hostname?"), or asks to be told ("please confirm which release", "remind me of the
hostname", "can you tell me ..."). "Can you add htop?" asks for a change, not a question.

A request whose other parts ask for nothing (small talk, "before you change anything",
"don't change anything", :mod:`oic_ai.tools.planner.asking`) is a question: the template
stays as it is and the answer names what was asked about. A request that also asks for a
change is a change; its questions are answered after the change (:func:`questions_of`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oic_ai.tools.planner.asking import (
    FIELD_NOUNS,
    IMPERATIVES,
    REPORTING,
    read_clause,
    words_of,
)
from oic_ai.tools.planner.lexicon import is_english
from oic_ai.tools.proposals import ADVICE

# a sentence ends at . ! ? or a line end; a dot right before a letter or digit is inside a
# word ("26.04", "example.com", "ks.cfg"), not an end
_SENTENCE = re.compile(r"(?:[^.!?\n]|\.(?=\w))+(?:[.!?]+|\n|$)")
# ("we also have ...": "also" after a subject is inside the statement, not a new part)
_PART = re.compile(
    r",\s+|;\s+|:\s+|\s+[—–-]\s+|\s+(?:and|but)\s+(?=\w)"
    r"|(?<!\bwe)(?<!\bi)(?<!\bthey)(?<!\byou)(?<!\bit)(?<!\bhe)(?<!\bshe)\s+also\s+(?=\w)",
    re.IGNORECASE,
)
_CONNECTOR = re.compile(r"^(?:(?:and|but|also|so|then)\s+)+", re.IGNORECASE)
_LEAD = frozenset(
    (
        "and also so but ok okay oh hmm well right fine great thanks thank thx cool sure yes "
        "yeah now then just quick quickly one more real really again btw please pls kindly "
        # spoken openers: "wait does it matter ...?", "hm is the disk big enough?"
        "wait hm hmm um uh erm ah hey actually sorry anyway "
        # hedges before the question word: "roughly how big will it be?"
        "roughly approximately approx around ballpark curious incidentally honestly"
    ).split()
)
_QUESTION_WORDS = frozenset(
    "what what's whats which who who's whom whose how why where when".split()
)
# a question word fused with "is", which opens only questions, with or without the mark
_ASKING_CONTRACTIONS = frozenset("what's whats who's whos where's wheres how's hows".split())
# an auxiliary that opens a yes/no question ("does it have sudo?", "is there an SSH server?")
_AUXILIARIES = frozenset("does do is are was were has have did isn't doesn't aren't".split())
# verbs that ask to be told ("confirm which release", "remind me of the hostname")
TELL_VERBS = frozenset(
    "confirm tell remind show list summarise summarize describe explain check recap paste "
    "dump".split()
)
_MODALS = frozenset("can could would will".split())
# a modal that asks for advice with its subject: "should it be on?", "shall we keep it?"
_ADVICE = frozenset("should shall".split())
_SUBJECTS = frozenset("it we i this that they these those there".split())
# a statement said as a question (second-language or spoken word order): "disk is 4096 MiB
# now?", "it is ok or too small?": a subject, then a form of "be"
_COPULAS = frozenset("is are was were looks seems".split())
# a question reported from someone else, with or without its mark: "the prof asked which
# partitions ...", "our lead wants to know whether ...", "I wonder how large ..."
_REPORTED = re.compile(
    r"\b(?:asked|asks|asking|wonders?|wondered|wondering|(?:wants?|wanted|would\s+like|'d\s+like"
    r"|like|needs?)\s+to\s+know|curious)\b[^.?!]*?\b(?:which|what|whether|how|who|where|when"
    r"|why)\b",
    re.IGNORECASE,
)
# "asked whether the image can auto-lock the screen": a wish asked as a feasibility; the
# planner reads it, and reports what no template holds
_FEASIBLE = re.compile(r"(?<=whether)\s+(?:[\w']+\s+){0,3}?(?:can|could)\b", re.IGNORECASE)
# a request that says outright it changes nothing: every question in it is only asked
_HOLD = re.compile(
    r"\b(?:no\s+changes?(?:\s+(?:please|pls|yet|for\s+now))?\s*(?:[:,;.!—–-]|$)"
    r"|(?:do\s*n[o']?t|please\s+don'?t)\s+change\s+anything|change\s+nothing"
    r"|(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:just|only)\s+asking)"
    # "don't change anything if not": a condition, not a hold
    r"(?!\s*(?:if|unless)\b)",
    re.IGNORECASE,
)
# a request that says it is a question: "quick question before we go on: could ...?",
# "just curious, would ...?"; a polite request in it still asks ("quick q: can you add X?")
_DECLARED = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|oh|hm+|and|also|one|just|a)\W+)*(?:quick|small|short|side)\s+"
    r"(?:q|question)\b(?!\s+(?:for|to)\b)|\bout\s+of\s+curiosity"
    r"|\b(?:just|only|merely)\s+(?:curious|wondering)|\b(?:i'?m|i\s+am)\s+(?:just\s+)?curious",
    re.IGNORECASE,
)
# "I need it for the ticket", "we want that for the audit": the object points back to
# the answer; it asks for no change
_POINTED_OBJECT = re.compile(
    r"^(?:i|we)\s+(?:\w+\s+)?(?:need|want|use|require)s?\s+(?:it|that|this|them|those)\b",
    re.IGNORECASE,
)
# words that say nothing should change ("don't change anything", "leave it as it is")
_NO_CHANGE = re.compile(
    r"\b(?:(?:do\s*n[o']?t|never|without)\s+(?:change|touch|modify|edit|add|remove|switch)"
    r"|before\s+(?:you\s+|we\s+)?(?:chang|go|do|touch|mak)\w*"
    r"|no\s+changes?|leave\s+it\s+(?:as\s+it\s+is|alone)|just\s+(?:tell|answer|confirm)"
    r"|a\s+question"
    # a hypothetical ("just asking", "only curious", "we're not switching")
    r"|(?:just|only|merely)\s+(?:asking|curious|wondering)|(?:i'?m|i\s+am)\s+curious"
    r"|(?:not|n't)\s+(?:\w+\s+)?(?:switching|moving|changing)"
    # staying put ("keep Ubuntu for now", "stay on x86 for the moment")
    r"|(?:keep|stay\s+on|stick\s+with)\s+[^,;.?!]*\bfor\s+(?:now|the\s+moment))\b",
    re.IGNORECASE,
)
# the same in other languages (de, es, pt, fr, it, pl, tr, nl): "nur erklären, bitte nichts
# ändern", "solo pregunto", "só pergunta", "tylko pytam", "sadece soru"
_NO_CHANGE_ELSEWHERE = re.compile(
    r"(?<!\w)(?:nur\s+(?:eine\s+)?(?:frage|erklären|erklaeren|neugierig)|nichts\s+ändern"
    r"|(?:solo|sólo|só|so|apenas)\s+(?:pregunt\w*|pergunt\w*|curiosidad|curiosidade|una\s+pregunta"
    r"|uma\s+pergunta|una\s+domanda|chiedo|per\s+curiosità)"
    r"|no\s+(?:cambies|cambiar)\s+nada|não\s+(?:mude|mudar|altere)\s+nada"
    r"|juste\s+(?:une\s+question|pour\s+savoir)|ne\s+change\s+rien"
    r"|tylko\s+pyta\w*|nic\s+nie\s+zmieniaj|(?:sadece|yalnızca)\s+(?:soru\w*|merak\w*)"
    r"|hiçbir\s+şey\s+değiştirme|alleen\s+(?:een\s+)?vraag|niets\s+veranderen)(?!\w)",
    re.IGNORECASE,
)
# the subject and verb of a modal question about what the template will do: "will this
# boot on arm?", "would it fit on 8 GB?", "can it run headless?"
_ABOUT_IT = frozenset("this it that these those".split())
_WHAT_IT_DOES = frozenset("boot run work fit start handle cope".split())
# what a question asks of something it names, as its last word: "will the layout change?"
_WHETHER_IT_CHANGES = frozenset("change changes differ stay same remain grow shrink matter".split())
# what a comparison asks after "would X be": "better", "smaller", "a better fit"
_COMPARATIVES = frozenset(
    "better worse smaller bigger larger faster slower lighter heavier simpler easier safer "
    "preferable".split()
)
# words that make a modal question about something other than the template: "would a
# smaller base be ...?", "can one template give ...?" (not "can you ...", "can it ...")
_GENERIC_SUBJECT = frozenset("one a an any each every single".split())
# nouns a question may consist of alone: "packages?", "hostname and disk?"
_TOPIC_NOUNS = FIELD_NOUNS | frozenset(
    "release target distro distribution version kernel layout storage software name image "
    # the chat shorthand for them: "pkg list rn?", "pkgs?"
    "pkg pkgs".split()
)
# words beside those nouns that ask nothing more: "pkg list rn?", "users atm?", "the
# current packages?", "full cmdline now?"
_TOPIC_FILLERS = frozenset(
    "and or the a its any now rn atm currently current so far right list lists full whole "
    "complete again here of".split()
)


@dataclass(frozen=True)
class Questions:
    """What a request asks about the template.

    Attributes:
        questions: The question parts, as written.
        changes: True when some other part asks for a change.
    """

    questions: tuple[str, ...]
    changes: bool

    @property
    def only_questions(self) -> bool:
        """True when the request asks only questions (the template stays as it is)."""
        return bool(self.questions) and not self.changes


def _head(words: list[str]) -> list[str]:
    index = 0
    while index < len(words) - 1 and words[index] in _LEAD:
        index += 1
    return words[index:]


def is_question_part(text: str, *, asked: bool) -> bool:
    """True when the part ``text`` asks about the template.

    Args:
        text: One clause of a request.
        asked: True when its sentence ends with a question mark.
    """
    words = _head(words_of(text))
    if not words:
        return False
    first = words[0]
    if first in _MODALS and len(words) > 2 and words[1] in ("you", "u"):
        # "can you confirm ...?" asks to be told; "can you add htop?" asks for a change
        rest = [w for w in words[2:] if w not in ("please", "pls", "just", "also", "quickly")]
        return bool(rest) and rest[0] in TELL_VERBS
    if first in TELL_VERBS or (first == "let" and "know" in words[:4]):
        return True  # "please confirm which release", "let me know the hostname"
    if first in _ASKING_CONTRACTIONS:
        return True  # "whats the hostname set to rn": a question without its mark
    inverted = _AUXILIARIES | _MODALS
    if first in ("what", "how", "why") and len(words) > 2 and words[1] in inverted:
        return True  # "what did i ask for again": a question word, then the inverted verb
    if (
        first in ("what", "which", "how")
        and len(words) > 3
        and words[2] in inverted
        and words[1] not in _SUBJECTS | {"you", "u"}
    ):
        # "which packages did i ask for", "how big is the disk" ("what I do need is a
        # user" states what is needed)
        return True
    reported = _REPORTED.search(text)
    if reported and not _FEASIBLE.match(text, reported.end()):
        return True  # "Prof. Lee asked which partitions the image will have"
    if not asked:
        return False
    if ADVICE.search(text):
        return True  # "would chrony make sense here?", "is it worth adding htop?"
    if first in _ADVICE and len(words) > 2 and words[1] in _SUBJECTS:
        return True  # "should it be on for us?"
    subject = words[1:] if first == "the" else words
    if (
        len(subject) > 2
        and subject[1] in _COPULAS
        and (subject[0] in _SUBJECTS or subject[0].rstrip("s") in _TOPIC_NOUNS)
    ):
        return True  # "disk is 4096 MiB now?", "it is ok for this or too small?"
    if first in _QUESTION_WORDS or first in _AUXILIARIES:
        return True
    if first == "whether" and len(words) > 2:
        return True  # "Whether rt kernel is available for ubuntu?": an indirect question asked
    if first in ("there's", "theres") or (
        first == "there" and len(words) > 1 and words[1] in _COPULAS
    ):
        return True  # "there's really no way to get it in?": asked by its mark

    if first not in IMPERATIVES and any(w in _QUESTION_WORDS for w in words[-3:]):
        return True  # "the cmdline looks like what now?": the question word kept in place
    if first in _MODALS and len(words) > 2 and _about_another_subject(text, words[1]):
        return True  # "would Debian be smaller?", "can one template give both?"
    if (
        first in _MODALS
        and words[1] not in ("you", "u", "we", "i")
        and "be" in words[2:6]
        and (_COMPARATIVES & set(words) or "than" in words)
    ):
        return True  # "would the initrd image type be better than the ISO?": a comparison
    if first == "for" and (
        at := next((i for i in range(2, min(len(words), 8)) if words[i] in inverted), 0)
    ):
        # "for PXE netbooting would the initrd be better?": who the question is for, first
        return is_question_part(" ".join(words[at:]), asked=True)
    if first == "will" and len(words) > 3 and words[1] not in ("you", "u") and "be" in words[2:4]:
        return True  # "will those be enabled in the image?", "will chrony be running?"
    if first in ("will", "would") and len(words) > 2 and words[-1] in _WHETHER_IT_CHANGES:
        # "will the disk layout change?", "would the partitions stay the same?": what a
        # change does to the template, asked by its mark ("will you change it?" asks)
        return words[1] not in ("you", "u", "we", "i")
    if first in _MODALS and len(words) > 2 and words[1] in _ABOUT_IT:
        return words[2] in _WHAT_IT_DOES  # "will this boot on arm?" ("can it have X?" asks)
    if first not in IMPERATIVES and any(w in ("support", "supports") for w in words[1:4]):
        return True  # "azl3 support arm?", "does it support UEFI?"
    # "packages?", "hostname and disk size?": only nouns of what a template holds
    return _only_topics(text)


def _only_topics(text: str) -> bool:
    """True when ``text`` is only nouns of what a template holds ("the hostname")."""
    nouns = [w for w in _head(words_of(text)) if w not in _TOPIC_FILLERS]
    return 0 < len(nouns) <= 4 and all(
        w.rstrip("s") in _TOPIC_NOUNS or w in _TOPIC_NOUNS for w in nouns
    )


def _about_another_subject(text: str, subject: str) -> bool:
    """True when a modal's subject is a target or a generic one, not you or the template."""
    if subject in _GENERIC_SUBJECT:
        return True
    from oic_ai.tools.retrieval.query_classifier import detect_target_spans

    start = text.lower().find(subject)
    return any(
        m.start == start and m.kind in ("dist", "os", "family") for m in detect_target_spans(text)
    )


def questions_of(request: str) -> Questions:
    """The question parts of ``request`` and whether it also asks for a change.

    A request in another language in which no question is found as written is read again
    through its language's table ("¿tiene openssh-server?" as "¿has openssh-server?").
    """
    from oic_ai.tools.planner.languages import detect, translate

    found = _questions_of(request)
    if not found.questions and detect(request):
        translated = _questions_of(translate(request))
        if translated.questions:
            return translated
    return found


def _questions_of(request: str) -> Questions:
    """:func:`questions_of` for ``request`` as written."""
    questions: list[str] = []
    changes = False
    # "...? just asking": every question-marked sentence of the request is a question,
    # whatever language it opens in
    hold = _NO_CHANGE_ELSEWHERE.search(request) is not None
    said_so = _HOLD.search(request) is not None  # "no changes please", "I'm just asking"
    declared = _DECLARED.search(request) is not None  # "quick question: ...?"
    hold = hold or said_so
    relayed = False  # a sentence of what someone else says is needed
    for match in _SENTENCE.finditer(request):
        sentence = match.group().strip()
        if not sentence:
            continue
        asked = sentence.endswith("?")
        body = sentence.rstrip("?.! \n")
        parts = [p.strip() for p in _PART.split(body) if p and p.strip()]
        found = [p for p in parts if is_question_part(p, asked=asked)]
        if asked and found and _answered_at_once(request, match.end(), body):
            found = []  # "disk: 1.5TB? no, that's the NAS": a value the user takes back
        elif asked and (hold or (declared and not any(polite_request(p) for p in parts))):
            # ("quick question: can you add htop?" still asks for htop)
            found = found or parts[:1]
        if found:
            at = parts.index(found[0])
            # ("list the users and the hostname": a part of only what a template holds is
            # more of what the question asks about)
            after = [p for p in parts[at + 1 :] if not _only_topics(p)]
            asking = [p for p in after if _asks_change(p)] if not asked else []
            begin = body.find(found[0])
            # "show the config and add htop": an unmarked question ends where a request
            # starts (the request is planned, the question answered)
            end = body.find(asking[0], begin + len(found[0])) if asking else len(body)
            question = _CONNECTOR.sub("", body[begin:end].rstrip())
            questions.append(re.sub(r"(?:[\s,;]+(?:and|but|then|also))+$|[\s,;]+$", "", question))
            # what comes before the question in its sentence may ask for a change ("add
            # htop, and which users are there?"); what comes after is the question's own
            # ("what are the hostname and the disk size?")
            if asking:
                changes = True  # "why does it have vim, remove it": no mark, then a request
            before = parts[:at]
            # "if I don't set a shell for a user, what do they get?": the condition the
            # question asks under
            before = [p for p in before if not _CONDITION.match(p)]
            if _points_back(found[0]):
                # "the arch=amd64 bit in the docker line, does that matter ...?": what comes
                # before is the topic "that" points to, unless it asks in its own right
                before = [p for p in before if _opens_with_a_request(p)]
            changes = changes or any(_asks_change(p, weak=False) for p in before)
            continue
        if not questions and relays_a_need(body):
            relayed = True
            continue
        if declared and "?" in request[match.end() :]:
            # "Quick question: their docs dearmor the key and use signed-by, but you put
            # the URL in. Is that equivalent?": what leads up to a declared question asks
            # only when it opens with an imperative or a wish
            said = [p for p in parts if not _DECLARED.match(p) or len(p.split()) > 3]
            changes = changes or bool(said and _opens_with_a_request(said[0]))
            continue
        changes = changes or any(_asks_change(p) for p in parts)
    if relayed and not questions:
        changes = True  # "IT says the user has to be in dialout.": relayed, and no question
    if said_so and questions:
        changes = False  # "Quick question, no changes please: ... Can the tool do that?"
    return Questions(tuple(questions), changes)


# the user's own answer right after a question mark: "1.5TB? no, ...", "gw1? wait, ..."
_SELF_ANSWER = re.compile(
    r"\s*(?:(?:hmm+|hm+|oh|ah|uh+|um+)\s*,?\s*)?(?:no|nope|nah|wait|actually|scratch\s+that)\b",
    re.IGNORECASE,
)


# a value: a number or a size ("1.5TB"), or a name with a digit, dot or hyphen ("gw-01")
_A_VALUE = re.compile(r"\d|\w[-./]\w")


def _answered_at_once(request: str, end: int, part: str) -> bool:
    """True when a question-marked value is answered by the user right after it.

    "disk: 1.5TB? no, that's the NAS. the hub has 32 GB", "hostname gw1? wait, gw-01": a
    value said with a question mark and taken back at once asks nothing of the template.
    A question with a question word ("what is the disk size? no wait ...") stays one.
    """
    words = _head(words_of(part))
    if not words or words[0] in _QUESTION_WORDS | _AUXILIARIES | _MODALS | TELL_VERBS:
        return False
    if not _A_VALUE.search(part):
        return False  # "packages? no, I mean the users": a question said again
    return _SELF_ANSWER.match(request, end) is not None


def polite_request(part: str) -> bool:
    """True for "can you add htop", "could you please make the disk 8GiB": a change."""
    words = _head(words_of(part))
    if len(words) < 3 or words[0] not in _MODALS or words[1] not in ("you", "u"):
        return False
    rest = [w for w in words[2:] if w not in ("please", "pls", "just", "also", "quickly")]
    return bool(rest) and rest[0] in IMPERATIVES and rest[0] not in TELL_VERBS


def relays_a_need(sentence: str) -> bool:
    """True for a sentence that reports what someone else says is needed.

    "A colleague says the robot's user has to be in 'dialout'": followed by a question
    about it ("What does that group do?"), the question is what the user asks; the
    relayed need is its background, not a change.
    """
    words = _head(words_of(sentence))
    if _SO_DO.search(sentence):
        return False  # "my teacher said 25GB so put 25GB": the user's own request follows
    return (
        len(words) > 2
        and words[0] not in IMPERATIVES
        # "let's say 6 GB": the user's own proposal, nobody else's report
        and words[0] not in ("let's", "lets", "let")
        and any(w in REPORTING for w in words[1:3])
        and read_clause(sentence).why.startswith("wish")
    )


# what the user asks because of what was relayed: "... said 25GB, so put 25GB"
_SO_DO = re.compile(
    r"\bso\s+(?:(?:please|pls|just|then|yeah)\s+)*(?:"
    + "|".join(sorted(IMPERATIVES - {"do", "go", "run", "say"}))
    + r")\b(?!\s+(?:that|it\s+(?:can|will|works)))",
    re.IGNORECASE,
)
_CONDITION = re.compile(r"\s*(?:(?:and|but|so)\s+)?(?:if|when|unless|in\s+case|suppose)\b", re.I)
# "keep the x86 one", "keep this version", "keep the current image": the template as it is
_KEEPS_ONE = re.compile(
    r"(?:keep|leave|retain)\s+(?:the|this|that|our|my)\s+(?:[\w.-]+\s+){0,2}?"
    r"(?:one|version|image|build|template)(?:\s+(?:then|as\s+is|for\s+now|please|pls))*$"
)


def _points_back(question: str) -> bool:
    """True for a question whose subject points back: "does that matter", "is it enough"."""
    words = _head(words_of(question))
    return (
        len(words) > 2
        and words[0] in _AUXILIARIES | _MODALS | _ADVICE
        and words[1] in _ABOUT_IT | {"they"}
    )


def _opens_with_a_request(part: str) -> bool:
    """True when ``part`` is an imperative or a wish ("add htop", "I want qcow2")."""
    part = _CONNECTOR.sub("", part)
    return _asks_change(part) and read_clause(part).why.startswith(("imperative", "wish", "keeps"))


# the head of a noun phrase that names a topic, not a change: "the ssh key bit"
_TOPIC_HEADS = frozenset("bit part thing stuff piece side issue question point business".split())


def _asks_change(part: str, *, weak: bool = True) -> bool:
    """True when ``part`` asks for a change ("keep it raw" counts; small talk does not).

    With ``weak`` False, a part that asks only because it names a field or holds a word
    nobody knows does not: before a question in its sentence it is the question's topic
    ("apart from the arch, what's different ...?", "em không hiểu lắm: what is ...?").
    """
    if _NO_CHANGE.search(part) or _NO_CHANGE_ELSEWHERE.search(part):
        return False
    if _POINTED_OBJECT.match(part.strip()):
        return False  # "I need it for the change ticket"
    words = _head(words_of(part))
    if words and words[0] in ("don't", "dont", "do") and any(w in IMPERATIVES for w in words[1:3]):
        return False  # "don't add one if not": a change not asked for
    if words and words[0] in ("keep", "leave", "retain"):
        # "ok, keep it raw. what packages are in it?": settles the template; "keep the x86
        # one" (after a refused variant) keeps the template as it is
        return _KEEPS_ONE.match(" ".join(words)) is None
    so_do = _SO_DO.search(part)
    if so_do is not None and read_clause(part[so_do.start() + 2 :]).asking == "asks":
        return True  # "my teacher said 25GB so put 25GB": what was said, then the request
    reading = read_clause(part)
    if not weak and reading.why.startswith("unknown word "):
        return False
    if not weak and reading.why.startswith("field ") and all(map(is_english, words)):
        return False  # "apart from the arch" ("hostname gw1" names a value: it asks)
    if not weak and words and words[0] in ("the", "that", "this") and words[-1] in _TOPIC_HEADS:
        return False  # "the ssh key bit, there's really no way to get it in?": its topic
    return reading.asking == "asks"
