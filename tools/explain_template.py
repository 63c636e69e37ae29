"""Explain a template: answer a question about it without changing it.

:func:`describe_template` is the plain function (the ``explain`` node calls it);
:func:`explain_template` is the same as a LangChain tool an LLM can call.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from langchain_core.tools import tool

from oic_ai.stores.capability_catalog import load_catalog
from oic_ai.stores.disk_units import format_size
from oic_ai.stores.targets import load_targets
from oic_ai.stores.template_model import Template, template_from_text
from oic_ai.tools.planner.state import family_of
from oic_ai.tools.planner.summary import with_article
from oic_ai.tools.planner.words import FILLER

_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "packages",
        # "what does it install?", "what have I added so far?": what is in it
        re.compile(
            r"\b(?:packages?|pkgs?\b|install(?:ed|s|ing)?\b|software|included|includes?|contain"
            r"|added\b|comes?\s+with\b|ships?\s+with\b|bundled\b"
            # "what's actually going in there apart from docker?", "what's in it?"
            r"|go(?:es|ing)\s+in(?:to)?\b|what(?:'s|\s+is)\s+(?:\w+\s+)?in\s+(?:it|there|the\s+image)\b)"
        ),
    ),
    (
        "disk",
        re.compile(
            r"\b(?:disk|partitions?|layout|storage|size|mounts?|artifacts?|format)"
            # "how big is /boot/efi?": a partition's size, asked by its mount point
            r"|\bhow\s+(?:big|large|much\s+(?:space|room))\b"
            r"|(?<![\w.])/(?:boot|var|home|tmp|data|srv|opt|log)\b"
        ),
    ),
    ("kernel", re.compile(r"\b(?:kernel|cmdline|command\s*line|boot\s+args)")),
    # "who can log in?", "which accounts are there?"
    # (how one logs in, "the thing that lets me log in remotely", is a package's question)
    (
        "users",
        re.compile(
            r"\b(?:users?|accounts?|logins?|sudo)"
            r"|\bwho\s+(?:can|could|may|will|is\s+able\s+to)\s+(?:log|sign)\s+in\b"
        ),
    ),
    ("boot", re.compile(r"\b(?:boot(?:loader)?|grub|systemd-boot|efi|bios|secure\s*boot|immutab)")),
    (
        "target",
        re.compile(
            r"\b(?:target|distro|distribution|arch(?:itecture)?|os|version|release|type)s?\b"
            # the image's own name is on the target's line: "image name + hostname now?"
            r"|\bimage\s*name\b|\bname\s+of\s+the\s+image\b"
            # what a release or the image is called: "is trixie what debian 13 is called?"
            r"|\bcalled\b|\bcode\s*names?\b"
        ),
    ),
    ("hostname", re.compile(r"\b(?:host\s*name|host)\b")),
    # "will chronyd be enabled?", "which services start at boot?"
    (
        "services",
        re.compile(
            r"\b(?:services?|daemons?|enabled|disabled|autostart|start(?:s|ed)?\s+(?:at|on)\s+boot"
            r"|running\s+(?:at|on|after)\s+boot)\b"
        ),
    ),
    ("repositories", re.compile(r"\b(?:repo(?:sitor(?:y|ies))?s?|sources?)\b")),
)
_SUMMARY_WORDS = re.compile(r"\b(?:summar|overview|describe|explain|what\s+is\s+(?:this|it)|tell)")
# "tell me which packages I added": "tell" asks for the whole summary only when it names no
# part of the template
_TELL_ONLY = re.compile(r"\btell\b")
_HAS_QUESTION = re.compile(
    r"\b(?:does|do|is|are|has)\b.*?\b(?:have|has|include|includes|contain|installed|there|got)"
    r"\b\s+(?P<what>.+?)\s*\??$"
    r"|^\s*(?:is|are)\s+(?P<subject>.+?)\s+(?:already\s+)?(?:installed|included|there|present"
    r"|(?:in|(?:a\s+)?part\s+of)\s+(?:it|there|(?:the|this|that|our|my)\s+"
    r"(?:image|template|build|package\s+list)))"
    r"(?:\s+(?:already|yet|now|too))?(?:\s*,?\s*or\s+not)?\s*\??\s*$"
)

# the other half of "is X there, or do I need to ask for it?" / "or should we add it?"
_ASK_FOR_IT = re.compile(
    r"\s*,?\s+or\s+(?:do|should|must|shall|will|would|can|could)\s+(?:i|we|you)\s+"
    r"(?:\w+\s+){0,4}?(?:ask|add|request|install|include|say|tell)\b[^?]*\??\s*$"
    r"|\s*,?\s+or\s+not\s*\??\s*$"
)
# a thing said by what it does ("the thing that lets me log in remotely")
_DESCRIBED = re.compile(
    r"^(?:(?:the|a|an|any|some)\s+)?(?:thing|stuff|tool|package|software|program|service|app"
    r"|bit|part)s?\s+(?:that|which|to|for|so)\b|^(?:something|anything|whatever)\b"
)
_LEADING_ADVERB = re.compile(
    r"^(?:then|now|exactly|actually|currently|today|right\s+now|at\s+the\s+moment|so\s+far)\b"
    r"[\s,]*"
)
_NEXT_QUESTION = re.compile(r",\s*(?=(?:is|are|does|do|did|will|can|was|were|has|have)\b)")
_WH_OPENING = re.compile(r"\s*(?:(?:and|so|ok|okay|also)\s+)*(?:how\s+many|how\s+much|which|who)\b")


# "confirm telnet and ftp are not in there", "check that gcc isn't installed", "make sure
# there is no telnet in the image": a check of the package list, asked as an imperative
_IN_IT = (
    r"(?:installed|included|present|there|in\s+(?:there|it|(?:the|this|that|our|my)\s+"
    r"(?:image|template|build|package\s+list)))"
)
_CHECK_QUESTION = re.compile(
    r"^\s*(?:(?:please|pls|and|also|so|now|can\s+you|could\s+you)\s+)*(?:confirm|verify|check"
    r"|make\s+sure|double[-\s]?check|ensure)\s+(?:for\s+me\s+)?(?:that\s+)?"
    r"(?:there(?:'s|\s+is|\s+are)\s+no\s+(?P<none>[\w.+-]+(?:(?:\s*,\s*|\s+(?:and|or|nor)\s+)"
    r"[\w.+-]+)*)(?:\s+" + _IN_IT + r")?"
    r"|(?P<what>[\w.+-]+(?:(?:\s*,\s*|\s+(?:and|or|nor)\s+)[\w.+-]+)*)\s+(?:is|are)"
    r"(?:\s+not|n't)?\s+(?:(?:already|still)\s+)?" + _IN_IT + r")\s*[.!?]*\s*$"
)
# "what's samba exactly?", "what is chrony for", "what does tmux do": what a named thing is
_AFTER_WHAT = r"(?:exactly|again|even|actually|for|do|does|mean|stand\s+for|used\s+for)\b"
_WHAT_IS = re.compile(
    r"^\s*(?:(?:and|so|ok|okay|sorry|um|hmm)\W+)*(?:what(?:'s|s|\s+is|\s+are)|what\s+does|"
    r"what\s+do)\s+(?:an?\s+)?(?P<what>[\w.+-]+(?:\s+(?!" + _AFTER_WHAT + r")[\w.+-]+)?)"
    r"(?:\s+" + _AFTER_WHAT + r")*\s*[?.!]*\s*$"
)
_SEPARATORS = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|nor)\s+")


def _each_named(what: str) -> list[str]:
    """Each thing a question names: "telnet and ftp" is two, "a web server" one."""
    parts = [p.strip() for p in _SEPARATORS.split(what) if p.strip()]
    single = all(re.fullmatch(r"[\w.+-]+", p) for p in parts)
    return parts if single and len(parts) > 1 else [what]


def _by_name(template: Template, name: str, named: list[str]) -> str:
    """Whether the package list has ``name`` itself: "make" of "gcc, make and gdb"."""
    if len(named) < 2 or not re.fullmatch(r"[\w.+-]+", name):
        return ""  # an everyday word alone ("is it there?") names no package
    if name in (*template.packages, *template.kernel.packages):
        return f"Yes: {name} is in the package list."
    return f"No: {name} is not in the package list."


def _what_it_is(template: Template, what: str) -> str:
    """What the catalog says a named thing is, and whether the package list has it."""
    name = what.strip().lower()
    if name in FILLER or any(p.search(name) for _, p in _TOPICS):
        return ""  # "what is this", "what is the hostname": not a thing's name
    catalog = load_catalog()
    os, dist, arch = template.target.os, template.target.dist, template.target.arch
    found = [c for c in catalog.capabilities.values() if name == c.name or name in c.synonyms]
    if not found or not family_of(os, dist):
        return ""
    capability = found[0]
    packages = capability.packages_for(os, dist, arch)
    installed = [p for p in packages if p in (*template.packages, *template.kernel.packages)]
    if installed:
        state = f"The image has it: {', '.join(installed)} in the package list."
    elif packages:
        state = f"It is not in the image; ask to add it ({', '.join(packages)})."
    else:
        state = "The distribution ships no package for it."
    return f"{what.strip()}: {capability.note} {state}"


# "which VA driver did you end up putting in?", "what web server did you pick?": the one
# package of a kind the image has, asked by the words of its name
_WHICH = re.compile(
    r"^\s*(?:(?:and|so|ok|okay|also)\W+)*(?:which|what)\s+(?P<what>(?:[\w.+-]+\s+){1,3}?)"
    r"(?:did|do|does|is|are|was|were|have|has)\s+(?:you|we|it|they|i)\s+(?:end\s+up\s+|finally\s+)?"
    r"(?:put(?:ting)?|us(?:e|ed|ing)|pick(?:ed)?|cho(?:se|ose|osen)|install(?:ed)?|add(?:ed)?"
    r"|go\s+with|went\s+with|get|got)\b"
)


def _which_one(template: Template, asked: str) -> str | None:
    """The packages whose names hold every word of "which X did you put in?", if any."""
    match = _WHICH.match(asked)
    if match is None:
        return None
    words = [w.removesuffix("s") if len(w) > 3 else w for w in match.group("what").split()]
    if any(w in FILLER for w in words):
        words = [w for w in words if w not in FILLER]
    if not words:
        return None
    have = [
        name
        for name in (*template.packages, *template.kernel.packages)
        if set(words) <= set(re.split(r"[-.]", name.lower()))
    ]
    if not have:
        return None
    return f"The package list has {', '.join(have)} for the {' '.join(words)}."


def topics_of(question: str) -> list[str]:
    """The parts of a template ``question`` names ("packages", "disk", ...), maybe none."""
    return [name for name, pattern in _TOPICS if pattern.search(question.lower())]


# "what packages do we have beyond the base now?", "what's on top of the starting template?"
_BEYOND_BASE = re.compile(
    r"\b(?:beyond|on\s+top\s+of|besides|apart\s+from|other\s+than|in\s+addition\s+to|"
    r"compared\s+(?:to|with)|different\s+from|added\s+to)\s+(?:the\s+|what\s+)?"
    r"(?:base(?:\s+(?:template|image))?|starting\s+(?:point|template)|original(?:\s+template)?|"
    r"library\s+template|template\s+we\s+started\s+from|defaults?)\b"
)
# "is it dnf or tdnf?", "what does yum look like on this thing?", "which package manager?"
_PACKAGE_MANAGER = re.compile(
    r"\b(?:package\s+manager|yum|t?dnf|apt(?:-get)?|zypper|rpm\s+or\s+(?:deb|apt))\b"
)
# each os's package manager, and what to say of it
_MANAGERS = {
    "azure-linux": ("tdnf", "Azure Linux's RPM package manager, with dnf's commands"),
    "edge-microvisor-toolkit": ("tdnf", "the toolkit's RPM package manager, with dnf's commands"),
    "redhat-compatible-distro": ("dnf", "yum is another name for it on these releases"),
}
_DEB_MANAGER = ("apt", "with dpkg underneath")


def describe_template(template_text: str, question: str, base_text: str | None = None) -> str:
    """Answer a question about a template in plain language, without changing it.

    Args:
        template_text: The current template.
        question: "what packages are included?", "summarise it", "what is the disk
            layout?", "which kernel?", "what users?", "does it have docker?" ...
        base_text: The library template the session started from, when known: "what do we
            have beyond the base?" compares the package lists.

    Returns:
        A short paragraph or bullet list. Questions it does not recognise get the
        whole summary.
    """
    template = template_from_text(template_text)
    if not template.readable:
        return f"The current template could not be read: {template.error}."
    asked = question.lower()
    if _BEYOND_BASE.search(asked) and base_text is not None:
        # what the user asked for may be in the base already: the whole list follows
        compared = _beyond_base(template, template_from_text(base_text))
        return f"{compared}\n{_packages(template, False)}"
    # "how many partitions are there now?", "which users are there?": a question word
    # opens a question about a topic, never "is X in the package list?"
    # "is X in there or do I need to ask for it?": the second half asks whether to ask
    core = _ASK_FOR_IT.sub("?", asked)
    has = None if _WH_OPENING.match(core) else _HAS_QUESTION.search(core)
    what = has.group("what") or has.group("subject") if has is not None else ""
    # "what does it contain then, is everything I asked in there?": an adverb, and a second
    # question after a comma, are no part of what is asked about
    what = _NEXT_QUESTION.split(_LEADING_ADVERB.sub("", what), maxsplit=1)[0].strip()
    if has is not None and (
        not what or any(pattern.search(what) for _, pattern in _TOPICS) or what.startswith("to ")
    ):
        has = None  # "does either of them have sudo?" asks about users, not a package
    if has is None and (check := _CHECK_QUESTION.match(core)) is not None:
        # "confirm telnet and ftp are not in there", "make sure there's no gcc in it"
        has, what = check, check.group("what") or check.group("none")
    if has is not None and not _SUMMARY_WORDS.search(asked):
        named = _each_named(what)
        answers = [_answer_has(template, one) or _by_name(template, one, named) for one in named]
        if all(answers):
            return "\n".join(answers)
    if (which := _which_one(template, asked)) is not None:
        return which  # "which VA driver did you end up putting in?"
    if (thing := _WHAT_IS.match(asked)) is not None:
        answer = _what_it_is(template, thing.group("what"))
        if answer:
            return answer  # "whats samba exactly": what the catalog says it is
    if _LIMITS.search(asked):
        return _limits()
    if _PACKAGE_MANAGER.search(asked) and not re.search(r"\brepo|\bsources?\b", asked):
        return _package_manager(template)  # "which apt repos?" asks about repositories
    topics = [name for name, pattern in _TOPICS if pattern.search(asked)]
    if not topics and _names_a_user(template, asked):
        topics = ["users"]  # "which groups is ops in?", "what shell does deploy get?"
    summary = [m.group() for m in _SUMMARY_WORDS.finditer(asked)]
    if topics and summary and all(_TELL_ONLY.fullmatch(w) for w in summary):
        summary = []  # "please tell me once more which packages I added"
    if not topics or summary:
        topics = ["about", "target", "packages", "disk", "boot", "kernel", "users", "hostname"]
        return "Here is a summary of the template:\n" + "\n".join(
            f"- {line}" for topic in topics if (line := _TOPIC_LINES[topic](template, True))
        )
    lines = [_TOPIC_LINES[topic](template, False) for topic in topics]
    running = _IS_RUNNING.search(asked) if topics == ["services"] else None
    if running is not None:  # "is ssh enabled?": whether it is there, then who starts it
        lines.insert(0, _answer_has(template, running.group("what")))
    if "boot" in topics:
        keys = _secure_boot_keys(template_text)
        lines += keys or (_SECURE_BOOT_NEEDS if _SECURE_BOOT.search(asked) else [])
    return "\n".join(line for line in lines if line) or "The template does not say."


@tool
def explain_template(template: str, question: str) -> str:
    """Answer a question about an OS image template without changing it.

    Use it for questions such as "what packages are included?", "does it have docker?",
    "what is the disk layout?", "which kernel and cmdline?", "what users?", "which
    bootloader?" or "summarise it". Questions it does not recognise get a summary of
    the whole template.

    Args:
        template: The template's full YAML text (an os-image-composer template).
        question: The question, in plain English.

    Returns:
        A short plain-language answer: a sentence, a few lines or a bullet list.
    """
    return describe_template(template, question)


# "is ssh enabled?", "will chronyd be running?": a service named before its state
_IS_RUNNING = re.compile(
    r"\b(?:is|are|will)\s+(?:the\s+)?"
    r"(?!(?:it|they|them|this|that|these|those|services?|everything|all)\b)"
    r"(?P<what>[a-z0-9][\w.+-]*(?:\s+(?:server|daemon|agent))?)"
    r"\s+(?:be\s+)?(?:enabled|running|started|active|on)\b"
)


def _answer_has(template: Template, what: str) -> str:
    """Answer "does it have X?" from the package list, through the catalog's names for X."""
    catalog = load_catalog()
    asked = [w for w in re.findall(r"[a-z0-9][a-z0-9._+-]*", what) if w not in FILLER]
    if not asked:
        return ""
    installed = (*template.packages, *template.kernel.packages)
    names: set[str] = set(asked)
    os, dist, arch = template.target.os, template.target.dist, template.target.arch
    if family_of(os, dist):
        for capability in catalog.find(" ".join(asked)):
            names |= set(capability.packages_for(os, dist, arch))
        for word in asked:
            names |= set(catalog.aliases(word, os, dist, arch))
    found = [name for name in installed if name in names]
    subject = " ".join(what.strip(" ?.!").split())
    if not found and family_of(os, dist) and _DESCRIBED.search(subject):
        # "the thing that lets me log in remotely": the capability that does it, when sure
        from oic_ai.tools.planner.rules.described import pick

        picked, _ = pick(catalog, subject)
        if picked is not None:
            wanted = picked.packages_for(os, dist, arch)
            found = [name for name in installed if name in wanted]
            if found:
                return (
                    f"Yes: {subject} reads as {picked.name}, covered by "
                    f"{', '.join(found)} in the package list."
                )
            return (
                f"No: {subject} reads as {picked.name} ({', '.join(wanted)}); none of "
                f"those is in the package list; ask to add it."
            )
    if found:
        return f"Yes: {subject} is covered by {', '.join(found)} in the package list."
    # "is numpy in there?" with python3-numpy listed: a package whose name has the asked
    # word as one of its parts, said as such (it may not be what was meant)
    near = [name for name in installed if set(asked) & set(re.split(r"[-.+_:]", name))]
    if near:
        return f"No package is named {subject}, but the package list has {', '.join(near)}."
    return f"No: nothing in the package list provides {subject}."


