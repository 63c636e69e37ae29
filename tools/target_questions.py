"""Questions about what the composer builds, answered from the target registry.

"Does azl3 support arm?", "which Debian releases can you do?", "what is rcd10?", "what's
the difference between a raw image and an ISO?", "can you do Rocky 9?", "what's the
closest thing you support?": such a question is about the composer's targets, not about
the session's template, and it may come before there is any template (after a refused
request, or as the first thing a newcomer asks). The answer comes from the facts in
``stores/data/targets.yaml`` (each dist's ``builds``, each image type's ``about``, the
systems the composer does not build and the nearest supported one); the template, if
any, stays as it is.
"""

from __future__ import annotations

import re

from oic_ai.stores.targets import load_targets
from oic_ai.tools.retrieval.query_classifier import WORD_END, WORD_START, detect_target_spans
from oic_ai.tools.target_support import builds_line

# words that ask what the composer can build rather than what the template holds
_CAPABILITY = re.compile(
    r"\b(?:support(?:s|ed)?|(?:can|could)\s+(?:you|it|we|i|one)\s+(?:build|do|make|offer|handle)|"
    r"closest|nearest|difference|same\s+(?:thing\s+)?as|available|"
    r"(?:would|will)\s+\S+\s+be\s+\w+er)\b",
    re.IGNORECASE,
)
# nouns for kinds of target: a question about them asks what is built, when there is no
# template to ask about ("which releases?"); with one, they ask about its own target
_TARGET_NOUNS = re.compile(
    r"\b(?:versions?|releases?|architectures?|arches|distros?|distributions?|oses|"
    r"operating\s+systems|image\s+types?|formats?)\b",
    re.IGNORECASE,
)
# a question that asks for a template of the library ("do you have a template for ...")
_WANTS_TEMPLATE = re.compile(
    r"\b(?:have|got|is\s+there|there\s+is)\s+(?:a|an|any|some)\s+(?:\w+\s+){0,3}?"
    r"(?:template|image|base)s?\b"
    # the image of what was described, asked to be shown: "what would the image look
    # like?", "how would such a template look?", "what would you suggest?"
    r"|\b(?:what|how)\s+(?:would|will|could|should|might)\s+(?:the|an?|my|our|that|this|"
    r"such\s+an?)\s+(?:\w+\s+){0,2}?(?:image|template|build|os\s+image)\s+(?:look|be\s+like)"
    r"|\bwhat\s+(?:would|do|could)\s+you\s+(?:suggest|recommend|propose|come\s+up\s+with)"
    r"(?=\s*(?:\?|$|for\s+(?:it|this|that|us|me|them)\b))",
    re.IGNORECASE,
)

# a sentence that asks for an image to be made ("I was asked to build a netboot image for
# PXE boxes with eLxr 12."): with a question beside it ("which image type is that?"), the
# request is still a request, and the question is answered with the template
_BUILD_ASK = re.compile(
    r"\b(?:build|make|create|produce|generate|draft|need|want|would\s+like|looking\s+for)\b"
    r"(?!\s+to\s+(?:know|understand|learn|ask|check|see|find|figure|hear))"
    r"(?:\s+[\w'-]+){0,3}?\s+(?:a|an|the|one|some)\s+(?:[\w.-]+\s+){0,4}?"
    r"(?:image|template|iso|installer|build)s?\b",
    re.IGNORECASE,
)
_SENTENCES = re.compile(r"[^.!?\n]+[.!?]*")


def unsupported_named(question: str) -> list[tuple[str, str, str]]:
    """The systems and arches the composer does not build that ``question`` names.

    Returns:
        ``(as written, the registry's name, the nearest supported dist or "")`` each.
    """
    found: list[tuple[str, str, str]] = []
    for entry in load_targets().unsupported:
        if not entry.name:
            continue
        pattern = re.compile(rf"{WORD_START}(?:{entry.phrase}){WORD_END}")
        for match in pattern.finditer(question.lower()):
            named = " ".join(question[match.start() : match.end()].split())
            found.append((named, entry.name, entry.nearest))
    return found


def asks_about_targets(question: str, current: dict[str, str] | None = None) -> bool:
    """True when ``question`` asks what the composer builds, not only about the template.

    Args:
        question: The user's words.
        current: The session template's target (``dist``, ``arch``, ``imageType``), if
            any: a question that names only the template's own target asks about it.
    """
    if _CAPABILITY.search(question) or unsupported_named(question):
        return True
    if not current and _TARGET_NOUNS.search(question):
        return True
    current = current or {}
    own = {current.get("dist"), current.get("os"), current.get("arch"), current.get("imageType")}
    return any(
        mention.value not in own
        for mention in detect_target_spans(question)
        if mention.kind in ("dist", "os", "arch", "image_type", "family")
    )


