"""The words of a user's rights and groups, read by :mod:`oic_ai.tools.planner.rules.users`.

Sudo said on ("with sudo", "sudo enabled", "as an admin") or off ("no sudo", "sudo
disabled", "normal users"), and the system groups people name without the word "group".
"""

from __future__ import annotations

import re

# groups people name without the word "group" ("a user builder in wheel"): the system
# groups of the families (Debian's base-passwd and the RPM distributions' setup package,
# systemd's and the usual device and service groups), leaving out those that are also
# ordinary words ("mail", "list", "staff", "backup")
_SYSTEM_GROUPS = (
    "wheel|sudo|adm|docker|video|render|audio|dialout|plugdev|disk|kvm|libvirt|input|"
    "netdev|lp|tty|users|systemd-journal|podman|lxd|gpio|i2c|spi|www-data|cdrom|floppy|"
    "tape|dip|kmem|shadow|utmp|sasl|nogroup|lpadmin|sambashare|bluetooth|scanner|tss|"
    "uucp|libvirt-qemu|qemu|nginx|apache|systemd-network|systemd-resolve|ssl-cert|"
    "adbusers|fuse|wireshark|pcap"
)


def _spoken_forms() -> dict[str, str]:
    """Each system group as dictation splits it in two words, to the group's name.

    "dial out" is dialout, "plug dev" plugdev, "www data" www-data: a space where the name
    has "-" or "_", or between two parts of three letters or more (shorter parts, "in put",
    "us ers", are ordinary words side by side).
    """
    forms: dict[str, str] = {}
    for group in _SYSTEM_GROUPS.split("|"):
        for at in range(3, len(group) - 2):
            head, tail = group[:at].rstrip("-_"), group[at:].lstrip("-_")
            if head.isalnum() and tail.isalnum() and len(head) >= 3 and len(tail) >= 3:
                forms[f"{head} {tail}"] = group
        for mark in "-_":
            if mark in group:
                forms[group.replace(mark, " ")] = group
    return forms


_SPOKEN = _spoken_forms()
_SPOKEN_GROUP = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(re.escape(f).replace(r"\ ", r"\s+") for f in _SPOKEN)
    + r")(?![\w-])"
)


def join_spoken(listed: str) -> str:
    """``listed`` with each group dictation split in two joined again ("dial out": dialout)."""
    return _SPOKEN_GROUP.sub(lambda m: _SPOKEN[" ".join(m.group().split())], listed)


