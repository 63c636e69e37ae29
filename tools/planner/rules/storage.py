"""Rule: partitions and the disk size said in everyday clauses, read by their slots.

After the exact partition and disk rules, a clause that still names a mount point
("/var/lib/docker") or "the pgsql partition" is read for its slots: the mount point or
partition word, a size, a file system ("formatted xfs", "on ext4") and the verb. A mount
point the disk has is resized (or reformatted); a new one becomes a partition. A clause
that only adds a size or a file system ("ext4", "25GB") continues the partition of the
clause before it, in the same sentence.

A size left over after that is the disk's ("32 GiB" in "a docker host, 32 GiB, vhdx")
unless it repeats a size the sentence already used ("half a gig (512 MiB, that is)").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from oic_ai.stores.disk_units import format_size
from oic_ai.stores.template_model import Partition
from oic_ai.tools.planner.clauses import Clause, sentence_at, split_clauses
from oic_ai.tools.planner.rules.boot import IMMUTABLE as _IMMUTABLE
from oic_ai.tools.planner.rules.disk import request_size, set_disk_size
from oic_ai.tools.planner.rules.partitions import (
    add_partition,
    find_partition,
    forget_default_size,
    resize_partition,
    size_defaulted,
)
from oic_ai.tools.planner.rules.size_context import asked_sizes
from oic_ai.tools.planner.sizes import Size, parse_token
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import FIXED, FS, MOUNT, SIZE, SIZE_JUDGED, TAKE_OUT

_MOUNT = re.compile(rf"(?<![\w.:/~-])(?P<mount>{MOUNT})(?=$|[\s,;.!?)\x1f])")
_NAMED = re.compile(
    r"\b(?:the\s+)?(?P<word>[a-z][a-z0-9_-]*)\s+partition\b"
    r"|\b(?:the\s+)?(?P<fsword>root|boot|efi|home|data|log|var)\s+(?:file\s*system|fs|volume)\b"
    # "the root filesystem read-only": how it is mounted is immutability, not a partition
    r"(?!\s+(?:(?:is|be|stays?|to\s+be)\s+)?(?:read[- ]only|read[- ]write|writable|immutable))"
    # "root 30G ext4", "esp 512MiB": a partition named by its role word, right before its
    # size (the EFI system partition's words name it wherever the template mounts it)
    # ("root can stay small at 8 gigs": a verb of staying or being may come between)
    rf"|(?<![\w/.-])(?P<root>root|rootfs|esp|efi)(?=\s+(?:(?:(?:can|should|will|must|could|may)\s+)?"
    r"(?:stay|stays|remain|remains|be|is|gets?)\s+(?:(?:small|smaller|tiny|lean|modest|big|bigger|"
    r"larger|only|just)\s+)?)?"
    rf"(?:=\s*|at\s+|of\s+|to\s+)?{FIXED}{SIZE}"
    # or right before or after its file system: "rootfs as xfs", "root on btrfs", "use xfs
    # for rootfs", "xfs for root please" (never "root access", "root login")
    # "root should be xfs", "rootfs must be btrfs"
    rf"|\s*(?:[:=]\s*|(?:as|on|in|to|with|using)\s+|(?:should|must|needs?\s+to|has\s+to)\s+be\s+)"
    rf"(?:{FS})\b)"
    rf"|\b(?:{FS})\s+(?:for|on)\s+(?:the\s+)?(?P<root2>root|rootfs)(?![\w/.-])"
    # "256M ESP, 12 GiB root": the size first, then the partition's role word
    # ("the 12 GiB root is too small" says the size it has)
    rf"|(?<![\w.])(?<!\bthe\s){SIZE}\s+(?:(?:for|of)\s+(?:the\s+)?)?(?P<root3>root|rootfs|esp|efi)"
    r"(?![\w/.-])(?!\s+(?:access|login|user|password|account|is|was|seems|looks)\b)"
)


# the root file system by its word alone, in a clause about the rest of the disk (the
# groups of _NAMED that do not apply never match)
def _named_word(named: re.Match[str]) -> str:
    """The word that names a partition in a :data:`_NAMED` match."""
    groups = ("word", "fsword", "root", "root2", "root3")
    return next((g for g in (named.groupdict().get(k) for k in groups) if g), "")


_ROOT_WORD = re.compile(
    r"(?<![\w/.-])(?P<root>root|rootfs)(?![\w/.-])|(?P<word>(?!))|(?P<fsword>(?!))"
)
_SIZE = re.compile(rf"(?<![\w.])(?P<size>{SIZE})")
_FS = re.compile(rf"\b(?P<fs>{FS})\b(?:\s+(?:filesystem|file\s+system|fs))?")
_REMOVE = re.compile(rf"\b(?:{TAKE_OUT}|without|no|skip)\b")
# the words a clause that removes a mount point's partition may hold beside the verb
_REMOVE_FILLER = frozenset(
    "the that this one partition mount mountpoint volume fs filesystem too also please pls ok okay "
    "and then as well separate dedicated extra own now again".split()
)
# beside a partition given a fixed size, a clause that says the rest of the disk stays
# free ("leave the remaining space unallocated", "not the rest of the disk") asks for
# nothing more: a fixed size already leaves it
_REST_FREE = re.compile(
    r"^[\s\x1f]*(?:(?:and|but|so)\s+)?(?:(?:leave|keep)\s+(?:the\s+)?(?:rest(?:\s+of\s+(?:the\s+)?disk)?"
    r"|remainder|remaining\s+(?:space|disk(?:\s+space)?)|free\s+space|space\s+left)\s+"
    r"(?:unallocated|unpartitioned|free|empty|unused|alone)"
    r"|not\s+(?:the\s+)?(?:rest|remainder)(?:\s+of\s+(?:the\s+)?(?:disk|drive))?)"
    r"(?:\s+(?:for\s+now|for\s+the\s+moment|please|pls))?[\s\x1f.!]*$"
)
_NOT_MOUNTS = re.compile(r"^/(?:dev|proc|sys|bin|sbin|usr/s?bin|etc)(?:/|$)")
_SWAP = re.compile(r"\bswap(?:\s+(?:partition|space|area))?\b")
_NOT_NAMES = frozenset("a an new separate own dedicated extra additional second its their".split())
# verbs that change what is there: on a mount point the disk has no partition for, they
# are reported, not read as "add" ("shrink /var/log to 1GiB" on a disk without one)
_CHANGING = re.compile(
    r"\b(?:shrink|grow|bump|increase|reduce|enlarge|extend|expand|resize|decrease|cut|format|"
    r"reformat|bigger|larger|smaller)\b"
)
_MORE = re.compile(rf"(?<![\w.]){SIZE}\s+(?:more|extra|additional|bigger|larger)\b|\bmore\b")
_REST = re.compile(
    r"\b(?:(?:take|takes|taking|use|using|fill|get|gets|have|with)\s+(?:up\s+)?(?:all\s+(?:of\s+)?)?)?"
    r"(?:the\s+)?(?:rest|remainder|remaining\s+space)"
    r"(?:\s+of\s+(?:the\s+)?(?:disk|drive))?|\bfill\s+the\s+disk\b"
    # "/var/lib/mysql = everything else", "/srv gets whatever is left"
    r"|(?:=|\b(?:gets?|takes?|is|with))\s*(?:all\s+of\s+)?(?:everything\s+else|what(?:ever)?\s+(?:is|'s)\s+left)"
)
# a clause after a partition's that keeps its size: "same size", "keep the size as it is",
# "size unchanged", "don't change its size"
_SAME_SIZE = re.compile(
    r"[\s\x1f]*(?:(?:and|but|just|only)\s+)*(?:"
    r"(?:(?:at|with|keep(?:ing)?|leave)\s+)?(?:(?:the|its|it's)\s+)?(?:(?:same|current|existing|old)"
    r"\s+size|size(?:\s+(?:as\s+(?:it\s+is|is|before)|alone|unchanged|stays(?:\s+the\s+same)?"
    r"|(?:is\s+)?the\s+same|doesn'?t\s+change))?)(?:\s+(?:as\s+(?:before|now|it\s+is)|too))?"
    r"|(?:don'?t|do\s+not)\s+(?:change|touch)\s+(?:the\s+|its\s+)?size)"
    r"(?:\s+(?:please|pls))?[\s\x1f.!]*$"
)
_STORAGE_WORDS = re.compile(
    r"\b(?:partition|partitions|own|separate|dedicated|mount(?:ed)?|formatted|filesystem)\b"
)


@dataclass
class _Ask:
    mount: str | None = None
    size: Size | None = None
    fs: str | None = None
    remove: bool = False
    changing: bool = False
    pending: bool = False  # "/data:" or "bigger /data": its size is in the next clause
    more: bool = False  # "2GiB more": a size to add
    rest: bool = False  # "take the rest of the disk"
    start: int = 0
    end: int = 0
    size_at: int = -1


# a file system served over the network: "from the NFS server 10.2.0.4", "an SMB share",
# "nas:/export/data"
_NETWORK_MOUNT = re.compile(
    r"\b(?:nfs(?:v?[34])?|cifs|smb|samba|sshfs|glusterfs|ceph(?:fs)?"
    # the cluster file systems of HPC sites: "mount our lustre fs at /lustre"
    r"|lustre|beegfs|gpfs|orangefs|moosefs|cvmfs)\b"
    r"|\bfrom\s+(?:the\s+)?(?:file\s*server|nas|share|server)\b"
    r"|\b[a-z0-9][\w.-]*:/(?!/)[\w/.-]+"  # "nas01:/export/data" (a URL's "://" is not)
)
_NETWORK_REASON = (
    "a network file system (NFS, SMB, Lustre) is mounted by the running system (fstab, a "
    "systemd mount unit or cloud-init), not laid out on the image's disk; the template can "
    "add the client package (nfs-common or nfs-utils)"
)


# what lays a partition out on the disk: a size, the rest of the disk or a local file system
_LAYOUT = re.compile(rf"{SIZE}|\brest\s+of\s+(?:the\s+)?disk\b|\b(?:ext4|xfs|btrfs|ext3|f2fs)\b")


def _local_layout(work: str, network: re.Match[str]) -> bool:
    """True when the network word is part of a mount point the clause lays out locally."""
    inside_a_path = network.start() > 0 and work[network.start() - 1] == "/"
    return inside_a_path and _LAYOUT.search(work) is not None


def rule_storage_clauses(state: PlanState) -> None:
    """Read the clauses that still name a mount point or a partition, then the sentences."""
    from oic_ai.tools.planner.rules.mount_options import rule_mount_options
    from oic_ai.tools.planner.rules.partitions import partition_sentences

    _kept_partitions(state)
    rule_mount_options(state)  # "mount /tmp with nodev,nosuid,noexec"
    _storage_clauses(state)
    partition_sentences(state)
    _named_again(state)


def _named_again(state: PlanState) -> None:
    """A mount point the plan adds a partition for, named again in a list, asks nothing more.

    "separate /var, /var/tmp and /home. 8GiB /var, 2GiB /var/tmp, /home gets 10GiB": the
    sizes said later made the partitions; the list before them only announced them.
    """
    from oic_ai.tools.edit_plan import AddPartition

    for op in state.partition_ops:
        if isinstance(op, AddPartition) and op.mount_point != "/":
            mount = re.compile(rf"(?<![\w./~-]){re.escape(op.mount_point)}(?![\w/-]|\.\w)")
            for match in state.text.matches(mount):
                state.text.consume(*match.span(), "partition")


# a partition the request keeps as it is: "keep /var", "leave root as one big partition",
# "the /srv partition stays", "/home stays as it is"
_KEPT = re.compile(
    r"\b(?:keep|keeping|leave|leaving|retain)\s+(?:the\s+)?"
    rf"(?:(?P<mount>{MOUNT})|(?P<word>root|rootfs|[a-z][a-z0-9_-]*(?=\s+partition\b)))"
    r"(?:\s+(?:partition|one))?"
    r"(?:\s+(?:as\s+(?:it\s+is|is|(?:one|a)\s+(?:big\s+|single\s+|large\s+)*partition)"
    r"|alone|untouched|unchanged|in\s+place|there))?"
    r"|(?<![\w./~-])(?P<mount2>" + MOUNT + r")(?:\s+partition)?\s+stays(?:\s+as\s+(?:it\s+)?is)?"
)


def _kept_partitions(state: PlanState) -> None:
    """A partition kept as it is asks for nothing, when the disk has it.

    The clause must be only that ("keep /var", "but leave root as one big partition"); a
    kept partition the disk does not have is left to be reported.
    """
    text = state.text
    for clause in split_clauses(text.original):
        work = text.work[clause.start : clause.end]
        match = _KEPT.search(work)
        if match is None or work[: match.start()].strip(" \x1f") not in ("", "and", "but", "so"):
            continue
        if work[match.end() :].strip(" \x1f.!,") not in ("", "please", "pls", "though", "too"):
            continue
        ref = match.group("mount") or match.group("mount2") or match.group("word")
        part = find_partition(state, ref.rstrip("/") or "/")
        if part is not None and not _REMOVE.search(work):
            text.consume(clause.start, clause.end, "context")


def _storage_clauses(state: PlanState) -> None:
    text = state.text
    current: _Ask | None = None
    sentence = -1
    announced: int | None = None  # where a clause that asked for a partition without
    # its mount point starts ("Data goes on its own partition: /srv, xfs")
    listed: list[tuple[str, int, int]] = []  # "partitions for /var, /tmp and /home"
    listing = -1  # the sentence whose list of mount points is being read
    for clause in split_clauses(text.original):
        work = text.work[clause.start : clause.end]
        if clause.sentence != sentence:
            # "... a separate /var/log partition. 2 GiB, ext4 please.": a sentence that
            # opens with only a size or a file system goes on with the partition before
            before = None
            if _ONLY_ATTRIBUTES.fullmatch(work):
                before = current or _planned_before(state, clause, clause.sentence - 1)
            current, sentence, announced = before, clause.sentence, None
        if listing == clause.sentence and (bare := _BARE_MOUNT.fullmatch(work)):
            listed.append((bare.group("mount").rstrip("/") or "/", clause.start, clause.end))
            continue
        network = _NETWORK_MOUNT.search(work)
        if network is not None and _local_layout(work, network):
            network = None  # "/var/lib/ceph rest of disk (xfs)": a daemon's data, laid out
        if network is not None and _MOUNT.search(work):
            # "mount /scratch from the NFS server 10.2.0.4": a share, no partition of the disk
            state.reject(clause.start, clause.end, _NETWORK_REASON)
            continue
        ask = _read(state, clause, work, announced is not None)
        if ask is not None and ask.mount is not None and announced is not None:
            ask.start = announced  # the clause that asked for it is read with it
        announced = clause.start if ask is None and _ANNOUNCED.search(work) else None
        if ask is None:
            if current is not None and _SAME_SIZE.match(work):
                # "make /data xfs instead, same size": the size stays as it is
                text.consume(clause.start, clause.end, "context")
            continue
        if _listing_starts(ask, work):
            listed.append((ask.mount or "", clause.start, clause.end))
            listing = clause.sentence
            continue
        if ask.mount is None and current is None:
            current = _planned_before(state, clause)
        if ask.mount is None and current is not None and not current.remove:
            # "..., ext4", "..., 25GB", "/data: 6GiB": the partition of the clause before
            current.size = current.size or ask.size
            current.more = current.more or ask.more
            current.fs = current.fs or ask.fs
            current.end = ask.end
            _plan(state, current, again=not current.pending)
            current.pending = False
            continue
        if ask.mount is None:
            continue
        current = ask
        if not ask.pending:
            _plan(state, ask)
    _plan_listed(state, listed)
    if state.partition_ops:
        for clause in split_clauses(text.original):
            if _REST_FREE.match(text.work[clause.start : clause.end]):
                text.consume(clause.start, clause.end)


# "separate partitions for /var, ...", "CIS wants partitions on /tmp and /home": a list of
# mount points that each get a partition (their sizes may come later in the request)
_LISTING = re.compile(rf"\bpartitions\s+(?:for|on|of|at)\s+(?:the\s+)?(?:{MOUNT})[\s\x1f,.]*$")
_BARE_MOUNT = re.compile(rf"[\s\x1f]*(?:(?:and|or|plus)\s+)?(?P<mount>{MOUNT})[\s\x1f.]*")


def _listing_starts(ask: _Ask, work: str) -> bool:
    """True for the clause that opens a list of mount points, with no size of its own."""
    return (
        ask.mount is not None
        and ask.size is None
        and ask.fs is None
        and not (ask.rest or ask.remove or ask.pending)
        and _LISTING.search(work) is not None
    )


def _plan_listed(state: PlanState, listed: list[tuple[str, int, int]]) -> None:
    """A partition for each listed mount point that no clause of the request planned.

    The clauses that sized them later ("10 GiB for /var") planned them already; the rest
    get the planner's default size, which a warning says.
    """
    from oic_ai.tools.edit_plan import AddPartition

    for mount, start, end in listed:
        state.text.consume(start, end)
        planned = any(
            isinstance(op, AddPartition) and op.mount_point == mount for op in state.partition_ops
        )
        part = find_partition(state, mount)
        if not planned and (part is None or part.mount_point != mount):
            add_partition(state, (start, end), mount, None, None)


def _planned_before(state: PlanState, clause: Clause, sentence: int | None = None) -> _Ask | None:
    """The partition an exact rule planned earlier in ``clause``'s sentence, if any.

    With ``sentence``, from that sentence on (the one before: "... a /var/log partition.
    2 GiB, ext4 please.").
    """
    from oic_ai.tools.edit_plan import AddPartition

    which = clause.sentence if sentence is None else sentence
    sentence_start = min(
        (c.start for c in split_clauses(state.text.original) if c.sentence == which),
        default=clause.start,
    )
    claims = [
        (s, e)
        for s, e, owner in state.text.claims
        if owner == "partition" and sentence_start <= s < clause.start
    ]
    adds = [op for op in state.partition_ops if isinstance(op, AddPartition)]
    if not claims or not adds:
        return None
    last = adds[-1]
    size = parse_token(last.size) if last.size else None
    if size_defaulted(state, last.mount_point):
        size = None  # the planner's default: the size said after it replaces it
    return _Ask(mount=last.mount_point, size=size, fs=last.fs_type, start=claims[-1][0])


# a partition asked for whose mount point comes in the next clause: "Logs get their own
# partition: /var/log, 4GiB", "a separate partition for it, /srv, xfs"
_ANNOUNCED = re.compile(
    r"\b(?:own|separate|dedicated|extra|additional|new)\s+(?:data\s+)?partition\b"
    # what it is for may follow: "a separate partition for logs, /var/log, 3GiB"
    r"(?:\s+for\s+(?:the\s+|our\s+|its\s+|their\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?)?"
    r"(?:\s+(?:too|as\s+well|please|pls))?[\s\x1f]*[:,]?[\s\x1f]*$"
)


def _read(state: PlanState, clause: Clause, work: str, announced: bool = False) -> _Ask | None:
    """The storage slots of one clause; ``announced``: the clause before asked for a partition."""
    ask = _Ask(start=clause.start, end=clause.end)
    if _IMMUTABLE.search(work) and not (_SIZE.search(work) or _FS.search(work)):
        return None  # "can the root filesystem be read-only?": how it is mounted, no layout
    mount = next(
        (
            m
            for m in _MOUNT.finditer(work)
            if not _NOT_MOUNTS.match(m.group("mount")) and not _between_words(work, m)
        ),
        None,
    )
    named = _NAMED.search(work)
    if named is None and _REST.search(work):
        named = _ROOT_WORD.search(work)  # "the rest is for root", "root gets the rest"
    storage = bool(
        _SIZE.search(work) or _FS.search(work) or _STORAGE_WORDS.search(work) or _REST.search(work)
    )
    if mount is not None and not storage and _REMOVE.search(work):
        # "scratch the /var/log one": removing a mount point the disk has a partition for,
        # in a clause of nothing else ("drop the logrotate config for /var/log" is not)
        part = find_partition(state, mount.group("mount").rstrip("/") or "/")
        rest = _REMOVE.sub(" ", work[: mount.start()] + " " + work[mount.end() :])
        storage = (
            part is not None
            and part.mount_point != "/"
            and set(re.findall(r"[a-z']+", rest)) <= _REMOVE_FILLER
        )
    pending = (
        mount is not None
        and not storage
        and (clause.ends_with_colon or bool(_CHANGING.search(work)))
    )
    if mount is not None and not storage and not pending and not _only_mount(work, announced):
        mount = None  # a path alone ("/usr/sbin/nologin" was a shell) is not storage
    ask.pending = pending
    if mount is not None:
        ask.mount = mount.group("mount").rstrip("/") or "/"
    elif _SWAP.search(work) and _SIZE.search(work):
        ask.mount = "none"  # "a 2GiB swap partition", "4 gigs of swap"
        ask.fs = "linux-swap"
    elif named is not None and _named_word(named) not in _NOT_NAMES:
        word = _named_word(named)
        part = find_partition(state, word)
        if part is None:
            # "the data partition should be 10GiB" on a disk without one: say so, and
            # never read its size as the disk's
            state.reject(clause.start, clause.end, f"the template has no {word} partition")
            return None
        ask.mount = part.mount_point or part.id
    sizes = list(_SIZE.finditer(work))
    if sizes and ask.mount is not None and _JUDGED.search(work, sizes[-1].end()):
        # "half a gig for /boot/efi is overkill": the size it has, judged; the size asked
        # for comes next ("make it 256 megs"), or none was said
        later = re.split(r"[.!?\n]", state.text.work[clause.end :], maxsplit=1)[0]
        if not _SIZE.search(later):
            state.reject(
                clause.start,
                clause.end,
                f"says which size of {ask.mount} is wrong, not which to use; "
                f"say the size it should have ('make {ask.mount} ...GiB')",
            )
            return None
        sizes, ask.pending = [], True
    if sizes:
        at = clause.start + sizes[-1].start("size"), clause.start + sizes[-1].end("size")
        ask.size = request_size(state, at, record=False)
        ask.size_at = at[0]
    fs = _FS.search(work)
    if fs is not None:
        ask.fs = state.revised.get(clause.start + fs.start("fs"), fs.group("fs"))
    ask.remove = bool(_REMOVE.search(work)) and ask.size is None
    ask.changing = bool(_CHANGING.search(work))
    ask.more = bool(_MORE.search(work))
    ask.rest = bool(_REST.search(work))
    if ask.mount is not None and ask.rest:
        return ask
    if ask.mount is None and ask.size is None and ask.fs is None:
        return None
    if ask.mount is None and _TOTAL.search(work):
        return None  # "30 GiB in total": the disk's size, not the partition's before
    if ask.mount is None and (ask.size is None) == (ask.fs is None) and len(work.split()) > 3:
        return None  # not an attribute clause
    return ask


# a verdict on a partition's size: "... for /boot/efi is overkill", "/var at 2 GiB is too small"
_JUDGED = re.compile(SIZE_JUDGED)
# a clause of nothing but a size or a file system (and a courtesy word)
_ONLY_ATTRIBUTES = re.compile(
    rf"[\s\x1f]*(?:(?:and|also|with)\s+)?(?:{SIZE}|{FS})(?:\s+(?:please|pls|thanks))?[\s\x1f.,;]*"
)


# a bare "/" between two words is "or": "read-only / immutable", "docker / podman"
_WORD_BEFORE = re.compile(
    r"(?:^|\s)(?!(?:on|at|for|as|to|of|is|in|and|root|mount|mounted|the)\s*$)[a-z][a-z-]*\s*$"
)
_WORD_AFTER = re.compile(
    r"\s*(?!(?:partition|volume|fs|filesystem|gets?|takes?|is|and|with)\b)[a-z][a-z-]*\b"
)


def _between_words(work: str, mount: re.Match[str]) -> bool:
    """True when ``mount`` is a bare "/" standing between two plain words (an "or")."""
    if mount.group("mount") != "/":
        return False
    before = _WORD_BEFORE.search(work[: mount.start()])
    return before is not None and _WORD_AFTER.match(work, mount.end()) is not None


_TOTAL = re.compile(r"\b(?:in\s+total|total|overall|altogether|all\s+told)\b")


def _only_mount(work: str, announced: bool) -> bool:
    """True when the clause is only a mount point, right after one that asked for a partition."""
    return announced and bool(re.fullmatch(rf"[\s\x1f]*(?:{MOUNT})[\s\x1f.]*", work))


def _plan(state: PlanState, ask: _Ask, again: bool = False) -> None:
    text = state.text
    if ask.mount is None:
        return
    if again:
        # the continuing clause only refines what the clause before planned
        _retract(state, ask.mount)
    text.consume(ask.start, ask.end)
    if ask.size is not None:
        state.sizes.append((ask.size_at, ask.size.bytes))
    part = find_partition(state, ask.mount)
    span = (ask.start, ask.end)
    if ask.rest and part is not None:
        _take_the_rest(state, part, span)
        return
    if ask.rest and ask.size is None and ask.mount != "none":
        add_partition(state, span, ask.mount, None, ask.fs, rest=True)
        return
    if ask.more and part is not None and ask.size is not None:
        current = part.size_bytes(state.facts.disk_size_bytes)
        if current is None:
            state.reject(*span, f"the current size of {part.ref} is not known")
            return
        total = current + ask.size.bytes
        from oic_ai.stores.disk_units import format_size

        resize_partition(state, span, part, total, format_size(total))
        return
    if ask.mount == "none":
        _plan_swap(state, ask, span)
        return
    if ask.remove and part is not None:
        from oic_ai.tools.edit_plan import RemovePartition

        state.partition_ops.append(RemovePartition(partition=part.ref))
        return
    if ask.remove and ask.size is None:
        # "no separate /tmp after all" with none there: what is asked already holds
        state.notes.append(f"the disk has no {ask.mount} partition")
        return
    if part is not None and part.mount_point == ask.mount and ask.size is not None:
        resize_partition(state, span, part, ask.size.bytes, ask.size.text)
        if ask.fs:
            add_partition(state, span, ask.mount, None, ask.fs)
        return
    if part is None and ask.changing:
        state.reject(
            *span,
            f"the template has no {ask.mount} partition to resize; ask for 'a {ask.mount} "
            "partition of 2GiB' to add one",
        )
        return
    add_partition(state, span, ask.mount, ask.size, ask.fs)


def _take_the_rest(state: PlanState, part: Partition, span: tuple[int, int]) -> None:
    """Let ``part`` take the rest of the disk; only the last partition can."""
    from oic_ai.tools.edit_plan import SetValue

    if not part.end_bytes:
        state.notes.append(f"{part.ref} already takes the rest of the disk")
        return
    from oic_ai.tools.planner.rules.partitions import removed_in_plan

    kept = [p for p in state.facts.partitions if not removed_in_plan(state, p)]
    last = max(kept or state.facts.partitions, key=lambda p: p.start_bytes or 0)
    if last.id != part.id:
        if not _fill_before(state, part, kept):
            state.reject(
                *span, f"only the last partition can take the rest of the disk: {part.ref}"
            )
        return
    if any(not p.end_bytes and p.start_bytes for p in state.facts.partitions if p not in kept):
        # "/home we don't need, give the rest to /var": removing the partition that took
        # the rest of the disk gives it to the one before
        state.notes.append(f"{part.ref} takes the rest of the disk once the last one is gone")
        return
    state.values.append(SetValue(path=f"disk.partitions[id={part.id}].end", value="0"))


def _fill_before(state: PlanState, part: Partition, kept: list[Partition]) -> bool:
    """Size ``part`` so it fills what the partitions after it leave of the disk.

    "add /data of 2 GB, rest is for root": every partition after the root has a size (its
    own, or the one this plan gives it), so the root's size is what is left. False when a
    partition after it has none, or the disk size is not known.
    """
    from oic_ai.stores.disk_units import parse_size
    from oic_ai.tools.edit_plan import ResizePartition
    from oic_ai.tools.partition_layout import MIB, MIN_ROOT

    disk = parse_size(state.disk_size) if state.disk_size else state.facts.disk_size_bytes
    if disk is None or part.start_bytes is None:
        return False
    after = [p for p in kept if (p.start_bytes or 0) > part.start_bytes]
    planned = {
        op.partition: parse_size(op.size)
        for op in state.partition_ops
        if isinstance(op, ResizePartition)
    }
    sizes = []
    for later in after:
        size = planned.get(later.ref) or later.size_bytes(None)
        if not size:
            return False
        sizes.append(size)
    # a whole MiB less, so a partition in decimal units after it still starts on a whole MB
    room = (disk - part.start_bytes - sum(sizes) - MIB) // MIB * MIB
    current = part.size_bytes(disk) or 0
    if room < (MIN_ROOT if part.mount_point == "/" else MIB):
        return False
    op = ResizePartition(partition=part.ref, size=format_size(room))
    resizes = [i for i, o in enumerate(state.partition_ops) if isinstance(o, ResizePartition)]
    # shrinking first makes room for the later ones; growing waits until they have shrunk
    at = resizes[0] if resizes and room < current else len(state.partition_ops)
    state.partition_ops.insert(at, op)
    return True


def _plan_swap(state: PlanState, ask: _Ask, span: tuple[int, int]) -> None:
    """A swap partition: resize the one there is, or add one (mount point none)."""
    from oic_ai.tools.edit_plan import AddPartition

    swap = next(
        (p for p in state.facts.partitions if "swap" in (p.fs_type + p.id + p.mount_point).lower()),
        None,
    )
    if swap is not None and ask.size is not None:
        resize_partition(state, span, swap, ask.size.bytes, ask.size.text)
        return
    if swap is not None:
        state.notes.append("the disk already has a swap partition")
        return
    size = ask.size.text if ask.size is not None else None
    state.partition_ops.append(
        AddPartition(
            id="swap", mount_point="none", size=size, fs_type="linux-swap", type="linux-swap"
        )
    )
    state.features.append((span[0], "swap partition"))


def _retract(state: PlanState, mount: str) -> None:
    """Forget what the clause before planned for ``mount`` (it is planned again, whole)."""
    from oic_ai.tools.edit_plan import AddPartition, ResizePartition, SetValue

    part = find_partition(state, mount)
    refs = {mount, *((part.ref, part.id) if part else ())}
    state.partition_ops[:] = [
        op
        for op in state.partition_ops
        if not (
            (isinstance(op, AddPartition) and op.mount_point == mount)
            or (isinstance(op, ResizePartition) and op.partition in refs)
        )
    ]
    state.values[:] = [
        v
        for v in state.values
        if not (isinstance(v, SetValue) and part is not None and f"[id={part.id}]" in v.path)
    ]
    state.notes[:] = [n for n in state.notes if not n.startswith(f"{mount} already")]
    forget_default_size(state, mount)


# a size of memory, not of a disk: "4GiB of RAM", "RAM: 8GiB", "1GiB hugepages"
_MEMORY_AFTER = re.compile(r"\s*(?:of\s+)?(?:ram|memory|mem|huge\s*pages?|pages?)\b")
_MEMORY_BEFORE = re.compile(
    r"\b(?:ram|memory)\s*(?:is\s+|of\s+|:\s*|=\s*)?(?:only\s+|just\s+|about\s+)?$"
)


# memory asked of the machine the image runs in: "make the VM have ... 8 gigs of RAM",
# "give the guest 4GiB of memory", "allocate 8GiB RAM to it"
_SIZING_THE_VM = re.compile(
    r"\b(?:make|give|set|configure|allocate|assign|size|bump|provision)\s+(?:the\s+|this\s+|each\s+)?"
    r"(?:vms?|virtual\s+machines?|guests?|instances?|machines?|it|them)\b(?:\s+(?:have|get|with|to))?"
    r"[^.;!?\n]*$"
)
_VM_HARDWARE = (
    "the memory and CPUs of a VM are set where it is created (the hypervisor or the cloud), "
    "not in the OS image"
)


# "the box has a 64 GB eMMC, use all of it": the whole device for the disk size just read
_WHOLE_DEVICE = re.compile(
    r"\b(?:(?:please\s+)?(?:use|take|claim|occupy|want|need)\s+(?:up\s+)?"
    r"(?:all\s+of\s+(?:it|that|the\s+(?:space|disk|drive|device|card|emmc|ssd))|it\s+all"
    r"|all\s+(?:the\s+)?(?:space|capacity|storage)"
    r"|the\s+(?:whole|entire|full)\s+(?:thing|disk|drive|device|card|emmc|ssd|nvme|space|capacity))"
    r"|fill\s+(?:it|the\s+(?:disk|drive|device|card))(?:\s+up)?(?:\s+completely)?)(?![\w-])"
    # the clause ends there: "fill it up with /data" names a partition
    r"(?=\s*(?:please|pls)?\s*(?:$|[,;.!?)\n\x1f]))"
)


def _whole_device(state: PlanState) -> None:
    """After a disk size, words that say to use all of the device belong to it."""
    if state.disk_size is None:
        return
    for match in state.text.matches(_WHOLE_DEVICE):
        state.text.consume(*match.span(), "disk size")


# letters and a hyphen glued to a number: a model's name ("uno-2271g"), never a size
_MODEL_BEFORE = re.compile(r"(?<![\w-])[a-z][a-z0-9]*-$")


# what has a size besides the disk: a partition, swap, the journal or logs, a cache
_SIZED = re.compile(
    r"\b(?:(?P<disk>disk|drive|image|storage)|partition|swap(?:file)?|journald?|log(?:s|ging)?|tmpfs"
    r"|cache|quota|ram\s*disk|zram)\b",
    re.IGNORECASE,
)


def owned_elsewhere(said: str, start: int, clauses: Sequence[Clause] = ()) -> bool:
    """True when the last thing with a size before ``start`` in its sentence is no disk.

    "need a swap partition, 4G", "journald capped at 200M": the size is not the disk's.
    """
    sentence = sentence_at(clauses or split_clauses(said), start)
    named = list(_SIZED.finditer(said, sentence[0], start)) if sentence else []
    return bool(named) and not named[-1].group("disk")


def rule_bare_sizes(state: PlanState) -> None:
    """A size no rule read is the disk's, unless it repeats one its sentence used.

    A size of memory ("only 4GiB of RAM", "1GiB hugepages") is context: never a disk size.
    """
    text = state.text
    clauses = split_clauses(text.original)
    left = asked_sizes(state, [m for m in text.matches(_SIZE)])
    for match in left:
        span = match.span("size")
        memory = _MEMORY_AFTER.match(text.work, span[1])
        if memory or _MEMORY_BEFORE.search(text.work, max(0, span[0] - 24), span[0]):
            end = memory.end() if memory else span[1]
            sizing = _SIZING_THE_VM.search(text.work, max(0, span[0] - 60), span[0])
            if sizing is not None and "\n" not in text.work[sizing.start() : end]:
                # "make the VM have 4 vCPUs and 8 gigs of RAM": asked for, and no template
                # field holds it
                state.reject(sizing.start(), end, _VM_HARDWARE)
                continue
            text.consume(span[0], end, "context")
            continue
        if _MODEL_BEFORE.search(text.work, max(0, span[0] - 16), span[0]):
            text.consume(*span, "context")  # "UNO-2271G", "DS-920G": a model's name
            continue
        size = request_size(state, span)
        sentence = next((c.sentence for c in clauses if c.start <= span[0] < c.end), -1)
        same_sentence = [
            b
            for at, b in state.sizes[:-1]
            if next((c.sentence for c in clauses if c.start <= at < c.end), -2) == sentence
        ]
        if size.bytes in same_sentence:
            text.consume(*span, "context")  # "(512 MiB, that is)": said again
            continue
        if state.disk_size is not None or not state.facts.partitions:
            continue  # the disk size is set already, or there is no disk: report it
        clause = next((c for c in clauses if c.start <= span[0] < c.end), None)
        if clause is not None and (
            _NAMED.search(clause.text.lower()) or _MOUNT.search(clause.text.lower())
        ):
            continue  # a partition's size that no reader could place: report it
        if owned_elsewhere(text.original, span[0], clauses):
            continue  # "need a swap partition, 4G": another thing's size, reported
        text.consume(*span, "disk size")
        set_disk_size(state, span, size.bytes, size.text)
    _whole_device(state)
