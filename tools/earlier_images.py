"""Several images in one conversation, and a turn that points back at one of them.

People build more than one image in a session (one per customer, per tier, per variant)
and then point back at one: "go back to the second one", "back to the clinic one",
"back to the first customer, the EMT one", "back to Acme's image, give it hostname
acme-web-01", "and Brightwater's hostname is bw-web", "customer one needs borgbackup too".

The session records every template a turn kept, with the image it belongs to (``images``
in the graph's state, written by ``respond``): a turn that opens a new image ("now one for
the other client, Brightwater: ...", "another customer wants exactly this but on ubuntu",
"customer two: ...", "Second variant adds ...", "Third: ...") starts the next number;
every other turn continues the image it changed. :func:`pointed_image` reads which earlier
image a request points at:

- by its ordinal ("the second one", "customer one", "client #2", "the first customer");
- by the name or role it was made for, said in its own turns ("Acme's image", "the
  clinic one", "the web tier");
- by its target ("the EMT one", "the ubuntu image").

A pointer that matches no image, or more than one, is reported and nothing is guessed.
A pointer at the image the session is on already is no switch (the turn is an ordinary
change). A pointer without "back to" needs a word that only names images ("customer one",
"the second image", "Acme's"), so "the second one" about a partition stays a partition.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oic_ai.tools.asked_targets import asked_targets
from oic_ai.tools.target_support import target_matches, target_of

Span = tuple[int, int]

_NUMBERS = {
    "first": 1, "1st": 1, "one": 1, "1": 1,
    "second": 2, "2nd": 2, "two": 2, "2": 2,
    "third": 3, "3rd": 3, "three": 3, "3": 3,
    "fourth": 4, "4th": 4, "four": 4, "4": 4,
    "fifth": 5, "5th": 5, "five": 5, "5": 5,
}  # fmt: skip
_ORDINAL = r"first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th"
_CARDINAL = r"one|two|three|four|five|[1-5]"
# what an image is called when people count or name them
_HEAD = r"(?:one|image|img|variant|customer|client|build|template|version|tier|box|vm)"
# only images: a word that never names a partition, a user or a package
_IMAGE_HEAD = r"(?:image|img|variant|customer|client|build|template|tier)"

# "customer one", "client #2", "customer 2": a customer or client by number
_BY_NUMBER = re.compile(
    rf"\b(?:customer|client)\s*(?:#|no\.?\s*|number\s+)?\s*(?P<n>{_CARDINAL})\b(?!\s*(?:gb|gib|g\b|%))",
    re.IGNORECASE,
)
# "the first customer", "the second image", "the 2nd variant"
_BY_ORDINAL = re.compile(rf"\b(?:the\s+)?(?P<n>{_ORDINAL})\s+(?:{_IMAGE_HEAD})s?\b", re.IGNORECASE)
# "go back to X", "back to X", "return to X", "switch back to X"
_BACK = re.compile(
    r"\b(?:(?:go|get|switch|jump|come|head|going|switching)\s+)?back\s+to\s+|\breturn\s+to\s+",
    re.IGNORECASE,
)
# the end of what "back to" names: a clause's end (an appositive "the EMT one" joins it)
_DESC_END = re.compile(
    r"[.;!?:\n()]|,(?!\s*the\s+[\w.#-]+(?:\s+[\w.#-]+)?\s+one\b)|\s[-–—]\s"
    r"|\s(?:and|then|plus|but|so|because|since|with|to)\s",
    re.IGNORECASE,
)
# "Acme's image", "Brightwater's hostname": a name's possessive
_POSSESSIVE = re.compile(r"\b(?P<name>[A-Z][\w-]*[a-z][\w-]*)['’]s\b")
# "for the clinic one", "on the ubuntu image", "to the web tier": an image by a word of it
_THE_X_ONE = re.compile(
    rf"\b(?:for|on|to|in|from|of)\s+the\s+(?P<desc>[\w.#-]+(?:\s+[\w.#-]+)?)\s+{_HEAD}\b",
    re.IGNORECASE,
)
# words of a description that name nothing of an image
_STOP = frozenset(
    "the a an one ones image images img variant variants customer customers client clients "
    "build builds template version tier box vm for our my their its his her of to that this "
    "same new old other root boot efi data home var swap user users partition disk kernel "
    "back".split()
)
# an image opened for someone else: "another customer", "the next client", "now one for"
_OPENS = re.compile(
    rf"\b(?:another|next|new|other|different)\s+(?:{_IMAGE_HEAD}|one\s+for)\b"
    r"|\bnow\s+one\s+for\b|\bone\s+(?:more\s+)?for\s+the\s+other\b",
    re.IGNORECASE,
)
# "Third: ...", "Second variant adds ...": a count at the request's start
_COUNT_OPENS = re.compile(
    rf"^\W*(?:(?:and|now|ok|okay|so|then)\W+)?(?:the\s+)?(?P<n>{_ORDINAL})\b"
    rf"(?:\s*:|\s+(?:{_HEAD})\b)",
    re.IGNORECASE,
)
# what an image was made instead of ("instead of the web tier a DB tier") or from ("next,
# Zenith: like Acme but ..."): not its name
_INSTEAD_OF = re.compile(
    r"\b(?:instead\s+of|rather\s+than|not|like|same\s+as|based\s+on|copy\s+of)\s+(?:the\s+)?"
    r"[\w.-]+(?:\s+tier)?"
)


@dataclass(frozen=True)
class Image:
    """One image of the session.

    Attributes:
        number: Its place in the session (1 for the first image made).
        turn: The latest turn that kept a template of it.
        template: That template.
        words: The words of its turns, lower-cased ("client #1 (a clinic): el10 ...").
        first_words: The words of the turn that opened it.
    """

    number: int
    turn: int
    template: str
    words: str
    first_words: str


@dataclass(frozen=True)
class Pointed:
    """An earlier image a request points at, or why it cannot be found.

    Attributes:
        marker: The pointing words as written ("back to the clinic one").
        spans: Offsets of those words in the request.
        image: The image pointed at (None when the words match none, or several).
        refusal: Why no image is taken ("" when one is).
        replacement: What stands in the words' place for the rest of the request ("it"
            for "customer one needs borgbackup", "the" for "Brightwater's hostname").
    """

    marker: str
    spans: tuple[Span, ...]
    image: Image | None
    refusal: str = ""
    replacement: str = ""


def images_of(entries: Sequence[Mapping[str, Any]]) -> list[Image]:
    """The session's images, in the order they were opened, each with its latest template."""
    found: dict[int, Image] = {}
    for entry in entries:
        number = int(entry.get("image") or 1)
        words = str(entry.get("request") or "").lower()
        earlier = found.get(number)
        found[number] = Image(
            number=number,
            turn=int(entry.get("turn") or 0),
            template=str(entry.get("template") or ""),
            words=f"{earlier.words}\n{words}" if earlier else words,
            first_words=earlier.first_words if earlier else words,
        )
    return [found[n] for n in sorted(found)]


