"""References to the conversation: "undo that", "the same for Debian", "like before but ...".

:func:`find_reference` reads one request and says whether it points back at the session:

- ``undo``: take back the last change ("undo", "revert my last edit", "go back one step",
  "roll that back", "take that back", "put it back how it was");
- ``same``: the current image again, for another target or with a change ("the same for
  Debian", "same thing but arm64", "and Ubuntu 26.04 too", "like before but with podman").

It also says which words of the request the reference accounts for (its ``spans``: the
reference words, plus every clause made only of them, target names and filler), so the
planner gets only the rest (:func:`remainder`) and never reports "the same for" as a
request it could not apply. ``classify`` routes on it; a planner may call
:func:`reference_spans` to account for the same words.

The words are data (``stores/data/conversation.yaml``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from oic_ai.stores.conversation_vocabulary import ConversationVocabulary, load_conversation
from oic_ai.tools.retrieval.query_classifier import TargetMention, detect_target_spans
from oic_ai.tools.retrieval.target_mentions import OLD_RELEASE_AFTER
from oic_ai.tools.undo_words import joined_aspects

ReferenceKind = Literal["undo", "same"]
Span = tuple[int, int]

_CLAUSE_END = re.compile(
    r"[.;!?]+(?:\s|$)|,|\s[-–—]\s|[()]|\s(?:and|then|plus)\s"
    # "we also have ...": "also" after a subject is inside its clause
    r"|(?<!\bwe)(?<!\bi)(?<!\bthey)(?<!\byou)(?<!\bit)(?<!\bhe)(?<!\bshe)\salso\s",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.;!?]+(?:\s|$)")
_WORD = re.compile(r"[\w'+.-]*\w")
_ALONE_AFTER = re.compile(
    r"\s*(?:$|[,;.!?)\-–—:]|(?:and|then|but|please|now|again|because|since|as|so|for)\b)"
)


@dataclass(frozen=True)
class Reference:
    """What a request refers back to.

    Attributes:
        kind: ``undo`` (take back the last change) or ``same`` (the current image again).
        marker: The reference words as written ("the same for", "go back one step").
        spans: Offsets of the words the reference accounts for, in order.
        targets: The targets the request names (``dist``, ``os``, ``arch``,
            ``image_type``), outside "from" phrases: where "the same" should go.
        target_spans: Offsets of those target names.
        back_only: True for "like before" ("same as last time"): it refers back without
            naming a target.
        marker_span: Offsets of the marker.
        topic: For an undo, what a clause right before it names as what is taken back
            ("and the loglevel, put it back how it was" gives "loglevel"); "" when none.
    """

    kind: ReferenceKind
    marker: str
    spans: tuple[Span, ...]
    targets: dict[str, str] = field(default_factory=dict)
    target_spans: tuple[Span, ...] = ()
    back_only: bool = False
    marker_span: Span = (0, 0)
    topic: str = ""

    def marker_words(self) -> tuple[Span, ...]:
        """The marker's offsets without the target names inside it.

        "the same [netboot] image": what a create turn leaves out, so the planner still
        reads the targets.
        """
        pieces, start = [], self.marker_span[0]
        for begin, end in sorted(self.target_spans):
            if start < begin < self.marker_span[1]:
                pieces.append((start, begin))
            if begin < self.marker_span[1]:
                start = max(start, end)
        if start < self.marker_span[1]:
            pieces.append((start, self.marker_span[1]))
        return tuple(pieces)


def _lowered(text: str) -> str:
    # lower-case without changing offsets (a few characters grow when lower-cased)
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _pieces(text: str, splitter: re.Pattern[str]) -> list[Span]:
    spans, start = [], 0
    for match in splitter.finditer(text):
        if match.start() > start:
            spans.append((start, match.start()))
        start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def _inside(span: Span, outer: Span) -> bool:
    return outer[0] <= span[0] and span[1] <= outer[1]


def _only_filler(
    text: str, clause: Span, taken: list[Span], vocabulary: ConversationVocabulary
) -> bool:
    """True when every word of ``clause`` outside ``taken`` is a filler word."""
    for match in _WORD.finditer(text, *clause):
        if any(s <= match.start() < e for s, e in taken):
            continue
        if match.group().lower().strip("'") not in vocabulary.filler:
            return False
    return True


def _with_old_release(text: str, mention: TargetMention) -> Span:
    """A dist's mention with the release it replaces said after it ("26.04 instead of 24")."""
    found = OLD_RELEASE_AFTER.match(text, mention.end) if mention.kind == "dist" else None
    return (mention.start, found.end() if found else mention.end)