# a known system group, or one said in two words: "dial out", "plug dev", "www data"
KNOWN_GROUPS = "|".join(re.escape(f).replace(r"\ ", r"\s+") for f in _SPOKEN) + "|" + _SYSTEM_GROUPS
SUDO_OFF = re.compile(
    r"\b(?:with\s+(?=no\b))?(?:(?:no|without|not\s+(?:(?:have|get|need|be)\s+)?(?:an?\s+)?|non-?|revoke|"
    r"take\s+away|remove)\s*(?:full\s+)?(?:sudo|admin|administrator|root|"
    r"privileged)(?:\s+(?:rights|access|privileges|permissions|powers))?"
    r"|(?:normal|regular|standard|plain|ordinary|unprivileged|non-?privileged)(?=\s+(?:users?|accounts?|logins?)\b)"
    r"|\bsudo\s*[:=]?\s*(?:no|false|off|none)\b(?!-)"
    # "remove the sudo from the hub user", "revoke his admin rights from ops": taken from
    # someone (the package is "the sudo package", from no one)
    r"|\b(?:revoke|remove|strip|drop|pull)\s+(?:the|his|her|their|its|any)\s+(?:full\s+)?"
    r"(?:sudo|admin|root)(?:\s+(?:rights|access|privileges|permissions|powers))?(?=\s+from\b)"
    # the state said after the word: "sudo disabled", "sudo not allowed"
    r"|\bsudo\s+(?:access\s+)?(?:disabled|denied|not\s+(?:allowed|enabled|granted))\b"
    # "tech doesnt need sudo", "ops won't get admin rights", "she does not require root"
    r"|\b(?:doesn'?t|does\s+not|don'?t|do\s+not|won'?t|will\s+not|shouldn'?t|should\s+not|"
    r"mustn'?t|needn'?t|no\s+longer)\s+(?:needs?|gets?|has|have|requires?|wants?)\s+(?:any\s+)?"
    r"(?:sudo|admin|root)"
    r"(?:\s+(?:rights|access|privileges|permissions|powers))?\b"
    r"|\b(?:cannot|can\s*not|can't|may\s+not|must\s+not|never|not\s+(?:be\s+)?(?:able|allowed)\s+to)"
    r"\s+(?:(?:be\s+)?(?:able|allowed)\s+to\s+)?(?:use\s+|run\s+|get\s+|have\s+)?sudo\b"
    r"|\b(?:take|took)\s+(?:the\s+|his\s+|her\s+|their\s+)?(?:sudo|admin|root)"
    r"(?:\s+(?:rights|access|privileges|permissions))?\s+away\b)"
)
SUDO_ON = re.compile(
    r"(?:\b(?:with|has|having|gets?|and)\s+)?(?:\b(?:full\s+)?(?:sudo|root|admin|administrator)"
    r"\s+(?:rights|access|privileges|permissions|powers)\b"
    r"|\bwith\s+(?:passwordless\s+|password-less\s+|full\s+|root\s+)?sudo\b|\bsudoer\b"
    r"|\bas\s+(?:an?\s+)?(?:admin|administrator|sudoer|sudo)\b"
    # "(sudo)", ", sudo,", ", just sudo" (only that, after a change to the user's groups)
    r"|(?<=\()\s*sudo\s*(?=[),])|(?<=,)\s*(?:(?:just|only)\s+)?sudo\s*(?=,|$|\x1f)"
    r"|\bsudo\s*[:=]?\s*(?:yes|true|on)\b(?!-)"
    # "alice bob carol all sudo", "both sudo": sudo said of every user named before
    # (the word "all" may be read already, as the mark of every user: "\x1f\x1f\x1f sudo")
    r"|(?<=(?:\ball|\x1f\x1f\x1f)\s)sudo\b(?!\s*[:=-])|(?<=\bboth\s)sudo\b(?!\s*[:=-])"
    r"|\bsudo\s+(?:access\s+)?(?:enabled|allowed|granted)\b"
    r"|\b(?:should|shd|shld|must|will|shall|to|may)\s+(?:also\s+)?(?:have|get)\s+(?:passwordless\s+|full\s+)?sudo\b"
    r"|\bcan\s+(?:use\s+|do\s+|run\s+)?sudo\b"
    # "who can do admin stuff", "should handle the administrative tasks"
    r"|\b(?:can|could|should|to|may|will|must|needs?\s+to)\s+(?:do|perform|handle|run)\s+"
    r"(?:the\s+|some\s+|all\s+(?:the\s+)?)?(?:admin|administrator|administrative|root|sudo|privileged)\s+"
    r"(?:stuff|things|tasks|work|duties|jobs|chores|operations|commands)\b"
    # "ops needs to be able to sudo" ("not be able to sudo" is read as off first)
    r"|\b(?:be\s+)?(?:able|allowed)\s+to\s+(?:use\s+|do\s+|run\s+)?sudo\b"
    r"|\b(?:gets?|has|have|having|needs?)\s+(?:passwordless\s+|full\s+)?sudo\b(?!\s*[:=-])"
    r"|\b(?:make|made)\s+\S+\s+(?:an?\s+)?(?:admin|administrator|sudoer)\b"
    # "give that account sudo", "grant the user admin rights": the user pointed back at
    r"|\b(?:give|grant)\s+(?:(?:that|this|the|said)\s+(?:user|account|login)\s+|\S+\s+)?"
    r"(?:full\s+)?(?:sudo|admin|root)\b"
    r"(?:\s+(?:rights|access|privileges|permissions|powers))?)"
)
# the whole next word, checked afterwards: "a user Bad!Name" is reported, not half-read
NAME = r"[\"'`]?(?P<name>[^\s,;:\"'`\x1f()]+?)[\"'`]?(?=$|[\s,;:)\x1f]|[.!?](?:\s|$))"
SHELLS = r"bash|zsh|sh|fish|dash|ksh|tcsh"
_GROUP = (
    r"(?!(?:add|install|remove|with|set|make|then|and|shell|group|groups|as|the|no|without|"
    r"please|pls|plz|thanks|thx|too|also|only|sudo\s+rights|login|user|account|{shells}|"
    # the words that start a reason or another clause ("in the audio group so the speaker
    # works") are never a group's name
    r"so|because|since|for|if|when|but|or|which|who|that|to)\b)[a-z_][a-z0-9_-]*"
)
# a shell is no group ("in groups adm and video, zsh as the login shell")
_GROUP = _GROUP.replace("{shells}", SHELLS)
# a group name may be quoted ("in a `pcap` group"); a word before "shell" is no group ("in
# groups sudo and docker, default shell zsh")
GROUP = (
    rf"[`'\"]?(?:(?:{KNOWN_GROUPS})(?![\w-])|{_GROUP})(?![\w-])(?!\s+(?:login\s+)?shell\b)[`'\"]?"
)
GROUPS = rf"{GROUP}(?:\s*(?:,|\band\b|&|\+)\s*{GROUP})*"
# groups a user must not be in: "but NOT in wheel", "should not be in the docker group",
# "no longer a member of adm or sudo"
NOT_IN_GROUPS = re.compile(
    r"\b(?:not|never|no\s+longer|isn't|aren't|shouldn't|mustn't"
    # "doesn't need to be in adm", "don't have to be in wheel"
    r"|(?:doesn't|does\s+not|don't|do\s+not)\s+(?:need|have)\s+to)\s+"
    r"(?:(?:be|get|go|stay)\s+)?(?:in|into|a\s+member\s+of|part\s+of)\s+(?:the\s+|any\s+)?"
    rf"(?:(?P<named>{GROUPS})\s+groups?\b|groups?\s+(?P<labelled>{GROUPS})"
    rf"|(?P<known>(?:{KNOWN_GROUPS})(?:\s*(?:,|\band\b|\bor\b|&|\+)\s*(?:{KNOWN_GROUPS}))*)(?![\w-]))"
)

