"""The development parts of the labelled conversations, end to end with the builtin planner.

Every conversation of a development part (``tests/data/conversations/dev.yaml`` ...) runs
turn by turn in its own session (:func:`tests.support.conversations.run_conversation`); the
composer's own loader judges every template a turn returned as usable. The held-out part is
never run here: it is measured by ``bench/conversations.py`` only.

The parts are checked by three test modules (``test_conversations_*.py``), a third of the
turns each, so ``make test``'s two workers share them; this module holds their ratchets,
fixtures and checks.

The floors below are ratchets: raise them as understanding improves, never lower them.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.settings import load_settings
from tests.support.conversations import (
    DEV_PARTS,
    TurnOutcome,
    composer_verdicts,
    known_packages,
    load_conversations,
    run_conversation,
)
from tests.support.upval import require_upval

# The share of development turns that must be fully right (labels and composer verdict),
# per part: dev.yaml, dev2.yaml (two more writers, tuned on in round 2), dev3.yaml (three
# more writers, tuned on in round 3), dev4.yaml (three more writers, round 4) and dev5.yaml
# (two more writers, session 9).
FULLY_RIGHT_FLOOR = {
    "dev": 1.0,  # 0.14 before the clause reading of issue 21; 150/151 in round 3, 151 in 5
    "dev2": 0.98,  # 0.39 when it was written (before any change for it); 174/177 in round 3
    # dev3: 287 in session 13
    "dev3": 0.96,  # 188/297 when written; 277 in round 5; 279 in 6 (R3), 281 (all of 6), 283
    # dev4: 269 in session 11, 274 in 13
    "dev4": 0.92,  # 125/295 when written; 240 in round 5; 248 in 6 (R3), 254 (all of 6), 263
    # dev5: 190 in session 11, 191 in 13
    "dev5": 0.96,  # 128/198 when written (session 9, writers k and l); 141 (lead, session 9);
    # 160 with U2's kernel, repository, artifact and target work (round 7), 175 with U3's,
    # 186 with U1's package sentences
    # dev6: 128/200 when written (after round 7; the session-start code: 114/200);
    # 139 with V1's user forms and phrasal removals (round 8) on main 1879b64; 148 with V2's
    # references, questions and layouts alone (on main 9244135); 156 with both (main 3bae373);
    # 159 (lead: adverbs before a verb, interjections and key-file words are no names);
    # dev6: 180 in session 13
    "dev6": 0.89,  # 168 (0 invented) after round 9 (session 10: tuned on dev7); 171 in 11
    "dev7": 0.97,  # 108/199 when written (session 10, writers o and p; 7 invented); 146 with
    # W1's package forms on lead's 6b83902 (0 invented)
    # W2's users, kernel options named first and questions alone: 124 (round 9; 4 invented);
    # 162 with both (W2 rebased on main 710bf8e, 0 invented); 194 with W3's targets,
    # re-targets, references and partitions on main 961adb5 (0 invented)
    # kept unseen in session 10 (writers q and r), never read turn by turn: 115/200 with the
    # session-start code, 117/200 after round 9; tuned on from session 11: 141 with W1's
    # split names, capabilities said by use, conditional removals (round 10, 0 invented);
    # 144 with them on main 3321cbc; 164 with W2's users, kernel keys without "=" and
    # answers (round 10) rebased on main 8e46bf4 (0 invented); 190 (0 invented) with W3's
    # pasted configs, re-targets, references, repositories and base choice on main 5dcb1cc
    "dev8": 0.97,  # 195 in session 13
    # kept unseen in session 11 (writers s and t), never read turn by turn: 130/200 (4
    # invented) with the session-start code a8e92b1, 135/200 (3) at the session's end;
    # tuned on from session 12: 151 (0 invented) with X1's package forms (round 11) on
    # 379e58c, 158 with them rebased on main 8bd217a, 159 on e12c844; X3's revised values,
    # targets as settings, references to settings and formats by place (round 11): 162/200
    # (3 invented) on e12c844 without X1's; 180/200 (0 invented) with both on 8e53f14;
    # 195/200 (0 invented) with X2's users and kernel options on main b06fe3a
    "dev9": 0.97,
    # kept unseen in session 12 (writers u and v, the held-out writers' personas), never
    # read turn by turn: 152/200 (11 invented) with the session-start code 379e58c, 151/200
    # (10 invented) at the session's end; 154/200 (4 invented) once its own labels counted
    # as known names (session 13); tuned on from session 13: 167/200 (4 invented) with Y3's
    # references, targets and questions (round 12) on main 2613f57; 174/200 with them
    # rebased on main e841296 (166 without them)
    # Y2 (round 13): 168/200 on 2613f57 alone, 174/200 rebased on main 79b2d65
    # Y1 (round 12): 180/200 (0 invented) alone on main c57d928, 187/200 (0 invented) with
    # Y3's on main 17541e7, 195/200 (0 invented) with Y2's and Y3's on main ba1061e, 196/200
    # with the checker of cb076c5; 197/200 (0 invented) on main with all of round 12/13
    "dev10": 0.98,
    # kept unseen in session 13 (writers w and x, the held-out writers' personas), never
    # read turn by turn: 159/208 (0 invented) with the session-start code ed622f0, 161/208
    # (0 invented) with all of session 13's work; tuned on from session 14: 206/208 (0
    # invented) with the lead's round and h1's, h2's and h3's on main
    "dev11": 0.99,
    # kept unseen in session 14 (writers y and z, the held-out writers' personas), never read
    # turn by turn: 124/210 (5 invented) with the session-start code eddc0a3, 126/210 (5
    # invented) with all of session 14's work; tuned on from session 15: 196/210 (0 invented)
    # with the lead's round and h1's, h2's and h3's on main
    "dev12": 0.93,
    # kept unseen in session 15 (writers aa and ab), never read turn by turn: 139/214 (9
    # invented) with the session-start code 932a958, 146/214 (8 invented) with all of
    # session 15's work; tuned on from session 16: 159/214 (4 invented) with h3's round;
    # 195/214 (1 invented) with session 17's (the lead's, h4's with h1's, h5's with h2's)
    "dev13": 0.91,
    # kept unseen in session 16 (writers ac and ad), never read turn by turn: 120/203 (7
    # invented) with the session-start code 86c8c8a and at its end; tuned on from session 17:
    # 169/203 (1 invented) with the lead's, h4's and h5's rounds
    "dev14": 0.85,  # 174 in session 22
    # kept unseen in sessions 17-19 (writers ae and af), never read turn by turn: 136/218 (6
    # invented) with the session-start code ca0a616, 138/218 (5) at 1947d1b; tuned on from
    # session 20: 195/218 (0 invented) with the lead's round and p1's
    "dev15": 0.90,  # 198 in session 22
    # kept unseen in session 20 (writers ag and ah), never read turn by turn: 150/205 (2
    # invented) with the session-start code 1947d1b, 152/205 (2) at its end and at session
    # 21's start (2698d9a); tuned on from session 21: 192/205 (0 invented) with the lead's
    # round and p2's
    "dev16": 0.95,  # 195 in session 22 (0 invented)
    # kept unseen in session 21 (writers ai and aj): 139/218 (4 invented) with the
    # session-start code, 141/218 (4) at its end and at session 22's start (9eabc2b);
    # tuned on from session 22: 203/218 (0 invented) with the lead's round and p3's
    "dev17": 0.93,
    # kept unseen in session 22 (writers ak and al): 135/228 (6 invented) with the
    # session-start code 9eabc2b, 138/228 (6) at its end; tuned on from session 23: 214/228
    # (1 invented) with the lead's round, p4's and p5's
    "dev18": 0.93,
    # kept unseen in session 23 (writers am and an): 171/228 (2 invented) with the
    # session-start code 52e8ead, 172/228 (2) at its end; tuned on from session 24: 224/228
    # (0 invented) with the lead's round and p8's, p9's and p10's
    "dev19": 0.98,
    # kept unseen in session 24 (writers ao and ap): 182/221 (4 invented) with session 23's
    # start code, 183/221 (4) at its end and at session 24's start (333be71), and 183/221 (4)
    # at session 25's start (a7cd4c8); tuned on from session 25: 221/221 (0 invented) with
    # the lead's round and p12's, p13's and p14's
    "dev20": 0.99,
    # kept unseen in session 25 (writers aq and ar): 163/213 (5 invented) with the
    # session-start code a7cd4c8, and at its end and session 26's start (da5accc); tuned on
    # from session 26: 211/213 (0 invented) with the lead's round and p15 ... p20's
    "dev21": 0.98,
    # kept unseen in session 26 (writers as and at): 159/220 (4 invented) with the
    # session-start code da5accc
    "dev22": 0.72,
}
# Packages made of ordinary words, and templates the composer rejects or cannot build.
# per part; 29 on dev before the package rule of issue 21, 8 on dev3, 18 on dev4 and 7 on dev5 when
# they were written
INVENTED_CEILING = {
    # dev3: 1 until X1 round 11 (own software named beside its description, warehouse-nav)
    # dev4: 1 until session 23's p6 round (rviz is the ROS repository's ros-jazzy-rviz2)
    **{"dev": 0, "dev2": 0, "dev3": 0, "dev4": 0, "dev5": 0, "dev6": 0, "dev7": 0},
    # dev8: 7 with the session-10-start code, 8 after round 9, 0 with W1's round 10
    "dev8": 0,
    # kept unseen in session 11: 4 with the session-start code, 3 at its end; 0 with X1's
    # round 11 (rosbags, codecs, cityeye-analytics no longer read as packages)
    "dev9": 0,
    # 10 in session 12, when its own labels were not yet counted as known names; 0 with Y1's
    # round 12 ('storelink', 'config', 'socket', 'artifactory' no longer read as packages)
    "dev10": 0,
    "dev11": 0,  # kept unseen in session 13: 0 with the session-start code
    # kept unseen in session 14: 5 with the session-start code and at its end; 0 with
    # session 15's round (tuned on)
    "dev12": 0,
    # kept unseen in session 15: 9 with the session-start code, 8 at its end; 4 with
    # session 16's h3 round (tuned on)
    "dev13": 0,  # 1 with session 17's rounds; 0 with session 23's p6 round (cpupower)
    # kept unseen in session 16: 7 with the session-start code and at its end; 1 with
    # session 17's rounds (tuned on); 0 with session 23's p6 round (portainer)
    "dev14": 0,
    # kept unseen in sessions 17-19: 6 with session 17's start code, 5 at its end; 0 with
    # session 20's rounds (tuned on); 2 when session 26 counted only the catalog's package
    # names as known ('runtime' and 'calibration' had been catalog words), 1 after its
    # round ('they need their runtime from their repository' still adds runtime)
    "dev15": 1,
    # kept unseen in session 20: 2 with the session-start code and at its end; 0 with
    # session 21's rounds (tuned on)
    "dev16": 0,
    # kept unseen in session 21: 4 with the session-start code; 0 with session 22's rounds
    # (tuned on; p3 found that RPM names with capitals counted as invented)
    "dev17": 0,
    # kept unseen in session 22: 6 with the session-start code; 1 with session 23's rounds
    # (tuned on)
    "dev18": 1,
    # kept unseen in session 23: 2 with the session-start code and at its end; 0 with
    # session 24's rounds (tuned on)
    "dev19": 0,
    # kept unseen in session 24: 4 at session 23's start and end and at session 25's start;
    # tuned on from session 25: 0 with its rounds (plex and vscode are catalog entries with
    # no packages; Hindi joining words are a language table)
    "dev20": 0,
    # kept unseen in session 25: 5 with the session-start code, and at its end; tuned on
    # from session 26: 0 with its rounds
    "dev21": 0,
    "dev22": 4,  # kept unseen in session 26: 4 with the session-start code
}
# parts kept unseen this session: a failure says how many, never which turns or names (a
# failing ratchet printed three of dev14's invented names in session 16); dev14 became a
# tuning part in session 17, dev15 in session 20, dev16 in session 21, dev17 in session 22,
# dev18 in session 23, dev19 in session 24, dev20 in session 25 and dev21 in session 26, and
# dev22 is kept unseen
KEPT_UNSEEN = frozenset({"dev22"})
UNBUILDABLE_CEILING = 0  # 9 on dev before buildable targets (issue 21)
PARTS = DEV_PARTS
# what each test module takes with ``import *``: the checks and the fixture they share (each
# module adds its own ``part``)
__all__ = [
    "outcomes",
    "test_a_share_of_development_turns_is_fully_right",
    "test_no_more_invented_packages_than_the_ceiling",
    "test_no_more_unbuildable_templates_than_the_ceiling",
    "test_the_development_parts_are_large_and_multi_turn",
]
# the parts of each test module, about a quarter of the turns each (in the order written):
# with ``--dist loadfile`` a module runs on one worker, so four smaller ones leave a shorter
# tail than three when the last one starts alone
_EARLY = ("dev", "dev2", "dev3", "dev4", "dev5")
_MIDDLE = ("dev6", "dev7", "dev8", "dev9", "dev10")
_LATER = ("dev11", "dev12", "dev13", "dev14", "dev15", "dev16")
GROUPS = {
    "early": _EARLY,
    "middle": _MIDDLE,
    "later": _LATER,
    "late": tuple(name for name in DEV_PARTS if name not in (*_EARLY, *_MIDDLE, *_LATER)),
}


def part_fixture(group: str) -> Any:
    """The module-scoped ``part`` fixture of one test module: the parts of ``group``."""

    @pytest.fixture(scope="module", params=GROUPS[group])
    def part(request: pytest.FixtureRequest) -> str:
        return str(request.param)

    return part


@pytest.fixture(scope="module")
def outcomes(
    tmp_path_factory: pytest.TempPathFactory, indexed_data: Path, part: str
) -> Iterator[list[TurnOutcome]]:
    data = tmp_path_factory.mktemp(f"conversations-{part}") / "data"
    shutil.copytree(indexed_data / "chroma", data / "chroma")
    conversations = load_conversations(PARTS[part])
    known = known_packages()
    results: list[TurnOutcome] = []
    with TemplateAgent(load_settings(data_dir=data, env={}, provider="builtin")) as agent:
        for conversation in conversations:
            results += run_conversation(agent, conversation, known)
    composer_verdicts(results, require_upval(), data.parent / "upval")
    yield results


def _misses(outcomes: list[TurnOutcome]) -> str:
    return "\n".join(
        f"{o.conversation}#{o.turn} {o.say[:50]!r}: {[*o.failures, *o.invented]}"
        for o in outcomes
        if not o.right
    )


def test_the_development_parts_are_large_and_multi_turn(part: str) -> None:
    conversations = load_conversations(PARTS[part])
    turns = [turn for c in conversations for turn in c["turns"]]
    assert len(turns) >= 150
    assert all(len(c["turns"]) >= 2 for c in conversations)


def test_a_share_of_development_turns_is_fully_right(
    part: str, outcomes: list[TurnOutcome]
) -> None:
    right, total = sum(o.right for o in outcomes), len(outcomes)
    shown = f"{right}/{total}" if part in KEPT_UNSEEN else _misses(outcomes)
    share = right / total  # plain numbers: pytest's rewriting would print what they came from
    assert share >= FULLY_RIGHT_FLOOR[part], shown


def test_no_more_invented_packages_than_the_ceiling(part: str, outcomes: list[TurnOutcome]) -> None:
    invented = [(o.conversation, o.turn, name) for o in outcomes for name in o.invented]
    count = len(invented)
    shown = f"{count} invented" if part in KEPT_UNSEEN else invented
    assert count <= INVENTED_CEILING[part], shown


def test_no_more_unbuildable_templates_than_the_ceiling(
    part: str, outcomes: list[TurnOutcome]
) -> None:
    refused = [
        (o.conversation, o.turn, f)
        for o in outcomes
        for f in o.failures
        if f.startswith("the composer cannot build")
    ]
    count = len(refused)
    shown = f"{count} refused" if part in KEPT_UNSEEN else refused
    assert count <= UNBUILDABLE_CEILING, shown
