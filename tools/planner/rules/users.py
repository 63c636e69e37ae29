"""Rule: users, with or without sudo, groups and shell; removing a user.

A sentence is read as user mentions ("a login called ops", "an admin, labadmin",
"accounts for tester1 and tester2", "another called svc-runner") and, after each, the
attributes that belong to it until the next mention: sudo on ("with sudo", "admin
rights", "(sudo)", an admin/sudo role word) or off ("no sudo", "without sudo rights",
"non-admin", "normal users"), groups ("in the docker group", "in wheel", "in sudo + adm
groups", "in no extra groups"), and a shell ("shell /bin/bash", "with /usr/sbin/nologin",
a bare "bash"). A mention with no name of its own ("normal users") adds its attributes
to the mention before it. "remove tester2" removes a user the template has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from oic_ai.stores.targets import load_targets
from oic_ai.tools.edit_plan import DeleteValue
from oic_ai.tools.planner.rules.user_absent import after_users
from oic_ai.tools.planner.rules.user_attributes import GROUP_LIST as _GROUP_LIST
from oic_ai.tools.planner.rules.user_attributes import (
    INSTALLING,
    bare_sudo,
    continued,
    coordinated,
    past_names,
)
from oic_ai.tools.planner.rules.user_attributes import NO_GROUPS as _NO_GROUPS
from oic_ai.tools.planner.rules.user_attributes import NO_SHELL as _NO_SHELL
from oic_ai.tools.planner.rules.user_attributes import SHELL as _SHELL
from oic_ai.tools.planner.rules.user_glue import GLUE, eat_glue
from oic_ai.tools.planner.rules.user_like import (
    LIKE_NAME,
    LIKE_USER,
    SAME_AS,
    a_user,
    copied_from,
)
from oic_ai.tools.planner.rules.user_names import (
    ASKING,
    GROUP_WORD_NEXT,
    NAMED,
    ROLE_NAMES,
    names_after,
)
from oic_ai.tools.planner.rules.user_plans import (
    a_package,
    install_shell,
    plan_user,
    renamed_users,
)
from oic_ai.tools.planner.rules.user_removal import REMOVING, remove_users, take_shells_off
from oic_ai.tools.planner.rules.user_words import (
    ATTRIBUTE_NEXT,
    DESCRIBER,
    DEVICE_ACCESS,
    FOR_WHOM,
    FOREIGN_ROLES,
    GIVE_SUDO,
    LOGS_IN_AS,
    NOT_IN_GROUPS,
    NOT_PRE_NAMES,
    STOP_WORDS,
    device_group,
    join_spoken,
    other_fields,
    role_sudo,
    took_back,
)
from oic_ai.tools.planner.rules.user_words import NAME as _NAME
from oic_ai.tools.planner.rules.user_words import SUDO_OFF as _SUDO_OFF
from oic_ai.tools.planner.rules.user_words import SUDO_ON as _SUDO_ON
from oic_ai.tools.planner.state import PlanState

_ROLE = (
    r"(?:users?|accounts?|accts?|logins?|sudoers?|admins?|administrators?|{foreign}"
    # a field label that names the user: "username: deploy, sudo: yes"
    r"|(?:user|login)-?names?(?=\s*[:=])"
    r"|another(?=\s+(?:one\s+)?(?:called|named)\b)"
    # "one" standing for a user, after a user was mentioned: "plus one called itadmin"
    r"|one(?=\s+(?:more\s+)?(?:called|named)\b)"
    # "and one for the dentist, drchen": one more account, for whom, then its name
    r"|one(?=\s+(?:more\s+)?for\s)"
    # the speaker's own account, named right after: "and me: jdoe, sudo", "me (jdoe)"
    r"|(?:me|myself)(?:\s+(?:too|as\s+well))?(?=\s*[:(]\s*[a-z_]))"
)
_ROLE = _ROLE.format(foreign=FOREIGN_ROLES)
_ROLE_MODIFIER = (
    r"(?:(?:a|an|one|new|normal|regular|standard|plain|ordinary|unprivileged|non-?admin|"
    r"non-?privileged|non-?sudo|non-?root|service|system|local|extra|second|admin|administrator|sudo|"
    r"privileged|root-capable)[\s-]+)"
)
# a role word by itself, not part of a hyphenated name ("admin-it", "user-data")
_MENTION = re.compile(rf"(?<![\w-])(?P<mods>{_ROLE_MODIFIER}*)(?P<role>{_ROLE})(?![\w-])")
# words after a role noun that make it an attribute, not a user ("admin rights", "login shell")
_NOT_AFTER_ROLE = re.compile(
    r"\s*(?:rights|access|privileges|permissions|powers|groups?|shell|password|names|"
    # "user name robot," names the user; "the user name is wrong" does not
    r"name(?!\s*[:=]?\s*[\"'`]?[a-z_][a-z0-9_-]*[\"'`]?\s*(?:$|[,;.\x1f]))|"
    r"data|space|namespaces?|management|session|id|ids|interface|ui|mode|"
    # "who can do admin stuff", "admin tasks": the work, not an account named "stuff"
    r"stuff|things|tasks|work|duties|jobs|chores|operations|commands|functions|level|panel)\b"
)
# "the user deploy should exist": a user asked for, though named with "the"
_WANTED_AFTER = re.compile(
    r"\s+(?:should|must|has\s+to|needs\s+to)\s+(?:also\s+)?(?:exist|be\s+there)\b"
)
_REMOVING_BEFORE = re.compile(REMOVING + r"(?:the\s+)?$")
_NAME_GIVEN = re.compile(
    r"(?P<said>\b(?:(?:its|his|her|the|user)\s*)?name\s+(?:is|should\s+be|will\s+be|=|:)\s*"
    + _NAME
    + r")"
)
_NAMING_AFTER = re.compile(
    r"\s+(?:(?:is\s+|will\s+be\s+|should\s+be\s+)?(?:called|named)\s"
    r"|(?:is|should\s+be|shall\s+be|will\s+be|must\s+be)\s+[\"'`][a-z_])"
    r"|\s*[,—–-]?\s*(?:call|name)\s+(?:it|him|her|them)\s"
)
_DEFINITE = re.compile(r"\b(?:the|that|this|those|these)\s+$")
_SENTENCE_END = re.compile(r"[.!?;](?:\s|$)")


@dataclass
class _User:
    names: list[str]
    start: int
    end: int
    sudo: bool | None = None
    groups: list[str] = field(default_factory=list)
    not_groups: list[str] = field(default_factory=list)  # "but not in wheel"
    no_groups: bool = False
    shell: str | None = None
    listed: bool = False  # named in a list of users ("users: a, b and c")
    read: list[tuple[int, int]] = field(default_factory=list)  # the spans read for it
    attributes_from: int | None = None  # where its attributes may start, when before it
    like: str | None = None  # the user it copies ("same as maria"); "" the one named before


def rule_users(state: PlanState) -> None:
    """Add users (or change existing ones) with sudo, groups and shell; remove users."""
    take_shells_off(state)  # "take fish off devops-admin, /bin/bash is fine"
    remove_users(state)
    work = state.text.work
    sentences = [0, *(m.end() for m in _SENTENCE_END.finditer(work)), len(work)]
    last: _User | None = None
    for start, end in zip(sentences, sentences[1:], strict=False):
        users = _read_sentence(state, start, end)
        if not users and last is not None:
            users = _more_about(state, last, start, end) or _continued(state, last, start, end)
        if not users and last is None:
            users = _about_the_only_user(state, start, end)
        for user in users:
            _finish(state, user)
        last = users[-1] if users else last
    after_users(state)  # "put ops in the docker group" with no ops; "with a password"


# what a sentence without a name can still say about the user before it ("And the login
# shell /bin/bash.", "He gets no sudo."): only attributes named by their own word
_OWN_ATTRIBUTE = re.compile(r"\b(?:(?:login\s+)?shell\b|sudo\b|admin\s+rights\b|groups?\b)")
_PRONOUN_OR_THE = re.compile(
    r"[\s\x1f]*(?:(?:and|also|plus|then|but)\s+)*(?:(?:the|his|her|their|its|he|she|they|"
    r"(?:this|that)\s+(?:user|account|login)|"
    # "give that account sudo", "put the user in dialout"
    r"(?:put|add|make|set|move|give|grant)\s+(?:it|him|her|them|(?:this|that|the)\s+(?:user|account|login)))\b"
    # what the user keeps: "keep the docker group", "leave him in wheel"
    r"|(?:keep|leave)\s+(?:(?:it|him|her|them)\s+in\s+|the\s+|his\s+|her\s+|their\s+)"
    # or a field of a "key: value" list: "User: ci; groups: docker; sudo: no"
    r"|(?:groups?|sudo|(?:login\s+)?shell)\s*[:=]"
    # a sentence without its subject, about the user named just before: "operators log
    # in as pilot. must be in dialout. no admin rights"
    r"|(?:must|should|needs?\s+to|has\s+to|will|shall)\s+(?:also\s+)?(?:be|have|get|go|join|stay)\b"
    r"|(?=(?:no|without|with)\s+(?:sudo|admin|root)\b))"
)


def _more_about(state: PlanState, last: _User, start: int, end: int) -> list[_User]:
    """Attributes in a sentence that names no user, for the user just before it.

    Only a sentence that starts by pointing back ("the", "his", "he", "this user") and
    names the attribute ("shell", "sudo", "group").
    """
    work = state.text.work
    if not _PRONOUN_OR_THE.match(work, start, end) or not (
        _OWN_ATTRIBUTE.search(work, start, end) or _GROUP_LIST.search(work, start, end)
    ):
        return []
    user = _User(list(last.names), start, start, listed=last.listed)
    _attributes(state, user, start, end)
    if len(user.read) < 2:
        return []
    eat_glue(state, user.start, user.read, start)
    return [user]


def _continued(state: PlanState, last: _User, start: int, end: int) -> list[_User]:
    """A further user ("and monitor, no sudo") or attributes alone for the user before."""
    found = continued(state, start, end)
    if found is None:
        return []
    name, at, stop = found
    user = _User([name] if name else list(last.names), at, stop if name else at, listed=True)
    _attributes(state, user, stop if name else at, end if name else stop)
    if len(user.read) < 2:
        return []
    eat_glue(state, user.start, user.read, start)
    return [user]


_PRONOUN_REF = re.compile(
    r"\b(?:it|its|his|him|her|them|their|(?:this|that|the)\s+(?:user|account|login))\b(?![\w-])"
)


def _about_the_only_user(state: PlanState, start: int, end: int) -> list[_User]:
    """Attributes for "it" / "the user" when the template has exactly one user.

    "ok just flag it as sudo", "give the account zsh": the sentence names no user but
    points at one with a pronoun and says a user attribute; with one user in the
    template there is only one it can mean.
    """
    work = state.text.work
    people = [u.name for u in state.facts.users if u.name != "root"]
    # or the one user the request renamed: "rename ops to sre and put it in wheel"
    people = list(renamed_users(state)) or people
    pointer = _PRONOUN_REF.search(work, start, end)
    if len(people) != 1 or pointer is None:
        return []
    if not any(p.search(work, start, end) for p in (_SUDO_OFF, _SUDO_ON, _GROUP_LIST, _SHELL)):
        return []
    # the pointer and the verb right before it ("flag it", "mark the account")
    verb = re.search(r"\b[a-z]+\s+$", work[start : pointer.start()])
    user = _User([people[0]], start + verb.start() if verb else pointer.start(), pointer.end())
    _attributes(state, user, start, end)
    if len(user.read) < 2:
        return []
    eat_glue(state, user.start, user.read, start)
    return [user]


def _known_before(state: PlanState) -> re.Pattern[str]:
    """A user the template has, named right before a role word ("the probe user")."""
    names = sorted({u.name for u in state.facts.users}, key=len, reverse=True)
    if not names:
        return re.compile(r"(?!)")
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, names)) + r")[`'\"]?\s+$")


def _read_sentence(state: PlanState, start: int, end: int) -> list[_User]:
    text = state.text
    users: list[_User] = _named_first(state, start, end)
    taken = [(u.start, u.end) for u in users]
    for mention in _MENTION.finditer(text.work, start, end):
        if any(s <= mention.start() < e for s, e in taken):
            continue
        role = mention.group("role")
        after = mention.end()
        if role == "one" and not _USER_BEFORE.search(text.original.lower(), 0, mention.start()):
            continue  # "one called htop": "one" stands for a user only after a user
        if _a_role_word_as_a_name(state, users, mention, end):
            # "bob without sudo, and admin with sudo": an account named like its role
            users.append(_User([role], mention.start(), mention.end(), listed=True))
            taken.append(mention.span())
            continue
        if _NOT_AFTER_ROLE.match(text.work, after) and role != "another":
            continue
        names, name_end = names_after(text.work, after, end, role)
        named_later = None
        if not names and role in ("user", "account", "login"):
            # "the user that runs our program ..., name is 'probe'": the name comes last
            named_later = _NAME_GIVEN.search(text.work, after, end)
            names = [named_later.group("name")] if named_later else []
        lower = text.original.lower()
        known = _known_before(state).search(
            lower, max(start, mention.start() - 40), mention.start()
        )
        if known and names:
            continue  # "the probe user entirely": a user the template has, named before
        if (
            known
            and not mention.group("mods")
            and not _REMOVING_BEFORE.search(
                text.work, max(start, known.start() - 20), known.start()
            )
        ):
            # "techs use the pos acct": a user the template has, referred to; asks nothing
            text.consume(known.start(), mention.end(), "context")
            continue
        removing = _REMOVING_BEFORE.search(
            text.work, max(start, mention.start() - 20), mention.start()
        )
        if names and removing:
            # "remove user zed" for a user the template does not have: never an addition
            state.reject(removing.start(), name_end, f"the template has no user {names[0]}")
            continue
        definite = _DEFINITE.search(text.work, max(0, mention.start() - 8), mention.start())
        wanted = _WANTED_AFTER.match(text.work, name_end)
        # "the user called kiosk": a name given now is a user asked for, not one referred to
        naming = _NAMING_AFTER.match(text.work, after) or named_later
        adding = _ADDING.search(text.work, start, mention.start())
        if definite and not adding and not wanted and not naming:
            # "the accounts edit", "that user": only a user the template has
            names = [n for n in names if n in {u.name for u in state.facts.users}]
        mods = mention.group("mods")
        sudo = role_sudo(role, mods)
        if not names:
            if sudo and _NEGATED.search(
                text.work, max(start, mention.start() - 12), mention.start()
            ):
                continue  # "not an admin": the attributes read the negation
            if users and (sudo is not None or re.search(r"\busers?\b", role)):
                # "normal users", "an admin": attributes of the user before
                users[-1].sudo = sudo if sudo is not None else users[-1].sudo
                text.consume(mention.start(), mention.end())
            continue
        listed = role.endswith("s") or (
            not role.startswith(("me", "myself"))
            and text.work[after:name_end].lstrip().startswith(":")
        )
        if named_later is not None and names:
            text.consume(*named_later.span("said"))  # its attributes lie before the name
            name_end = after
        begins = mention.start()
        describer = DESCRIBER.search(text.work, max(start, begins - 30), begins)
        if naming and describer and not mods:
            begins = describer.start("word")  # "the kiosk account should be called x"
        users.append(_User(names, begins, name_end, sudo, listed=listed))
        taken.append((begins, name_end))
    users += _named_again(state, users, start, end)
    # "same as maria": the user copied from is no user the sentence adds or changes
    like = [m.span() for m in SAME_AS.finditer(text.work, start, end)]
    users = [u for u in users if not any(s <= u.start < e for s, e in like)]
    users.sort(key=lambda u: u.start)
    users = coordinated(text.work, users)
    # "both", "each of them": what follows is said of every user named before it
    marks = [m for m in _DISTRIBUTIVE.finditer(text.work, start, end)]
    if users:
        marks = [m for m in marks if m.start() > users[0].end]
        if len({n for u in users for n in u.names}) < 2:
            # "'jump' for everyone, no sudo": whom one account serves, not what is said of
            # every user named before
            marks = [m for m in marks if not _FOR_EVERYONE.search(text.work, 0, m.end())]
    fields = other_fields(text.work, start, end)  # "packages: ..." ends a user's attributes
    starts = sorted([u.start for u in users] + [m.start() for m in marks] + fields)

    def limit_after(at: int) -> int:
        return next((s for s in starts if s > at), end)

    done: list[_User] = []
    for user in users:
        done += _with_attributes(state, user, limit_after(user.start))
    for mark in marks:
        names = list(dict.fromkeys(n for u in done if u.start < mark.start() for n in u.names))
        if len(names) < 2:
            continue
        every = _User(names, mark.start(), mark.end(), listed=True)
        found = _with_attributes(state, every, limit_after(mark.start()))
        if len(found[0].read) < 2:
            continue  # "both" with nothing said after it
        done += found
    done.sort(key=lambda u: u.start)
    for user in done:
        eat_glue(state, user.start, user.read, start)
    return done


_NEGATED = re.compile(r"\b(?:not|no|never|without)\s+$")
_USER_BEFORE = re.compile(r"(?<![\w-])(?:users?|accounts?|logins?)(?![\w-])")
# a coordination right before a role word: "..., and admin with sudo"
_COORDINATED = re.compile(r"(?:,|\band|\bplus|&)\s*(?:(?:and|plus)\s+)?$")


def _a_role_word_as_a_name(
    state: PlanState, users: list[_User], mention: re.Match[str], end: int
) -> bool:
    """True when a bare role word ("admin") names an account in a list of users.

    "bediener without sudo, and admin with sudo in wheel": without an article, joined to
    a user named before it and said of with attributes of its own, "admin" is the name.
    """
    work = state.text.work
    role = mention.group("role")
    if role not in ROLE_NAMES or mention.group("mods") or not users:
        return False
    if not _COORDINATED.search(work, max(0, mention.start() - 12), mention.start()):
        return False
    return bool(ATTRIBUTE_NEXT.match(work, mention.end(), end))


def _named_again(state: PlanState, users: list[_User], start: int, end: int) -> list[_User]:
    """A user named again later in the sentence, with attributes: "..., sam in wheel".

    What follows the second mention is said of that user alone, not of the list it was
    named in first ("accounts for sam and eli, both zsh, sam in wheel").
    """
    work = state.text.work
    found: list[_User] = []
    for user in list(users):
        for name in user.names:
            for again in re.finditer(
                rf"(?:[,;:(]\s*|\b(?:and|but|only|just)\s+)(?P<n>{re.escape(name)})(?![\w-])",
                work[:end],
            ):
                at = again.start("n")
                if at < user.end or any(u.start <= at < u.end for u in users + found):
                    continue
                gap = re.match(r"[\s\x1f]*", work[again.end() :])
                after = again.end() + (gap.end() if gap else 0)
                if ATTRIBUTE_NEXT.match(work, again.end(), end) or any(
                    p.match(work, after) for p in (_SUDO_OFF, _SUDO_ON, _GROUP_LIST, _SHELL)
                ):
                    found.append(_User([name], at, again.end()))
    return found


_DISTRIBUTIVE = re.compile(
    r"\b(?:both(?:\s+of\s+them)?|each(?:\s+of\s+them|\s+one)?|all\s+of\s+them|"
    r"all\s+(?:two|three|four|five|\d)|every(?:one|body|\s+one\s+of\s+them)|(?:they|them)\s+(?:both|all)"
    # "alice bob carol all sudo", "..., all with sudo": "all" before what is said of them
    r"|all(?=,?\s+(?:with|without|no|non|sudo|admins?|in|get|have|need|shell)\b))\b"
)


_FOR_EVERYONE = re.compile(r"\bfor\s+every(?:one|body)$")


# "alice with sudo and bob without": other names after the first one's attributes
_NEXT_NAMES = re.compile(
    r"[\s\x1f]*(?:,\s*(?:and\s+)?|\band\s+|&\s*)"
    + _NAME.replace("name>", "first>")
    + r"(?P<more>(?:\s*(?:,\s*(?:and\s+)?|\band\s+|&\s*)[a-z_][a-z0-9_-]*(?![\w-]))*)"
)
_ELLIPTIC_OFF = re.compile(r"\b(?:without|not)\b(?=[\s\x1f]*(?:$|[,;.)?!]))")


def _next_names(state: PlanState, user: _User, limit: int) -> tuple[list[str], int, int] | None:
    """The next run of names in ``user``'s window that has attributes of its own.

    "admin (sudo), tech1 and tech2 no sudo": after admin, tech1 and tech2 are users
    with their own attributes. A name only starts a run when attributes follow the run
    ("a user ops with sudo and jq": jq is no user), or in a list of users ("users: ...").
    Returns the names, where the run starts and where it ends.
    """
    work = state.text.work
    valid = load_targets().pattern("user_name")
    group_lists = [m.span() for m in _GROUP_LIST.finditer(work, user.end, limit)]
    for found in _NEXT_NAMES.finditer(work, user.end, limit):
        if any(s <= found.start("first") < e for s, e in group_lists):
            continue  # "in groups adm and video": a group, not a user
        names = [found.group("first")]
        names += [n for n in re.split(r"\s*(?:,|\band\b|&)\s*", found.group("more")) if n]
        if (
            any(n in STOP_WORDS or n in GLUE or not valid.match(n) for n in names)
            or names[0] in user.names
            or GROUP_WORD_NEXT.match(work, found.end())
        ):
            continue  # "in libvirt and kvm groups": groups, not users
        window = work[found.end() : limit]
        gap = re.match(r"[\s\x1f'\"`]*", window)  # ("'collector' with no sudo": its quote)
        at = found.end() + (gap.end() if gap else 0)
        said = (
            _ELLIPTIC_OFF.match(window.replace("\x1f", " ").lstrip())
            or any(p.match(work, at) for p in (_SUDO_OFF, _SUDO_ON, _GROUP_LIST, _SHELL))
            or _BRIEF.match(work, found.end())
        )
        if said:
            return names, found.start(), found.end()
        if user.listed:
            if _KNOWN_THING.search(work, user.end, found.start()):
                return None  # "users: a, b, hostname x, add git and jq": the list ended
            if not _KNOWN_THING.search(work, found.start(), found.end()):
                return names, found.start(), found.end()
    return None


# a brief attribute right after a listed name: "tech1 (sudo)", "ops - no sudo"
_BRIEF = re.compile(r"\s*(?:\(|-\s+|:\s*)\s*(?:no\s+)?(?:sudo|admin)\b")
# words after which a list is not a list of users any more ("..., hostname x")
_KNOWN_THING = re.compile(r"\b(?:hostname|host|disk|kernel|packages?|add|install|image)\b")


def _with_attributes(state: PlanState, user: _User, limit: int) -> list[_User]:
    """Read ``user``'s attributes up to ``limit``; names listed after them are users too."""
    following = _next_names(state, user, limit)
    own_limit = following[1] if following else limit
    if user.attributes_from is not None and user.attributes_from < user.start:
        _attributes(state, user, user.attributes_from, user.start)
    _attributes(state, user, user.end, own_limit)
    found = [user]
    if following is None:
        return found
    names, start, end = following
    other = _User(names, start, end, listed=user.listed)
    off = _ELLIPTIC_OFF.search(state.text.work, other.end, limit)
    if off is not None and user.sudo and not _SUDO_ON.search(state.text.work, other.end, limit):
        other.sudo = False  # "... and bob without": without what the first one has
        state.text.consume(*off.span())
    found += _with_attributes(state, other, limit)
    return found