def _mentions(text: str) -> list[TargetMention]:
    return [
        m
        for m in detect_target_spans(text)
        if m.kind in ("dist", "os", "arch", "image_type") and not m.source
    ]


def _undo_marker(work: str, vocabulary: ConversationVocabulary) -> Span | None:
    found: list[Span] = []
    for phrase in vocabulary.undo:
        for match in phrase.pattern.finditer(work):
            if vocabulary.undo_negated.search(work[max(0, match.start() - 40) : match.start()]):
                continue
            if phrase.alone and not _ALONE_AFTER.match(work, match.end()):
                continue
            if _BARE_TAKE_BACK.fullmatch(match.group()) and _said_before(work[: match.start()]):
                continue  # "and rviz2? no scratch that": the clause before, not a turn
            found.append(match.span())
    return min(found, key=lambda span: (span[0], -span[1])) if found else None


# a take-back with a bare pronoun: after a clause of the same message it takes that clause
# back (the planner drops it), not the turn before
_BARE_TAKE_BACK = re.compile(r"(?:scratch|forget|ignore)\s+(?:that|this|it)")
_LEAD_IN = re.compile(
    r"(?:\b(?:no|nah|nope|oh|wait|actually|hmm|ok|okay|sorry|ugh)\b|[\s,.;:!?-])*$"
)


def _said_before(before: str) -> bool:
    """True when words stand before a take-back's lead-in ("add x? no, wait, scratch that")."""
    return bool(re.search(r"\w", before[: _LEAD_IN.search(before).start()]))  # type: ignore[union-attr]


def _other_undo_phrases(work: str, marker: Span, vocabulary: ConversationVocabulary) -> list[Span]:
    """Undo phrases besides the first one ("cofnij te partycje, zostaw jak było"): the same undo."""
    found = []
    for phrase in vocabulary.undo:
        for match in phrase.pattern.finditer(work):
            if match.start() >= marker[1] and not (
                phrase.alone and not _ALONE_AFTER.match(work, match.end())
            ):
                found.append(match.span())
    return found


def _same_marker(
    text: str, work: str, mentions: list[TargetMention], vocabulary: ConversationVocabulary
) -> tuple[Span, bool, list[Span]] | None:
    """The first "same" phrase that refers back, and whether it is a back-only one.

    Also the other such phrases of the request ("the same image for ARM64 ... Please
    prepare same config for aarch64": both say the one thing).
    """
    sentences = _pieces(work, _SENTENCE_END)
    found: list[tuple[Span, bool]] = []
    for phrase in vocabulary.same:
        for match in phrase.finditer(work):
            span = match.span()
            if vocabulary.back_only.fullmatch(work, *span):
                found.append((span, True))
                continue
            sentence = next((s for s in sentences if _inside(span, s)), (0, len(work)))
            names_target = any(_inside(m.span, sentence) for m in mentions) or (
                # "Debian for the EU customer. Same spec.": a sentence of only the phrase
                # after one that names the target
                any(m.span[1] <= sentence[0] for m in mentions)
                and _only_filler(text, sentence, [span], vocabulary)
            )
            but = re.compile(r"\s*,?\s*but\s+\w").match(work, span[1]) is not None
            if names_target or but or work[span[0] : span[1]].rstrip().endswith("but"):
                found.append((span, False))
    for phrase in vocabulary.targeted:
        for match in phrase.finditer(work):
            span = match.span()
            sentence = next((s for s in sentences if _inside(span, s)), (0, len(work)))
            if any(_inside(m.span, sentence) and m.start >= span[0] for m in mentions):
                found.append((span, False))
    if found:
        first = min(found, key=lambda item: item[0][0])
        start, end = first[0]
        for (begin, stop), _ in sorted(found):
            if begin <= end and stop > end:
                end = stop  # overlapping phrases make one marker
        others = [span for span, _ in found if span[0] > end]
        return (start, end), first[1], others
    for clause in _pieces(work, _CLAUSE_END):
        also = vocabulary.also.search(work, *clause)
        inside = [m.span for m in mentions if _inside(m.span, clause)]
        if also and inside and _only_filler(text, clause, [*inside, also.span()], vocabulary):
            return also.span(), False, []
    return None