# a user's access said by the device, not the group: "must be allowed to access the serial
# port" is the dialout group, "needs to use the camera" the video group. The groups are the
# ones the Debian and RPM families give those devices (udev rules of systemd).
_DEVICE_GROUPS = (
    (
        r"serial\s+(?:ports?|devices?|lines?|adapters?|interfaces?)|uarts?|com\s*ports?"
        r"|rs-?485|rs-?232|tty(?:s|usb|acm)\d*|modems?",
        "dialout",
    ),
    (r"(?:web)?cams?|cameras?|video\s+devices?|v4l2?|frame\s*buffers?", "video"),
    (r"gpus?|graphics\s+cards?|render\s+nodes?", "render"),
    (r"printers?|parallel\s+ports?", "lp"),
    (r"sound(?:\s+cards?)?|audio(?:\s+devices?)?|speakers?|microphones?", "audio"),
    (r"gpio(?:\s+pins)?", "gpio"),
    (r"i2c(?:\s+bus(?:es)?)?", "i2c"),
    (r"spi(?:\s+bus(?:es)?)?", "spi"),
)
DEVICE_ACCESS = re.compile(
    r"\b(?:access(?:\s+to)?|use|read(?:\s+from)?|write\s+to|talk\s+to|open|reach)\s+"
    r"(?:the\s+|a\s+|an\s+|our\s+|its\s+|all\s+(?:the\s+)?)?"
    r"(?:(?:usb|onboard|attached|connected)\s+)?"
    r"(?:" + "|".join(f"(?P<g{i}>{words})" for i, (words, _) in enumerate(_DEVICE_GROUPS)) + r")"
    r"(?![\w-])"
)


def device_group(match: re.Match[str]) -> str:
    """The group of the device a :data:`DEVICE_ACCESS` match names."""
    index = next(i for i in range(len(_DEVICE_GROUPS)) if match.group(f"g{i}"))
    return _DEVICE_GROUPS[index][1]


