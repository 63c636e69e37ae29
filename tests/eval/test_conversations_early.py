"""The early development parts of the labelled conversations (:mod:`.conversation_ratchets`)."""

from __future__ import annotations

from tests.eval.conversation_ratchets import (
    outcomes,
    part_fixture,
    test_a_share_of_development_turns_is_fully_right,
    test_no_more_invented_packages_than_the_ceiling,
    test_no_more_unbuildable_templates_than_the_ceiling,
    test_the_development_parts_are_large_and_multi_turn,
)

part = part_fixture("early")

__all__ = [
    "outcomes",
    "part",
    "test_a_share_of_development_turns_is_fully_right",
    "test_no_more_invented_packages_than_the_ceiling",
    "test_no_more_unbuildable_templates_than_the_ceiling",
    "test_the_development_parts_are_large_and_multi_turn",
]
