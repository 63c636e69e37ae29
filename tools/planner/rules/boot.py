"""Rules: bootloader and boot type, immutability and secure boot."""

from __future__ import annotations

import re

from oic_ai.tools.edit_plan import AddPartition, SetValue
from oic_ai.tools.planner.clauses import sentence_at, split_clauses
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import RequestText
from oic_ai.tools.planner.words import TAKE_OUT
from oic_ai.tools.retrieval.query_classifier import WORD_END, WORD_START

_BOOTLOADER = re.compile(
    rf"{WORD_START}(?:(?P<from>from)\s+)?(?:(?:the\s+)?(?:use|using|with|switch\s+to|boot\s+with|via"
    r"|(?:switch|change|set|move|make)\s+(?:the\s+)?(?:boot\s*loader|boot\s+mode|boot\s+type)"
    r"\s+(?:over\s+)?(?:to|from\s+\S+\s+to))\s+)?"
    rf"(?:(?P<sdboot>systemd-boot|systemd\s+boot|sd-boot)|(?P<grub>grub2?)|"
    rf"(?P<legacy>legacy\s+bios(?:\s+boot)?|legacy\s+boot|bios\s+boot|bios|csm|legacy)|"
    rf"(?P<efi>uefi|efi)(?:\s+boot)?){WORD_END}(?:\s+(?:boot\s*loader|bootloader|mode))?"
)
_NEGATED_BEFORE = re.compile(
    rf"(?:(?:\b(?:without|no|not|never|disable|disabling|turn\s+off|switch\s+off|{TAKE_OUT}|"
    r"forget(?:\s+about)?|skip|ignore|"
    # "take the secure boot keys back out": the verb whose "out" follows the keys
    r"take|pull|non)|n't)\s+(?:more\s+|longer\s+)?"
    # a verb between: "let's not do immutable", "we don't want immutability", "never use"
    r"(?:(?<=not\s|n't\s|ver\s)(?:do|use|have|want|need|go\s+with|bother\s+with|enable"
    r"|turn\s+on)\s+|(?<=no\s)need\s+(?:for|of)\s+)?"
    r"(?:the\s+|an?\s+|any\s+|all\s+(?:the\s+)?)?)$"
)


# "mbr partition table", "a dos disklabel", "partition table: gpt", "msdos-style partitioning"
_TABLE_KIND = r"(?:(?P<mbr{n}>mbr|msdos|dos)|(?P<gpt{n}>gpt))"
_PARTITION_TABLE = re.compile(
    rf"{WORD_START}{_TABLE_KIND.format(n=1)}(?:[\s-]+style)?[\s-]+(?:partition(?:ing)?"
    r"(?:\s+(?:table|scheme|layout))?|disk\s*label|label|table)\b"
    r"|\bpartition(?:ing)?\s+(?:table|scheme)(?:\s+type)?\s*(?:[:=]|to|is|should\s+be|of|as)?\s*"
    rf"(?:an?\s+)?{_TABLE_KIND.format(n=2)}{WORD_END}"
    # "use GPT, not MBR", "go with mbr": the two acronyms name nothing but a table
    r"|\b(?:use|using|with|want|need|prefer|go\s+with|switch\s+to|stick\s+(?:with|to))\s+"
    r"(?:an?\s+)?(?:(?P<mbr3>mbr)|(?P<gpt3>gpt))(?![\w-])"
    r"(?:\s*,?\s*(?:not|rather\s+than|instead\s+of)\s+(?:an?\s+)?(?:mbr|gpt|msdos|dos)\b)?",
    re.IGNORECASE,
)


def rule_partition_table(state: PlanState) -> None:
    """Read the partition table asked for (gpt or mbr, the composer's two values).

    It is applied after the partitions and the boot type are read (:func:`_apply_table`).
    """
    for match in state.text.matches(_PARTITION_TABLE):
        state.text.consume(*match.span())
        mbr = match.group("mbr1") or match.group("mbr2") or match.group("mbr3")
        state.partition_table = "mbr" if mbr else "gpt"


# the partition types the composer accepts on an mbr disk (internal/image/imagedisc)
_MBR_TYPES = frozenset({"primary", "extended", "logical"})
_MBR_EFI = (
    "an mbr partition table needs legacy BIOS boot here: the composer marks every mbr "
    "partition as a Linux one (type 83), which UEFI firmware does not boot from; ask for "
    "'mbr partition table and legacy boot'"
)