# "operators log in as 'pilot'": the name people log in with is a user; up to four words
# before it at the clause's start, after a joining word, say who logs in ("and i want to
# login as tom")
LOGS_IN_AS = re.compile(
    r"(?:^|(?<=[\n,;:.!?(\x1f])|(?<=[\n,;:.!?(\x1f][ \t]))[ \t\x1f]*"
    r"(?:(?:and|also|so|but|then|plus)\s+)?(?:[a-z][a-z'-]*\s+){0,4}?(?:will\s+|should\s+|must\s+|can\s+|always\s+)?"
    r"(?:log(?:s|ged)?[\s-]*(?:in|on)|sign(?:s|ed)?[\s-]*(?:in|on))\s+"
    # "log in as pilot", "log in with the account pilot"; "log in with keys" names no user
    r"(?:as\s+(?!well\b)(?:(?:the|a|an)\s+)?(?:(?:user|account|login)\s+)?"
    r"|with\s+(?:the\s+|a\s+)?(?:user|account|login)\s+)"
    r"(?P<quote>[\"'`]?)(?P<name>[a-z_][a-z0-9_-]*)(?P=quote)(?![\w-])"
    r"(?:\s+(?:user|account|login)(?![\w-]))?"
)
# one word between an article and a role word whose name is given after it: what the
# account is for ("the kiosk account should be called patient"), not a package
DESCRIBER = re.compile(r"\b(?:the|a|an|our|their|its)\s+(?P<word>[a-z][a-z0-9-]*)\s+$")
# a user attribute right after a name ("..., with no sudo", " in the docker group")
ATTRIBUTE_NEXT = re.compile(
    r"\s*,?\s*(?:who\s+(?:is|has|gets)\s+|that\s+(?:is|has|gets)\s+)?(?:"
    r"(?:with|without|no|has|gets?)\s+(?:no\s+)?(?:passwordless\s+|full\s+)?(?:sudo|admin|root)\b"
    # "user admin, sudo via wheel": sudo alone, said of the name before it
    r"|sudo\b(?!\s*[:=-])"
    # "user admin (sudo, wheel)", "admin (no sudo)": a brief in brackets
    r"|\(\s*(?:(?:no|non|without)[\s-]+)?(?:sudo|admin|root|shell|groups?)\b"
    r"|(?:in|into|member\s+of)\s+(?:the\s+)?(?:groups?\b|[a-z_][\w-]*(?:\s*(?:,|and)\s*[a-z_][\w-]*)*\s+groups?\b)"
    r"|(?:with\s+)?(?:login\s+)?shell\b"
    # "user admin with a password", "create admin, password from the vault"
    r"|(?:with\s+)?(?:an?\s+|the\s+|its\s+)?(?:initial\s+|login\s+)?password\b"
    r"|(?:(?:needs?|has|have|ought)\s+to\s+be|should\s+be|must\s+be|is|goes|belongs)\s+"
    r"(?:in|into|a\s+member\s+of|part\s+of)\s+(?:the\s+)?[a-z_][\w-]*)"
)
# whom an account is for, said between its name and its attributes: "one 'admin' for me
# with sudo", "'ana' for my sister, no sudo"
FOR_WHOM = re.compile(
    r"[\s\x1f]*,?\s*for\s+(?:me|myself|us|him|her|them|"
    r"(?:my|our|his|her|their|the)\s+[a-z][a-z-]*)(?![\w-])\s*,?[\s\x1f]*"
)
GIVE_SUDO = re.compile(
    r"\b(?:give|grant)\s+(?P<name>[^\s\x1f]+)\s+(?:full\s+)?(?:sudo|admin|root)\b"
    r"(?:\s+(?:rights|access|privileges|permissions|powers))?"
)
# words that are never a user's name, read around the role words
STOP_WORDS = frozenset(
    (
        "a an the and or with without in into to for of on at as is are be called named name "
        "who which that has have having gets get needs need no not non sudo admin "
        "administrator root rights access group groups shell password login account accounts "
        "user users acct accts but plus also then please too it its their them this these "
        "those one install "
        "another new normal regular extra only just can should must will again instead as "
        "edit edits change changes setup bash zsh sh fish dash ksh tcsh both either each all "
        "neither none our your my his her some every there here what where when why how "
        "which whose member members part want wants use uses prefer prefers like likes say "
        "says said ask asks asked think thinks told tell tells pls plz please thx thanks ty "
        "me myself us ourselves him himself herself themselves itself yourself yourselves "
        "per each every everyone "
        "everybody anyone anybody someone somebody nobody noone "
        # the words of a change of mind: "user ops, actually in wheel"
        "actually wait sorry oops nope nah rather instead "
        # adverbs that end a sentence: "nginx runs as its own user anyway"
        "anyway anyhow though either now later already still own "
        # the verbs that start the next change: "add users ann and ben, give them sudo"
        "give gives grant grants make makes put puts add adds create creates remove removes "
        "delete deletes drop drops revoke revokes take takes let allow allows "
        # what leaves users out: "remove all users except ops"
        "except excluding besides apart "
        # the template's other fields: "hostname should be x and users a and b with sudo"
        "hostname disk image kernel cmdline partition partitions bootloader target arch "
        "repo repository package packages"
    ).split()
)
# words before a role word that describe the account, never its name ("a service user")
NOT_PRE_NAMES = STOP_WORDS | frozenset(
    (
        "service system local remote shared separate dedicated default generic technical "
        "personal test guest second unprivileged privileged non-admin root linux unix email "
        "cloud github ssh vpn sudo admin administrator same first last other existing "
        "current old previous main primary single only any every each more further "
        "non-root nonroot non-sudo human real dedicated individual named"
    ).split()
)


