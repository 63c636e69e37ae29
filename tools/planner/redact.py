"""Password redaction: a password in the request is cut before any rule reads it."""

from __future__ import annotations

import re

# Passwords are cut before any rule reads the text: "password hunter2",
# "password: 'a b c'", "with the root password is x", "hunter2 as the password".
_SECRET_WORD = (
    r"(?:root\s+|user\s+|login\s+|initial\s+|default\s+|admin\s+)?"
    # not inside a path or a config key ("passwd/username", "/etc/passwd", "user-password")
    r"(?<![/-])(?:password|passwd|passphrase|pass\s*word|pwd|pw)(?![/-])"
    # "password complexity", "password policy": a rule about passwords names none
    r"(?!\s+(?:complexity|policy|policies|length|expiry|expiration|aging|ageing|rules?|"
    r"requirements?|strength|history|lockout|rotation|reuse|quality)\b)"
)
# a quoted value counts only when the quote closes at a word boundary, else the whole run
_SECRET_VALUE = r"(?:(?:\"[^\"]*\"|'[^']*'|`[^`]*`)(?=[\s,;.!?]|$)|\S+)"
_PASSWORD_CONNECTOR = (
    # "the password for ops is x", "the password for the kiosk user is x"
    r"(?:\s+(?:for|of)\s+(?:(?:the|a|an|my|our|user|account)\s+)*\S+?(?:\s+(?:user|account))?)?"
    r"(?:\s*(?:(?:is|=|:|of|to|set\s+to|as|being|(?:should|will|would|must|shall)\s+be)\s*)+"
    r"|\s+)"
)
# "set a password for root": a connecting word is not the password
# (only before another word: "password a." ends in its value, which must still be cut)
_NOT_A_VALUE = r"(?!(?:for|and|with|to|the|a|an|of|on|in|too|then)\s+\S)"
_PASSWORD = re.compile(
    # where a password comes from, no password: "with password from env", "the password
    # in the vault", "password via the secrets file" (cut whole, never read as a name)
    rf"(?:\b(?:with|and|using|use|having)\s+)?(?:(?:the|a|an|its)\s+)?\b{_SECRET_WORD}\s+"
    r"(?:(?:comes?|coming|taken|read|pulled|stored|kept)\s+)?(?:from|via|in|out\s+of)\s+"
    r"(?:the\s+|our\s+|a\s+|an\s+)?[\w./:$-]+(?:\s+(?:file|variable|var|store|vault))?"
    rf"|(?:\b(?:with|and|using|use|set|having)\s+)?(?:(?:the|a|an|his|her|their|its)\s+)?"
    rf"(?P<value>\b{_SECRET_WORD}\b{_PASSWORD_CONNECTOR}{_NOT_A_VALUE}{_SECRET_VALUE}"
    rf"|(?<!\S){_SECRET_VALUE}\s+(?:as|for)\s+(?:the\s+|a\s+|an\s+|its\s+|his\s+|her\s+)?"
    rf"{_SECRET_WORD}\b)"
    rf"|\b{_SECRET_WORD}\b",
    re.IGNORECASE,
)
# what joins a password to the user before it: "ops with a password", "ops, password ..."
_JOINED = re.compile(
    r"(?:\b(?:with|and|having|plus)|,)\s+(?:(?:a|an|the|its|his|her|their)\s+)?$", re.IGNORECASE
)
_JOINING = re.compile(r"(?:with|and|having|plus)\b", re.IGNORECASE)
_PART_ENDS = re.compile(r"\s*(?:$|[,;.!?)]|(?:and|with|plus|but)\b)", re.IGNORECASE)
_KEPT = "password"
_DROPPED_PASSWORD = (
    "a password in the request was dropped: templates must not hold plaintext passwords; "
    "new users get a placeholder to replace with a hash, or use an SSH key"
)
_NO_PASSWORDS = (
    "passwords are not written into templates: new users get a placeholder to replace "
    "with a hash at deploy time, or use an SSH key"
)


def redact_passwords(request: str) -> tuple[str, str | None]:
    """Return the request without password phrases, and the warning to give, if any."""
    warning: str | None = None

    def cut(match: re.Match[str]) -> str:
        nonlocal warning
        if match.group("value") is not None or warning is None:
            warning = _DROPPED_PASSWORD if match.group("value") is not None else _NO_PASSWORDS
        # the word "password" stays where it joins a user (its value never does): "create
        # ops with a password", "create ops, password from the vault" still say ops is a user
        said = match.group()
        joined = _JOINED.search(request, 0, match.start()) or _JOINING.match(said)
        # and ends its part of the sentence ("... with a password they must change at
        # first login" says a rule about passwords, read as it was)
        ends = _PART_ENDS.match(request, match.end())
        if joined is None or ends is None or len(said) < len(_KEPT):
            return " " * len(said)
        return _KEPT + " " * (len(said) - len(_KEPT))

    return _PASSWORD.sub(cut, request), warning
