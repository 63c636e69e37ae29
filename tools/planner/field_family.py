"""Which field of the template a clause's nouns name, and the bank label that fits it.

The accounting (:mod:`.accounting`) asks these: "the console entry" names the kernel
family, "the Docker CE apt repo" the repository (whatever example of the bank is nearer),
"shrink the image" the disk size when its value comes in another clause.
"""

from __future__ import annotations

from oic_ai.stores.operation_bank import BankLabel, load_bank_data
from oic_ai.tools.planner.asking import FIELD_NOUNS
from oic_ai.tools.planner.heads import Unread

# the operation family (a rule's owner name) each operation label of the bank belongs to
FAMILY = {
    "hostname": "hostname",
    "user": "user",
    "remove-user": "user",
    "disk-size": "disk size",
    "partition": "partition",
    "console": "kernel",
    "kernel-option": "kernel",
    "repository": "repository",
    "packages": "packages",
}

# the field nouns that name what one operation family changes
_FIELD_FAMILY = {
    **dict.fromkeys("console consoles serial tty cmdline kernel".split(), "kernel"),
    **dict.fromkeys("hostname hostnames fqdn".split(), "hostname"),
    **dict.fromkeys("partition partitions filesystem filesystems mountpoint".split(), "partition"),
    **dict.fromkeys("repo repos repository repositories mirror mirrors".split(), "repository"),
    **dict.fromkeys("user users account accounts login logins".split(), "user"),
    **dict.fromkeys("cert certs certificate certificates crt cer".split(), "immutability"),
}


def only_field_nouns(item: Unread) -> bool:
    """True when every unread word is a field noun ("cert" in a list of key files)."""
    return bool(item.meaningful) and all(t.text in FIELD_NOUNS for t in item.meaningful)


# the words of a clause about a user account besides the field nouns ("with sudo", "in the
# docker group", "shell /bin/bash", "admin rights")
_USER_CUES = frozenset(
    "sudo sudoer sudoers nopasswd admin admins administrator root rights privileges group "
    "groups wheel shell password passwd uid gid home person people someone named called "
    "username usernames".split()
)


# the bank's operation label for each family a field noun names
_FIELD_LABEL = {
    "kernel": "kernel-option",
    "hostname": "hostname",
    "partition": "partition",
    "repository": "repository",
    "user": "user",
}


def named_field(item: Unread, label: BankLabel | None) -> BankLabel | None:
    """The operation label of the one field the clause names, over the bank's other one.

    "Add the Docker CE apt repo" is nearest to "add the deploy user" by its shape; the
    word "repo" says which field it is about, and so which report and suggestion fit.
    """
    if label is None or label.outcome != "operation":
        return label
    if FAMILY.get(label.name) == "user" and not any(
        t.text in _USER_CUES or t.text in _FIELD_FAMILY for t in item.tokens
    ):
        # "docker chahiye actually": near "in the docker group" by one word, but no word
        # of it speaks of an account, its rights, groups or shell; it is no user
        return None
    named = _FIELD_LABEL.get(field_family(item))
    if named is None or FAMILY.get(label.name) == FAMILY.get(named):
        return label
    return load_bank_data().labels.get(named, label)


def field_family(item: Unread) -> str:
    """The one operation family every field noun of the clause names ("?" for none or two).

    "please don't duplicate the console entry" talks about the console change the request
    made; "the account needs a password" names a field (password) no change covers.
    """
    fields = [t.text for t in item.meaningful if t.text in FIELD_NOUNS]
    families = {_FIELD_FAMILY.get(f, "?") for f in fields}
    if (
        not fields
        and {t.text for t in item.meaningful} <= _RESIZING
        and any(t.text in ("disk", "image", "drive") for t in item.tokens)
    ):
        return "disk size"  # "shrink the image, 4G is plenty": the size follows
    return families.pop() if len(families) == 1 else "?"


# verbs that change a size, said of the disk with its value in another clause
_RESIZING = frozenset("shrink grow enlarge resize expand extend reduce bump increase".split())