def _covered(
    text: str, marker: Span, extra: list[Span], vocabulary: ConversationVocabulary
) -> tuple[Span, ...]:
    """The marker plus every clause that holds only reference words, targets and filler."""
    spans = [marker]
    for clause in _pieces(text, _CLAUSE_END):
        inside = [s for s in [marker, *extra] if _inside(s, clause)]
        if inside and _only_filler(text, clause, inside, vocabulary):
            spans.append(clause)
    but = re.compile(r"\s*,?\s*but\b").match(text, marker[1])
    if but:
        spans.append((marker[1], but.end()))
    return tuple(sorted(set(spans)))


def _apposition(request: str, marker: Span) -> list[Span]:
    """The rest of the undo's sentence when it only names what is taken back.

    "undo that storage change, both the partitions and the disk size": a part after the
    marker that asks for nothing itself (no imperative, no wish) restates the undo.
    """
    from oic_ai.tools.planner.asking import read_clause

    end = _SENTENCE_END.search(request, marker[1])
    stop = end.start() if end else len(request)
    rest = request[marker[1] : stop]
    if not rest.strip(" ,;") or not re.match(r"\s*[,;:(\-–—]", rest):
        return []
    reading = read_clause(rest.strip(" ,;:(-–—"))
    if reading.why.startswith("imperative"):
        return []
    if reading.why.startswith("wish") and not _CHANGED_MIND.search(rest):
        return []  # "undo that, we need htop now" asks; "... need gcc after all" says why
    return [(marker[1], stop)]


# a need said as the reason an earlier change is taken back: "they need gcc after all"
_CHANGED_MIND = re.compile(r"\bafter\s+all\b|\bturns?\s+out\b", re.IGNORECASE)


_LEAD = re.compile(
    r"^(?:(?:ah|oh|hmm|ok|okay|and|also|as\s+for|e|y|und|i|et|ve|en|também|tambien|también)\b[\s,]*)+",
    re.IGNORECASE,
)


def _topic(
    request: str, marker: Span, vocabulary: ConversationVocabulary
) -> tuple[Span, str] | None:
    """The clause right before an undo that only names what it takes back, and its words.

    "ah, and the loglevel, put it back how it was": a clause of at most two words (after
    the conjunctions and articles) in the same sentence, ending where the undo starts.
    """
    sentence = (0, len(request))
    for piece in _pieces(request, _SENTENCE_END):
        if piece[0] <= marker[0] < piece[1]:
            sentence = piece
    clauses = [c for c in _pieces(request, _CLAUSE_END) if sentence[0] <= c[0] < c[1] <= marker[0]]
    if not clauses or request[clauses[-1][1] : marker[0]].strip() not in (",", ":", "-", "–", "—"):
        return None
    begin, end = clauses[-1]
    text = request[begin:end].strip()
    lead = _LEAD.match(text)
    text = text[lead.end() :] if lead else text
    words = _WORD.findall(text)
    if not lead and (not words or words[0].lower() not in vocabulary.object_filler):
        return None  # "add htop, then undo": a clause of its own, not what is taken back
    words = [
        w
        for w in words
        if w.lower() not in vocabulary.object_filler and w.lower() not in vocabulary.filler
    ]  # "hmm no, undo that": no topic
    if not words or len(words) > 2:
        return None
    return (begin, end), " ".join(words)