# "an ops user", "a deploy account": the name before the role word, after an adding verb
_PRE_ROLE = re.compile(
    r"(?:\b(?P<article>a|an|one|the)\s+"
    # what kind of user, between the article and the name: "a separate 'svc' account"
    r"(?:(?:separate|second|third|dedicated|new|local|extra|additional|own)\s+"
    # or any word or two before a quoted name: "a read-only 'auditor' user"
    r"|(?:[a-z][\w-]*\s+){1,2}(?=[\"'`][a-z_]))?"
    # or right after an adding verb: "add runner user with the docker group"
    r"|\b(?P<verb>add|create|set\s+up)\s+"
    r"|(?:^|(?<=[\n,;:.!?(\x1f])|(?<=[\n,;:.!?(\x1f][ \t]))[ \t\x1f]*)"
    r"(?P<quote>[\"'`]?)(?P<name>[a-z_][a-z0-9_-]*)(?P=quote)\s+"
    r"(?P<mods>(?:(?:admin|administrator|sudo|privileged|normal|regular|standard|"
    r"unprivileged|service|system|local)\s+)?)(?:user|account|acct|login)(?![\w-])"
    # "a user account called ops", "an account for bob": the name comes after; a quoted
    # name before the role word is the name ("an 'ocpp' account for the app")
    r"(?!\s*(?:,\s*)?(?:(?:is|should\s+be|will\s+be|must\s+be)\s+)?(?:called|named)\b)"
)
# verbs after "the grafana login": what the user does, never its name
_SAYING = frozenset("goes gets has is needs should must will can wants uses runs belongs".split())
_FOR_NEXT = re.compile(r"\s*(?:,\s*)?for\b")
_ADDING = re.compile(r"\b(?:add|create|make|need|needs|want|with|plus|give|set\s+up|include)\b")