def wants_a_template(question: str) -> bool:
    """True when ``question`` asks for a template.

    Either as a question ("do you have an image for kiosks?"), or beside one: a sentence
    that is no question asks for an image of a target the composer builds ("I need to
    build a netboot image with eLxr 12. Which image type is that?").
    """
    if _WANTS_TEMPLATE.search(question) is not None:
        return True
    for sentence in _SENTENCES.findall(question):
        if sentence.rstrip().endswith("?") or not _BUILD_ASK.search(sentence):
            continue
        if any(
            m.kind in ("dist", "os", "image_type") and not m.source
            for m in detect_target_spans(sentence)
        ):
            return True
    return False


def _dists_asked(question: str) -> tuple[list[str], list[str], list[str]]:
    """The dists, arches and image types ``question`` names (a dist means its whole os)."""
    targets = load_targets()
    dists: dict[str, None] = {}
    arches: dict[str, None] = {}
    kinds: dict[str, None] = {}
    for mention in detect_target_spans(question):
        if mention.kind == "dist" and mention.value in targets.dists:
            os = targets.dists[mention.value].os
            dists.update(dict.fromkeys(targets.oses[os].dists))
        elif mention.kind == "os" and mention.value in targets.oses:
            dists.update(dict.fromkeys(targets.oses[mention.value].dists))
        elif mention.kind == "family":
            dists.update(dict.fromkeys(targets.families.get(mention.value, ())))
        elif mention.kind == "arch":
            arches[targets.canonical_arch(mention.value)] = None
        elif mention.kind == "image_type":
            kinds[mention.value] = None
    return list(dists), list(arches), list(kinds)


def _builds_any(dist: str, arches: list[str]) -> bool:
    built = load_targets().dists[dist].builds.values()
    return any(arch in arches for each in built for arch in each)


def _image_type_line(kind: str) -> str:
    targets = load_targets()
    found = targets.image_types[kind]
    by_arch: dict[str, list[str]] = {}
    for dist in targets.dists.values():
        for arch in dist.builds.get(kind, ()):
            by_arch.setdefault(arch, []).append(dist.id)
    built = "; ".join(
        f"for {arch}: "
        + ("every distribution" if len(ids) == len(targets.dists) else ", ".join(ids))
        for arch, ids in by_arch.items()
    )
    text = f"{found.title} (imageType {kind})"
    text += f": {found.about}" if found.about else ""
    return text + (f". Built {built}." if built else ". No distribution builds it.")


def target_answer(question: str) -> str:
    """Answer a question about what the composer builds, from the target registry.

    Args:
        question: "does azl3 support arm?", "which Ubuntu releases can you do?" ...

    Returns:
        A few lines: each image type asked about (what it is, who builds it), each
        system the composer does not build (and the nearest supported one), and what
        each distribution asked about builds (every distribution when none is named).
    """
    targets = load_targets()
    dists, arches, kinds = _dists_asked(question)
    lines = [_image_type_line(kind) for kind in kinds]
    if len(kinds) > 1:
        lines.append(
            "One template has one imageType; a raw disk image can be written in several "
            "formats at once (disk.artifacts: raw, qcow2, vhd, vhdx)."
        )
    for named, system, nearest in unsupported_named(question):
        line = f"{named}: os-image-composer cannot build it ({system})"
        if nearest:
            line += f"; the nearest it builds is {targets.title(nearest)} ({nearest})"
        lines.append(line + ".")
    if not dists and (arches or not lines):
        dists = list(targets.dists)
        if arches:
            dists = [
                d
                for d in dists
                if any(a in b for b in targets.dists[d].builds.values() for a in arches)
            ]
    for dist in dists:
        lines.append(f"{targets.title(dist)} ({dist}) builds {builds_line(dist)}.")
    for arch in arches:
        if not any(arch in built for d in dists for built in targets.dists[d].builds.values()):
            lines.append(f"Nothing asked about builds for {arch}.")
    return "What os-image-composer builds:\n" + "\n".join(f"- {line}" for line in lines)


_WHY = re.compile(r"\b(?:why|which|what)\b", re.IGNORECASE)


def image_type_choice(request: str, image_type: str | None) -> str | None:
    """Why a new template has its image type, when the request asks beside its request.

    "Build a netboot image for PXE boxes with eLxr 12. Which image type is that, and
    why?" gets the template and this line: the image type, the request's words that chose
    it and what such an image is.

    Args:
        request: The user's words.
        image_type: The new template's image type.

    Returns:
        The line, or None when the request asks no such question or names no image type.
    """
    from oic_ai.tools.questions import questions_of

    asked = [
        *questions_of(request).questions,
        *(s for s in _SENTENCES.findall(request) if s.rstrip().endswith("?")),
    ]
    if not image_type or not any(_WHY.search(q) for q in asked):
        return None
    named = [
        " ".join(request[m.start : m.end].split())
        for m in sorted(detect_target_spans(request), key=lambda m: m.start)
        if m.kind == "image_type" and m.value == image_type and not m.source
    ]
    if not named:
        return None
    targets = load_targets()
    found = targets.image_types.get(image_type)
    words = [f"'{w}'" for w in dict.fromkeys(named)]
    quoted = ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]
    about = f": it {found.about}" if found is not None and found.about else ""
    title = targets.image_type_title(image_type, image_type)
    return f"Image type: {title} ({image_type}), from {quoted} in the request{about}."