# "which things cannot be set by this template?", "what are the limits of a template?"
_LIMITS = re.compile(
    r"\b(?:what|which)\b[^?]*?\b(?:can(?:no|')?t|can\s+not|could\s*n[o']t|not\s+possible|"
    r"impossible|not\s+(?:be\s+)?(?:set|supported|configur\w*|done|covered|possible))\b"
    r"|\b(?:limits?|limitations)\s+(?:of|on)\s+(?:the\s+|this\s+|a\s+)?(?:template|image|tool)"
)
# the bank's labels for wishes no template holds, said as what they are (not "no rule")
_LIMIT_REASON = re.compile(r"not (?:a )?template fields?|not part of an OS image|lays out the one")


def _limits() -> str:
    """What no template can hold, each with what to do instead (the bank's reasons)."""
    from oic_ai.stores.operation_bank import load_bank_data

    reasons = [
        label.reason
        for label in load_bank_data().labels.values()
        if label.outcome == "not_applied" and label.reason and _LIMIT_REASON.search(label.reason)
    ]
    return "A template cannot hold these; each says what to do instead:\n" + "\n".join(
        f"- {reason[:1].upper()}{reason[1:]}." for reason in reasons
    )


def _beyond_base(template: Template, base: Template) -> str:
    """The packages the template has and its base has not, and the reverse."""
    name = base.image.name or "the base template"
    added = [p for p in template.packages if p not in base.packages]
    dropped = [p for p in base.packages if p not in template.packages]
    if not added and not dropped:
        return f"Nothing beyond the base template ({name}): the package list is the base's."
    lines = [f"Compared with the base template ({name}):"]
    if added:
        lines.append(f"- added: {', '.join(added)}")
    if dropped:
        lines.append(f"- removed: {', '.join(dropped)}")
    return "\n".join(lines)