def find_reference(request: str) -> Reference | None:
    """The reference to the conversation in ``request``, or None.

    Args:
        request: The user's words this turn.

    Returns:
        An ``undo`` reference when the request takes back the last change, else a
        ``same`` reference when it asks for the current image again (for another target,
        or "like before but ..."), else None.
    """
    vocabulary = load_conversation()
    work = _lowered(request)
    mentions = _mentions(request)
    targets: dict[str, str] = {}
    for mention in sorted(mentions, key=lambda m: m.start):
        targets[mention.kind] = mention.value
    from oic_ai.tools.planner.rules.target import asked_over_described

    targets.update(asked_over_described(request, mentions))
    target_spans = tuple(sorted(m.span for m in mentions))
    undo = _undo_marker(work, vocabulary)
    if undo is not None:
        echoes = [m.span() for m in vocabulary.undo_echo.finditer(work)]
        echoes += _other_undo_phrases(work, undo, vocabulary)
        echoes += _apposition(request, undo)
        topic = _topic(request, undo, vocabulary)
        if topic is not None:
            echoes.append(topic[0])
        return Reference(
            kind="undo",
            marker=request[undo[0] : undo[1]],
            spans=tuple(sorted({*_covered(request, undo, [], vocabulary), *echoes})),
            targets=targets,
            target_spans=target_spans,
            marker_span=undo,
            topic=topic[1] if topic else "",
        )
    same = _same_marker(request, work, mentions, vocabulary)
    if same is None:
        return None
    marker, back_only, others = same
    return Reference(
        kind="same",
        marker=request[marker[0] : marker[1]],
        spans=tuple(sorted({*_covered(request, marker, list(target_spans), vocabulary), *others})),
        targets=targets,
        target_spans=target_spans,
        back_only=back_only,
        marker_span=marker,
    )


def target_clause_spans(request: str) -> tuple[Span, ...]:
    """The target names in ``request`` and every clause that only asks for them.

    "Can we have an installer ISO of this instead, so the techs can install from USB"
    gives the first clause: a turn that re-targets the current image handles it, and only
    the rest goes to the planner.
    """
    vocabulary = load_conversation()
    mentions = [_with_old_release(request, m) for m in _mentions(request)]
    spans = list(mentions)
    for clause in _pieces(request, _CLAUSE_END):
        inside = [s for s in mentions if _inside(s, clause)]
        if inside and _only_filler(request, clause, inside, vocabulary):
            spans.append(clause)
    return tuple(sorted(set(spans)))


@dataclass(frozen=True)
class BackTo:
    """A request for the session's earlier template with a named target ("back to debian").

    Attributes:
        target: The target named, as template fields (``dist``, ``os``, ``arch``,
            ``imageType``).
        marker: The words as written ("go back to debian").
        spans: Offsets the reference accounts for (the words and every clause made only
            of them and filler).
        packages: For "go back to docker" (a target empty): the packages an earlier
            template had for the words, which the current one lacks.
    """

    target: dict[str, str]
    marker: str
    spans: tuple[Span, ...]
    packages: tuple[str, ...] = ()


_FIELD = {"dist": "dist", "os": "os", "arch": "arch", "image_type": "imageType"}


def find_back_to(request: str) -> BackTo | None:
    """The earlier target ``request`` asks to go back to, or None.

    "go back to debian pls" names ``dist: debian13``; "no, back to the ISO" names
    ``imageType: iso``. A target counts only right after the words (an article between).
    """
    vocabulary = load_conversation()
    work = _lowered(request)
    mentions = sorted(_mentions(request), key=lambda m: m.start)
    for match in vocabulary.back_to.finditer(work):
        after = re.compile(r"[,;:]?\s+(?:the\s+|our\s+|my\s+)?").match(work, match.end())
        start = after.end() if after else match.end()
        named = [m for m in mentions if m.start == start]
        if not named:
            os = _os_word(work, start)  # "back to ubuntu" beside a dist named later
            if os is not None:
                return BackTo(
                    target={"os": os[0]},
                    marker=request[match.start() : os[1]],
                    spans=(
                        *_covered(request, (match.start(), os[1]), [], vocabulary),
                        *_said_of(request, mentions),
                        *_target_undone(request, work, mentions, vocabulary),
                    ),
                )
            continue
        mention = named[0]
        target = {_FIELD[mention.kind]: mention.value}
        # "back to the x86 ISO": a second target right after the first belongs too
        for other in mentions:
            if 0 <= other.start - mention.end <= 1 and other.kind != mention.kind:
                target[_FIELD[other.kind]] = other.value
                mention = other
        marker = (match.start(), mention.end)
        return BackTo(
            target=target,
            marker=request[marker[0] : marker[1]],
            spans=(
                *_covered(request, marker, [], vocabulary),
                *_said_of(request, mentions),
                *_target_undone(request, work, mentions, vocabulary),
            ),
        )
    return None


