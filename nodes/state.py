"""The graph's state: what a caller sends, what nodes work on, what comes out.

One turn of conversation is one run on one thread. Fields that describe the *session*
(``template``, ``base_template``, ``sources``, ``turn``) persist across turns; fields that
describe the *turn* are reset by ``classify`` at the start of every run.

Records in state are plain ``TypedDict`` values end to end, so they checkpoint as JSON and
read the same in Studio, the CLI's ``--json`` and the nodes. The ``typing_extensions``
``TypedDict`` lets pydantic draw their JSON schemas (with each field's docstring) on
Python 3.11.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, cast

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

if TYPE_CHECKING:
    from oic_ai.tools.findings import Finding
    from oic_ai.tools.validate_template import FileReport

Status = Literal["valid", "valid_with_warnings", "invalid", "unsupported"]
Intent = Literal["create", "refine", "explain", "edit", "undo", "retarget", "unsupported"]
_DOCUMENTED = with_config(ConfigDict(use_attribute_docstrings=True))
UNDO_DEPTH = 20
"""How many earlier templates a session keeps for ``undo``."""

IMAGE_TURNS = 40
"""How many kept templates a session remembers for pointing back at one of its images."""


@_DOCUMENTED
class Refusal(TypedDict):
    """A system the composer cannot build, as ``classify`` found it in the request."""

    named: str
    """The system as the request wrote it ("Windows Server 2022")."""
    system: str
    """The registry's name for it ("Windows", "Arch Linux")."""
    nearest: str | None
    """The supported dist offered instead; None when there is none (not Linux)."""
    suggestion: str | None
    """The request with the system swapped for ``nearest``."""
    target: NotRequired[dict[str, str]]
    """For a combination without OS defaults: the ``os`` and ``dist`` (absent when none
    was named), ``arch`` and ``imageType`` asked for. For a refused system or arch: what
    the request named of it (the os it is a release of, an arch, an image type)."""
    options: NotRequired[list[str]]
    """For a combination without OS defaults: the nearest buildable ones, in words."""
    rest: NotRequired[str]
    """The refused request without what was refused ("x86_64 raw with nginx, hostname
    web-1"): a next request that says "everything else as I said" asks for it again."""
    kept: NotRequired[dict[str, str]]
    """For a refused system or arch: the supported ``dist`` (and ``imageType``) the request
    named as well ("Debian 13 for armhf"), which the next request keeps."""


@_DOCUMENTED
class Revision(TypedDict):
    """A template the session had before a turn changed it: what ``undo`` goes back to."""

    turn: int
    """The turn that changed it (1-based)."""
    request: str
    """That turn's request."""
    template: str
    """The template before that turn."""


@_DOCUMENTED
class ImageTurn(TypedDict):
    """A template a turn kept, and which of the session's images it is (``images``)."""

    turn: int
    """The turn that kept it (1-based)."""
    request: str
    """That turn's request."""
    template: str
    """The template after that turn."""
    image: int
    """Which image of the session it is (1 for the first one made): a turn that opens
    another image ("now one for the other client") starts the next number."""


@_DOCUMENTED
class ImageSwitch(TypedDict):
    """An earlier image of the session a turn goes back to ("back to the clinic one")."""

    number: int
    """The image's number (1 for the first one made)."""
    turn: int
    """The latest turn that kept a template of it: that template becomes current."""
    refusal: str
    """Why no image is taken ("" when one is): the words fit none, or several."""


@_DOCUMENTED
class ReferenceRecord(TypedDict):
    """A reference to the conversation that ``classify`` found ("undo", "the same for X")."""

    kind: Literal["undo", "same"]
    """``undo`` takes back the last change; ``same`` is the current image again."""
    words: str
    """The reference words as written ("the same for", "go back one step")."""
    remainder: str
    """The rest of the request, for the planner ("" when nothing is left)."""
    target: dict[str, str]
    """For a ``retarget`` turn: the whole new target (os, dist, arch, imageType)."""
    topic: NotRequired[str]
    """For an ``undo``: what a clause right before it names ("and the loglevel, put it back
    how it was" gives "loglevel"): the part taken back."""
    back_to: NotRequired[dict[str, str]]
    """For an ``undo`` that names an earlier target ("go back to debian"): that target's
    fields; the latest earlier template that had them becomes the current one."""
    back_to_packages: NotRequired[list[str]]
    """For an ``undo`` that names packages an earlier template had ("nah go back to
    docker" after a swap to podman): the latest earlier template with them all becomes the
    current one."""
    already: NotRequired[str]
    """For an ``undo`` that goes back over a move to a target the template never made ("go
    back to what we had before the arm thing" after arm was refused): why nothing is taken
    back."""
    image: NotRequired[ImageSwitch]
    """For an ``undo`` that points at another image of the session ("back to the second
    one", "Brightwater's hostname is bw-web"): that image (its latest template becomes
    current), or why none is taken."""
    own_packages: NotRequired[bool]
    """For a ``retarget`` that opens another image with a package list of its own ("now
    one for the other client: debian 13, same users, packages: ..."): the packages the
    earlier image added are not carried over."""
    after_refusal: NotRequired[str]
    """For a bare ``undo`` ("undo", "scratch that") right after a refused turn: what that
    turn asked for. The refused request is what is taken back, and it changed nothing."""


