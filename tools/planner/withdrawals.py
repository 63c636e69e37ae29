"""A wish taken back ("never mind the wifi", "nvm the proxy") for a thing no template holds.

Split from :mod:`.asking`: such a clause asks nothing. What it takes back was never
applied (no template field holds a Wi-Fi network, a timezone or firewall rules), so there
is nothing left to change and nothing to report. "never mind htop" or "forget the swap
partition" still ask: the template may hold those.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from oic_ai.tools.planner.lexicon import is_english

# words before the withdrawal that carry nothing ("ok never mind ...", "oh nvm ...")
_LEAD = frozenset(
    "ok okay oh so and but then well actually hmm hm alright fine right yeah ah".split()
)
# a value: a size, a path, an option, an address
_VALUE = re.compile(r"[\d/=:@]")


# the words that take a wish back ("never mind the wifi", "nvm the proxy", "forget about it")
_WITHDRAWING = (("never", "mind"), ("nevermind",), ("nvm",), ("forget", "about"), ("forget",))
# the fields a template cannot hold: a wish for one is never applied
UNHELD_FIELDS = frozenset(
    "timezone time-zone locale keyboard ntp dns ip ipv4 ipv6 address gateway vlan wifi wi-fi "
    "wireless ssid dhcp ldap sssd domain autologin auto-login banner motd syslog firewall "
    "port ports proxy cron network networks password passwords".split()
)
_WITHDRAWN_FILLER = frozenset(
    "the a an that this those these it my our your any whole stuff thing part bit idea then "
    "for now please pls after all too either anyway".split()
)


def withdraws_unheld(
    words: list[str], is_package: Callable[[str], bool] | None, fields: frozenset[str]
) -> bool:
    """True for "never mind the wifi": a wish taken back for a thing no template holds.

    What is taken back names no value, no package, and no field but the ones a template
    cannot hold (a network, the timezone, a firewall): "never mind htop" or "forget the
    swap partition" still ask (the template may hold them). ``fields`` are the words naming
    template fields (:data:`.asking.FIELD_NOUNS`, passed in so this module does not import
    the one that calls it).
    """
    at = 0
    while at < len(words) - 1 and words[at] in _LEAD:
        at += 1
    rest: list[str] | None = None
    for form in _WITHDRAWING:
        if tuple(words[at : at + len(form)]) == form:
            rest = words[at + len(form) :]
            break
    if not rest:
        return False
    named = [w for w in rest if w not in _WITHDRAWN_FILLER]
    return (
        bool(named)
        and any(w in UNHELD_FIELDS for w in named)
        and all(w in UNHELD_FIELDS or is_english(w) for w in named)
        and not any(w in fields and w not in UNHELD_FIELDS for w in named)
        and not (is_package is not None and any(is_package(w) and not is_english(w) for w in named))
        and not any(_VALUE.search(w) for w in named)
    )