def _package_manager(template: Template) -> str:
    """The image's package manager, and whether its package list installs it."""
    os_name = template.target.os or ""
    family = family_of(os_name, template.target.dist or "")
    manager, about = _MANAGERS.get(os_name) or (_DEB_MANAGER if family == "deb" else ("", ""))
    if not manager:
        return "Package manager: the template's target names no distribution the composer knows."
    title = load_targets().title(template.target.dist) if template.target.dist else os_name
    listed = (
        "the package list installs it"
        if manager in template.packages
        else f"add {manager} to the package list if the running image should install packages"
    )
    return (
        f"Package manager: {manager} on {title} ({about}). The composer installs the "
        f"template's packages at build time; {listed}."
    )


def _about(template: Template, brief: bool) -> str:
    return f"About: {template.description}" if template.description else ""


def _target(template: Template, brief: bool) -> str:
    target = template.target
    title = load_targets().title(target.dist) if target.dist else "an unknown distribution"
    kind = load_targets().image_type_title(target.image_type, target.image_type or "image")
    if target.image_type and target.image_type != kind:
        kind += f" ({target.image_type})"  # "iso or img?": the type as the template writes it
    name = f"{template.image.name} {template.image.version}".strip()
    # "is trixie what debian 13 is called?": the release's codename is part of its name
    codename = load_targets().codename(target.dist) if target.dist else ""
    if codename and codename.lower() not in title.lower():
        title += f' "{codename}"'
    return f"Target: {title} ({target.os}/{target.dist}), {target.arch}, {kind}" + (
        f"; image {name}" if name else ""
    )