def _target_undone(
    request: str, work: str, mentions: list[TargetMention], vocabulary: ConversationVocabulary
) -> list[Span]:
    """An undo beside "back to the raw disk" that names only the target left ("undo the iso").

    It says the same thing as the "back to": the planner must not read its target as one
    to move to. An undo that names anything else ("undo the hostname") stays a request.
    """
    marker = _undo_marker(work, vocabulary)
    if marker is None:
        return []
    names = [
        m.span()
        for m in re.finditer(r"[\w.=/-]+", work[marker[0] : marker[1]])
        if m.group() in undo_names(request[marker[0] : marker[1]])
    ]
    targets = [m.span for m in mentions]
    inside = all(
        any(s <= marker[0] + b and marker[0] + e <= t for s, t in targets) for b, e in names
    )
    return [marker] if inside else []


@dataclass(frozen=True)
class BackToWords:
    """What "go back to docker" names after its verb when it names no target.

    Attributes:
        object: The words after "back to", up to the clause's end ("docker").
        marker: The whole phrase as written ("go back to docker").
        span: Offsets of the phrase.
    """

    object: str
    marker: str
    span: Span


_OPENS_CLAUSE = re.compile(
    r"(?:^|[,.;:!?(\n-]|\b(?:no|nah|nope|ok|okay|hmm|actually|then|so|and|please|pls|ugh|meh))"
    r"\s*$"
)
_OBJECT_END = re.compile(r"[,.;:!?()\n]|\s[-–—]\s|\s(?:and|then|but|because|since|so|as)\s")


def find_back_to_words(request: str) -> BackToWords | None:
    """The words a "go back to X" names when X is no target ("nah go back to docker").

    At most three words, and not a word of a change's kind ("back to the previous
    version" is an undo of its own): the caller matches them against what earlier
    templates had.
    """
    vocabulary = load_conversation()
    work = _lowered(request)
    mentions = _mentions(request)
    for match in vocabulary.back_to.finditer(work):
        if any(
            m.start >= match.end() and not work[match.end() : m.start].strip() for m in mentions
        ):
            continue
        if match.group().startswith("back") and not _OPENS_CLAUSE.search(work, 0, match.start()):
            continue  # "ship the logs back to the server": no verb of going back
        if re.match(r"nvm|never", match.group()):
            continue  # "never mind, I'll do it later": a change of mind names a target only
        stop = _OBJECT_END.search(work, match.end())
        end = stop.start() if stop else len(work)
        words = [
            w
            for w in _WORD.findall(work[match.end() : end])
            if w not in vocabulary.object_filler
            and w not in vocabulary.filler
            and w not in ("using", "having", "with")
        ]
        if not words or len(words) > 3 or any(w in _KIND_OF_CHANGE for w in words):
            continue
        return BackToWords(
            " ".join(words), request[match.start() : end].strip(), (match.start(), end)
        )
    return None


def _os_word(work: str, start: int) -> tuple[str, int] | None:
    """The os a bare word at ``start`` names ("ubuntu", "azurelinux") and where it ends."""
    from oic_ai.stores.targets import load_targets

    word = re.compile(r"[\w-]+").match(work, start)
    if word is None:
        return None
    targets = load_targets()
    os = targets.os_words.get(word.group()) or targets.os_for_spelling(word.group())
    return (os, word.end()) if os else None


def _said_of(request: str, mentions: list[TargetMention]) -> list[Span]:
    """Clauses that only say something about a target ("elxr not approved by security").

    Beside "go back to debian" such a statement explains why the other target is left;
    it asks for nothing, so the planner must not read its target as a new one.
    """
    from oic_ai.tools.planner.asking import read_clause

    found = []
    for clause in _pieces(request, _CLAUSE_END):
        if not any(_inside(m.span, clause) for m in mentions):
            continue
        if read_clause(request[clause[0] : clause[1]].strip()).asking == "context":
            found.append(clause)
    return found


@dataclass(frozen=True)
class Restore:
    """A request for something an earlier turn removed ("put back the ssh server").

    Attributes:
        object: What is asked back, as written ("the SSH server").
        span: Offsets of the whole phrase, the relative clause that points back included.
    """

    object: str
    span: Span