def image_count(entries: Sequence[Mapping[str, Any]]) -> int:
    """How many images the session has made."""
    return max((int(e.get("image") or 1) for e in entries), default=0)


# a party named for the first time, for whom the image is: "Orbis wants the same, but ...",
# "same for Brightlane", "next, Zenith: like Acme but ...", "customer Quill: like the first"
_PARTY = r"(?P<name>[A-Z][\w&-]*[a-z][\w&-]*)"
_LEAD = r"^\W*(?:(?:ok|okay|now|so|and|then|right|alright)\W+)*"
_NEW_PARTY = (
    re.compile(
        rf"{_LEAD}(?:(?:customer|client)\s+)?{_PARTY}\s+(?:also\s+)?(?:wants|needs|gets|"
        r"would\s+like|asked\s+for|is\s+getting|should\s+get)\s+(?:the\s+)?(?:very\s+)?same\b"
    ),
    re.compile(
        rf"\b(?:the\s+)?same\s+(?:thing\s+|image\s+|setup\s+|one\s+)?for\s+"
        rf"(?:(?:customer|client)\s+)?{_PARTY}(?![\w.-])(?!\s+\d)"
    ),
    re.compile(rf"(?i:{_LEAD}(?:next|customer|client))\s*[,:]?\s*{_PARTY}\s*:"),
)


def _new_party(request: str, earlier: str) -> bool:
    """True when ``request`` names, as whom it is for, a party no earlier turn named."""
    for pattern in _NEW_PARTY:
        found = pattern.search(request)
        if found is None:
            continue
        name = found.group("name")
        if asked_targets(name)[0] or name.lower() in ("it", "this", "that", "them"):
            continue  # "same for Debian": a target, not a party
        if not re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", earlier.lower()):
            return True
    return False