def _packages(template: Template, brief: bool) -> str:
    packages, kernel_packages = template.packages, template.kernel.packages
    if not packages and not kernel_packages:
        return "Packages: none listed."
    shown = packages if not brief else packages[:8]
    more = len(packages) - len(shown)
    text = f"Packages: {len(packages)} — " + ", ".join(shown)
    text += f" and {more} more" if more > 0 else ""
    if kernel_packages:
        text += f"; kernel packages: {', '.join(kernel_packages)}"
    return text


def _disk(template: Template, brief: bool) -> str:
    disk = template.disk
    if disk is None:
        if template.target.image_type == "iso":
            # the composer's ISO defaults lay out the disk the installer writes to
            return (
                "Disk: the installer's default layout for the disk it installs on (an EFI "
                "system partition and the root on the rest); ask for a partition to change it."
            )
        kind = load_targets().image_type_title(template.target.image_type, "image of this type")
        return f"Disk: none ({with_article(kind)} has no disk layout)."
    parts = []
    for part in disk.partitions:
        size = part.size_bytes(disk.size_bytes)
        size_text = format_size(size) if size is not None else "?"
        if part.end_bytes == 0:
            size_text += ", rest of disk"
        parts.append(
            f"{part.id or '?'} {part.mount_point or '-'} {part.fs_type or '?'} ({size_text})"
        )
    artifacts = ", ".join(str(artifact) for artifact in disk.artifact_specs)
    text = f"Disk: {disk.size or 'size not set'}"
    text += f" with {len(parts)} partitions: " + "; ".join(parts) if parts else ", no partitions"
    if artifacts:
        text += f". Output: {artifacts}"
    return text