def _apply_table(state: PlanState) -> None:
    """Set ``disk.partitionTableType``; on mbr every partition becomes a primary one."""
    kind, disk = state.partition_table, state.facts.disk
    if kind is None:
        return
    if disk is None:
        state.not_applied.append(f"'{kind} partition table' — the template has no disk")
        return
    now = disk.partition_table_type or "gpt"
    if now == kind:
        state.notes.append(f"the partition table is already {kind}")
        return
    if kind == "gpt":
        state.not_applied.append(
            "'gpt partition table' — the mbr layout's partitions have no gpt types; "
            "start from a template with a gpt disk"
        )
        return
    boot_type = state.bootloader.get("boot_type") or state.facts.boot_type or "efi"
    added = [op for op in state.partition_ops if isinstance(op, AddPartition)]
    if boot_type != "legacy":
        state.not_applied.append(f"'mbr partition table' — {_MBR_EFI}")
        return
    if len(disk.partitions) + len(added) > 4:
        state.not_applied.append(
            "'mbr partition table' — an mbr disk holds four primary partitions and this "
            f"layout has {len(disk.partitions) + len(added)}"
        )
        return
    state.values.append(SetValue(path="disk.partitionTableType", value="mbr"))
    for partition in disk.partitions:
        if partition.id and partition.type not in _MBR_TYPES:
            path = f"disk.partitions[id={partition.id}].type"
            state.values.append(SetValue(path=path, value="primary"))
    state.partition_ops = [
        op.model_copy(update={"type": "primary"}) if isinstance(op, AddPartition) else op
        for op in state.partition_ops
    ]


# words of booting that keep a bare "legacy" the boot type ("legacy boxes, they boot bios")
_BOOT_WORDS = re.compile(r"\b(?:boot\w*|bios|mbr|u?efi|csm|firmware|grub2?)\b", re.IGNORECASE)
# a word after a bare "legacy" that names a thing ("legacy stuff", "legacy apps")
_THING_AFTER = re.compile(r"\s+(?!(?:please|pls|plz|mode|only|then|too|instead|again)\b)[a-z]{3,}")


def _legacy_thing(text: RequestText, match: re.Match[str]) -> bool:
    """True for a bare "legacy" before a noun, in a sentence with no word of booting."""
    if match.group(0).strip().lower() != "legacy":
        return False  # "use legacy", "legacy bios": said of booting
    if not _THING_AFTER.match(text.original.lower(), match.end()):
        return False  # "legacy please", "legacy, not uefi"
    sentence = sentence_at(split_clauses(text.original), match.start())
    start, end = sentence or (0, len(text.original))
    return not _BOOT_WORDS.search(text.original, start, end)


# what stands before the thing a change replaces: "systemd-boot instead of grub"
_REPLACED = re.compile(
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|replacing)\s+(?:the\s+)?$"
    # "legacy BIOS mode with grub, not UEFI", "bios boot, no efi": the one said against
    r"|(?:\b(?:not|no|never)|n't)\s+(?:the\s+|an?\s+)?$"
)


def rule_bootloader(state: PlanState) -> None:
    """Pick the bootloader (grub, systemd-boot) and boot type (efi, legacy)."""
    text = state.text
    for match in text.matches(_BOOTLOADER):
        if _legacy_thing(text, match):
            continue  # "yes I know, legacy stuff": an old thing, not the boot type
        text.consume(*match.span())
        if match.group("from"):
            continue  # "switch from grub to systemd-boot": only the destination counts
        if _REPLACED.search(text.work, 0, match.start()):
            continue  # "systemd-boot instead of grub": grub is what goes
        if match.group("sdboot"):
            state.bootloader["provider"] = "systemd-boot"
        elif match.group("grub"):
            state.bootloader["provider"] = "grub"
        elif match.group("legacy"):
            state.bootloader["boot_type"] = "legacy"
        else:
            state.bootloader["boot_type"] = "efi"
    if state.bootloader.get("boot_type") == "legacy":
        if state.bootloader.get("provider") == "systemd-boot":
            state.warn("systemd-boot only boots UEFI; legacy BIOS needs grub, so grub is used")
            state.bootloader["provider"] = "grub"
        elif state.facts.bootloader == "systemd-boot" and "provider" not in state.bootloader:
            state.warn("systemd-boot only boots UEFI; switched the bootloader to grub")
            state.bootloader["provider"] = "grub"
    if state.bootloader.get("provider") == state.facts.bootloader.replace("grub2", "grub"):
        state.notes.append(f"the bootloader is already {state.facts.bootloader}")
        del state.bootloader["provider"]
    if state.bootloader.get("boot_type") == state.facts.boot_type:
        state.notes.append(f"the boot type is already {state.facts.boot_type}")
        del state.bootloader["boot_type"]
    _apply_table(state)


