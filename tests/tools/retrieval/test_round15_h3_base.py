"""Round 15 (helper h3): a plain base said in one sentence, additions in the next.

"emt3 minimal raw x86_64. openssh-server tpm2-tools rsync. hostname edge-node": the
sentence with the plain word says what the base is; the packages (and a hostname) in the
sentences after it are what is added, not a reason for a specialised base.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.retrieval.hybrid_search import TemplateSearch

# --- base choice -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "base"),
    [
        (
            "emt3 minimal raw x86_64. openssh-server tpm2-tools rsync. hostname edge-node",
            "emt3-x86_64-minimal-raw",
        ),
        ("debian 13 minimal raw. hostname web-gw-1", "debian13-x86_64-minimal-raw"),
        (
            "a minimal ubuntu 24.04 raw image. hostname kiosk-edge-3, user ops",
            "ubuntu24-x86_64-minimal-raw",
        ),
        ("minimal el10 x86_64 raw. hostname monitoring-web-01", "el10-x86_64-minimal-raw"),
    ],
)
def test_a_plain_base_sentence_chooses_the_base_the_rest_is_added(
    library_search: TemplateSearch, said: str, base: str
) -> None:
    top = library_search.search(said).results[0]
    assert top.template.startswith(base), (said, top.template, top.evidence)
