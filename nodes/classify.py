"""``classify``: decide what a turn does with the session, and reset the turn's fields.

A turn creates a template, refines the current one, answers a question about it, takes
back the last change (``undo``), re-targets the current image to another dist, arch or
image type (``retarget``), or is refused (``unsupported``): a system the composer has no
configuration for, or a dist/arch/image type it has no OS defaults for. References to
the conversation ("undo that", "the same for Debian", "like before but ...") are read by
:func:`oic_ai.tools.references.find_reference`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context
from oic_ai.nodes.messages import last_request
from oic_ai.nodes.state import ImageTurn, Intent, ReferenceRecord, Refusal, Route, State, record
from oic_ai.stores.targets import load_targets
from oic_ai.tools.asked_targets import (
    asked_targets,
    names_other_os,
    new_target,
    sets_current_aside,
)
from oic_ai.tools.courtesy import plain_request
from oic_ai.tools.earlier_images import (
    image_count,
    own_package_list,
    pointed_image,
    resolve_roles,
    rest_of,
)
from oic_ai.tools.first_template import first_template
from oic_ai.tools.ordinals import resolve_ordinals, resolve_turn_values
from oic_ai.tools.planner.text import spell_commands
from oic_ai.tools.pointed_items import named_items, resolve_pointed
from oic_ai.tools.proposals import (
    accepts,
    asked_setting,
    choose_both,
    compared_formats,
    resolve_if_so,
    resolve_offered,
    resolve_setting,
)
from oic_ai.tools.questions import TELL_VERBS, Questions, questions_of
from oic_ai.tools.references import (
    BackTo,
    Reference,
    find_back_to,
    find_back_to_words,
    find_reference,
    keep_rest_spans,
    remainder,
    target_clause_spans,
)
from oic_ai.tools.release_words import resolve_releases
from oic_ai.tools.restores import removed_packages, restored_request
from oic_ai.tools.retrieval.query_classifier import (
    detect_target_spans,
    detect_targets,
    is_modification,
    tokenize,
)
from oic_ai.tools.target_questions import (
    asks_about_targets,
    unsupported_named,
    wants_a_template,
)
from oic_ai.tools.target_support import (
    UnbuildableTarget,
    combination_words,
    find_unsupported,
    refused_target,
    target_matches,
    target_of,
    unbuildable,
)
from oic_ai.tools.turn_links import (
    continues_series,
    not_renamed,
    offer_of,
    only_a_target,
    refused_before,
)
from oic_ai.tools.undo_reasons import bare_removals

_QUESTION = re.compile(
    r"^\s*(?:what|which|how|why|does|is|are|show|list|summari[sz]e|explain|describe|recap|"
    r"tell me|status(?=\W*$)|read\s+(?:me\s+)?(?:back|out)|do\s+(?:we|you|i|they|it|these|those)\b|"
    r"can\s+(?:it|this)\b(?!.*\binstead\b)|(?:can|could|would)\s+(?:you\s+(?:please\s+)?"
    r"(?:tell|show|list|explain|describe|summari[sz]e|recap|read\s+(?:me\s+)?(?:back|out)|"
    r"go\s+(?:over|through))|i\s+see)\b|(?:paste|print|display|dump)\s+(?:me\s+|us\s+)?"
    r"(?:the|its|our|your|current|whole|full)\b)\b",  # a whole word: "iso installer" is no "is"
    re.IGNORECASE,
)
_NEW = re.compile(
    r"\b(?:start over|from scratch|new (?:image|template)|another (?:image|template)|"
    r"create (?:a|an) (?:new )?)",
    re.IGNORECASE,
)
# the current image, elsewhere: "Debian instead", "rather on arm64"
_INSTEAD = re.compile(r"\b(?:instead|rather)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
# a question that proposes what to make ("what about the same ISO for x86_64 then?")
_PROPOSAL = re.compile(r"\b(?:what|how)\s+about\b", re.IGNORECASE)

# every per-turn field, reset so nothing of the previous turn leaks into this one
TURN_RESET: dict[str, Any] = {
    "status": None,
    "reasons": [],
    "draft": None,
    "changes": [],
    "not_applied": [],
    "warnings": [],
    "notices": [],
    "diff": "",
    "validation": None,
    "packages": None,
    "plan": None,
    "answer": None,
    "fix_attempts": 0,
    "fix_history": [],
    "review_edit": False,
    "own_edit": False,
}


def _asks_beside(request: str, questions: Questions) -> bool:
    """True when what is left of ``request`` without its questions asks for a change."""
    rest = request
    for question in questions.questions:
        rest = rest.replace(question, " ")
    rest = rest.strip(" ,;.!?\n")
    if not (questions.questions and questions.changes and rest):
        return False
    return is_modification(rest) or _polite_change(rest)


def _is_question(request: str) -> bool:
    """A question about the template, after any sentence that only sets a target aside.

    A question followed by a sentence that asks for a change ("why is loglevel=7 on the
    cmdline? ... and add iommu=pt") is a request: its change is to be made.
    """
    sentences = [s.strip() for s in _SENTENCE.findall(request)]
    for at, text in enumerate(sentences):
        if not text:
            continue
        _, mentions = asked_targets(text)
        set_aside = [m for m in detect_target_spans(text) if m not in mentions]
        if set_aside and not mentions and len(text.split()) <= 4:
            continue  # "OK, forget arm."
        if any(is_modification(later) or _polite_change(later) for later in sentences[at + 1 :]):
            return False  # "what is it called? Could you name it room12 instead?"
        return _QUESTION.match(text) is not None and not is_modification(text)
    return False


def _polite_change(sentence: str) -> bool:
    """A sentence that asks for a change politely ("Could you name it room12 instead?")."""
    from oic_ai.tools.questions import polite_request

    return polite_request(sentence.rstrip("?.! "))


def _refused(route: Route, found: Any) -> Route:
    route["intent"] = "unsupported"
    route["query_type"] = ""
    if isinstance(found, UnbuildableTarget):
        what = combination_words(found.dist, found.arch, found.image_type, plural=True)
        route["reason"] = f"asks for {what}, which the composer has no OS defaults for"
        refusal = Refusal(named=what, system=what, nearest=None, suggestion=None)
        os_name = load_targets().os_of(found.dist) if found.dist else None
        refusal["target"] = {
            **({"os": os_name} if os_name else {}),
            **({"dist": found.dist} if found.dist else {}),
            "arch": found.arch,
            "imageType": found.image_type,
        }
        refusal["options"] = [combination_words(*option) for option in found.options]
        route["unsupported"] = refusal
        return route
    route["reason"] = f"asks for {found.named}, which the composer cannot build"
    route["unsupported"] = Refusal(
        named=found.named, system=found.system, nearest=found.nearest, suggestion=found.suggestion
    )
    return route


_AGREEING = r"(?:ok(?:ay)?|fine|sure|alright|right|yes|yeah|yep|then|so|well|hm+)"


def _nearest_release(request: str, previous: Route | None) -> str:
    """The refused system's nearest dist, when ``request`` opens by naming its version alone.

    "RHEL 9" refused with el10 offered: "10 is fine then", "ok, 10 then", "fine, version
    10" take the offer. Only a number opening the request alone ("10 is fine") counts.
    """
    refusal: dict[str, Any] = dict((previous.get("unsupported") if previous else None) or {})
    nearest = str(refusal.get("nearest") or "")
    dist = load_targets().dists.get(nearest)
    version = _release_number(dist.title if dist else "")
    if not version:
        return ""
    said = re.match(
        rf"^\W*(?:{_AGREEING}\W+)*(?:(?:version|release|v)\s*)?{re.escape(version)}(?:\.\d+)?"
        rf"(?=\s*(?:$|[,.;:!]|(?:is|it\s+is|'s)\s+(?:fine|ok(?:ay)?|good|great)|it\s+is\b"
        rf"|then\b|works\b|will\s+do\b|please\b|pls\b))",
        request.lower(),
    )
    return nearest if said else ""


def _release_number(title: str) -> str:
    """The major release number a dist's title ends with ("RHEL-compatible 10" gives "10")."""
    found = re.search(r"(\d+)(?:\.\d+)*\s*(?:lts)?\s*$", title.lower())
    return found.group(1) if found else ""


def _inherited(previous: Route | None, asked: dict[str, str]) -> dict[str, str]:
    """After a refused combination, the targets it named that this request does not change.

    "Ubuntu 24.04 ISO for arm64" is refused; "fine, then x86_64" means Ubuntu 24.04 ISO on
    x86_64. The arch and image type carry over only while the result stays buildable.
    """
    refusal: dict[str, Any] = dict((previous.get("unsupported") if previous else None) or {})
    refused = refusal.get("target") or refusal.get("kept")
    if not isinstance(refused, dict):
        return {}
    targets = load_targets()
    dist = asked.get("dist") or refused.get("dist")
    if asked.get("os") and targets.os_of(dist) != asked["os"]:
        dist = None
    carried: dict[str, str] = {"dist": dist} if dist and not asked.get("dist") else {}
    for key, field in (("arch", "arch"), ("image_type", "imageType")):
        if key not in asked and refused.get(field):
            carried[key] = str(refused[field])
    arch = asked.get("arch") or carried.get("arch") or targets.default_arch
    kind = asked.get("image_type") or carried.get("image_type") or targets.default_image_type
    if dist and not targets.buildable(dist, arch, kind):
        carried.pop("arch", None)
        carried.pop("image_type", None)
    return carried


def _reference_record(
    request: str,
    reference: Reference | None,
    target: dict[str, str],
    *,
    retarget: bool,
    create: bool = False,
) -> ReferenceRecord:
    spans = list(reference.spans) if reference else []
    if create and reference is not None:
        spans = list(reference.marker_words())  # the planner reads the targets itself
    spans += keep_rest_spans(request)  # "keep everything else": nothing for the planner
    if reference is not None and reference.kind == "undo":
        spans += bare_removals(request)  # "scrap the hostname and user, go back to before"
    if retarget:
        # the target names and the clauses that only ask for them are handled here
        spans += target_clause_spans(request)
    kept = [request[begin:end] for begin, end in keep_rest_spans(request)]
    record = ReferenceRecord(
        kind=reference.kind if reference else "same",
        words=reference.marker if reference else " ".join(kept),
        remainder=remainder(request, spans),
        target=target,
    )
    if reference is not None and reference.topic:
        record["topic"] = reference.topic
    return record


def route_request(
    request: str,
    current_template: str | None,
    previous: Route | None = None,
    history: list[str] | None = None,
    images: Sequence[ImageTurn] = (),
) -> Route:
    """Classify one request; "put back the X you removed" is read as adding what X was.

    See :func:`_route` for the arguments; ``images`` are the templates the session kept,
    with the image each is ("back to the clinic one" goes back to that image). A restore
    that names what earlier templates had and the current one lacks ("the ssh server" ->
    openssh-server) is planned as "add openssh-server"; one that names nothing removed is
    left to the planner as written.
    """
    if current_template and (switch := _switched(request, current_template, images)):
        return switch
    if current_template and (first := first_template(request, images)) is not None:
        reason = f"goes back to the image's first template ({first.marker})"
        route = Route(intent="undo", reason=reason, query_type="", targets={})
        route["reference"] = ReferenceRecord(
            kind="undo",
            words=first.marker,
            remainder=remainder(request, [*first.spans, *keep_rest_spans(request)]),
            target=target_of(current_template),
        )
        route["reference"]["image"] = {"number": first.image, "turn": first.turn, "refusal": ""}
        return route
    restored = restored_request(request, current_template, history or [])
    # "do I need something to talk MQTT? if so, add whatever is normal": add that something
    rewritten = resolve_if_so(restored) if current_template else restored
    if previous and current_template:
        # "give me both then" after "what's the difference between raw and qcow2?"
        rewritten = choose_both(rewritten, list(previous.get("compared") or []))
        # "add it if it's not there" after "does it come with cloud-init?"
        rewritten = resolve_offered(rewritten, str(previous.get("proposal") or ""))
        # "no, leave it off" after "what does immutability mean? should I turn it on?"
        rewritten = resolve_setting(rewritten, str(previous.get("setting") or ""))
    if current_template:
        # "why is qemu-kvm in there?" then "take it out": the names in the pronoun's place
        named = list(previous.get("named") or []) if previous else []
        rewritten = resolve_pointed(rewritten, named, current_template)
        rewritten = resolve_ordinals(rewritten, current_template)  # "remove the first user"
        rewritten = resolve_roles(rewritten, images)  # "instead of the web tier"
        rewritten = resolve_turn_values(rewritten, current_template, images)  # "from turn 1"
        rewritten = resolve_releases(rewritten, current_template)  # "switch it to 26 then"
    route = _route(rewritten, current_template, previous, history)
    if route["intent"] == "retarget" and own_package_list(request, image_count(images)):
        route["reference"]["own_packages"] = True  # "now one for Brightwater, packages: ..."
    if rewritten != request and route["intent"] in ("refine", "retarget"):
        if "reference" not in route:
            route["reference"] = ReferenceRecord(
                kind="same",
                words="",
                remainder=remainder(rewritten, keep_rest_spans(rewritten)),
                target=target_of(current_template),
            )
        route["reason"] += (
            "; adds back what an earlier turn removed"
            if restored != request
            else "; names what the turn before asked about"
        )
    return route


def _route(
    request: str,
    current_template: str | None,
    previous: Route | None = None,
    history: list[str] | None = None,
) -> Route:
    """Classify one request given the session's template and the previous turn's route.

    Args:
        request: The user's words this turn.
        current_template: The session's template, if any.
        previous: The previous turn's route (a refused combination lends its targets).
        history: The session's earlier templates, oldest first (``undo_stack``): "go back
            to debian" goes back to the latest one with that target.

    Returns:
        The route record: intent, reason, query type, the targets named and, for a
        reference to the conversation, what it refers to and what is left of the request.
    """
    offered = str(previous.get("proposal") or "") if previous else ""
    if offered and current_template and accepts(request):
        # "yes do it" after "would chrony make sense here?": the offered change
        route = _route(offered, current_template, None, history)
        route["reason"] += f"; accepts the offer of the turn before ({offered!r})"
        route["reference"] = ReferenceRecord(
            kind="same", words=request, remainder=offered, target=target_of(current_template)
        )
        return route
    targets = detect_targets(tokenize(request), request)
    route = Route(intent="create", reason="", query_type="", targets=targets)
    asked, _ = asked_targets(request)
    if (system := find_unsupported(request)) is not None:
        route["targets"] = targets
        refused = _refused(route, system)
        if refused.get("unsupported"):
            rest = _without_refused(request)
            said = find_reference(rest)
            if said is not None and said.kind == "same":
                # "can I get a Rocky 9 equivalent": the reference words ask for nothing
                rest = remainder(rest, said.marker_words()) or rest
            refused["unsupported"]["rest"] = rest
        kept = {k: v for k, v in asked.items() if k in ("dist", "os", "image_type")}
        wanted = new_target({}, kept)
        if "dist" in wanted and refused.get("unsupported"):
            # "Debian 13 for armhf": the next turn ("arm64 then") keeps Debian 13
            refused["unsupported"]["kept"] = {
                "dist": wanted["dist"],
                **({"imageType": wanted["imageType"]} if "image_type" in kept else {}),
            }
        named_target = refused_target(system, asked, refused["unsupported"].get("kept") or {})
        current = target_of(current_template) if current_template else {}
        if system.arch and "os" not in named_target and current.get("os"):
            # "make one also for my old pi 2, 32 bit": the session's image on that arch
            named_target = {"os": current["os"], **named_target}
        if named_target and refused.get("unsupported"):
            # "ubuntu 22.04 x86_64 raw": the refusal names ubuntu on x86_64, raw
            refused["unsupported"]["target"] = named_target
        return refused
    reference = find_reference(request)
    questions = questions_of(request)
    carried: dict[str, str] = {}
    current = target_of(current_template)
    intent: Intent
    if not current_template and (
        (
            _asks_what_is_built(request, questions.only_questions)
            and not _asks_for_it(reference, questions.questions)  # "... ? build me one"
        )
        or _asks_which_target(request)
    ):
        intent, reason = "explain", "a question about what the composer builds"
    elif not current_template:
        intent, reason = "create", "no template in this session yet"
        own = dict(asked)  # what this request names itself
        carried = _inherited(previous, asked)
        if (release := _nearest_release(request, previous)) and "dist" not in asked:
            # "10 is fine then" after RHEL 9 was refused for el10: the release offered
            carried = {**carried, "dist": release}
        if carried:
            targets = {**targets, **carried}
            reason += "; kept the refused request's " + ", ".join(sorted(carried))
            asked = {**carried, **asked}
        refusal: dict[str, Any] = dict((previous.get("unsupported") if previous else None) or {})
        rest = str(refusal.get("rest") or "")
        # a release refused for its nearest one ("22.04" for 24.04): an answer naming only
        # the release to build asks for the rest again; after a refused arch the words
        # around it were about the hardware ("rpi 3, 32 bit"), so only "everything else as
        # I said" carries them
        # (or the refused request listed its packages by name: "with the same packages: a,
        # b, c" is no hardware word, and "arm64 then" asks for them on the new target)
        implicit = (
            bool(refusal.get("nearest")) or _PACKAGE_LIST.search(rest.lower()) is not None
        ) and only_a_target(request)
        if rest and (keep_rest_spans(request) or implicit):
            # "ok 24.04, everything else as I said": the refused request's other parts too
            rest = not_renamed(rest, own)
            route["carried_request"] = f"{rest}. {remainder(request, keep_rest_spans(request))}"
            rest_asked, _ = asked_targets(rest)
            asked = {**rest_asked, **asked}
            targets = {**detect_targets(tokenize(rest), rest), **targets}
            reason += "; with the refused request's other parts"
    elif (back := _back_to(request, current_template, history or [])) is not None:
        intent, reason = "undo", f"goes back to an earlier template ({back.marker})"
    elif (
        reference is not None
        and reference.kind == "undo"
        and not _forgets_no_change(reference.marker, previous)
    ):
        intent, reason = "undo", f"takes back the last change ({reference.marker})"
    elif (
        (reference is None or _asked_about(reference, questions))
        # ("show the config and add htop": a question, then a change to make)
        and (
            (_is_question(request) and not _asks_beside(request, questions))
            or questions.only_questions
        )
        and not any(_antecedent(request, q) for q in questions.questions)
    ):
        intent, reason = "explain", "a question about the current template"
    elif _asks_about_its_target(request, questions.questions):
        intent, reason = "explain", "a question about the target it names"
    elif _NEW.search(request):
        intent, reason = "create", "asks for a new template"
    else:
        wanted, now = new_target(current, asked), new_target(current, {})
        changed = {k: v for k, v in wanted.items() if now.get(k) != v and k != "os"}
        if not changed:
            intent, reason = "refine", "changes the current template"
        elif (
            reference is None
            and "dist" in asked
            and not keep_rest_spans(request)  # "el10 then, keep everything else"
            and not is_modification(request)
            and not _INSTEAD.search(request)
            and names_other_os(asked["dist"], current_template)
            and not sets_current_aside(request, current.get("dist"))
            and not continues_series(previous, request)  # "Next: eLxr 12." after "same for"
        ):
            intent, reason = "create", f"names another distribution ({asked['dist']})"
        else:
            intent = "retarget"
            reason = "the current image for " + ", ".join(f"{k} {v}" for k, v in changed.items())
    route["intent"], route["reason"] = intent, reason
    route["targets"] = targets
    if intent == "explain" and not current_template and previous and previous.get("unsupported"):
        # "which arches can you do?" after a refusal: the refusal still stands for the next
        # turn ("arm64 then" keeps the refused request's dist)
        route["unsupported"] = previous["unsupported"]
    if intent in ("refine", "retarget", "create"):
        base = current if intent != "create" else {}
        wanted = new_target(base, asked)
        dist = wanted.get("dist") if (intent != "create" or "dist" in asked) else None
        found = unbuildable(dist, wanted["arch"], wanted["imageType"])
        named = {"arch", "image_type"} & set(asked) if intent == "create" else asked
        if found is not None and named:
            return _refused(route, found)
        if intent == "retarget" or reference is not None or keep_rest_spans(request):
            route["reference"] = _reference_record(
                request,
                reference,
                wanted,
                retarget=intent == "retarget",
                create=intent == "create",
            )
        if intent == "create" and carried:
            route["inherited"] = carried
        if intent == "create" and route.get("carried_request"):
            route["reference"] = ReferenceRecord(
                kind="same",
                words=" ".join(request[b:e] for b, e in keep_rest_spans(request)),
                remainder=route["carried_request"],
                target={},
            )
    elif intent == "undo" and back is not None:
        route["reference"] = ReferenceRecord(
            kind="undo",
            words=back.marker,
            remainder=remainder(request, [*back.spans, *keep_rest_spans(request)]),
            target=current,
        )
        route["reference"]["back_to"] = back.target
        if back.packages:
            route["reference"]["back_to_packages"] = list(back.packages)
    elif intent == "undo":
        route["reference"] = _reference_record(request, reference, current, retarget=False)
        if (refused_request := refused_before(reference, previous)) is not None:
            route["reference"]["after_refusal"] = refused_request
    if intent in ("refine", "retarget") and questions.questions:
        route["questions"] = [q for q in questions.questions if not _antecedent(request, q)]
    if intent == "explain" and current_template:
        offer = offer_of(questions.questions or (request,), current_template)
        if offer:
            route["proposal"] = offer
        if setting := asked_setting(list(questions.questions or (request,))):
            route["setting"] = setting
        if pointed := named_items(list(questions.questions or (request,)), current_template):
            route["named"] = pointed
        compared = [f for q in questions.questions or (request,) for f in compared_formats(q)]
        if len(compared) == 2:
            route["compared"] = compared
    query_type = {"refine": "refinement", "explain": "question"}.get(intent, "")
    route["query_type"] = query_type
    return route


def _switched(request: str, current: str, images: Sequence[ImageTurn]) -> Route | None:
    """The route of "back to the clinic one" to another image of the session, or None."""
    pointed = pointed_image(request, images)
    if pointed is None or (pointed.image and pointed.image.number == images[-1]["image"]):
        return None  # no image named, or the one the session is on: an ordinary turn
    reason = f"goes back to an earlier image ({pointed.marker})"
    route = Route(intent="undo", reason=reason, query_type="", targets={})
    rest = "" if pointed.refusal else rest_of(request, pointed)
    route["reference"] = ReferenceRecord(
        kind="undo", words=pointed.marker, remainder=rest, target=target_of(current)
    )
    image = pointed.image
    number, turn = (image.number, image.turn) if image else (0, 0)
    route["reference"]["image"] = {"number": number, "turn": turn, "refusal": pointed.refusal}
    return route


# "nah, forget it": dropping what the turn before asked, with no change named
_FORGET = re.compile(
    r"\W*(?:(?:nah|no|nope|ok|okay|hmm+|actually|well|oh|ah)\W+)*forget\s+(?:it|that)"
)


def _forgets_no_change(marker: str, previous: Route | None) -> bool:
    """True for "forget it" when the turn before was no change (a question, a refusal).

    Right after a change it takes that change back; after anything else there is nothing
    of its own to take back, and an older change must stay.
    """
    if not _FORGET.fullmatch(marker.lower()):
        return False
    return previous is None or previous.get("intent") not in ("refine", "retarget")


def _back_to(request: str, current: str, history: list[str]) -> BackTo | None:
    """The "go back to debian" of a request when an earlier template was Debian, else None.

    "nah go back to docker" after docker was swapped for podman names packages, not a
    target: the latest earlier template that had them (and the current one lacks).
    """
    back = find_back_to(request)
    if back is None:
        return _back_to_packages(request, current, history)
    now = target_of(current)
    if target_matches(now, back.target):
        return None  # already there: an ordinary request
    if any(target_matches(target_of(earlier), back.target) for earlier in history):
        return back
    return None


def _back_to_packages(request: str, current: str, history: list[str]) -> BackTo | None:
    """The packages an earlier template had for "go back to docker"'s words, or None."""
    found = find_back_to_words(request)
    if found is None or not history:
        return None
    names = removed_packages(found.object, current, history)
    if not names:
        return None
    vocabulary_spans = [found.span, *keep_rest_spans(request)]
    return BackTo(target={}, marker=found.marker, spans=tuple(vocabulary_spans), packages=names)


# "the same packages: openssh-server, i2c-tools, python3-smbus": packages listed by name
_PACKAGE_LIST = re.compile(
    r"\b(?:packages?|pkgs?)\s*:?\s+(?:[a-z0-9][\w.+-]*\s*(?:,|\band\b|&)\s*)+[a-z0-9][\w.+-]*"
)


# where a clause ends: a comma or a sentence's end, not the dot inside "22.04"
_CLAUSE_MARK = re.compile(r"[,;!?]|\.(?=\s|$)")


def _without_refused(request: str) -> str:
    """``request`` without the systems and arches the composer does not build.

    A clause that ends on such a system and asks for nothing itself (no wish, no
    imperative: "vendor sdk only supports jammy :(") says what something else runs on:
    it goes with the system, so no "vendor sdk only supports" is left to report.
    """
    from oic_ai.tools.planner.asking import read_clause

    rest = request
    for named, _, _ in unsupported_named(request):
        for match in list(re.finditer(re.escape(named), rest, flags=re.IGNORECASE)):
            begin = max((m.end() for m in _CLAUSE_MARK.finditer(rest, 0, match.start())), default=0)
            tail = re.compile(r"[\s:;()\-.!?]*(?:$|[,;!?\n]|\.(?=\s|$))").match(rest, match.end())
            clause = rest[begin : match.end()]
            why = read_clause(clause.strip()).why
            if tail and begin < match.start() and not why.startswith(("wish", "imperative")):
                rest = rest[:begin] + " " * (tail.end() - begin) + rest[tail.end() :]
        rest = re.sub(re.escape(named), " ", rest, flags=re.IGNORECASE)
    rest = re.sub(r"\(\s*\)", " ", rest)  # "(jammy)" once "jammy" is gone
    return " ".join(rest.split()).strip(" ,;.")


def _asks_what_is_built(request: str, only_questions: bool) -> bool:
    """With no template yet: a question about the composer's targets, not a request.

    "Which Debian releases can you build?" after a refusal, or "what's the difference
    between a raw image and an ISO?" first: answered from the target registry, nothing made.
    "Do you have a template for kiosks?" asks for a template and starts one, and "what
    about the netboot image for x86_64 then?" proposes one.
    """
    return (
        (only_questions or _is_question(request) or _only_targets_beside(request))
        and asks_about_targets(request)
        and not wants_a_template(request)
        and not _PROPOSAL.search(request)
    )


def _only_targets_beside(request: str) -> bool:
    """True when the parts of ``request`` around its questions name targets and ask nothing.

    "our team wants to try azure linux for the edge server. x86. what image types can you
    make for it?": the target names say what the question is about; with the question
    taken out and the clauses made only of target names, no part asks for a change. The
    question itself must ask what is built ("what do I need? ubuntu 24.04 please" asks
    for an image).
    """
    asked = questions_of(request).questions
    if not any(asks_about_targets(question) for question in asked):
        return False  # "what do I need? ubuntu 24.04 please": a request, its question aside
    rest = request
    for question in asked:
        rest = rest.replace(question, " ")
    rest = remainder(rest, target_clause_spans(rest))
    return not questions_of(rest).changes


# a sentence that acts on what the one before named: "Remove it.", "Please drop them too"
_ACTS_ON_IT = re.compile(
    r"[\s?!.]*(?:(?:ok|so|then|please|pls|just)[\s,]+)*"
    # an imperative verb: no auxiliary ("does it have ...?", "should it be on?")
    r"(?!(?:do|does|did|is|are|was|were|can|could|should|would|will|shall|may|might|must|has|"
    r"have|had|"
    # nor a verb that asks to be told ("paste it", "show them")
    + "|".join(sorted(TELL_VERBS))
    # (the pronoun in lower case: "Our IT department wants ..." names the IT department)
    + r")\b)[a-z]+(?:\s+(?:out|off|away))?\s+(?-i:it|them)\b[^?]*(?:[.!]|$)",
    re.IGNORECASE,
)


def _antecedent(request: str, question: str) -> bool:
    """True when the sentence after ``question`` points back at it ("Why is X here? Remove it.").

    The question then stays in the planner's text: it names what the pronoun stands for.
    """
    at = request.find(question)
    return at >= 0 and _ACTS_ON_IT.match(request, at + len(question)) is not None


def _asks_about_its_target(request: str, questions: Sequence[str]) -> bool:
    """A statement naming a target, then a question about that target, asks nothing.

    "Release= would be resolute for 26.04 — does the composer even do ubuntu 26?": the
    release is named to ask whether it is built, not to switch to it. A statement that
    asks for a change ("switch to 26.04 — ...?") or refers back stays a request.
    """
    if not questions:
        return False
    rest = request
    for question in questions:
        rest = rest.replace(question, " ")
    said, _ = asked_targets(rest)
    if "dist" not in said or is_modification(rest) or keep_rest_spans(rest):
        return False
    if find_reference(rest) is not None:
        return False
    return any(asked_targets(q)[0].get("dist") == said["dist"] for q in questions)


def _asked_about(reference: Reference, questions: Questions) -> bool:
    """True when "the same" is what a request that only asks is asking about.

    "quick question: could the same installer ISO be built for arm?", "does the same
    image boot on arm64?": the reference names the subject of a question, not a new
    image to make. A proposal ("what about the same for Debian?") asks for one.
    """
    return (
        reference.kind == "same"
        and questions.only_questions
        and not any(_PROPOSAL.search(question) for question in questions.questions)
        and any(reference.marker in question for question in questions.questions)
    )


def _asks_for_it(reference: Reference | None, questions: Sequence[str]) -> bool:
    """A sentence outside the questions asks for what they describe ("build me one")."""
    return (
        reference is not None
        and reference.kind == "same"
        and reference.back_only
        and not any(reference.marker in question for question in questions)
    )


def _asks_which_target(request: str) -> bool:
    """With no template yet: requirements, then "which of your OSes does that best?".

    The last sentence asks which target to pick and no sentence names one: nothing is made
    until the user chooses (the answer lists what fits).
    """
    sentences = [s.strip() for s in _SENTENCE.findall(request) if s.strip()]
    if not sentences or not sentences[-1].endswith("?"):
        return False
    last = sentences[-1]
    return (
        _QUESTION.match(last) is not None
        and _TARGET_CHOICE.search(last) is not None
        and not any(
            m.kind in ("dist", "os", "family") and not m.source
            for m in detect_target_spans(request)
        )
    )


# "which of your OSes", "which distro", "what operating system ... best", "which one is easiest"
_TARGET_CHOICE = re.compile(
    r"\b(?:which|what)\s+(?:(?:(?:of\s+(?:your|the)|one\s+of\s+(?:your|the))\s+)?(?:oses|os|distros?|"
    r"distributions?|operating\s+systems?|targets?|platforms?)\b|(?:one|linux|flavou?r)\b(?=[^?]*\b"
    r"(?:easiest|easier|simplest|simpler|best|better|recommend\w*|suggest\w*|pick|choose|go\s+with)\b))",
    re.IGNORECASE,
)


def edit_route(origin: str | None) -> Route:
    """The route of a turn that brings its own template (``template_edit``)."""
    reason = f"started from {origin}" if origin else "applied your edit"
    return Route(intent="edit", reason=reason, query_type="", targets={})


def classify(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Read the request from the last human message and route the turn."""
    # "hi! undo", "revert that thanks!": courtesy at the edges asks for nothing
    request = spell_commands(plain_request(last_request(state.get("messages", []))))
    if isinstance(state.get("template_edit"), str):
        route = edit_route(state.get("template_origin"))
    else:
        previous = record(state, "route") or None
        history = [revision["template"] for revision in state.get("undo_stack") or []]
        route = route_request(
            request,
            state.get("template"),
            previous,  # type: ignore[arg-type]
            history,
            state.get("images") or [],
        )
    return {**TURN_RESET, "request": request, "route": route}