def _kernel(template: Template, brief: bool) -> str:
    text = f"Kernel: {template.kernel.version or 'distribution default'}"
    if template.kernel.packages:  # "what's the kernel on that one?": its package too
        text += f" ({', '.join(template.kernel.packages)})"
    if template.kernel.cmdline:
        text += f", cmdline '{template.kernel.cmdline}'"
    return text


def _users(template: Template, brief: bool) -> str:
    if not template.users:
        return "Users: none defined beyond the defaults."
    described = []
    for user in template.users:
        extra = ["sudo"] if user.sudo else []
        if user.groups:
            extra.append("groups " + ", ".join(user.groups))
        if user.shell and not brief:
            extra.append("shell " + user.shell)
        described.append(user.name + (f" ({'; '.join(extra)})" if extra else ""))
    return "Users: " + "; ".join(described)


def _names_a_user(template: Template, asked: str) -> bool:
    """True when ``asked`` names one of the template's users by its name."""
    return any(
        re.search(rf"(?<![\w/.-]){re.escape(user.name)}(?![\w/-])", asked)
        for user in template.users
        if user.name
    )


def _boot(template: Template, brief: bool) -> str:
    loader = template.bootloader or "the default bootloader"
    text = f"Bootloader: {loader}" + (f" ({template.boot_type})" if template.boot_type else "")
    if template.immutability_enabled is not None:
        text += ", immutable root" if template.immutability_enabled else ", writable root"
    if template.secure_boot:
        text += ", secure boot keys set"
    return text