def opens_new_image(request: str, count: int, earlier: str | None = None) -> bool:
    """True when ``request`` starts another image after ``count`` ones.

    "now one for the other client", "another customer wants exactly this", "next
    customer, a vet clinic", "customer two: same packages", "Second variant adds a web
    tier", "Third: ...". A number opens only the image after the last one ("customer two"
    after one image); a smaller one points back (:func:`pointed_image`). Given the words of
    the earlier turns (``earlier``), a party named for the first time as whom the image is
    for opens one too: "Orbis wants the same, but ...", "next, Zenith: like Acme but ...".
    """
    if count < 1:
        return False
    if _OPENS.search(request):
        return True
    if earlier is not None and _new_party(request, earlier):
        return True
    for pattern in (_BY_NUMBER, _BY_ORDINAL, _COUNT_OPENS):
        found = pattern.search(request)
        if found and _NUMBERS[found.group("n").lower()] == count + 1:
            return True
    return False


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", _INSTEAD_OF.sub(" ", text.lower())))


def _by_words(desc: str, images: list[Image], opening: bool = False) -> list[Image]:
    """The images whose turns say every naming word of ``desc`` ("clinic", "acme").

    ``opening``: only the words of the turn that opened each image count.
    """
    wanted = [w for w in re.findall(r"[a-z0-9]+", desc.lower()) if w not in _STOP]
    wanted = [w for w in wanted if not w.endswith("s") or w[:-1] not in _STOP]
    if not wanted:
        return []
    return [i for i in images if set(wanted) <= _words(i.first_words if opening else i.words)]


def _by_target(desc: str, images: list[Image]) -> tuple[bool, list[Image]]:
    """Whether ``desc`` names a target, and the images on it ("the EMT one")."""
    asked, _ = asked_targets(desc)
    if not asked:
        return False, []
    wanted = {("imageType" if k == "image_type" else k): v for k, v in asked.items()}
    return True, [i for i in images if target_matches(target_of(i.template), wanted)]


def _number(desc: str) -> int | None:
    """The image number ``desc`` counts ("the second one", "customer one", "client #2")."""
    found = re.search(
        rf"\b(?:the\s+)?(?P<n>{_ORDINAL})(?:\s+{_HEAD}s?)?\b(?!\s+\w)", desc, re.IGNORECASE
    )
    found = found or _BY_NUMBER.search(desc) or _BY_ORDINAL.search(desc)
    return _NUMBERS[found.group("n").lower()] if found else None


def _resolve(desc: str, images: list[Image], strict: bool) -> tuple[list[Image], str]:
    """The images ``desc`` points at, and what it said ("" when it names no image).

    ``strict`` (said after "back to"): the words must name an image, or it is reported;
    otherwise a word only counts when the turn that opened an image said it.
    """
    chosen: list[Image] | None = None
    said = ""
    for part in re.split(r",\s*", desc):
        found: list[Image] | None = None
        count = _number(part)
        is_target, on_target = _by_target(part, images)
        if count is not None:
            found = [i for i in images if i.number == count]
        elif is_target:
            found = on_target
        elif (by_words := _by_words(part, images, opening=not strict)) or strict:
            found = by_words
        if found is not None:
            said = f"{said}, {part}" if said else part
            chosen = found if chosen is None else [i for i in chosen if i in found]
    if chosen is None:
        return [], ""
    return chosen, said


def _refusal(marker: str, said: str, matched: list[Image], images: list[Image]) -> str:
    listed = "; ".join(f"{i.number}: {_label(i)}" for i in images)
    if matched:
        which = ", ".join(str(i.number) for i in matched)
        return (
            f"'{marker}' — more than one image of this session fits ({which}); say which one "
            f"by its number (the images so far: {listed})"
        )
    return (
        f"'{marker}' — no image of this session is {said.strip()!r} (the images so far: "
        f"{listed}); say which one by its number"
    )


def _label(image: Image) -> str:
    target = target_of(image.template)
    first = " ".join(image.first_words.split())
    first = first if len(first) <= 40 else first[:39] + "…"
    return f"{target.get('dist', '?')}, last changed in turn {image.turn} ('{first}')"


