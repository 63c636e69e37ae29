"""The later development parts of the labelled conversations (:mod:`.conversation_ratchets`)."""

from __future__ import annotations

from tests.eval.conversation_ratchets import *  # noqa: F403 (the checks and their fixture)
from tests.eval.conversation_ratchets import part_fixture

part = part_fixture("later")