@_DOCUMENTED
class Route(TypedDict):
    """Where ``classify`` sent a turn and why, kept in state so a replay shows it."""

    intent: Intent
    """create, refine, explain, edit (a template given with the turn: ``template_edit``),
    undo (take back the last change), retarget (the current image for another dist, arch
    or image type), or unsupported (a system or combination the composer cannot build)."""
    reason: str
    """Why the turn took this route, in words."""
    query_type: str
    """The retrieval query type (semantic, package-explicit, ...), refinement or question."""
    targets: dict[str, str]
    """The targets the request names (dist, arch, image_type, ...)."""
    unsupported: NotRequired[Refusal]
    """For an ``unsupported`` turn: what was asked for and the nearest alternative; on a
    question that follows one with no template yet, the refusal it still stands for."""
    carried_request: NotRequired[str]
    """For a ``create`` turn after a refusal that says "everything else as I said": the
    refused request's other parts and this request, read as one (retrieval and planning)."""
    proposal: NotRequired[str]
    """For an ``explain`` turn whose question offers a package the template lacks ("would
    chrony make sense here?"): the change a "yes" in the next turn asks for ("add chrony")."""
    setting: NotRequired[str]
    """For an ``explain`` turn whose question names one template setting ("what does
    immutability mean? should I turn it on?"): the setting a "leave it off" in the next
    turn means."""
    compared: NotRequired[list[str]]
    """For an ``explain`` turn whose question weighs two output formats ("the difference
    between raw and qcow2?"): the two, which a "give me both" in the next turn asks for."""
    named: NotRequired[list[str]]
    """For an ``explain`` turn whose question names packages or kernel options ("why is
    qemu-kvm in there?"): what a "take it out" in the next turn removes."""
    inherited: NotRequired[dict[str, str]]
    """For a ``create`` turn right after a refused combination: the targets it kept from
    the refused request (dist, arch, image_type)."""
    reference: NotRequired[ReferenceRecord]
    """For an ``undo`` or ``retarget`` turn (or a refinement that says "like before"): the
    reference to the conversation and what is left of the request."""
    questions: NotRequired[list[str]]
    """Questions about the template asked beside a change ("add htop; which users are
    there?"): answered after the change, from the resulting template."""


@_DOCUMENTED
class Source(TypedDict):
    """A retrieved template with its score breakdown."""

    template: str
    """The template's file name."""
    path: str
    """Its path inside the template library."""
    score: float
    """The hybrid score the ranking used."""
    semantic: float
    """The semantic (embedding) similarity."""
    keyword: float
    """The keyword (BM25) score."""
    package: float
    """The package overlap score."""


@_DOCUMENTED
class FindingRecord(TypedDict):
    """One validation finding, as ``Finding.to_json`` writes it."""

    path: str
    """Where in the template, as a JSON path (``$.systemConfig.packages[3]``)."""
    line: int | None
    """The line in the draft, when known."""
    message: str
    """What is wrong."""
    code: str
    """A stable code for the kind of problem."""
    column: NotRequired[int]
    """The column in the draft, when known."""


@_DOCUMENTED
class Validation(TypedDict):
    """The validator's verdict on the draft."""

    valid: bool
    """True when there are no errors."""
    errors: list[FindingRecord]
    """Schema, semantic and security errors; ``fix`` works on these."""
    warnings: list[FindingRecord]
    """Lint warnings; they make a valid turn ``valid_with_warnings``."""


@_DOCUMENTED
class Packages(TypedDict, total=False):
    """The package check of the draft."""

    checked: bool
    """False when no package index covers the target (see ``reason`` and ``fix``)."""
    reason: str | None
    """Why the packages were not checked."""
    fix: str | None
    """How to make the check possible (e.g. ``oic-ai packages sync``)."""
    found: list[str]
    """Packages the target's index has."""
    missing: list[str]
    """Packages the target's index does not have."""
    unverified: list[str]
    """Names nothing could check: with no index, added names that neither the base, the
    catalog nor the template library knows (e.g. ``photoshop``)."""
    suggestions: dict[str, list[str]]
    """Missing package -> ranked replacements, best first."""


