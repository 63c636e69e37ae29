"""Rule: disk artifacts and their compression ("qcow2", "compressed with zstd")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from oic_ai.tools.edit_plan import Artifact
from oic_ai.tools.planner.reasons import history_beside_a_change
from oic_ai.tools.planner.rules.revisions import revision_between
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.retrieval.query_classifier import WORD_END, WORD_START

_FORMAT = r"raw|qcow2|vhdx|vhd|vmdk|vdi"
_COMPRESSION = r"gzip|gz|xz|zstd|zst|bzip2|bz2"
_COMPRESSIONS = {"gzip": "gz", "gz": "gz", "xz": "xz", "zstd": "zstd", "zst": "zstd"}
_COMPRESSIONS |= {"bzip2": "bz2", "bz2": "bz2"}
_ARTIFACT = re.compile(
    rf"(?:{WORD_START}(?:(?P<c1>{_COMPRESSION})[\s-]+compressed\s+|(?P<compressed>compressed)\s+|"
    rf"(?P<uncompressed>uncompressed)\s+|(?P<c0>{_COMPRESSION})\s+)?(?:(?:a|an)\s+)?"
    # a format said as a file extension: "output as a .vdi", "also as .vmdk"
    r"|(?<![\w.+/=-])\.)"
    rf"(?P<fmt>{_FORMAT})(?:\.(?P<c3>{_COMPRESSION}))?{WORD_END}"
    r"(?:\s+(?:image|artifact|file|disk|format|output|(?P<out>out)(?=\s*(?:[,.;!]|$))))?"
    r"(?:\s+as\s+(?:an?\s+)?(?:additional|extra|second|another|other)?\s*"
    r"(?:artifact|output|format|file|image)s?\b)?"
    rf"(?:\s*,?\s*(?:compressed\s+)?(?:with|using|in|as|\+)\s+(?P<c2>{_COMPRESSION})"
    r"(?:\s+compression)?|\s+compressed\b)?"
)
_COMPRESSION_ONLY = re.compile(
    rf"\b(?:(?:compress(?:ed)?|compression)\s+(?:it\s+|them\s+|everything\s+|(?:the\s+)?(?:image|images|outputs?|artifacts?|disks?)\s+)?"
    rf"(?:with|using|to|in|as|:|=)?\s*(?P<c1>{_COMPRESSION}){WORD_END}|{WORD_START}(?P<c2>{_COMPRESSION})"
    r"(?:\s+compression|\s+compressed|\s+compress)?\b)"
)
_NO_COMPRESSION = re.compile(
    r"\b(?:no|without|disable|drop|remove)\s+(?:the\s+)?compression\b|\buncompressed\b"
    r"|\bdon'?t\s+compress\b"
)
_ARTIFACT_ADD = re.compile(r"\b(?:also|add|additional|extra|plus|as\s+well|too|another)\b")
# "and qcow2 for the kvm folks": a sentence that opens with "and" adds to what there is
_CONTINUES = re.compile(r"(?:^|[.;!?]\s+)(?:and|&|\+)\s+(?:(?:a|an|the)\s+)?$")
# "as well as the raw", "next to the raw": the artifacts there are stay
_BESIDE = r"as\s+well\s+as|along\s+with|together\s+with|in\s+addition\s+to|besides|next\s+to"
_BESIDE_CURRENT = re.compile(rf"\b(?:{_BESIDE})\s+(?:the\s+)?(?:current\s+|existing\s+)?$")
# "the output should be qcow2": what the artifacts are, not one more
_SETTING = re.compile(
    r"\b(?:the\s+)?(?:output|(?:output\s+|image\s+|disk\s+)?format|artifacts?)"
    r"(?:\s+(?:format|type))?\s+(?:(?:should|must|will|shall|has\s+to|needs\s+to)\s+)?"
    r"(?:be|is|are)\s+(?:an?\s+)?$"
)
_TOO_AFTER = re.compile(r"\s*,?\s*(?:too|also|as\s+well|in\s+addition)\b")
_ADDED_AFTER = re.compile(r"\b(?:additional|extra|second|another|as\s+well|too)\b")


def rule_artifacts(state: PlanState) -> None:
    """Set the disk artifacts, or change the compression of the existing ones."""
    text = state.text
    found: list[tuple[re.Match[str], Artifact]] = []
    default_compression = next((a.compression for a in _current(state) if a.compression), None)
    default_compression = default_compression or "zstd"
    for match in text.matches(_ARTIFACT):
        fmt = match.group("fmt")
        comp_word = match.group("c0") or match.group("c1") or match.group("c2") or match.group("c3")
        compression = _COMPRESSIONS[comp_word] if comp_word else None
        if compression is None and (match.group("compressed") or "compressed" in match.group()):
            compression = default_compression
        bare_raw = fmt == "raw" and compression is None and not match.group("uncompressed")
        if bare_raw:
            continue  # a bare "raw" names the image type, handled by the target rule
        if state.mode == "refine" and history_beside_a_change(
            text.original, match.start("fmt"), match.end("fmt")
        ):
            text.consume(*match.span(), "context")
            continue  # "add htop. our old images were qcow2": what was, no request
        found.append((match, Artifact(type=fmt, compression=compression)))
    # "a raw and a qcow2": a bare raw next to other formats is an artifact too
    beside_current = False
    if found:
        for match in text.matches(
            re.compile(rf"{WORD_START}(?:uncompressed\s+)?(?:(?:a|an)\s+)?raw{WORD_END}")
        ):
            window = text.work[max(0, match.start() - 12) : match.end() + 12]
            listed = any(m.start() <= match.start() < m.end() for m, _ in found)
            beside = _BESIDE_CURRENT.search(text.work, max(0, match.start() - 30), match.start())
            if beside and not listed:
                text.consume(beside.start(), match.end())  # the raw there is stays
                beside_current = True
                found.append((match, _current_raw(state)))
            elif re.search(r"\b(?:and|or|plus)\b|[,+&]", window) and not listed:
                found.append((match, Artifact(type="raw")))
        found.sort(key=lambda item: item[0].start())
    removed = _removed(text.work, found)
    # "qcow2 out": the output, unless the template has it and the request is a change to it
    have = {a.type for a in _current(state)} if state.mode == "refine" else set()
    removed += [
        (m, a)
        for m, a in found
        if m.groupdict().get("out") and a.type in have and (m, a) not in removed
    ]
    outputs = [m for m, a in found if m.groupdict().get("out") and a.type not in have]
    dropped = {a.type for _, a in removed}
    found = [item for item in found if item not in removed]
    # "qcow2, actually vhdx": a format revised in the same breath is the last one said
    revised = [
        first
        for first, second in zip(found, found[1:], strict=False)
        if revision_between(text.work, first[0].end(), second[0].start())
    ]
    for match, _ in revised:
        text.consume(match.end(), next(m for m, _ in found if m.start() > match.start()).start())
        text.consume(*match.span())
    found = [item for item in found if item not in revised]
    if removed and state.facts.artifact_specs and not found:
        _remove_artifacts(state, removed)
        return
    for match, _ in removed:
        text.consume(*match.span())  # dropped while others are named: the list below
    if found:
        for match in text.matches(_PLATFORM):
            text.consume(*match.span(), "context")  # "upload it to azure as a vhdx": the place
        start = min(m.start() for m, _ in found)
        before = text.work[max(0, start - 40) : start]
        artifacts = [a for _, a in found]
        after = " ".join(m.group() for m, _ in found)
        setting = _SETTING.search(text.work, max(0, start - 60), start)
        # "qcow2 too", "a vhdx as well": the word after the format says it is one more
        added_after = any(_TOO_AFTER.match(text.work, m.end()) for m, _ in found)
        adding = bool(_ARTIFACT_ADD.search(before) or _ADDED_AFTER.search(after)) or beside_current
        adding = (adding or added_after) and not outputs
        adding = adding or bool(_CONTINUES.search(text.work, 0, start))
        if setting is not None:
            adding = False
            text.consume(*setting.span())
        if adding and state.facts.artifact_specs:
            current = [a for a in _current(state) if a.type not in dropped]
            artifacts = current + [a for a in artifacts if a not in current]
        for match, _ in found:
            text.consume(*match.span())
        # "compress the output as xz and give me a qcow2 too": the compression said in a
        # clause of its own is every artifact's
        compressions = [m for m in text.matches(_COMPRESSION_ONLY) if not _listed_package(state, m)]
        if compressions:
            said = compressions[-1]
            each = _COMPRESSIONS[said.group("c1") or said.group("c2")]
            for match in compressions:
                text.consume(*match.span())
            artifacts = [Artifact(type=a.type, compression=each) for a in artifacts]
        _set_artifacts(state, artifacts)
        return
    if _for_platform(state):
        return
    # compression alone changes every existing artifact
    no_compression = text.matches(_NO_COMPRESSION)
    compressions = [m for m in text.matches(_COMPRESSION_ONLY) if not _listed_package(state, m)]
    if not (no_compression or compressions):
        return
    for match in [*no_compression, *compressions]:
        text.consume(*match.span())
    if not state.facts.artifact_specs:
        span = (no_compression or compressions)[0].span()
        state.not_applied.append(
            f"'{text.raw(*span).strip()}' — the template has no disk artifacts to compress"
        )
        return
    value: str | None = None
    if compressions:
        last = compressions[-1]
        value = _COMPRESSIONS[last.group("c1") or last.group("c2")]
    _set_artifacts(state, [Artifact(type=a.type, compression=value) for a in _current(state)])


# The disk format each place that runs VM images takes, for a request that names the place
# and no format: Azure takes a fixed-size VHD, Hyper-V a VHDX, Proxmox, KVM, libvirt and
# OpenStack a qcow2.
_PLATFORM_FORMATS = (
    ("vhd", r"(?:microsoft\s+)?azure(?![\s-]*(?:linux|mariner)\b)"),
    ("vhdx", r"hyper[\s-]?v"),
    ("qcow2", r"proxmox(?:\s+ve)?|kvm|libvirt|openstack|qemu"),
)
_PLATFORM = re.compile(
    r"\b(?:upload(?:ed|ing)?|import(?:ed|ing)?|deploy(?:ed|ing)?|run(?:s|ning)?|boot(?:ed|ing)?"
    r"|launch(?:ed|ing)?|put)\s+(?:(?:it|them|this|that|the\s+(?:image|vm|disk))\s+)?"
    r"(?:(?:to|into|onto|on|in)\s+)(?:(?:our|my|the)\s+)?(?:own\s+)?"
    rf"(?P<place>{'|'.join(f'(?P<{fmt}>{phrase})' for fmt, phrase in _PLATFORM_FORMATS)})"
    r"(?=$|[\s,;.!?)])"
)


def _for_platform(state: PlanState) -> bool:
    """Add the format of the place the image is brought to ("I can upload to Azure myself")."""
    matches = state.text.matches(_PLATFORM)
    if not matches or not state.facts.artifact_specs:
        return False
    match = matches[-1]
    fmt = next(f for f, _ in _PLATFORM_FORMATS if match.group(f))
    state.text.consume(*match.span())
    current = _current(state)
    if any(a.type == fmt for a in current):
        state.notes.append(f"the image already has a {fmt} artifact")
        return True
    state.notes.append(f"{match.group('place')} takes {fmt} disks: added a {fmt} artifact")
    _set_artifacts(state, [*current, Artifact(type=fmt)])
    return True


# "drop the vhdx output", "no vmdk", "we don't need the qcow2 anymore": an artifact to remove
_REMOVING = re.compile(
    r"\b(?:drop|remove|delete|no|without|skip|lose|ditch|forget|scrap|stop\s+(?:making|building)"
    r"|(?:drop|remove|delete)\s+both"
    r"|get\s+rid\s+of|don'?t\s+(?:need|want)|no\s+longer\s+need)"
    r"(?:\s+(?:the|a|an|that|those|this))?\s*$"
)


def _removed(
    work: str, found: Sequence[tuple[re.Match[str], Artifact]]
) -> list[tuple[re.Match[str], Artifact]]:
    """The artifacts a removal verb names: "drop the vhdx", "no qcow2 or vmdk"."""
    removed: list[tuple[re.Match[str], Artifact]] = []
    for index, (match, artifact) in enumerate(found):
        if _REMOVING.search(work, max(0, match.start() - 40), match.start()):
            removed.append((match, artifact))
            continue
        # "remove both the qcow2 and the vhdx": the next item of the same list
        if removed and removed[-1][0] is found[index - 1][0]:
            between = work[found[index - 1][0].end() : match.start()]
            if _LIST_JOIN.fullmatch(between):
                removed.append((match, artifact))
    return removed


_LIST_JOIN = re.compile(r"\s*(?:,|\band\b|\bor\b|&)\s*(?:(?:the|a|an)\s+)?")


def _remove_artifacts(state: PlanState, removed: Sequence[tuple[re.Match[str], Artifact]]) -> None:
    """Take the named formats out of the artifacts; at least one must stay."""
    names = {a.type for _, a in removed}
    current = _current(state)
    spans = [m.span() for m, _ in removed]
    kept = [a for a in current if a.type not in names]
    for span in spans:
        state.text.consume(*span)
    state.absent += [f"{n} output" for n in sorted(names - {a.type for a in current})]
    if not kept:
        state.not_applied.append(
            f"'{state.text.raw(*spans[0]).strip()}' — the image needs at least one disk "
            "artifact; say which format to build instead"
        )
        return
    if len(kept) < len(current):
        _set_artifacts(state, kept)


_LIST_NEIGHBOUR = re.compile(r"(?:,|\band\b|\bor\b|&)\s*$|^\s*(?:,|\band\b|&)")


def _listed_package(state: PlanState, match: re.Match[str]) -> bool:
    """A bare "zstd" among other names is the package ("curl, zstd and jq"), not a compression.

    So is any bare compression word when the template has no disk artifacts to compress.
    """
    if match.group("c2") is None or match.group().strip() != match.group("c2"):
        return False
    if not state.facts.artifact_specs:
        return True
    work = state.text.work
    before = work[max(0, match.start() - 6) : match.start()]
    after = work[match.end() : match.end() + 6]
    return bool(_LIST_NEIGHBOUR.search(before) or _LIST_NEIGHBOUR.search(after))


def _set_artifacts(state: PlanState, artifacts: list[Artifact]) -> None:
    unique: list[Artifact] = []
    for artifact in artifacts:
        if all(a.type != artifact.type for a in unique):
            unique.append(artifact)
    current = _current(state)
    if unique == current:
        state.notes.append("the artifacts are already " + artifact_words(unique))
        return
    state.artifacts = unique


def _current_raw(state: PlanState) -> Artifact:
    """The raw artifact the template has (with its compression), or a plain raw one."""
    return next((a for a in _current(state) if a.type == "raw"), Artifact(type="raw"))


def _current(state: PlanState) -> list[Artifact]:
    """The base template's artifacts, as plan artifacts."""
    return [Artifact(type=a.type, compression=a.compression) for a in state.facts.artifact_specs]


def artifact_words(artifacts: Sequence[Artifact]) -> str:
    """``raw+zstd, qcow2``: artifacts as the summary and notes spell them."""
    return ", ".join(f"{a.type}+{a.compression}" if a.compression else a.type for a in artifacts)