def find_restores(request: str) -> list[Restore]:
    """Every "put back X" / "bring X back" / "re-add X" in ``request``, in order."""
    vocabulary = load_conversation()
    work = _lowered(request)
    found: list[Restore] = []
    for match in vocabulary.restore_around.finditer(work):
        end = _removed_end(work, match.end(), vocabulary)
        found.append(
            Restore(request[match.start("object") : match.end("object")], (match.start(), end))
        )
    for match in vocabulary.restore_before.finditer(work):
        if any(r.span[0] <= match.start() < r.span[1] for r in found):
            continue
        stop = re.compile(r"[,.;:!?()]|\s(?:and|then|but|because|since|so)\s").search(
            work, match.end()
        )
        clause_end = stop.start() if stop else len(work)
        removed = vocabulary.restore_removed.search(work, match.end(), clause_end)
        object_end = removed.start() if removed else clause_end
        text = request[match.end() : object_end].strip()
        if text:
            end = removed.end() if removed else object_end
            found.append(Restore(text, (match.start(), end)))
    return sorted(found, key=lambda r: r.span)


def _removed_end(work: str, start: int, vocabulary: ConversationVocabulary) -> int:
    removed = vocabulary.restore_removed.match(
        work, start + (1 if work[start : start + 1] == " " else 0)
    )
    return removed.end() if removed else start


def keep_rest_spans(request: str) -> tuple[Span, ...]:
    """The offsets of words that say everything else stays ("keep everything else").

    They ask for no change of their own: every turn keeps what it does not change.
    """
    lowered = request.lower()
    return tuple(m.span() for m in load_conversation().keep_rest.finditer(lowered))


def reference_spans(request: str) -> tuple[Span, ...]:
    """The offsets of the words a reference to the conversation accounts for (may be empty).

    For a planner's clause accounting: these words are handled by the conversation route
    ("handled as a reference to the conversation"), not by an operation.
    """
    found = find_reference(request)
    return found.spans if found else ()


def remainder(request: str, spans: tuple[Span, ...] | list[Span]) -> str:
    """``request`` without ``spans``: what is left for the planner ("" when only filler is).

    Clauses left with only filler words ("OK.", "please") go too, and so does a
    conjunction the cut left at the front ("and add htop" -> "add htop").

    Args:
        request: The user's words.
        spans: Offsets to leave out (a reference's spans, and target names it handled).
    """
    vocabulary = load_conversation()
    kept, start = [], 0
    for begin, end in sorted(spans):
        if begin > start:
            kept.append(request[start:begin])
        start = max(start, end)
    kept.append(request[start:])
    # spaces collapse, line breaks stay: a pasted config ("%packages" ... "%end") is read
    # line by line after this
    text = re.sub(r"[^\S\n]+", " ", " ".join(kept))
    text = re.sub(r" ?\n[\s]*", "\n", text).strip()
    text = re.sub(r"[^\S\n]+([,;.!?)])", r"\1", text)
    pieces = []
    for begin, end in _pieces(text, _CLAUSE_END):
        words = [w.group().lower().strip("'") for w in _WORD.finditer(text, begin, end)]
        if words and not all(word in vocabulary.filler for word in words):
            pieces.append((begin, end))
    if not pieces:
        return ""
    end = pieces[-1][1]
    end += len(re.match(r"[.!?]*", text[end:]).group())  # type: ignore[union-attr]
    text = text[pieces[0][0] : end]
    text = re.sub(r"^\s*(?:and|then|also|plus)\s+", "", text, flags=re.IGNORECASE)
    return text.strip(" ,;-–—")


# the words of an undo marker that say "undo", not what is taken back
_UNDO_WORDS = frozenset(
    "undo revert take back roll put set turn go to the that this those these my it last scratch "
    "change changes edit edits step turn request requests one option options please switch "
    "bring on in again like as was how way before "
    # the verbs of throwing a change away and the counts of "the last two changes"
    "scrap ditch discard cancel bin nix nuke drop remove delete lose toss forget ignore throw "
    "away out get rid of step previous past latest recent two three four five couple "
    # "put the disk size back to what it was", "restore the old hostname", "reset the
    # loglevel to its previous value"
    "what used be reset restore return move old original earlier prior prev value values "
    "setting settings its".split()
)