@_DOCUMENTED
class InputState(TypedDict, total=False):
    """What a caller sends: the conversation, whose last human message is the request."""

    messages: Annotated[list[AnyMessage], add_messages]
    """The conversation; the last human message is this turn's request."""
    template_edit: str | None
    """A whole template for this turn to take as its draft (the editor's "Apply", or
    "use as starting point"): planning is skipped, and the text is validated, fixed and
    package-checked like any result. Consumed by the turn (``apply_edit`` clears it)."""
    template_origin: str | None
    """With ``template_edit``: the library template it comes from; the turn then starts
    the session from it (``base_template``) instead of editing the current template."""
    fix_edit: bool | None
    """With ``template_edit``: fix what the validator finds in it ("Fix it" on the page,
    ``TemplateAgent.apply_edit(fix=True)``). Without it, the errors of a user's own edit
    are reported and never fixed without asking. Consumed by the turn."""


@_DOCUMENTED
class OutputState(TypedDict, total=False):
    """What a caller gets back after a turn."""

    messages: Annotated[list[AnyMessage], add_messages]
    """The conversation, ending with this turn's summary."""
    status: Status | None
    """valid, valid_with_warnings, invalid or unsupported; None until ``respond``."""
    reasons: list[str]
    """Why the status is not plain ``valid``."""
    template: str | None
    """The session's current template (kept across turns; never an invalid one)."""
    draft: str | None
    """This turn's candidate template."""
    base_template: str | None
    """The library template a created template started from."""
    sources: list[Source]
    """The retrieved templates with their scores."""
    changes: list[str]
    """What this turn changed, one line each."""
    not_applied: list[str]
    """Parts of the request that were not applied, with why."""
    last_not_applied: list[str]
    """What the last turn that asked for a change did not apply (kept across questions:
    "what did you drop exactly?")."""
    last_changes: list[str]
    """What the last turn that asked for a change changed (kept across questions: "what
    did you change?")."""
    sized: dict[str, str]
    """The sizes the user asked for in this session: ``disk``, and partitions by mount point
    or id ("disk 12 gig", then "add /data 4G": the disk stays and an unasked root gives the
    room)."""
    warnings: list[str]
    """Warnings from applying the plan."""
    diff: str
    """Unified diff from the turn's starting text to the draft."""
    validation: Validation | None
    """The validator's verdict on the draft."""
    packages: Packages | None
    """The package check of the draft."""
    provider: str | None
    """The planner that ran: builtin, ollama, openai, chat-model or a builtin fallback."""
    answer: str | None
    """The answer to a question about the template (``explain``)."""
    turn: int
    """Turns finished in this session."""
    request: str
    """This turn's request: the last human message's text."""
    route: Route | None
    """Where ``classify`` sent the turn."""
    plan: dict[str, Any] | None
    """The edit plan ``generate`` applied, as JSON (its clauses say what became of each
    part of the request)."""
    notices: list[str]
    """Notes for the user: fallbacks, backend failures, family mismatches."""


@_DOCUMENTED
class State(InputState, OutputState, total=False):
    """Everything the nodes read and write."""

    fix_attempts: int
    """Fix rounds so far this turn; bounded by ``max_fix_attempts``."""
    fix_history: list[str]
    """One line per fix round."""
    review_edit: bool
    """True when the reviewer replaced the draft (validated once more)."""
    base_text: str | None
    """The base template's text (create turns)."""
    start_text: str | None
    """The text this turn started from; the diff is taken against it."""
    own_edit: bool
    """True for an edit turn whose draft is the user's own text and no fix was asked for:
    its errors and missing packages are reported, never fixed without asking."""
    undo_stack: list[Revision]
    """The session's earlier templates, oldest first, one per turn that changed it (at most
    ``UNDO_DEPTH``): ``undo`` makes the last one current again."""
    redo_stack: list[Revision]
    """What undo turns took back, the last one last: each entry is the template an undo
    turn left, with the turn it took back. "redo" makes the last one current again; a turn
    that changes anything else empties it."""
    images: list[ImageTurn]
    """Every template a turn kept, oldest first, with the image of the session it is (at
    most ``IMAGE_TURNS``): "back to the clinic one" makes that image's latest one current."""


def record(state: State, key: Literal["route", "validation", "packages"]) -> dict[str, Any]:
    """A record field of state as a plain dict (empty when unset)."""
    value = state.get(key)
    return dict(value) if isinstance(value, dict) else {}


def finding_records(findings: list[Finding]) -> list[FindingRecord]:
    """Findings as the records state keeps."""
    return [cast(FindingRecord, f.to_json()) for f in findings]


def validation_of(report: FileReport) -> Validation:
    """A validation report as state keeps it."""
    return Validation(
        valid=report.valid,
        errors=finding_records(report.errors),
        warnings=finding_records(report.warnings),
    )
