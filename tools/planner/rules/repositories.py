"""Rule: package repositories, with every field kept exactly as given.

A request that names a repository ("add their apt repository", "our local mirror",
"repo", "URL ...") is read for its fields wherever they are in the request, as people
paste them: the URL, the suite or codename ("suite trixie", "codename noble"), the
component(s) ("component main"), and the signing key's URL ("key URL", "signing key at
URL", "signed by URL", "gpg key URL"). A request with several repository URLs is read
sentence by sentence. Fields are never guessed: a key URL not given is left out.

sources.list options in brackets ("[trusted=yes]") are not template fields: they are
reported, not misread as kernel options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from oic_ai.stores.targets import load_targets
from oic_ai.stores.template_model import Repository
from oic_ai.tools.edit_plan import AddRepository, SetValue
from oic_ai.tools.planner.clauses import sentence_spans, split_clauses
from oic_ai.tools.planner.rules.repository_refs import (
    named_repository,
    rule_repository_removal,
    rule_repository_version,
)
from oic_ai.tools.planner.state import PlanState

_URL = r"(?:https?|file)://(?:\[[0-9a-f:.]+\])?[^\s\[\]\x1f,;'\"`()]*[^\s\[\]\x1f,;'\"`().!?:]"
_PATH = r"/[^\s\[\]\x1f,;'\"`()]*[^\s\[\]\x1f,;'\"`().!?:]"
_CUE = re.compile(
    r"\b(?:(?:add|use|with|include|configure|set\s+up)\s+)?(?:(?:the|a|an|our|their|its|his|her|"
    r"my|your|this|that)\s+)?(?:(?:own|local|internal|private|vendor'?s?|upstream|official|"
    r"custom|extra|additional|docker'?s?|company)\s+)*(?:(?:apt|yum|dnf|rpm|deb|package|"
    r"software|debian|ubuntu)\s+)?(?:repo|repos|repository|repositories|mirror|source|sources|"
    r"ppa|ppas)\b"
    r"(?:\s*:)?"
    # a sources.list line: "deb https://... noble main"
    # (its options may be read already: blanked)
    r"|\bdeb(?:-src)?(?=\s+(?:[\[\x1f][^\]\x1f]*[\]\x1f]\s*)?(?:https?|file)://)"
)
# after a repository URL, the words of a sources.list line: the suite, then components
# "URL bookworm main", "URL, bookworm, stable": separated by spaces or commas
_POSITIONAL = re.compile(
    # a suite with slashes ("noble/mongodb-org/8.0 multiverse") when a component follows
    # (a sources.list line ends at its line's end: "main\ninstall grafana" is no component)
    r"(?:[ \t]*,[ \t]*|[ \t]+)\(?(?P<suite>[a-z][a-z0-9.-]*(?:/[a-z0-9][a-z0-9.-]*)+(?=[ \t]+[a-z])"
    r"|[a-z][a-z0-9.-]*)(?P<components>(?:(?:[ \t]*[,/][ \t]*|[ \t]+)(?!(?:with|and|key|signed|"
    r"signing|gpg|"
    r"priority|prio|suite|component|components|codename|for|from|to|at|on|in|please|too|also|"
    r"then|the|a|an|our|their|its|this|that|it|we|you)\b)[a-z][a-z0-9-]*)*)"
    # what ends the line: its end, a stop, a new line, "(key ...)", " / key ...", a field word
    r"(?=\s*(?:$|[,;.)`\x1f\n(]|/\s)|\s+(?:with|and|key|signed|signing|gpg|priority)\b)"
)
_URL_FIELD = re.compile(rf"\b(?:url|uri|address|at|from)\s*[:=]?\s*(?P<url>{_URL})")
_KEY = re.compile(
    r"\b(?:(?:signing|gpg|pgp|public|archive|repo|repository|release)\s+)?(?:key(?:ring)?|"
    r"signature|pkey|gpgkey|signed-by)(?:\s+(?:url|file(?!://)|path|is|at|from|=|:))*\s*[:=]?\s*"
    rf"(?P<key>{_URL}|{_PATH})"
    rf"|\bsigned\s+(?:with|by)\s+(?:the\s+key\s+(?:at\s+)?)?(?P<key2>{_URL}|{_PATH})"
    # "set the key of the dlstreamer repo to URL"
    r"|\bkey\s+(?:url\s+)?(?:of|for)\s+(?:the\s+|that\s+|this\s+|our\s+)?(?:[\w.+-]+\s+){0,3}?"
    r"(?:repo|repository|mirror|ppa|source)\s+(?:to|=|:|is|should\s+be|becomes?)\s*"
    rf"(?P<key4>{_URL}|{_PATH})"
    # "the key url is wrong. it's URL": a corrected key
    r"|\bkey(?:\s+url)?\s+(?:is|was)\s+(?:wrong|outdated|old|stale|broken|bad)[\s,.;:!-]*"
    r"(?:(?:the\s+right\s+one\s+is|it\s+should\s+be|should\s+be|it'?s|it\s+is|use|now)\s*:?\s*)"
    rf"(?P<key3>{_URL}|{_PATH})"
    # "the key is on the build server in /opt/k.asc", "the key file I copied to /srv/k.gpg":
    # where the key file lies (the words between name no repository and no other URL)
    r"|\b(?:signing\s+|gpg\s+|public\s+)?key(?:\s*file|ring)?\b"
    r"(?:(?!\b(?:repo|repos|repository|mirror|url|source|sources|deb)\b|https?:|file:|/)"
    r"[^.;\n\x1f]){1,60}?"
    r"\b(?:in|at|under|to|as|into)\s+(?:the\s+(?:file|path)\s+)?"
    rf"(?P<key5>{_URL}|{_PATH})"
)
_KEY_GROUPS = ("key", "key2", "key3", "key4", "key5")
# "the key file lies on the build server under exactly this path": the key is where the
# sources line's signed-by says (its path is read already), said again
_KEY_SAME_PATH = re.compile(
    r"\b(?:the\s+)?(?:signing\s+|gpg\s+)?key(?:\s*file|ring)?\b[^.;\n\x1f]{0,60}?"
    r"\b(?:in|at|under|on)\s+(?:exactly\s+|precisely\s+)?(?:this|that|the\s+same)\s+"
    r"(?:path|place|location|file\s*name)\b[^.;\n\x1f]{0,40}"
)
# the template's repository has no name field: the name people give it is its codename
_SUITE = re.compile(
    r"\b(?:suite|codename|code\s+name|distribution|dist|release|call(?:ed)?\s+it|name(?:d)?\s+it"
    r"|(?<=\s)(?:called|named))\b(?:\s+(?:there|here|then|now|for\s+it))?\s*[:=]?\s*"
    r"(?:(?:should\s+be|must\s+be|is|to|becomes?|will\s+be)\s+)?(?:(?:now|then)\s+)?"
    # quoted or not: suite "stable"
    r"(?P<quote>[\"'`“‘])?(?P<value>[a-z0-9][a-z0-9._/-]*)(?(quote)[\"'`”’])"
    # "noble instead of trixie", "noble (not trixie)": the value it replaces
    r"(?:\s*,?\s*\(?\s*(?:instead\s+of|rather\s+than|not|in\s+place\s+of)\s+[a-z0-9][a-z0-9._/-]*"
    r"\s*\)?)?"
)
_COMPONENT = re.compile(
    r"\b(?:components?|comps?|section|area)\b\s*[:=]?\s*(?:(?:to|is|as)\s+)?"
    # quoted, several words: components "main contrib non-free"
    r"(?:[\"'`](?P<quoted>[a-z0-9][a-z0-9._ ,-]*[a-z0-9_-])[\"'`]|"
    r"(?P<value>[a-z0-9](?:[a-z0-9._-]*[a-z0-9_-])?"
    r"(?:(?:\s*,\s*|\s+and\s+|\s+)(?!(?:and|key|signing|signed|suite|codename|with|url|please|pls|too|also|thanks|gpg|pgp|keyring"
    r"|pkey|gpgkey|priority|uri)\b)"
    r"[a-z0-9](?:[a-z0-9._-]*[a-z0-9_-])?)*))"
)
# "no key, just trust it", "unsigned, mark it trusted", "[trusted=yes]": a repository the
# user trusts without a signing key; the template says so with ``pkey: "[trusted=yes]"``
_TRUST = re.compile(
    r"\b(?:(?:just|simply|please)\s+)?(?:trust(?:ed)?\s+(?:it|that|this|them|the\s+(?:repo|"
    r"repository|mirror|source))(?:\s+(?:anyway|as\s+is))?|mark(?:ed)?\s+(?:it\s+)?(?:as\s+)?"
    r"trusted|(?:it'?s|it\s+is|as)\s+(?:a\s+)?trusted(?:\s+(?:repo|repository|mirror|source))?"
    r"|trusted\s*=\s*yes\b)"
    r"|\[\s*trusted\s*=\s*yes\s*\]"
)
# "no key", "without a signing key", "unsigned": no key is given (none is invented)
_NO_KEY = re.compile(
    r"\b(?:no|without(?:\s+an?y?)?)\s+(?:signing\s+|gpg\s+|pgp\s+|repo\s+)?(?:key|signature)s?\b"
    r"(?!\s*(?:url|file)?\s*[:=]?\s*(?:https?|file)://)|\bunsigned\b"
)
_TRUSTED_YES = "[trusted=yes]"  # as stores.package_trust says it (not imported: start-up)
_PRIORITY = re.compile(
    r"\b(?:pin\s+)?prio(?:rity)?\s*(?:of\s+|=\s*|:\s*|to\s+)?(?P<value>-?\d{1,5})\b"
    r"|\b(?:set\s+)?(?:its|the)\s+prio(?:rity)?\s+to\s+(?P<value2>-?\d{1,5})\b"
    # "a higher priority than debian's own, 600": the number said later in the clause
    r"|\bprio(?:rity)?\b[^\d.;!?\n\x1f]{0,40}?(?<![\w-])(?P<value3>-?\d{1,5})(?![\w.%])"
)
# "priority 900 ... hmm no, 500": a bare number that corrects the value just given
_CORRECTED = re.compile(
    r"[^\d\x1f]{0,40}?\b(?:no|actually|rather|sorry|i\s+mean|make\s+(?:it|that))\s*[,:]?\s*"
    r"(?P<value>-?\d{1,5})(?![\w.])"
)
# "prio 50 (not 10)", "priority 50 instead of 10": the old value
_OLD_VALUE = re.compile(r"\s*,?\s*\(?\s*(?:not|instead\s+of|rather\s+than|was)\s+-?\d{1,5}\b\s*\)?")
# a field of a repository, said without naming the repository
_FIELD_WORD = re.compile(
    r"\bprio(?:rity)?\s*(?:of\s+|=\s*|:\s*|to\s+)?-?\d"
    r"|\b(?:suite|codename|component)(?:\s+(?:there|here|then|now|for\s+it))?"
    r"\s*(?:[:=]\s*|(?:should\s+be|to|is|now|becomes?|will\s+be)\s+)?"
    r"[a-z0-9][a-z0-9._-]*(?:\s+(?:please|pls|instead|now|too))?"
    r"(?:\s*,?\s*\(?\s*(?:instead\s+of|rather\s+than|not)\s+[a-z0-9][a-z0-9._-]*\s*\)?)?"
    r"\s*(?:$|[,;.!?\x1f])"
    r"|(?<!ssh\s)\b(?:signing\s+|gpg\s+|repo\s+)?key(?:\s+url)?\s+(?:is|was|at|should)\b"
)
# "same key": the key of the repository before; "no priority": none is set
_SAME_KEY = re.compile(r"\b(?:the\s+)?same\s+(?:signing\s+|gpg\s+)?key\b")
_NO_PRIORITY = re.compile(r"\b(?:no|without(?:\s+a)?)\s+(?:pin\s+)?prio(?:rity)?\b")
# a field of a repository the template has: "that mirror's priority", "its component"
_REFERENCE = re.compile(
    r"\b(?:(?:change|set|bump|raise|lower|make|update|switch|give)\s+)?"
    r"(?:(?:that|the|this|our)\s+(?P<words>(?:(?!(?:and|or|to|of|for)\b)[\w.+-]+\s+){0,3}?)"
    r"(?:repo|repository|mirror|source)(?:'s)?|its)\b"
)
# a local repository's directory: "path is /srv/repo/x", "directory: /mnt/mirror"
_PATH_FIELD = re.compile(
    rf"\b(?:path|directory|dir|folder)\s*(?:is\s+|:\s*|=\s*|at\s+|in\s+|under\s+)?(?P<url>{_PATH})"
)
# words that say a repository lies on a disk, not behind a URL
_LOCAL = re.compile(
    r"\b(?:local(?:ly)?|on\s+(?:the\s+)?disk|file-based|offline|no(?:t)?\s+(?:over\s+)?https?)\b"
)
_BARE_URL = re.compile(rf"(?<![\w/])(?P<url>{_URL})")
_OPTIONS = re.compile(r"\[[^\]\x1f]*=[^\]\x1f]*\]")
_OPTION = re.compile(r"([\w-]+)\s*=\s*[^\s\]\x1f]+")
_SIGNED_BY_ONLY = re.compile(r"\[\s*signed-by=[^\]\s\x1f]*\s*\]")
_NO_KEY_GIVEN = "the signing key's location is not given; say 'key URL' (or a path)"
_OPTIONS_REASON = (
    "repository options are not applied; a template repository takes a url, codename, "
    "component and signing key ('key URL')"
)


# Debian's architecture names for the composer's ("amd64" is x86_64)
_DEBIAN_ARCH = {"x86_64": "amd64", "aarch64": "arm64"}


def _serves_target(state: PlanState, options: dict[str, re.Match[str]]) -> bool:
    """Whether a sources line's ``arch=`` (if any) includes the image's architecture.

    "[arch=amd64,arm64 ...]" on an x86_64 image asks nothing new; "[arch=arm64]" on one
    would leave the repository serving nothing for it, so that option is reported.
    """
    arch = options.get("arch")
    if arch is None or not state.target.arch:
        return True
    listed = set(re.split(r"[,\s]+", arch.group().split("=", 1)[1].lower()))
    return bool({state.target.arch, _DEBIAN_ARCH.get(state.target.arch, "")} & listed)


@dataclass
class _Repo:
    url: str | None = None
    codename: str | None = None
    component: str | None = None
    pkey: str | None = None
    priority: int | None = None
    spans: list[tuple[int, int]] = field(default_factory=list)


def rule_repositories(state: PlanState) -> None:
    """Add the repositories the request names, each field as written."""
    text = state.text
    rule_repository_removal(state)
    rule_repository_version(state)  # "switch the repo to 9.x"
    fields_of_its = state.facts.repositories and (
        _ITS_FIELD.search(text.work) or _FIELD_WORD.search(text.work)
    )
    if (
        not _CUE.search(text.work)
        and not _URL_FIELD.search(text.work)
        and not fields_of_its
        and not _keyed_url(text.work, 0, len(text.work))
    ):
        return
    for match in text.matches(_OPTIONS):
        options = {m.group(1).lower(): m for m in _OPTION.finditer(match.group())}
        if options and set(options) <= {"arch", "signed-by"} and _serves_target(state, options):
            # "[arch=amd64,arm64 signed-by=...]": the architectures it serves are read (the
            # image is built for one), the keyring path is the signing key's slot
            arch = options.get("arch")
            if arch is not None:
                text.consume(match.start() + arch.start(), match.start() + arch.end(), "context")
            if "signed-by" not in options:
                text.consume(*match.span(), "context")
                continue
            if not _KEY.search(text.work):
                state.reject(*match.span(), _NO_KEY_GIVEN)
                continue
            text.consume(match.start(), match.start() + 1)
            text.consume(match.end() - 1, match.end())
            continue
        if _SIGNED_BY_ONLY.fullmatch(match.group()):
            # "[signed-by=...]": the signing key's slot; its URL (here or said beside the
            # line, "key is at URL") is the repository's key
            if not _KEY.search(text.work):  # "[signed-by=...]" and no key anywhere
                state.reject(*match.span(), _NO_KEY_GIVEN)
                continue
            text.consume(match.start(), match.start() + 1)
            text.consume(match.end() - 1, match.end())
            if not _KEY.search(match.group()):
                text.consume(*match.span())
        elif not _TRUST.fullmatch(match.group()):
            state.reject(*match.span(), _OPTIONS_REASON)
    sentences = _by_sources_line(state, sentence_spans(split_clauses(state.text.original)))
    if _no_repository_url(state):
        _amend(state, 0, len(text.work))  # fields across sentences: "key is wrong. it's URL"
    for start, end in sentences:
        _amend(state, start, end)
    repos = [r for r in (_read(state, start, end) for start, end in sentences) if r.url]
    if len(repos) > 1 or not repos:
        found = repos
    else:
        found = [_read(state, 0, len(text.work))]  # one repository: its fields anywhere
    for repo in found:
        _plan(state, repo)
    _siblings(state)
    if len(found) > 1:
        # "two mirrors: deb URL1 ..., deb URL2 .... The apps mirror gets priority 900": a
        # sentence without a URL gives a field of one just added, which its words name
        for start, end in sentences:
            _amend(state, start, end)
    if any(repo.url for repo in found):
        for match in text.matches(_ADD_IT):
            text.consume(*match.span())  # "... signing key at URL. Please add it."
        _package_from_it(state)


# a sources line at the start of its own line: "deb [...] URL suite comps", also indented
_SOURCES_LINE_START = re.compile(r"^[ \t]*(?=deb(?:-src)?[ \t])", re.MULTILINE)


def _by_sources_line(state: PlanState, sentences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sentences, each pasted sources line one of its own.

    "two mirrors: / deb URL1 resolute main / deb URL2 resolute stable" (one a line) holds two
    repositories in what reads as one sentence: each line is read alone.
    """
    cut: list[tuple[int, int]] = []
    for start, end in sentences:
        starts = [m.start() for m in _SOURCES_LINE_START.finditer(state.text.work, start, end)]
        if len(starts) < 2:
            cut.append((start, end))
            continue
        bounds = [start, *(s for s in starts if s > start), end]
        cut += [(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if a < b]
    return cut


# "AppStream is the same, only /AppStream/ instead of /BaseOS/", "same for updates, with
# updates in place of main": another repository, the URL of one just given with a part
# replaced
_SIBLING = re.compile(
    r"\b(?:[\w.-]+\s+(?:is|are)\s+)?(?:the\s+)?same(?:\s+(?:thing|url|path|for\s+[\w.-]+))?"
    r"\s*[,:;]?\s*(?:(?:only|just|but|except)\s+)?(?:with\s+)?"
    r"['\"`]?(?P<new>/?[\w.-]+/?)['\"`]?\s+(?:instead\s+of|in\s+place\s+of|rather\s+than)\s+"
    r"['\"`]?(?P<old>/?[\w.-]+/?)['\"`]?"
)


def _siblings(state: PlanState) -> None:
    """Add the repository said to be the same as one just added but for a part of its URL."""
    text = state.text
    for match in text.matches(_SIBLING):
        new, old = (text.raw(*match.span(g)).strip("/") for g in ("new", "old"))
        source = next(
            (r for r in state.repositories if f"/{old}/" in f"{r.url}/" and new != old), None
        )
        if source is None:
            continue
        url = f"{source.url}/".replace(f"/{old}/", f"/{new}/", 1).rstrip("/")
        if source.url.endswith("/"):
            url += "/"
        text.consume(*match.span())
        if any(r.url == url for r in state.repositories):
            continue
        state.repositories.append(
            AddRepository(
                url=url, codename=source.codename, component=source.component, pkey=source.pkey
            )
        )


def _read(state: PlanState, start: int, end: int) -> _Repo:
    work = state.text.work
    repo = _Repo()
    # in a request about repositories, a sentence with a bare URL gives another one
    cued = _CUE.search(state.text.original.lower()) and _BARE_URL.search(work, start, end)
    named = (
        _CUE.search(work, start, end)
        or _ITS_FIELD.search(work, start, end)
        or (state.facts.repositories and _FIELD_WORD.search(work, start, end))
    )
    if (
        not named
        and not _URL_FIELD.search(work, start, end)
        and not cued
        and not _keyed_url(work, start, end)
    ):
        return repo
    keys = set()
    for match in _KEY.finditer(work, start, end):
        group = next(g for g in _KEY_GROUPS if match.group(g))
        said = _raw(state, match.span(group))
        # "[signed-by=/etc/apt/keyrings/x.gpg] ... key: URL": the keyring path is where the
        # key is put on a machine; the URL said beside it is where the key comes from
        # the key said to lie somewhere ("the key file I copied to /srv/k.gpg") is the one the
        # build uses, whatever key the pasted lines fetched
        if (
            repo.pkey is None
            or (repo.pkey.startswith("/") and not said.startswith("/"))
            or group == "key5"
        ):
            repo.pkey = said
        keys.add(match.span(group))
        repo.spans.append(match.span())
    if repo.pkey is not None and repo.pkey.startswith("/"):
        repo.spans += [m.span() for m in _KEY_SAME_PATH.finditer(work, start, end)]
    for match in _URL_FIELD.finditer(work, start, end):
        if match.span("url") not in keys and repo.url is None:
            repo.url = _raw(state, match.span("url"))
            repo.spans.append(match.span())
    if repo.url is None:
        for match in _BARE_URL.finditer(work, start, end):
            if match.span("url") not in keys and not any(s <= match.start() < e for s, e in keys):
                repo.url = _raw(state, match.span("url"))
                repo.spans.append(match.span())
                break
    if repo.url is None:
        # "our mirror is on the local disk ... path is /srv/repo/x": a file-based repository
        for match in _PATH_FIELD.finditer(work, start, end):
            if match.span("url") not in keys and _LOCAL.search(work):
                repo.url = _raw(state, match.span("url")).rstrip("/") or "/"
                repo.spans.append(match.span())
                break
    url_span = next(
        (
            span
            for span in repo.spans
            if repo.url and work[span[0] : span[1]].endswith(repo.url.lower())
        ),
        None,
    )
    positional = _POSITIONAL.match(work, url_span[1]) if url_span else None
    if positional is not None and not _SUITE.search(work, start, end):
        from oic_ai.tools.planner.lexicon import is_english

        suite = positional.group("suite")
        codenames = {d.codename for d in load_targets().dists.values() if d.codename}
        known = suite in _KNOWN_SUITE_WORDS | codenames or _release_name(suite)
        # after a comma a word is a suite only when it is one by name ("URL, htop" is not)
        listed = work[positional.start() : positional.start("suite")].strip() == ","
        if known or (not listed and not is_english(suite)):
            repo.codename = _raw(state, positional.span("suite"))
            components = re.split(r"[\s,/]+", positional.group("components").strip(" ,/"))
            components = [c for c in components if c]
            if components and not _COMPONENT.search(work, start, end):
                repo.component = " ".join(components)
            repo.spans.append(positional.span())
    if repo.codename is not None:
        _suite_replaced(state, repo, start, end)
    for pattern, name in ((_SUITE, "codename"), (_COMPONENT, "component")):
        candidates = [m for m in pattern.finditer(work, start, end) if not _names_other(work, m)]
        # a field said by its own word ("suite aria") wins over a name ("the repo called x")
        found = min(
            candidates,
            key=lambda m: (m.group().startswith(("called", "named")), m.start()),
            default=None,
        )
        if found is not None and getattr(repo, name) is None:
            span = (found.start(), found.end())
            value = _raw(state, found.span("value"))
            if name == "component" and found.group("quoted"):
                value = " ".join(re.split(r"[\s,]+", _raw(state, found.span("quoted"))))
            elif name == "component":
                words, last = _components(state, found)
                value, span = " ".join(words), (found.start(), last)
            setattr(repo, name, value)
            repo.spans.append(span)
    priority = _PRIORITY.search(work, start, end)
    if priority is not None:
        repo.priority = int(
            priority.group("value") or priority.group("value2") or priority.group("value3")
        )
        repo.spans.append(priority.span())
        corrected = _CORRECTED.match(work, priority.end())
        if corrected is not None:
            repo.priority = int(corrected.group("value"))
            repo.spans.append((priority.end(), corrected.end()))
        elif old := _OLD_VALUE.match(work, priority.end()):
            repo.spans.append(old.span())  # "prio 50 not 10": the value it replaces
    trusted = [m for m in _TRUST.finditer(work, start, end)]
    if trusted and repo.pkey is None:
        repo.pkey = _TRUSTED_YES
        repo.spans.extend(m.span() for m in trusted)
        repo.spans.extend(m.span() for m in _NO_KEY.finditer(work, start, end))
    elif repo.pkey is None:
        repo.spans.extend(m.span() for m in _NO_KEY.finditer(work, start, end))
    for pattern in (_SAME_KEY, _NO_PRIORITY):
        for match in pattern.finditer(work, start, end):
            repo.spans.append(match.span())
            if pattern is _SAME_KEY and repo.pkey is None:
                repo.pkey = _SAME
    for pattern in (_CUE, _ANOTHER):
        for match in pattern.finditer(work, start, end):
            repo.spans.append(match.span())
    return repo


# "obviously noble instead of jammy now", "replace jammy with noble": the sources line's
# suite, said to be another release now
_SUITE_INSTEAD = re.compile(
    r"\b(?P<new>[a-z][a-z0-9-]*)\s+(?:instead\s+of|in\s+place\s+of|rather\s+than)\s+"
    r"(?P<old>[a-z][a-z0-9-]*)\b"
    r"|\b(?:replace|swap)\s+(?P<old2>[a-z][a-z0-9-]*)\s+(?:with|for|by)\s+(?P<new2>[a-z][a-z0-9-]*)\b"
)


def _suite_replaced(state: PlanState, repo: _Repo, start: int, end: int) -> None:
    """A suite read from a sources line that the request says is another release now."""
    codenames = {d.codename for d in load_targets().dists.values() if d.codename}
    for match in _SUITE_INSTEAD.finditer(state.text.work, start, end):
        old = match.group("old") or match.group("old2")
        new = match.group("new") or match.group("new2")
        if old != (repo.codename or "").lower() or not (new in codenames or _release_name(new)):
            continue
        repo.codename = _raw(state, match.span("new" if match.group("new") else "new2"))
        repo.spans.append(match.span())
        return


# archive components that are English words too
_KNOWN_COMPONENTS = frozenset(
    "main contrib non-free non-free-firmware restricted universe multiverse stable "
    "updates security testing extras client test edge nightly beta proposed backports".split()
)
_COMPONENT_WORD = re.compile(r"[a-z0-9](?:[a-z0-9._-]*[a-z0-9_-])?")


def _components(state: PlanState, match: re.Match[str]) -> tuple[list[str], int]:
    """The components a component field lists, and where the last one ends.

    The first word is a component; each further one is when it is a known component or
    no English word: "component main, we install it later" lists ``main`` only, while
    "components main contrib non-free" lists three.
    """
    from oic_ai.tools.planner.lexicon import is_english

    words: list[str] = []
    end = match.start("value")
    work = state.text.work
    for word in _COMPONENT_WORD.finditer(work, match.start("value"), match.end("value")):
        if word.group() == "and":
            continue
        if words and "\n" in work[end : word.start()]:
            break  # a pasted field list: the next line is another field
        joined = work[end : word.start()] == ","  # "stable,test": a list written as one
        if words and not joined and word.group() not in _KNOWN_COMPONENTS:
            if is_english(word.group()):
                break
        words.append(state.text.raw(*word.span()))
        end = word.end()
    return words, end


# "a .deb called linectl-runtime", "an rpm named acme-agent": a package the user names as one
_PACKAGE_CALLED = re.compile(
    r"\b(?:a|an|the|our|their)\s+(?:\.?deb|\.?rpm|package)\s+(?:called|named|is)\s+"
    r"(?P<name>[a-z0-9][a-z0-9.+-]*[a-z0-9+])"
)
# "add the repo and the package", "then install the package": that package, from it
_THE_PACKAGE = re.compile(
    r"\b(?:(?:add|install|include|pull\s+in)\s+(?:the|that)|and\s+(?:the|that))\s+"
    r"(?:package|\.?deb|\.?rpm)\b(?!\s+(?:called|named|list|is|\w+=))"
    # "the package is gw-agent, install it from there"
    r"|\b(?:install|add|pull|get)\s+it\s+from\s+(?:there|it|that\s+(?:one|repo|repository|mirror))"
)


def _package_from_it(state: PlanState) -> None:
    """The package a request that adds a repository names as one, and asks for.

    "our runtime is a .deb called linectl-runtime we host at URL ... add the repo and
    the package": the user marks the name as a package, and asks for it.
    """
    text = state.text
    named = [m for m in _PACKAGE_CALLED.finditer(text.work)]
    wanted = text.matches(_THE_PACKAGE)
    if len(named) != 1 or not wanted:
        return
    name = text.raw(*named[0].span("name"))
    if name != name.lower():
        return  # a product name, not a package's
    text.consume(*named[0].span("name"), "packages")
    for match in wanted:
        text.consume(*match.span(), "packages")
    if name not in state.add and name not in state.facts.packages:
        state.add.append(name)


# "please add it", "use that one": the repository the request just described
_ADD_IT = re.compile(
    r"\b(?:(?:please|pls|kindly)\s+)?(?:add|use|include|configure|enable|set\s+up)\s+"
    r"(?:it|that|this|them|those|these|the\s+same|the\s+following|the\s+below|all\s+of\s+(?:it|them))"
    r"(?:\s+one)?(?:\s+(?:too|as\s+well|please|pls|here|below))?\b(?!\s+\w)"
)
# "its suite should be ...": a repository field, when the template lists repositories
_ITS_FIELD = re.compile(r"\bits\s+(?:suite|codename|components?|priority|prio|signing\s+key)\b")
# "also add a second one, URL ...": another repository, in a request about them
_ANOTHER = re.compile(
    r"\b(?:(?:also\s+)?add\s+)?(?:another|a\s+(?:second|third|further)|one\s+more)(?:\s+one)?\b"
)


def _release_name(word: str) -> bool:
    """True when the target registry knows ``word`` as a release ("bookworm", "jammy")."""
    from oic_ai.tools.retrieval.target_mentions import detect_target_spans

    return any(
        m.kind in ("dist", "unsupported") and (m.start, m.end) == (0, len(word))
        for m in detect_target_spans(word)
    )


# "the repo called corp-extras", "a mirror named m1": "called" names a repository only
# after a word for one; "a .deb called linectl", "a user called svc-app" name other things
_REPO_NAMED = re.compile(
    r"\b(?:repo|repos|repository|repositories|mirror|source|ppa|one|feed|channel)"
    r"(?:\s+(?:is|was))?\s+$"
)


def _names_other(work: str, match: re.Match[str]) -> bool:
    """True when a "called"/"named" match names a user, a package or another thing."""
    if not re.match(r"(?:called|named)\b", match.group()):
        return False
    return _REPO_NAMED.search(work, max(0, match.start() - 24), match.start()) is None


_KNOWN_SUITE_WORDS = frozenset(("stable", "testing", "unstable", "experimental", "sid", "edge"))
_SAME = "\x00same"  # "same key": the key of the repository before, found when planned


def _previous(state: PlanState) -> tuple[str, str] | None:
    """The URL and key of the repository added or listed last."""
    if state.repositories:
        last = state.repositories[-1]
        return last.url, last.pkey or ""
    listed = [r for r in state.facts.repositories if r.url]
    return (listed[-1].url, listed[-1].pkey) if listed else None


def _amend(state: PlanState, start: int, end: int) -> None:
    """Fields for a repository the template has: "change that mirror's priority to 50".

    A sentence that points at a repository ("that repo", "its", "the openvino repo") and
    gives fields but no URL changes the repository its words name, else the one added or
    listed last; each field is set as given.
    """
    work = state.text.work
    if not (_REFERENCE.search(work, start, end) or _no_repository_url(state)):
        return
    if _BARE_URL.search(work, start, end) and not _no_repository_url(state):
        return
    previous = _previous(state)
    repo = _read(state, start, end)
    fields = {
        "priority": repo.priority,
        "component": repo.component,
        "codename": repo.codename,
        "pkey": None if repo.pkey == _SAME else repo.pkey,
    }
    given = {k: v for k, v in fields.items() if v is not None}
    if previous is None or not given:
        return
    # "the intel gpu repo's component": the listed repository those words name, else the last
    said = " ".join(m.group("words") or "" for m in _REFERENCE.finditer(work, start, end))
    # "the HashiCorp suite is noble": the words before a field name the repository too
    said += " " + " ".join(m.group("words") for m in _NAMED_FIELD.finditer(work, start, end))
    url = named_repository(state, said) or previous[0]
    for span in [*repo.spans, *(m.span() for m in _REFERENCE.finditer(work, start, end))]:
        state.text.consume(*span)
    planned = next((r for r in state.repositories if r.url == url), None)
    for name, value in given.items():
        if planned is not None and name != "priority":
            setattr(planned, name, value)
            continue
        state.repository_values.append(
            SetValue(path=f"packageRepositories[url={url}].{name}", value=value)
        )


_NAMED_FIELD = re.compile(
    r"\b(?:the|that|this|our|their)\s+(?P<words>(?:(?!(?:and|or|to|of|for)\b)[\w.+-]+\s+){1,3}?)"
    r"(?:suite|codename|components?|signing\s+key|key|priority)\b"
)


def _keyed_url(work: str, start: int, end: int) -> bool:
    """True when ``start:end`` gives a signing key's URL and another URL beside it.

    "htop from EPEL (URL , key URL)": a URL said with a signing key is a repository's,
    whatever the repository is called.
    """
    keys = [m.span(g) for m in _KEY.finditer(work, start, end) for g in _KEY_GROUPS if m.group(g)]
    if not keys:
        return False
    return any(m.span("url") not in keys for m in _BARE_URL.finditer(work, start, end))


def _no_repository_url(state: PlanState) -> bool:
    """True when every URL in the request is a signing key's: no repository is named.

    Fields said then ("prio 50 not 10", "the key url is wrong, it's URL") are for the
    repository the template lists (or this plan added) last.
    """
    work = state.text.work
    keys = [m.span(g) for m in _KEY.finditer(work) for g in _KEY_GROUPS if m.group(g)]
    return all(m.span("url") in keys for m in _BARE_URL.finditer(work))


def _raw(state: PlanState, span: tuple[int, int]) -> str:
    return state.text.raw(*span).rstrip(".,;:")


def _plan(state: PlanState, repo: _Repo) -> None:
    if repo.url is None:
        return
    for span in repo.spans:
        state.text.consume(*span)
    if repo.pkey == _SAME:
        previous = _previous(state)
        repo.pkey = previous[1] or None if previous else None
    listed = next((r for r in state.facts.repositories if r.url == repo.url), None)
    if listed is not None:
        _update_listed(state, repo, listed)
        return
    state.repositories.append(
        AddRepository(
            url=repo.url, codename=repo.codename, component=repo.component, pkey=repo.pkey
        )
    )
    if repo.priority is not None:
        # the operation has no priority field (the models' schema stays small): a value
        # set on the new entry, after it is added
        state.repository_values.append(
            SetValue(path=f"packageRepositories[url={repo.url}].priority", value=repo.priority)
        )


def _update_listed(state: PlanState, repo: _Repo, listed: Repository) -> None:
    """A repository the template lists, given again: the fields said differently are set.

    "add the repo URL, codename noble, component client" for a listed URL whose component
    is ``unified`` sets the component to ``client``: the user's fields are kept as given.
    """
    given = {
        "codename": repo.codename,
        "component": repo.component,
        "pkey": repo.pkey,
        "priority": repo.priority,
    }
    changed = {
        name: value
        for name, value in given.items()
        if value is not None and value != getattr(listed, name)
    }
    if not changed:
        state.notes.append(f"repository {repo.url} is already listed")
        return
    for name, value in changed.items():
        state.repository_values.append(
            SetValue(path=f"packageRepositories[url={repo.url}].{name}", value=value)
        )
    state.notes.append(
        f"repository {repo.url} was already listed: set its "
        + ", ".join(f"{name} to {value}" for name, value in changed.items())
    )