_SYSTEM = r"(?:os|operating\s+system|root(?:fs)?|root\s+file\s*system|root\s+fs|system|image)"
_UNCHANGEABLE = (
    r"(?:unmodifiable|non-?modifiable|unchangeable|unalterable|not\s+(?:be\s+)?modifiable"
    r"|(?:impossible|not\s+possible)\s+to\s+(?:modify|change|alter)"
    r"|(?:can(?:no|')?t|can\s+not|cannot)\s+be\s+(?:modified|changed|altered|written\s+to))"
)
_AT_RUNTIME = r"(?:\s+(?:at|during)\s+run[- ]?time|\s+while\s+(?:it\s+)?runs|\s+in\s+the\s+field)?"
IMMUTABLE = re.compile(
    r"\b(?:(?P<off>mutable|writable\s+root(?:fs)?|read[- ]write\s+root(?:fs)?"
    # said after the root filesystem: "rootfs must be writable", "make the root fs read-write"
    r"|(?:root(?:fs)?|root\s+file\s*system|root\s+fs|root\s+partition)\s+"
    r"(?:(?:must|should|shall|has\s+to|needs?\s+to|will)\s+)?(?:(?:is|be|stays?|remains?)\s+)?"
    r"(?:writable|writeable|read[- ]write|rw)(?![\w-]))|immutable"
    r"(?:\s+(?:root(?:fs)?|root\s+file\s*system|os|image))?|immutability|dm-?verity"
    r"(?:\s+root)?|read[- ]only\s+(?:root(?:fs)?|root\s+file\s*system|root\s+fs|file\s*system|"
    # "turn on the read-only thing": the setting, named by what it does
    r"system|os|image|thing|mode|setting|option|feature|stuff|flag)"
    r"|(?:the\s+)?(?:root(?:fs)?|root\s+file\s*system|root\s+fs|file\s*system|os|system|image)\s+"
    r"(?:(?:must|should|shall|has\s+to|needs?\s+to|will)\s+)?(?:(?:is\s+|be\s+|stays?\s+|"
    r"remains?\s+)?)read[- ]only"
    # what immutability means, said of the system: "the OS must be unmodifiable at runtime",
    # "a root filesystem nobody can change", "an unchangeable OS"
    rf"|(?:the\s+)?{_SYSTEM}\s+(?:to\s+)?(?:(?:must|should|shall|has\s+to|needs?\s+to|will)\s+)?"
    rf"(?:be\s+|is\s+|stays?\s+|remains?\s+)?{_UNCHANGEABLE}{_AT_RUNTIME}"
    rf"|{_UNCHANGEABLE}\s+(?:the\s+)?{_SYSTEM}{_AT_RUNTIME}"
    # nobody allowed to change it: "nobody should be able to change the system disk"
    r"|(?:nobody|no\s+one|no-one)\s+(?:(?:should|must|shall|will|can|may)\s+)?(?:be\s+able\s+to\s+)?"
    rf"(?:change|modify|alter|write\s+to|tamper\s+with)\s+(?:the\s+)?{_SYSTEM}"
    r"(?:\s+(?:disk|drive|partition|volume|files?))?)\b"
)
# "sb" is secure boot only next to its keys: "drop the sb keys", "the SB certs"
_SECURE_BOOT = re.compile(
    r"\b(?:uefi\s+)?secure[- ]?boot\b"
    r"|\bsb\b(?=\s+(?:db\s+)?(?:keys?|certs?|certificates?|signing)\b)"
)
# "secure boot off", "secure boot should be off", "immutability must stay disabled",
# "switch secure boot back off"
_NEGATED_AFTER = re.compile(
    # "the secure boot keys back out", "secure boot certs out": its keys, said to go
    r"(?:\s+(?:db\s+)?(?:keys?|certs?|certificates?|signing(?:\s+keys)?))?"
    r"\s+(?:(?:should|must|will|shall|has\s+to|have\s+to|needs?\s+to|can)\s+)?"
    r"(?:(?:be|is|are|stay|stays|remain|remains|get|gets)\s+)?(?:turned\s+|switched\s+)?"
    r"(?:back\s+)?(?:off|disabled|out|away|removed|gone)\b"
    # the setting fronted, then what is not done with it: "Secure Boot we don't do (yet)"
    r"|\s+(?:we|i|they|you)\s+(?:don'?t|do\s+not|won'?t|will\s+not|can'?t|cannot|shouldn'?t"
    r"|should\s+not|aren'?t\s+going\s+to)\s+(?:do|want|need|use|have|enable|bother\s+with|"
    r"turn\s+on|switch\s+on)\b"
)
# "immutability stays", "immutable root remains": it stays on
_KEPT_AFTER = re.compile(
    r"\s+(?:stays?|remains?|is\s+kept|kept)(?:\s+(?:on|enabled|as\s+(?:it\s+)?is))?\b"
)
_ENABLE_WORDS = re.compile(
    r"\b(?:make\s+it|turn\s+on|switch\s+on|enable|with|add|use|turn|switch|keep)\s+"
    r"(?:the\s+|an?\s+)?$"
)