def _pointed(
    request: str, span: Span, desc: str, images: list[Image], strict: bool, replacement: str
) -> Pointed | None:
    matched, said = _resolve(desc, images, strict)
    if not said:
        return None
    marker = request[span[0] : span[1]].strip()
    if len(matched) == 1:
        return Pointed(marker=marker, spans=(span,), image=matched[0], replacement=replacement)
    return Pointed(
        marker=marker,
        spans=(span,),
        image=None,
        refusal=_refusal(marker, said, matched, images),
        replacement=replacement,
    )


def pointed_image(request: str, entries: Sequence[Mapping[str, Any]]) -> Pointed | None:
    """The earlier image ``request`` points at, a refusal, or None when it points at none.

    Only a session with more than one image is read; a number one past the last image
    opens the next one (:func:`opens_new_image`) and points at none. See the module's
    docstring.
    """
    images = images_of(entries)
    if len(images) < 2:
        return None
    if (back := _back(request, images)) is not None:
        return back
    for pattern in (_BY_NUMBER, _BY_ORDINAL):
        if found_words := pattern.search(request):
            if _NUMBERS[found_words.group("n").lower()] == len(images) + 1:
                return None  # "customer three: ..." opens the next image
            span = _with_article(request, found_words.span())
            replacement, span = _subject(request, span)
            return _pointed(request, span, found_words.group(), images, True, replacement)
    for possessive in _POSSESSIVE.finditer(request):
        name = possessive.group("name")
        if _a_name(name, images) and len(_by_words(name, images, opening=True)) == 1:
            return _pointed(request, possessive.span(), name, images, False, "the")
    for the_one in _THE_X_ONE.finditer(request):
        found = _pointed(request, the_one.span(), the_one.group("desc"), images, False, "")
        if found is not None and found.image is not None:
            return found
    return None


def _back(request: str, images: list[Image]) -> Pointed | None:
    """The image "back to X" names, a refusal, or None.

    Named by a word of images ("the clinic one", "Acme's image") it is reported when
    nothing fits; by a bare target or word ("back to debian") it counts only when exactly
    one image fits (otherwise the earlier-target reading of ``classify`` has it).
    """
    back = _BACK.search(request)
    if back is None:
        return None
    start = back.end()
    end_at = _DESC_END.search(request, start)
    end = end_at.start() if end_at else len(request)
    desc = request[start:end]
    if re.match(r"\s*(?:before|where|what|how|the\s+(?:previous|last|old|original)\b)", desc):
        return None  # "back to before the arm thing", "back to the previous one": an undo
    plain = re.sub(r"['’]s\b", "", desc)
    if re.search(rf"\b{_HEAD}s?\b|['’]s\b|\b(?:customer|client)\b", desc, re.IGNORECASE):
        return _pointed(request, (back.start(), end), plain, images, True, "")
    if not _by_target(plain, images)[0] and not _a_name(plain, images):
        return None  # "go back to nginx": a package an earlier template had, not an image
    found = _pointed(request, (back.start(), end), plain, images, False, "")
    return found if found is not None and found.image is not None else None


def _a_name(words: str, images: list[Image]) -> bool:
    """True when ``words`` are written as a name (capitalised) and name no package.

    "Acme", "Brightwater" name whom an image was made for; "Nginx" is a package of one.
    """
    from oic_ai.stores.template_model import template_from_text

    said = words.strip()
    if not said[:1].isupper():
        return False
    packages = {p for i in images for p in template_from_text(i.template).packages}
    return not any(w in packages for w in re.findall(r"[\w.+-]+", said.lower()))


def _with_article(request: str, span: Span) -> Span:
    """``span`` with "the" before it, and "for"/"on" when a colon or comma ends it there.

    "for the first customer: add htop" leaves "add htop" to the planner.
    """
    start = span[0]
    if request[:start].lower().endswith("the "):
        start -= len("the ")
    heading = re.search(r"\b(?:for|on|in)\s+$", request[:start], re.IGNORECASE)
    if heading and re.match(r"\s*[:,]", request[span[1] :]):
        start = heading.start()
    return (start, span[1])


def _subject(request: str, span: Span) -> tuple[str, Span]:
    """What stands for the image pointed at when the rest is planned, and the words' span.

    "customer one's hostname" gives "the" (over the possessive too), "customer one needs
    borgbackup" gives "it"; otherwise nothing stands in ("for customer one: add htop").
    """
    after = request[span[1] :]
    if possessive := re.match(r"['’]s\b", after):
        return "the", (span[0], span[1] + possessive.end())
    if re.match(r"\s+(?:needs?|wants?|gets?|should|must|has|have|also|too)\b", after):
        return "it", span
    return "", span