_KIND_OF_CHANGE = frozenset(
    "change changes edit edits step steps turn request version before previous how way was "
    "thing things stuff bit bits business detour detours experiment experiments attempt "
    "attempts idea ideas move moves".split()
)


def undo_names(marker: str) -> list[str]:
    """What an undo marker names of a change: "undo the quiet" gives ``["quiet"]``.

    Empty for "undo", "revert my last edit", "take that back": the whole last turn. Words
    that name a kind of change ("edit", "change", "step") are no names: "undo the
    loglevel change" gives ``["loglevel"]`` (see :func:`describes_a_change`).
    """
    lowered = marker.lower().strip()
    vocabulary = load_conversation()
    if any(not p.names and p.pattern.fullmatch(lowered) for p in vocabulary.undo):
        return []
    words = re.findall(r"[\w.=/-]+", joined_aspects(lowered))
    return [
        w
        for w in words
        if re.search(r"[a-z0-9]", w)  # "the curl -> wget change": the arrow names nothing
        and w not in _UNDO_WORDS
        and w not in vocabulary.object_filler
        and w not in _KIND_OF_CHANGE
    ]


def describes_a_change(marker: str) -> bool:
    """True when an undo marker names a kind of change ("undo the network edit").

    Such words describe the last turn: when no change of the session has them ("that
    storage change" for a turn that set partitions), the undo takes back the last turn.
    """
    return bool(_KIND_OF_CHANGE & set(re.findall(r"[\w.=/-]+", marker.lower())))


_BEFORE = re.compile(r"\bbefore\b", re.IGNORECASE)


def before_target(marker: str) -> dict[str, str]:
    """The target an undo names after "before" as the change it goes back over, as fields.

    "go back to what we had before the arm thing" gives ``{"arch": "aarch64"}``: the
    template from before the turn that asked for arm64 is the one wanted. Empty when the
    marker names no target after "before" ("go back to before the partition change").
    """
    found = _BEFORE.search(marker)
    if found is None:
        return {}
    named: dict[str, str] = {}
    for mention in sorted(_mentions(marker[found.end() :]), key=lambda m: m.start):
        named[_FIELD[mention.kind]] = mention.value
    return named


def undo_aspects(marker: str) -> list[tuple[str, ...]]:
    """The aspects of a change an undo names, each as the template keys it touches.

    "undo the repo" and "go back to before the partition/disk change" name the repository
    keys, and the partition and disk keys; "cofnij te partycje" the partition keys too.
    Empty when the marker names no aspect ("undo", "undo the quiet").
    """
    aspects = load_conversation().aspects
    found: list[tuple[str, ...]] = []
    for word in re.findall(r"[\w=-]+", joined_aspects(marker.lower())):
        keys = aspects.get(word) or aspects.get(word.rstrip("s"))
        if keys and keys not in found:
            found.append(keys)
    return found


def touches(words: list[str], keys: tuple[str, ...]) -> bool:
    """True when a changed word (``field: word`` from :func:`changed_words`) is one of ``keys``.

    A key ending in ``=`` (``console=``) matches a word that starts with it; any other key
    matches the field of the changed line.
    """
    for word in words:
        name, _, value = word.partition(": ")
        for key in keys:
            if key.endswith("="):
                if value.startswith(key) or name.startswith(key):
                    return True
            elif name.rstrip(":") == key:
                return True
    return False


def changed_words(before: str, after: str) -> list[str]:
    """What differs between two template texts, word by word, each with its field.

    Each changed word comes as ``field: word`` (the key of its line, if the line has one),
    so "undo the quiet" finds ``cmdline: quiet`` and "undo the hostname" finds
    ``hostname: pier-4``. "undo the X" may take back the last turn only when every changed
    word names X.
    """
    import difflib
    from collections import Counter

    removed: Counter[str] = Counter()
    added: Counter[str] = Counter()
    for line in difflib.ndiff(before.splitlines(), after.splitlines()):
        if line[:2] not in ("- ", "+ "):
            continue
        tokens = [t.strip("\"'[],") for t in line[2:].split() if t != "-"]
        key = tokens[0] if tokens and tokens[0].endswith(":") else ""
        found = [f"{key} {t}".strip() for t in (tokens[1:] if key else tokens) if t]
        (removed if line.startswith("- ") else added).update(found or [key])
    return sorted(((removed - added) + (added - removed)).elements())