_KEY_FIELDS = (
    ("secureBootDBKey", "key"),
    ("secureBootDBCrt", "certificate"),
    ("secureBootDBCer", "DER certificate"),
)


_SECURE_BOOT = re.compile(r"\bsecure\s*-?\s*boot|\bsecureboot\b")
# what turning secure boot on takes, said when the template has no keys yet ("what would I
# need to give you to turn on secure boot?")
_SECURE_BOOT_NEEDS = [
    "Secure boot: not set. To turn it on, give the paths of the db signing key (db.key), "
    "its certificate (db.crt) and the certificate in DER form (db.cer); they go in the "
    "immutability settings (secureBootDBKey, secureBootDBCrt, secureBootDBCer), which "
    "turns immutability on. Keep the keys out of the repository."
]


def _secure_boot_keys(template_text: str) -> list[str]:
    """The secure boot key paths the template names (the model keeps only whether)."""
    import yaml

    try:
        raw = yaml.safe_load(template_text)
    except yaml.YAMLError:
        return []
    system = raw.get("systemConfig") if isinstance(raw, dict) else None
    section = system.get("immutability") if isinstance(system, dict) else None
    if not isinstance(section, dict):
        return []
    named = [f"{what} {section[field]}" for field, what in _KEY_FIELDS if section.get(field)]
    return ["Secure boot: " + ", ".join(named)] if named else []