def rest_of(request: str, pointed: Pointed) -> str:
    """The request without the pointing words, for the planner ("" when nothing is left).

    "back to Acme's image, give it hostname acme-web-01" leaves "give it hostname
    acme-web-01"; "customer one needs borgbackup too" leaves "it needs borgbackup too";
    "and Brightwater's hostname is bw-web" leaves "the hostname is bw-web".
    """
    from oic_ai.tools.references import remainder

    text = request
    for start, end in sorted(pointed.spans, reverse=True):
        text = text[:start] + pointed.replacement + text[end:]
    return remainder(text.strip().lstrip(":,;-–— ").strip(), [])


# "packages: nginx, php-fpm" / "pkgs:\nnginx\n...": a package list given as the image's own
_OWN_LIST = re.compile(r"\b(?:packages|pkgs)\s*:\s*\S", re.IGNORECASE)
# ... unless the packages are said to stay: "same packages", "exactly this", "same base"
_SAME_PACKAGES = re.compile(
    r"\bsame\s+(?:packages|pkgs|package\s+list|base|setup|thing|config|but)\b|\bexactly\s+th",
    re.IGNORECASE,
)


def own_package_list(request: str, count: int) -> bool:
    """True when ``request`` opens another image and gives it a package list of its own.

    "now one for the other client, Brightwater: debian 13, same users, packages: nginx,
    php-fpm": the users carry over to the new image, the earlier image's packages do not.
    """
    return (
        opens_new_image(request, count)
        and _OWN_LIST.search(request) is not None
        and _SAME_PACKAGES.search(request) is None
    )


def without_carried_packages(text: str, base_text: str) -> tuple[str, list[str]]:
    """``text`` without the packages its base (``base_text``) lacks, and those packages.

    After a new image was started from the earlier one on a new base, what the earlier
    image added is left out: the request's own list is planned on top.
    """
    from oic_ai.stores.template_model import template_from_text
    from oic_ai.tools.applier.apply import apply_plan
    from oic_ai.tools.edit_plan import EditPlan, RemovePackages

    base = set(template_from_text(base_text).packages)
    carried = [p for p in template_from_text(text).packages if p not in base]
    if not carried:
        return text, []
    plan = EditPlan(summary="", operations=[RemovePackages(packages=carried)])
    return apply_plan(text, plan).text, carried


# "instead of the web tier", "without the php variant", "drop the db tier": an image's own
# additions, named by the role it was made for
_ROLE_TAKEN_OUT = re.compile(
    r"\b(?P<verb>instead\s+of|rather\s+than|without|minus|drop|remove)\s+the\s+"
    r"(?P<desc>[\w.-]+(?:\s+[\w.-]+)?)\s+(?:tier|variant|role|layer)\b",
    re.IGNORECASE,
)


def _added_by(image: Image, entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """The packages ``image`` has that the template it was started from lacked."""
    from oic_ai.stores.template_model import template_from_text

    first = next(i for i, e in enumerate(entries) if int(e.get("image") or 1) == image.number)
    if first == 0:
        return []
    before = set(template_from_text(str(entries[first - 1].get("template") or "")).packages)
    return [p for p in template_from_text(image.template).packages if p not in before]


def resolve_roles(request: str, entries: Sequence[Mapping[str, Any]]) -> str:
    """``request`` with an image's role taken out read as its packages.

    "Third: instead of the web tier a DB tier - postgresql" after "Second variant adds a
    web tier: nginx and certbot" reads "Third: a DB tier - postgresql. Remove nginx,
    certbot.": the packages the web tier's image added on top of the one it started from.
    A role no image was opened for, or one that added no package, stays as written.
    """
    images = images_of(entries)
    for found in _ROLE_TAKEN_OUT.finditer(request):
        matched = _by_words(found.group("desc"), images, opening=True)
        if len(matched) != 1 or not (added := _added_by(matched[0], entries)):
            continue
        rest = (request[: found.start()] + request[found.end() :]).rstrip()
        stop = "" if rest.endswith((".", "!", "?")) else "."
        return f"{rest}{stop} Remove {', '.join(added)}."
    return request