def _named_first(state: PlanState, start: int, end: int) -> list[_User]:
    """Mentions without a role word before the name: "an ops user", "give alice sudo".

    A user the template (or this request) already has counts wherever its name stands,
    when the clause around it says something about users (sudo, groups, shell).
    """
    work = state.text.work
    found: list[_User] = []
    for match in _PRE_ROLE.finditer(work, start, end):
        name = match.group("name")
        attributed = ATTRIBUTE_NEXT.match(work, match.end(), end)
        if name in NOT_PRE_NAMES and not match.group("quote"):
            continue
        if not match.group("quote") and _FOR_NEXT.match(work, match.end()):
            continue  # "a user account for bob": the name comes after the role word
        if match.group("verb") and not (match.group("quote") or attributed):
            if a_package(state, name):
                continue  # "add nginx user": maybe a package's user; "... with no sudo" is one
        if not match.group("quote"):
            after, _ = names_after(work, match.end(), end, "user")
            if after and not (set(after) & _SAYING):
                continue  # "an operator user hmi": the name after, the word before a kind
        asking = ASKING.match(work, match.end(), end)
        if not match.group("quote") and NAMED.match(
            work, asking.end() if asking else match.end(), end
        ):
            continue  # "a support account: username helpdesk": the name is given after it
        if match.group("article") in ("a", "an", "one"):
            # "a human user too": after an article, the word describes the user
            if not (attributed or _ADDING.search(work, start, match.start())):
                continue
        elif not attributed and not match.group("quote") and not match.group("verb"):
            # "jenkins user, no sudo", "the ci account needs to be in docker": the name
            # before the role word, said of with a user's attributes; or a clause that is
            # only the name and its role word ("kiosk user pls"); "add the ops user" too
            definite = match.group("article") == "the" and not a_package(state, name)
            definite = definite and _ADDING.search(work, start, match.start()) is not None
            if not definite and (
                match.group("article") or not _ONLY_ASKED.match(work, match.end(), end)
            ):
                continue
        user = _User([name], match.start(), match.end())
        user.sudo = role_sudo("user", match.group("mods"))
        found.append(user)
    # "operators log in as 'pilot'": the name people log in with is a user; the words
    # before it at the clause's start say who logs in
    for match in LOGS_IN_AS.finditer(work, start, end):
        name = match.group("name")
        if name in STOP_WORDS or any(u.start <= match.start("name") < u.end for u in found):
            continue
        if a_package(state, name) and not match.group("quote"):
            continue
        found.append(_User([name], match.start(), match.end()))
    for match in LIKE_NAME.finditer(work, start, end):  # "add a student02 with the same settings"
        if match.group("name") not in STOP_WORDS:
            found.append(_User([match.group("name")], match.start(), match.end("name")))
    for match in LIKE_USER.finditer(work, start, end):  # "add ops2, same as ops"
        name, taken = match.group("name"), any(u.start <= match.start() < u.end for u in found)
        if taken or name in STOP_WORDS or a_package(state, name):
            continue  # "add htop like before": a package
        if a_user(state, match.group("like")):
            found.append(_User([name], match.start(), match.end(), like=match.group("like")))
    # "create svc-x with no sudo, in the groups a and b": a new name and user attributes
    for match in _CREATE_NAME.finditer(work, start, end):
        name = match.group("name")
        taken = any(u.start <= match.start("name") < u.end for u in found)
        # after "add" only a user's own brief attributes ("add ops (sudo)"): "add htop with
        # sudo" adds two packages
        # "create svc-plc instead, also with sudo": words that only place the new user
        # may stand between its name and its attributes
        placed = _PLACING.match(work, match.end(), end)
        past = placed.end() if placed else match.end()
        said = match.group("brief") is not None or (
            not match.group().startswith("add") and ATTRIBUTE_NEXT.match(work, past, end)
        )
        if not said and placed and _INSTEAD.search(placed.group()):
            # "remove maint, create svc-plc instead": a user in place of one removed
            said = any(
                isinstance(v, DeleteValue) and v.path.startswith("systemConfig.users[")
                for v in state.values
            )
        # "create admin with sudo" names admin ("create an admin" does not)
        stop = STOP_WORDS - ROLE_NAMES if said and match.group()[:6] == "create" else STOP_WORDS
        if taken or name in stop or not said:
            continue
        if a_package(state, name):
            continue  # "add docker with ...": a package
        found.append(_User([name], match.start(), match.end()))
    # "'noc': /bin/bash, in adm": a quoted name set off with its attributes, about users
    if _ABOUT_USERS.search(state.text.original.lower()):
        for match in _QUOTED_NAME.finditer(work, start, end):
            gap = len(work[match.end() :]) - len(work[match.end() :].lstrip(" \t\n\x1f"))
            # "one 'admin' for me with sudo": whom it is for may come before its attributes
            whom = FOR_WHOM.match(work, match.end())
            at = whom.end() if whom else match.end() + gap
            taken = any(u.start <= match.start() < u.end for u in found)
            if taken or not any(
                p.match(work, at) for p in (_SUDO_OFF, _SUDO_ON, _GROUP_LIST, _SHELL)
            ):
                continue
            found.append(_User([match.group("name")], match.start(), match.end()))
    # "auditor gets no admin rights": a name as the subject of a user attribute, in a
    # request about users
    if _ABOUT_USERS.search(state.text.original.lower()):
        for match in _SUBJECT_NAME.finditer(work, start, end):
            name = match.group("name")
            if match.start("name") != start and work[match.start("name") - 2] not in ",;:\x1f":
                continue
            clause_end = min(
                (m.start() for m in _CLAUSE_END.finditer(work, match.end(), end)), default=end
            )
            if name in STOP_WORDS or name in GLUE or a_package(state, name):
                continue
            if any(
                p.search(work, match.end(), clause_end) for p in (_SUDO_OFF, _SUDO_ON, _GROUP_LIST)
            ):
                found.append(_User([name], match.start("name"), match.end("name")))
    known = {u.name for u in state.facts.users} | {u.name for u in state.users}
    known |= set(renamed_users(state))  # "rename ops to sre, put sre in wheel"
    # "give tech sudo": the name inside the words that give sudo
    for match in GIVE_SUDO.finditer(work, start, end):
        if limited := _LIMITED.match(work, match.end(), end):
            state.reject(match.start(), limited.end(), _LIMITED_REASON)  # "... only for apt"
        elif match.group("name") in known:
            user = _User([match.group("name")], match.start(), match.end(), sudo=True)
            found.append(user)
    for name in sorted(known):
        for match in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", work[:end]):
            if match.start() < start or any(u.start <= match.start() < u.end for u in found):
                continue
            clause_end = past_names(work, match.end(), end, known)
            clause = work[max(start, match.start() - 40) : clause_end]
            if (
                _SUDO_OFF.search(clause)
                or _SUDO_ON.search(clause)
                or GIVE_SUDO.search(clause)
                or _GROUP_LIST.search(clause)
                or _SHELL.search(clause)
            ):
                # "take sudo away from bob": its attributes may come before its name
                begins = [m.end() for m in _CLAUSE_END.finditer(work, start, match.start())]
                user = _User([name], match.start(), match.end())
                user.attributes_from = begins[-1] if begins else start
                found.append(user)
    return found