# (a bracket opens the same toggle for another setting: "turn it off (secure boot too)")
_LIST_GAP = re.compile(r"[\s\x1f]*\(?[\s\x1f]*(?:,|\band\b|\bor\b|\bnor\b)?[\s\x1f]*$")


def _said_from(text: RequestText, match: re.Match[str]) -> int:
    """Where the clause words just before ``match`` ("keep", "but keep the") start."""
    lead = re.search(
        r"(?:\b(?:but|and|though)\s+)?(?:\b\w+\s+)?(?:the\s+)?$", text.work[: match.start()]
    )
    return lead.start() if lead is not None else match.start()


def _consume_before(text: RequestText, match: re.Match[str], pattern: re.Pattern[str]) -> bool:
    """Mark the words just before ``match`` used when ``pattern`` ends there ("turn off")."""
    start = max(0, match.start() - 30)
    found = pattern.search(text.work[start : match.start()])
    if found is None:
        return False
    text.consume(start + found.start(), match.start())
    return True


# what a setting does to something else: "immutable breaks our ota agent"
_TROUBLE_AFTER = re.compile(
    r"\s+(?:(?:really|totally|just|also)\s+)?(?:breaks|kills|blocks|prevents|stops|conflicts|"
    r"interferes|clashes|messes|causes|doesn'?t\s+work|does\s+not\s+work|won'?t\s+work)\b"
)
# the next sentence, if it is only the setting's new state: "off", "turn it off pls"
_BARE_TOGGLE = re.compile(
    r"\s*(?:so\s+|then\s+)?(?:turn\s+it\s+|switch\s+it\s+|set\s+it\s+|make\s+it\s+)?"
    r"(?:(?P<off>off|disabled?(?:\s+it)?)|on|enabled?(?:\s+it)?)"
    r"(?:\s+(?:pls|please|then|for\s+now))?\s*(?:[.!;]|(?=\()|$)"
)


def _clause_end(work: str, start: int) -> int:
    """Where the clause holding ``start`` ends (after its stop or comma), or the text's end."""
    found = re.compile(r"[,.!?;\x1f](?=\s|$)").search(work, start)
    return found.end() if found else len(work)