def _hostname(template: Template, brief: bool) -> str:
    if template.hostname:
        return f"Hostname: {template.hostname}"
    return "" if brief else "Hostname: not set."


def _repositories(template: Template, brief: bool) -> str:
    if not template.repository_locations:
        return "Repositories: only the distribution's defaults."
    described = []
    for repo in template.repositories:
        fields = [
            f"{name} {value}"
            for name, value in (
                ("codename", repo.codename),
                ("component", repo.component),
                ("signing key", repo.pkey),
            )
            if value
        ]
        where = repo.url or repo.path
        described.append(f"{where} ({', '.join(fields)})" if fields and not brief else where)
    return "Repositories: " + "; ".join(described)


def _services(template: Template, brief: bool) -> str:
    """No template field enables a service: say so, and who decides."""
    return (
        "Services: a template has no field that enables or disables a service; each "
        "package's own defaults (its systemd preset) decide whether it starts at boot. "
        "Enable or disable one in a first-boot script or your configuration management."
    )


# One line per topic; ``brief`` (in the whole summary) shortens long lists.
_TOPIC_LINES: dict[str, Callable[[Template, bool], str]] = {
    "about": _about,
    "target": _target,
    "packages": _packages,
    "disk": _disk,
    "kernel": _kernel,
    "users": _users,
    "boot": _boot,
    "hostname": _hostname,
    "repositories": _repositories,
    "services": _services,
}