# nothing after a user's role word to the end of its clause but a word that asks for it
_ONLY_ASKED = re.compile(
    r"[\s\x1f]*(?:(?:pls|plz|please|too|also|as\s+well|needed|required|thanks|thx)\b[\s\x1f]*)*"
    r"(?:$|[,;.!?](?:\s|$))"
)
_QUOTED_NAME = re.compile(
    r"(?:^|(?<=[\s\x1f(]))[\"'`](?P<name>[a-z_][a-z0-9_-]*)[\"'`](?:\s*:)?(?![\w-])"
    # "put them in the 'audio' group": a quoted name before "group" names the group
    r"(?!\s+groups?\b)"
)
_ABOUT_USERS = re.compile(r"\b(?:users?|accounts?|logins?)\b")
_SUBJECT_NAME = re.compile(
    r"[\s\x1f]*(?P<name>[a-z_][a-z0-9_-]*)\s+(?=(?:gets|has|goes|is|should|must|needs)\b)"
)
_CLAUSE_END = re.compile(r"[,;.!?](?:\s|$)|\x1f")
_PLACING = re.compile(
    r"(?:\s*,?\s*(?:instead|in\s+(?:its|his|her|their)\s+place|too|also|as\s+well|then))+"
)
_INSTEAD = re.compile(r"\binstead\b|\bplace\b")
_CREATE_NAME = re.compile(
    r"\b(?:create|set\s+up|add)\s+(?P<name>[a-z_][a-z0-9_-]*)(?![\w-])(?P<brief>(?=\s*(?:\(|:)\s*(?:(?:no\s+)?sudo|groups?|(?:login\s+)?shell)\b))?"
)


