"""A vendor's repository instructions, pasted, read as the repository they set up.

Vendors publish the same few steps for their package repositories, and people paste them
as they are: fetch the signing key into a keyring file (``curl -fsSL URL -o PATH``,
``wget -qO- URL | gpg --dearmor | sudo tee PATH``, ``rpm --import URL``), write a
sources line that names that keyring (``echo "deb [signed-by=PATH] URL SUITE COMP" | sudo
tee ...``), or a deb822 stanza (``Types:``, ``URIs:``, ``Suites:``, ``Components:``,
``Signed-By:``) or a yum ``.repo`` stanza (``baseurl=``, ``gpgkey=``), then install.

:func:`read_vendor_repositories` follows the keyring file from the command that fetched
it to the line that names it, so the repository's key is the URL the key came from, and
writes one plain request per repository ("add repo URL with suite S, component C, key K")
for the repository rule. A suite written as the release's own codename
(``$(lsb_release -cs)``, ``$VERSION_CODENAME``) is left to the template's release. The
housekeeping lines of such instructions (``install -d``, ``chmod``, ``mkdir``, ``apt-get
update``) ask for nothing. A sources file fetched whole (``curl URL.list | tee ...``) is
not read (its lines are not in the request): it is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

_URL = r"(?:https?|file)://[^\s\"'`|<>()]+[^\s\"'`|<>().,;]"
# "$(. /etc/os-release && echo "$VERSION_CODENAME")", "$(lsb_release -cs)", "${VERSION_CODENAME}"
_CODENAME_EXPR = re.compile(
    r"\$\((?:[^()]|\([^()]*\))*?(?:VERSION_CODENAME|UBUNTU_CODENAME|lsb_release\s+-[a-z]*c)"
    r"(?:[^()]|\([^()]*\))*\)|\$\{?(?:VERSION_CODENAME|UBUNTU_CODENAME)\}?"
)
_OTHER_EXPR = re.compile(r"\$\((?:[^()]|\([^()]*\))*\)")
_CODENAME = "\x00codename"
_FETCH = re.compile(rf"\b(?:curl|wget)\b[^\n|]*?(?P<url>{_URL})")
# where a fetched file goes: "-o PATH", "-fsSLo PATH", "-O PATH", "--output-document=PATH",
# "tee [-a] PATH", "> PATH", "--dearmor -o PATH"
_DESTINATION = re.compile(
    r"(?:\s-[a-zA-Z]*[oO]\s*|\btee\s+(?:-a\s+)?|>\s*|--output(?:-document)?[\s=]+|--dearmor\s+-o\s*)"
    r"(?P<path>/[^\s\"'`|;&]+)"
)
_IMPORT = re.compile(
    rf"\brpm\s+--import\s+(?P<url>{_URL})|\bapt-key\s+adv\b[^\n]*?(?P<url2>{_URL})"
)
# a line that is a command of the instructions (not a sentence that quotes one)
_COMMAND_LINE = re.compile(
    r"^\s*(?:[$#>]\s*|-\s+|\d+[.)]\s*|`)?(?:sudo\s+(?:-\S+\s+)*)?"
    r"(?:curl|wget|echo|rpm|apt-key|gpg|sh|bash|cat|printf|tee|deb)\b"
)
_DEB = re.compile(
    r"\bdeb\s+(?:\[(?P<options>[^\]\n]*)\]\s+)?(?P<url>(?:https?|file)://[^\s\"'`]+)"
    r"(?:\s+(?P<suite>[^\s\"'`|]+))?(?P<components>(?:[ \t]+[a-z][\w.+-]*)*)"
)
# a sources line written to a sources file by a command ("echo "deb ..." | sudo tee
# /etc/apt/sources.list.d/x.list"): the vendor's step, pasted, even with no key fetched
# (or "sudo sh -c 'echo "deb ..." > /etc/apt/sources.list.d/x.list'")
_WRITTEN_SOURCES = re.compile(
    r"^\s*(?:[$#>]\s*)?(?:sudo\s+)?(?:echo|printf)\b[^\n|]*\bdeb\s[^\n|]*\|\s*(?:sudo\s+)?tee\b"
    r"|\b(?:echo|printf)\b[^\n]*\bdeb\s[^\n]*>>?\s*/etc/apt/sources\.list"
)
_SIGNED_BY = re.compile(r"\bsigned-by=(?P<path>\S+)")
_STANZA_KEY = re.compile(
    r"^\s*(?P<key>Types|URIs|Suites|Components|Signed-By|Architectures|Enabled|baseurl|"
    r"gpgkey|gpgcheck|enabled|name|repo_gpgcheck|metadata_expire|type|autorefresh|protect"
    r"|skip_if_unavailable|sslverify|countme|module_hotfixes|keepcache|enabled_metadata)"
    r"\s*[:=]\s*"
    r"(?P<value>.*)$",
    re.IGNORECASE,
)
_SECTION = re.compile(r"^\s*\[[\w.-]+\]\s*$")
# lines of such instructions that set nothing a template holds
_HOUSEKEEPING = re.compile(
    r"^\s*(?:sudo\s+)?(?:install\s+-[dm]|chmod\b|mkdir\b|apt(?:-get)?\s+(?:-\S+\s+)*update\b|"
    r"(?:dnf|yum|tdnf)\s+(?:-\S+\s+)*makecache\b|gpg\s+--dearmor\b|"
    # a key looked at before it is trusted ("gpg --show-keys --with-fingerprint KEY")
    r"gpg\s+(?:--?[\w-]+\s+)*?--(?:show-keys|list-keys|fingerprint|verify|list-packets)\b)"
)


# "curl -O URL", "curl --remote-name URL", "wget URL": saved under the URL's own file name
_REMOTE_NAME = re.compile(
    r"\bcurl\b[^\n|]*\s(?:-[a-zA-Z]*O\b|--remote-name\b)|^\s*(?:sudo\s+)?wget\s+(?!.*\s-[qO]*O\b)"
)
_CONTINUED = re.compile(r"[ \t]*\\\n[ \t]*")
# the steps of one shell line ("apt-get update && apt-get install x", "a; b")
_STEPS = re.compile(r"\s*(?:&&|;)\s*")


def _host(url: str) -> str:
    return urlsplit(url).netloc.lower()


@dataclass
class _Source:
    url: str
    suite: str | None = None
    components: list[str] = field(default_factory=list)
    key: str | None = None

    def request(self) -> str:
        parts = [f"add repo {self.url}"]
        said = []
        if self.suite:
            said.append(f"suite {self.suite}")
        if self.components:
            said.append(f"component {' '.join(self.components)}")
        if self.key:
            said.append(f"key {self.key}")
        if said:
            parts.append("with " + ", ".join(said))
        return " ".join(parts) + "."


def read_vendor_repositories(text: str) -> tuple[str, list[str], list[str]]:
    """Rewrite a pasted vendor's repository instructions as plain repository requests.

    Returns:
        The rewritten text; a notice when instructions were read; what could not be read
        (a sources file fetched whole).
    """
    # a command continued on the next line ("echo \\" then the sources line) is one line
    lines = _CONTINUED.sub(" ", text).split("\n")
    keys: dict[str, str] = {}  # keyring path -> the URL its key came from
    imported: list[str] = []
    fetched_lists: list[str] = []
    used: set[int] = set()
    saved: dict[str, str] = {}  # "curl -O URL": the file it saves, under the URL's name
    for number, line in enumerate(lines):
        for match in _IMPORT.finditer(line):
            imported.append(match.group("url") or match.group("url2"))
            used.add(number)
        fetch = _FETCH.search(line)
        if fetch is None:
            # "cat influxdata-archive.key | gpg --dearmor | sudo tee PATH": the key a
            # line before saved, written to the keyring
            local = next(
                (f for f in saved if re.search(rf"(?<![\w/.-]){re.escape(f)}\b", line)), None
            )
            targets = [d.group("path") for d in _DESTINATION.finditer(line)]
            targets = [d for d in targets if d != "/dev/null"]
            if local is not None and targets:
                for path in targets:
                    keys[path] = saved[local]
                used.add(number)
            continue
        url = fetch.group("url")
        # "wget -q -O PATH URL" names the file before the URL, "curl URL -o PATH" after it
        destinations = [
            d.group("path") for d in _DESTINATION.finditer(line, fetch.start()) if d.group("path")
        ]
        destinations = [d for d in destinations if d != "/dev/null"]
        if re.search(r"\.(?:list|sources|repo)$", url):
            fetched_lists.append(url)
            used.add(number)
        elif not destinations and _REMOTE_NAME.search(line):
            saved[url.rstrip("/").rsplit("/", 1)[-1]] = url
            used.add(number)
        elif destinations or "apt-key" in line or "--dearmor" in line:
            for path in destinations:
                keys[path] = url
            if not destinations:
                imported.append(url)
            used.add(number)
    stanzas = _stanzas(lines, keys, used)
    instructions = bool(keys or imported or fetched_lists or stanzas) or any(
        _CODENAME_EXPR.search(line) or _WRITTEN_SOURCES.search(line) for line in lines
    )
    if not instructions:
        return text, [], []  # a sources line said alone is the repository rule's
    sources = _deb_lines(lines, keys, used) + stanzas
    if not sources and not fetched_lists:
        return text, [], []
    # a sentence that quotes a command keeps its other words; only command lines go
    used = {
        n
        for n in used
        if _COMMAND_LINE.match(lines[n]) or _STANZA_KEY.match(lines[n]) or _SECTION.match(lines[n])
    }
    if len(imported) == 1:
        for source in sources:
            source.key = source.key or imported[0]
    rewritten: list[str] = []
    for number, line in enumerate(lines):
        if number in used:
            continue
        if line.strip() and (sources or fetched_lists):
            # "sudo apt-get update && sudo apt-get install tailscale": the update asks
            # nothing, the install after it does
            steps = [s for s in _STEPS.split(line) if s.strip() and not _HOUSEKEEPING.match(s)]
            if len(steps) < len(_STEPS.split(line)):
                line = " && ".join(s.strip() for s in steps)
                if not line:
                    continue
        rewritten.append(line)
    rewritten = _mirrored(sources, rewritten)
    # the repository first, then what is installed from it ("apt-get install docker-ce")
    rewritten = [source.request() for source in sources] + rewritten
    notices = ["read the pasted repository instructions as the repository they set up"]
    missed = [
        f"'{url}' — the repository's sources file is fetched whole and its lines are not "
        "in the request; paste its 'deb URL suite component' line (or say the URL, suite, "
        "component and key)"
        for url in fetched_lists
        # "and the .list file is just deb ...": its line pasted after all, from that host
        if not any(_host(source.url) == _host(url) for source in sources)
    ]
    return "\n".join(rewritten), notices if sources else [], missed


# "we mirrored it already to URL", "our mirror of it is at URL": the user's copy of the
# vendor's repository, which the build (offline) uses instead
_MIRRORED = re.compile(
    rf"\bmirror(?:ed|s)?\b(?:[^\n:/]{{0,30}}?\s(?:to|at|on|under|in)\s+|\s*:\s*|\s+is\s+)"
    rf"(?P<url>{_URL})"
)


def _mirrored(sources: list[_Source], lines: list[str]) -> list[str]:
    """Point the one pasted source at the user's mirror of it, said in the other lines.

    Returns the lines with the mirror's URL taken out of them (it is the source's now).
    """
    found = [(n, m) for n, line in enumerate(lines) for m in _MIRRORED.finditer(line)]
    if len(sources) != 1 or len(found) != 1:
        return lines
    number, match = found[0]
    if _host(match.group("url")) == _host(sources[0].url):
        return lines
    sources[0].url = match.group("url")
    line = lines[number]
    return [
        *lines[:number],
        line[: match.start("url")].rstrip() + line[match.end("url") :],
        *lines[number + 1 :],
    ]


def _deb_lines(lines: list[str], keys: dict[str, str], used: set[int]) -> list[_Source]:
    sources = []
    for number, line in enumerate(lines):
        if not _COMMAND_LINE.match(line) and not _CODENAME_EXPR.search(line):
            continue  # "add deb [signed-by=...] URL noble main please": the rule's to read
        said = _OTHER_EXPR.sub("$EXPR", _CODENAME_EXPR.sub(_CODENAME, line))
        for match in _DEB.finditer(said):
            source = _Source(url=match.group("url"))
            suite = match.group("suite") or ""
            if suite and suite != _CODENAME and not suite.startswith("$"):
                source.suite = suite
            source.components = match.group("components").split()
            signed = _SIGNED_BY.search(match.group("options") or "")
            if signed:
                path = signed.group("path").strip("\"'")
                source.key = keys.get(path, path)
            sources.append(source)
            used.add(number)
    return sources


def _stanzas(lines: list[str], keys: dict[str, str], used: set[int]) -> list[_Source]:
    """deb822 (``URIs:``) and yum ``.repo`` (``baseurl=``) stanzas, one source each."""
    sources: list[_Source] = []
    stanza: dict[str, str] = {}
    numbers: list[int] = []

    def close() -> None:
        url = (stanza.get("uris") or stanza.get("baseurl") or "").split()
        if url and re.match(_URL, url[0]):
            source = _Source(url=url[0])
            suite = (stanza.get("suites") or "").split()
            if suite and suite[0] != _CODENAME and not suite[0].startswith("$"):
                source.suite = suite[0]
            source.components = (stanza.get("components") or "").split()
            key = (stanza.get("signed-by") or stanza.get("gpgkey") or "").split()
            if key and not key[0].startswith("-----"):
                source.key = keys.get(key[0], key[0])
            sources.append(source)
            used.update(numbers)
        stanza.clear()
        numbers.clear()

    for number, line in enumerate(lines):
        said = _CODENAME_EXPR.sub(_CODENAME, line)
        match = _STANZA_KEY.match(said)
        if match:
            stanza[match.group("key").lower()] = match.group("value").strip()
            numbers.append(number)
        elif _SECTION.match(line):
            if stanza:
                close()
            numbers[:] = [number]  # "[vendor]": the header of the stanza that follows
        elif stanza:
            close()
    if stanza:
        close()
    return sources
