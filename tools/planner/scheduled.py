"""Jobs at set times: a clause that asks for one is reported with the reason no template holds it.

"Also a cron job that prunes docker images nightly", "a systemd timer that reboots it
weekly", "daily backups pushed to our S3 bucket": a template has no field for a job that
runs at set times. The accounting reports such a clause with the operation bank's
``schedules`` reason (ship a timer or a cron entry as an additional file) instead of the
general "no rule for this".

Only the report's wording is decided here; whether the clause asks at all is the
accounting's (a statement such as "the nightly backup runs from the NAS" stays context).
"""

from __future__ import annotations

import re

# the job itself ("cron job", "crontab entry", "systemd timer"), or a thing done at a time
# word ("nightly backups", "a daily reboot", "prunes the images every night")
_SCHEDULED = re.compile(
    r"\b(?:cron\s*jobs?|cronjobs?|crontab(?:\s+(?:entr(?:y|ies)|lines?|jobs?))?|systemd\s+timers?"
    r"|(?:nightly|daily|weekly|hourly|monthly)\s+(?:backups?|jobs?|tasks?|reboots?|restarts?"
    r"|clean-?ups?|prunes?|snapshots?|exports?|syncs?|scripts?)"
    r"|(?:every|each|once\s+(?:a|an|per|every))\s+(?:night|day|hour|week|month|morning|evening)"
    r"|(?:at|around)\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)\b)",
    re.IGNORECASE,
)


def scheduled(text: str) -> bool:
    """Whether ``text`` names a job at set times."""
    return _SCHEDULED.search(text) is not None


def schedules_reason() -> str:
    """The operation bank's reason for a job at set times ("" when the bank has none)."""
    from oic_ai.stores.operation_bank import load_bank_data

    label = load_bank_data().labels.get("schedules")
    return label.reason if label is not None else ""