# sudo limited to some commands: "but only for 'systemctl restart shopd'", "limited to apt"
_LIMITED = re.compile(
    r"(?:\s*,?\s*(?:after\s+all|too|as\s+well|then))?\s*,?\s*(?:(?:but|yet)\s+)?"
    r"(?:(?:only|just|solely)\s+(?:for|to\s+run|to\s+use|on)|(?:limited|restricted)\s+to"
    r"|for\s+(?:the\s+)?(?:one|single|specific|some)\s+commands?)\b[^,;.\x1f]*(?:\s*,\s*nothing\s+else)?"
)
_LIMITED_REASON = (
    "sudo for some commands only is not a template field (a user has sudo or not); add a "
    "sudoers drop-in with that rule in the template's additional files"
)


def _attributes(state: PlanState, user: _User, start: int, end: int) -> None:
    text = state.text
    text.consume(user.start, user.end)
    user.read.append((user.start, user.end))

    def take(match: re.Match[str]) -> None:
        text.consume(*match.span())
        user.read.append(match.span())

    said: list[tuple[int, int, bool]] = []  # "with sudo, no, no sudo": the one said last
    for pattern in (_SUDO_OFF, _SUDO_ON):
        for match in list(pattern.finditer(text.work, start, end)):
            limited = _LIMITED.match(text.work, match.end(), end) if pattern is _SUDO_ON else None
            if limited is not None:
                # "sudo, but only for 'systemctl restart shopd'": sudoers rules per command
                # are no template field; the user's sudo stays as it is
                state.reject(match.start(), limited.end(), _LIMITED_REASON)
                continue
            said.append((*match.span(), pattern is _SUDO_ON))
            take(match)
    two = sorted(said)[-2:]
    back = len(two) == 2 and took_back(text.work, two[0][1], two[1][0])
    user.sudo = two[-1][2] if back else any(on for *_, on in said) if said else user.sudo
    for match in list(_NO_GROUPS.finditer(text.work, start, end)):
        user.no_groups = True
        take(match)
    for match in list(NOT_IN_GROUPS.finditer(text.work, start, end)):
        listed = match.group("named") or match.group("labelled") or match.group("known") or ""
        user.not_groups += [
            g.strip("`'\"")
            for g in re.split(r"\s*(?:,|\band\b|\bor\b|&|\+)\s*", join_spoken(listed))
            if g
        ]
        take(match)
    earlier: tuple[int, list[str]] | None = None
    for match in list(_GROUP_LIST.finditer(text.work, start, end)):
        listed = next(g for g in match.group("g1", "g2", "g3", "g4", "g5", "g6", "g7") if g)
        names = [
            g.strip("`'\"")
            for g in re.split(r"\s*(?:,|\band\b|&|\+)\s*|\s+", join_spoken(listed))
            if g
        ]
        if match.group("g6") and all(a_package(state, n) for n in names):
            # "user ops, sudo, nginx": a package named after the user, not a group ("ops,
            # wheel + docker": beside a group that is no package, docker is a group too)
            continue
        named = min(match.start(g) for g in ("g1", "g2", "g3", "g4", "g5", "g6", "g7") if match[g])
        if earlier and took_back(text.work, earlier[0], named):  # "in docker, no, in podman"
            user.groups = [g for g in user.groups if g not in earlier[1]]
        earlier = (match.end(), names)
        user.groups += names
        take(match)
    for match in list(DEVICE_ACCESS.finditer(text.work, start, end)):
        user.groups.append(device_group(match))  # "allowed to access the serial port"
        take(match)
    for match in list(SAME_AS.finditer(text.work, start, end)):
        user.like = match.group("name") or match.group("name2") or ""
        take(match)
    if user.sudo is None and (bare := bare_sudo(text.work, start, end)) is not None:
        user.sudo = True  # "a user 'ops' ... sudo ke saath": the word "sudo" by the user
        take(bare)
    for match in list(_NO_SHELL.finditer(text.work, start, end)):
        user.shell = "/usr/sbin/nologin"  # "without a shell": no login shell
        take(match)
    for match in list(_SHELL.finditer(text.work, start, end)):
        if match.group("s3") and INSTALLING.search(text.work, start, match.start()):
            continue  # "shell /bin/zsh, so install zsh": the shell's package, for the packages
        value = next((v for v in match.group("s1", "s2", "s3", "s4") if v), "")
        user.shell = value if value.startswith("/") else f"/bin/{value}"
        take(match)


def _finish(state: PlanState, user: _User) -> None:
    said = (user.groups, user.sudo, user.shell)
    copied, sudo, shell = copied_from(state, user.names, user.like, *said)
    user.shell = shell
    groups = list(dict.fromkeys(copied))
    if any(g in ("sudo", "wheel") for g in groups) and sudo is None:
        sudo = True
    valid = load_targets().pattern("user_name")
    for name in user.names:
        if not valid.match(name):
            state.reject(
                user.start,
                user.end,
                f"{name!r} is not a valid user name (lower-case letters, digits, '_' or '-')",
            )
            continue
        state.user_names.append(name)
        plan_user(state, name, groups, sudo, user.shell, leave=user.not_groups)
    if user.shell:
        install_shell(state, user.shell, user.names)
