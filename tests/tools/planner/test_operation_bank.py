"""The operation bank reads clauses it has no example for; its vectors match its examples.

The wordings below are not in ``stores/data/operation_bank.yaml``: they check that the
bank generalises (by meaning, through MiniLM) rather than memorises.
"""

from __future__ import annotations

import pytest

from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
from oic_ai.stores.operation_bank import load_bank_data, load_vectors
from oic_ai.tools.planner.bank import load_bank, stand_ins


def test_the_shipped_vectors_match_the_examples() -> None:
    data = load_bank_data()
    assert load_vectors(data.digest(MiniLMEmbedder.model_id)) is not None, (
        "stale: run python scripts/build_operation_bank.py"
    )


def test_values_become_stand_ins() -> None:
    assert stand_ins("give /var/lib/docker its own 25GB partition") == (
        "give /data its own 8GiB partition"
    )
    assert stand_ins("key https://example.com/k.asc and isolcpus=2 on ttyS4") == (
        "key a URL and option=value on ttyS0"
    )


@pytest.mark.parametrize(
    ("clause", "label"),
    [
        ("cheers, that's great", "context"),
        ("many thanks", "context"),
        ("our kiosks sit in a dusty warehouse", "context"),
        ("the devices are deployed without network access", "context"),
        ("because the security team insists", "context"),
        ("roll it back", "reference"),
        ("revert the previous change", "reference"),
        ("same again but for debian", "reference"),
        ("set the time zone to Asia/Tokyo", "timezone"),
        ("assign the address 10.1.2.3/24 to eth0", "network-config"),
        ("it must boot within two seconds", "boot-time"),
        ("make it pass the CIS benchmark", "compliance"),
        ("make it look prettier", "vague"),
    ],
)
def test_clauses_it_has_no_example_for_get_the_right_label(clause: str, label: str) -> None:
    bank = load_bank()
    assert bank is not None
    (match,) = bank.match([clause])
    assert match.label is not None, (match.nearest, match.score)
    # a remark about the machines is context, or (in create mode) chose the base
    assert match.label.name == label or {label, match.label.outcome} == {"context", "use"}


@pytest.mark.parametrize("clause", ["xkcdqq vbnmzz", "qwrtpsdf ghjklzxc"])
def test_nonsense_is_below_the_threshold(clause: str) -> None:
    bank = load_bank()
    assert bank is not None
    (match,) = bank.match([clause])
    assert match.label is None, (match.nearest, match.score)