def rule_immutability(state: PlanState) -> None:
    """Turn immutability and secure boot on or off (negations like "without" count)."""
    text = state.text
    mentions = sorted(
        [(m, "secure boot") for m in text.matches(_SECURE_BOOT)]
        + [(m, "immutability") for m in text.matches(IMMUTABLE)],
        key=lambda item: item[0].start(),
    )
    previous: tuple[int, bool] | None = None  # end and negation of the last mention
    kept_secure_boot: tuple[int, int] | None = None  # "keep secure boot": where it was said
    for match, kind in mentions:
        said_from = _said_from(text, match)
        toggled = _TROUBLE_AFTER.match(text.work, match.end()) is not None
        if toggled:
            # "immutable breaks our ota agent. off": what the setting does is no request;
            # a bare "off" or "on" right after it says what to do with it
            end = _clause_end(text.work, match.end())
            toggle = _BARE_TOGGLE.match(text.work, end)
            text.consume(match.start(), end, "context")
            if toggle is None:
                continue
            text.consume(*toggle.span())
            negated = toggle.group("off") is not None
            previous = (toggle.end(), negated)
        else:
            negated = _consume_before(text, match, _NEGATED_BEFORE)
            after = _NEGATED_AFTER.match(text.work, match.end())
            if after is not None:  # "turn secure boot off", "immutability disabled"
                negated = True
                text.consume(*after.span())
            _consume_before(text, match, _ENABLE_WORDS)
            kept = _KEPT_AFTER.match(text.work, match.end()) if after is None else None
            if kept is not None:
                text.consume(*kept.span())  # "..., immutability stays": on, whatever came before
            # "disable secure boot and immutability": the negation covers both
            elif previous is not None and _LIST_GAP.match(text.work, previous[0], match.start()):
                negated = negated or previous[1]
            text.consume(*match.span())
            previous = (match.end(), negated)
        if kind == "secure boot":
            if not negated:
                kept_secure_boot = (said_from, match.end())
                _key_paths(state)
            state.secure_boot = not negated
            if state.secure_boot == state.facts.secure_boot:
                state.notes.append(f"secure boot is already {'off' if negated else 'on'}")
                state.secure_boot = None
            continue
        off = negated if toggled else match.group("off") is not None or negated
        state.immutable = not off
        if state.immutable == (state.facts.immutability_enabled is True):
            state.notes.append(f"immutability is already {'off' if off else 'on'}")
            state.immutable = None
    if not any(kind == "secure boot" for _, kind in mentions) and _DB_KEYS.search(text.work):
        _db_keys(state)
    if state.immutable is False and state.facts.secure_boot and kept_secure_boot is not None:
        # "turn immutability off, keep secure boot": the keys live in the immutability
        # settings, and turning it off removes them; one of the two cannot be honoured
        state.reject(
            *kept_secure_boot,
            "secure boot keys need immutability enabled; turning immutability off removes them",
        )
        state.secure_boot = None
    if state.secure_boot and state.facts.immutability_enabled is not True:
        if state.immutable is False:
            state.warn("secure boot keys need immutability enabled; kept immutability off as asked")
        else:
            state.warn("secure boot keys live in the immutability settings; turned immutability on")


# keys of the UEFI signature database (db) name secure boot without the words: "our DB key,
# cert and cer files are at /opt/keys/db.key, ...", "the db certificate is /keys/db.crt"
_DB_KEYS = re.compile(
    r"\bdb\s+(?:keys?|certs?|certificates?|crt|cer)\b|/db\.(?:key|crt|cer|der|pem)(?![\w/])"
)
# "enable it" beside them: "it" is what the keys are for
_ENABLE_IT = re.compile(
    r"\b(?:enable|activate|turn\s+on|switch\s+on)\s+it\b|\b(?:turn|switch)\s+it\s+on\b"
)


def _db_keys(state: PlanState) -> None:
    """Secure boot keys given without the words "secure boot": they ask for it, with them."""
    before = len(state.values)
    _key_paths(state)
    if len(state.values) == before:
        return  # no key path after all: nothing to sign with, nothing asked
    for match in state.text.matches(_ENABLE_IT):
        state.text.consume(*match.span())
    if not state.facts.secure_boot:
        state.secure_boot = True


