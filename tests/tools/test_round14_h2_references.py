"""The taking-out verbs said of a change take the change back (issue 21, round 14, h2).

"scrap the last two changes", "ditch my last edit": the verbs that remove a thing, said of
a change, undo it; said of a thing ("drop the docker stuff", "remove the last user") or of
a bare pronoun ("drop that") they stay removals. The sentences are written for these tests.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.references import find_reference, remainder, undo_names
from oic_ai.tools.undo_words import undo_count


@pytest.mark.parametrize(
    ("said", "count", "names"),
    [
        ("hmm, scrap the last two changes, go back to just the first package list", 2, []),
        ("drop my last two changes", 2, []),
        ("throw away the last 2 edits please", 2, []),
        ("ditch that kernel change", 0, ["kernel"]),
        ("ok get rid of the previous step", 0, []),
        # other verbs of throwing away (round 14, h1)
        ("ditch the last two changes", 2, []),
        ("please throw away my previous 3 edits", 3, []),
        ("forget the last couple of changes, thanks", 2, []),
        ("cancel the past two steps and keep going", 2, []),
        ("ok scrap my last edit", 0, []),
    ],
)
def test_a_taking_out_verb_said_of_a_change_undoes_it(
    said: str, count: int, names: list[str]
) -> None:
    found = find_reference(said)
    assert found is not None and found.kind == "undo", found
    assert undo_count(found.marker) == count
    assert [n for n in undo_names(found.marker) if not n.isdigit()] == names


@pytest.mark.parametrize(
    "said",
    [
        "scrap the last two changes, go back to just the first package list",
        "undo the last change and go back to the original setup",
        "revert the last two edits, back to the earlier version",
        # the state an undo reaches, said again, asks nothing more (round 14, h1)
        "undo the last two changes, back to the original package list",
        "revert my last 2 edits, go back to just the first users",
        "scrap the last two changes and get back to the initial partitions",
    ],
)
def test_back_to_the_first_list_beside_an_undo_is_part_of_it(said: str) -> None:
    found = find_reference(said)
    assert found is not None and found.kind == "undo"
    assert remainder(said, found.spans).strip(" ,.") == ""