# a name taken back and another given at once: "a user pi, no, call it 'lab'", "user ops,
# actually ops2", "an account bob — no wait, name it robert": the last name said wins
_RENAMED = re.compile(
    r"\s*[,;:—–-]*\s*(?:"
    r"(?:no|nope|nah|oops|sorry)\s*[,;:—–!-]+\s*(?:wait\s*[,;:—–-]*\s*)?(?:actually\s*,?\s*)?"
    r"|(?:no\s+)?wait\s*[,;:—–!-]+\s*|actually\s*,?\s*|i\s+mean\s*,?\s*|or\s+rather\s*,?\s*"
    r"|(?P<verb>make\s+(?:it|that)\s+|(?:call|name)\s+(?:it|him|her|them)\s+|(?:called|named)\s+))"
    r"(?P<verb2>(?:call|name)\s+(?:it|him|her|them)\s+|(?:called|named)\s+|make\s+(?:it|that)\s+)?"
    r"(?P<quote>[\"'`])?(?P<name>[a-z_][a-z0-9_-]*)(?(quote)[\"'`])(?![\w-])"
)
_CLAUSE_ENDS = re.compile(r"[\s\x1f]*(?:$|[,;!?\x1f—–]|-\s|\.(?:\s|$))")


def renamed(work: str, names: list[str], end: int, limit: int) -> tuple[list[str], int]:
    """The user's name after the speaker changed their mind right after giving it.

    A new name replaces the one just said when it is quoted, given with a naming verb
    ("call it", "make it"), or alone up to the end of its clause or before the user's
    attributes; an attribute ("no, with sudo", "actually in wheel") is no new name.
    """
    if len(names) != 1:
        return names, end
    while (match := _RENAMED.match(work, end, limit)) is not None:
        name = match.group("name")
        if name in STOP_WORDS:
            break
        said = match.group("quote") or match.group("verb") or match.group("verb2")
        if not said and not (
            _CLAUSE_ENDS.match(work, match.end()) or ATTRIBUTE_NEXT.match(work, match.end(), limit)
        ):
            break
        names, end = [name], match.end()
    return names, end


_TAKE_BACK = re.compile(
    r"\b(?:actually|no\s+wait|i\s+mean|or\s+rather|rather|instead)\b"
    r"|(?:^|(?<=[\s,;\x1f]))(?:no|nope|sorry)\s*[,;:!—–-]"
)


def took_back(work: str, start: int, end: int) -> bool:
    """True when the words between two attributes take the first back ("..., no, ...")."""
    return _TAKE_BACK.search(work, start, end) is not None


# the role word in other languages people mix in ("usuario kiosk", "compte opérateur")
FOREIGN_ROLES = (
    "usuarios?|usuários?|utilisateurs?|benutzer|nutzer|utenti|utente|gebruikers?|"
    "användare|brukere?|kontos?|konten|comptes?|cuentas?|contas?|uzytkownik|użytkownik"
)


# the label of another field ("packages: tmux, rsync, sudo", "hostname: gw", "disk = 8G"):
# what follows it is that field's, never the attributes of the user named before
_FIELD_LABEL = re.compile(
    r"(?<![\w-])(?:(?:extra|additional|other)\s+)?(?:packages?|pkgs?|software|apps|tools|"
    r"host\s*name|disk(?:\s+size)?|partitions?|kernel(?:\s+(?:args|options|cmdline))?|cmdline|"
    r"image(?:\s+name)?|repos?|repositor(?:y|ies)|artifacts?|outputs?|formats?)\s*[:=]"
)


def other_fields(work: str, start: int, end: int) -> list[int]:
    """Where the labels of fields other than a user's begin between ``start`` and ``end``."""
    return [m.start() for m in _FIELD_LABEL.finditer(work, start, end)]


# role words that name an account with sudo
ADMIN_WORDS = ("admin", "admins", "administrator", "administrators", "sudoer", "sudoers")


def role_sudo(role: str, mods: str) -> bool | None:
    """Whether a role word and its modifiers give sudo ("an admin" yes, "a normal user" no)."""
    words = re.split(r"[\s-]+", mods.strip())
    if any(
        w in ("non", "nonadmin", "nonroot", "normal", "regular", "standard", "plain") for w in words
    ):
        return False
    if "unprivileged" in words or "ordinary" in words:
        return False
    if role in ADMIN_WORDS or any(
        w in ("admin", "administrator", "sudo", "privileged", "root-capable") for w in words
    ):
        return True
    return None