# the user's own secure boot key files, by what they are: "key /opt/keys/db.key",
# "certificate /opt/keys/db.crt", "DER certificate /opt/keys/db.cer", or just the paths
_KEY_PATH = re.compile(
    r"(?:\b(?:(?:the|its|our|a|an)\s+)?(?:(?:der|pem|db|signing|private|public)\s+)*"
    # the label may be the file type itself: "crt /keys/db.crt, cer /keys/db.cer"
    r"(?:keys?|cert(?:ificate)?s?|crt|cer|der|pem)\s*(?:(?:at|in|is|are|:|=)\s*)?)?"
    # a path from the root, or one relative to the template's folder ("keys/db.key", as
    # the composer's schema allows; never with "..", which it refuses)
    r"(?<![\w/:.-])(?P<path>(?:/|(?!\.\.)[\w-][\w.-]*/)(?:(?!\.\.)[\w./-])*"
    r"\.(?P<ext>key|crt|cer|der|pem))(?![\w/])"
)
_KEY_FIELDS = {
    "key": "secureBootDBKey",
    "crt": "secureBootDBCrt",
    "pem": "secureBootDBCrt",
    "cer": "secureBootDBCer",
    "der": "secureBootDBCer",
}
# words around them that only say they are keys: "signed with our DB keys", "with our keys at"
_KEY_KIND = r"(?:keys?|cert(?:ificate)?s?|crt|cer|der|pem)"
_KEY_WORDS = re.compile(
    r"\b(?:(?:signed\s+)?with\s+)?(?:our|the|its)\s+(?:own\s+)?(?:db\s+)?keys(?:\s+at)?\b"
    r"|\bsigned\s+(?:with|by)\b"
    # the files listed by kind before their paths: "our DB key, cert and cer files are at"
    rf"|\b(?:(?:our|the|its)\s+(?:own\s+)?)?(?:db\s+)?{_KEY_KIND}(?:\s*,\s*{_KEY_KIND})*"
    rf"\s*,?\s+and\s+{_KEY_KIND}(?:\s+files?)?(?:\s+(?:are|live|sit))?(?:\s+(?:at|in))?\b"
)


def _key_paths(state: PlanState) -> None:
    """Set the secure boot key paths the request gives with "secure boot", as given.

    Each path goes to the field its file type names (.key, .crt or .pem, .cer or .der);
    a field given twice is reported, never guessed.
    """
    text = state.text
    # the paths may stand in another sentence ("Secure boot too. The keys are at ...")
    after, end = 0, len(text.work)
    found: dict[str, tuple[str, tuple[int, int]]] = {}
    for match in list(_KEY_PATH.finditer(text.work, after, end)):
        field = _KEY_FIELDS[match.group("ext")]
        if field in found:
            state.reject(*match.span(), f"{field} is given twice; give one path for it")
            continue
        found[field] = (text.raw(*match.span("path")), match.span())
    _in_the_same_folder(state, found)
    if not found:
        return
    for match in list(_KEY_WORDS.finditer(text.work, after, end)):
        text.consume(*match.span())
    for field, (path, span) in found.items():
        text.consume(*span)
        state.values.append(SetValue(path=f"systemConfig.immutability.{field}", value=path))


# a key file named without its folder after one named with it: "/opt/keys/db.key, db.crt
# and db.cer" (the folder is said once)
_BARE_KEY = re.compile(
    r"(?<![\w/.:-])(?P<name>[\w-]+(?:\.[\w-]+)*\.(?P<ext>key|crt|cer|der|pem))(?![\w/])"
)


# a folder said for the key files: "key files in /keys: db.key, db.crt"
_FOLDER = re.compile(r"(?<![\w/:.-])(?P<folder>/[\w.-]+(?:/[\w.-]+)*)/?(?=$|[\s:,;)])")


def _in_the_same_folder(state: PlanState, found: dict[str, tuple[str, tuple[int, int]]]) -> None:
    """Key files named without a folder: in the folder said before them.

    The folder is the one of the key path, or the folder path, nearest before the name.
    A name with no folder before it is reported: a path is never made up.
    """
    text = state.text
    folders = [
        (m.group("folder"), m.end())
        # in the text as written: a folder a rule before read as context ("keys are under
        # /etc/keys/: db.key, ...") still says where the files are
        for m in _FOLDER.finditer(text.original)
        if not _KEY_PATH.fullmatch(m.group("folder"))
    ]
    folders += [(path.rsplit("/", 1)[0], span[1]) for path, span in found.values()]
    for match in list(_BARE_KEY.finditer(text.work)):
        field = _KEY_FIELDS[match.group("ext")]
        before = [(folder, at) for folder, at in folders if at <= match.start()]
        name = text.raw(*match.span("name"))
        if field in found:
            continue
        if not before:
            state.reject(*match.span(), f"{name}: give the key file's full path (/path/{name})")
            continue
        folder = max(before, key=lambda item: item[1])[0]
        found[field] = (f"{folder}/{name}", match.span())
