"""Understanding under harmless rewording: the dev parts again, each turn said differently.

A turn a user words a little differently means the same: a greeting before it, thanks
after it, "ok so" before it, a reason after a change, "could you ...?" around a short
command, all of it in lower case (words the label holds as written keep their case), or a
change typed without commas and full stop, or a command said as a need ("we also need
htop", "we don't need rsyslog"), or one command or field word mistyped ("remvoe",
"hostanme"). This reruns the labelled development parts
(``tests/data/conversations/``) with
every turn of a conversation reworded one way at a time, checks each turn against its
unchanged label, and counts the turns that are right as written but wrong reworded. It
measures how well the builtin planner generalises beyond the phrasings it was tuned on,
without looking at the held-out part (never run here).

Usage: python bench/robustness.py [--parts dev5,dev6] [--ways hi,thanks,...] [--details]
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (puts the repository root on sys.path)

from tests.support.conversations import (
    DEV_PARTS,
    known_packages,
    load_conversations,
    run_conversation,
)

# reasons a user gives after a change; one per turn, picked by the turn's text
_REASONS = (
    ", we need that for the pilot",
    " because the customer asked for it",
    ". Our QA team flagged this last week",
    ", the field techs keep asking for it",
)
# the verbs a short command starts with, for "could you ...?"
_COMMANDS = frozenset(
    "add remove drop set make install put delete change use switch give bump rename create "
    "enable disable turn include".split()
)


def _changes(turn: dict[str, Any]) -> bool:
    """True for a single-line turn that asks for a change (no question, refusal or undo)."""
    expect = turn.get("expect") or {}
    said = str(turn["say"]).rstrip()
    return not (
        expect.get("unchanged")
        or expect.get("not_applied")
        or "unsupported" in (expect.get("status") or [])
        or "same_as_turn" in expect
        or said.endswith("?")
        or "\n" in said
    )


def _reason(turn: dict[str, Any]) -> str:
    said = str(turn["say"])
    if not _changes(turn):
        return said
    return said.rstrip().rstrip(".!") + _REASONS[zlib.crc32(said.encode()) % len(_REASONS)]


def _could(turn: dict[str, Any]) -> str:
    said = str(turn["say"]).strip()
    words = said.lower().split()
    if not _changes(turn) or not words or words[0] not in _COMMANDS or len(said) > 120:
        return said
    return f"could you {said[0].lower()}{said[1:].rstrip('.!')}?"


_WORD = re.compile(r"\S+")
_KEEP_CASE = re.compile(r"[/:=@]|^[\"'`]")  # paths, URLs, options, addresses, quoted names


def _lower(turn: dict[str, Any]) -> str:
    """All in lower case, as typed on a phone, except words the label holds as written."""
    said = str(turn["say"])
    if "\n" in said:
        return said
    labelled = json.dumps(turn.get("expect") or {})

    def one(found: re.Match[str]) -> str:
        word = found.group(0)
        core = word.strip(".,;:!?()")
        if _KEEP_CASE.search(word) or (core and core in labelled):
            return word
        return word.lower()

    return _WORD.sub(one, said)


def _unpunctuated(turn: dict[str, Any]) -> str:
    """Shorthand without punctuation: no commas between parts, no full stop at the end."""
    said = str(turn["say"])
    if not _changes(turn):
        return said
    return re.sub(r",\s+(?=[A-Za-z])", " ", said.rstrip().rstrip(".!"))


_WISHES = (
    (re.compile(r"(?i)^(?:please\s+)?(?:add|install|include)\s+"), "we also need "),
    (re.compile(r"(?i)^(?:please\s+)?(?:remove|drop|delete)\s+"), "we don't need "),
)


def _wish(turn: dict[str, Any]) -> str:
    """A command said as a need: "add htop" as "we also need htop"."""
    said = str(turn["say"])
    if not _changes(turn) or len(said) > 120:
        return said
    for command, need in _WISHES:
        if command.match(said):
            return command.sub(need, said, count=1)
    return said


# words people mistype while the rest of the turn is right: commands, fields and the
# small words around them (never a name: the label holds names as written)
_TYPED_FAST = frozenset(
    """
    remove delete install replace change switch rename please instead actually everything
    hostname partition kernel package packages password enable disable update increase
    secure immutable repository another without option options command should
    """.split()
)


def _typo(turn: dict[str, Any]) -> str:
    """One mistyped word: two letters swapped inside the first command or field word."""
    said = str(turn["say"])
    labelled = json.dumps(turn.get("expect") or {}).lower()
    for found in re.finditer(r"[A-Za-z]{6,}", said):
        word = found.group(0)
        if word.lower() not in _TYPED_FAST or word.lower() in labelled:
            continue
        at = 1 + zlib.crc32(said.encode()) % (len(word) - 3)  # never the first letter
        typed = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
        if typed == word:
            continue  # "ee" swapped is the same word
        return said[: found.start()] + typed + said[found.end() :]
    return said


WAYS: dict[str, Callable[[dict[str, Any]], str]] = {
    "hi": lambda t: f"hi! {t['say']}",
    "thanks": lambda t: f"{str(t['say']).rstrip()} thanks!",
    "ok-so": lambda t: f"ok so {t['say']}",
    "reason": _reason,
    "could-you": _could,
    "lower": _lower,
    "no-commas": _unpunctuated,
    "wish": _wish,
    "typo": _typo,
}


def run(parts: list[str], way: str | None, agent: Any) -> dict[str, tuple[str, list[str]]]:
    """Every turn of ``parts`` (reworded ``way``, or as written): its words and misses."""
    known = known_packages()
    found: dict[str, tuple[str, list[str]]] = {}
    for part in parts:
        for conversation in load_conversations(DEV_PARTS[part]):
            turns = conversation.get("turns") or []
            if way is not None:
                turns = [{**t, "say": WAYS[way](t)} for t in turns]
            for outcome in run_conversation(agent, {**conversation, "turns": turns}, known):
                misses = outcome.failures + [f"invented {n}" for n in outcome.invented]
                key = f"{part}/{outcome.conversation}/{outcome.turn}"
                found[key] = (outcome.say, misses)
    return found


def main() -> None:
    """Print, per way of rewording, how many right turns it breaks."""
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.settings import load_settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default=",".join(DEV_PARTS))
    parser.add_argument("--ways", default=",".join(WAYS))
    parser.add_argument("--details", action="store_true", help="list the broken turns")
    args = parser.parse_args()
    parts = [p for p in args.parts.split(",") if p]
    unknown = [p for p in parts if p not in DEV_PARTS] + [
        w for w in args.ways.split(",") if w not in WAYS
    ]
    if unknown:
        parser.error(f"unknown part or way: {', '.join(unknown)}")
    with tempfile.TemporaryDirectory(prefix="oic-robustness-") as folder:
        settings = load_settings(data_dir=Path(folder) / "data", env={}, provider="builtin")
        with TemplateAgent(settings) as agent:
            agent.generate("a minimal debian image")  # index the library first
            started = time.perf_counter()
            plain = run(parts, None, agent)
            right = {k for k, (_, misses) in plain.items() if not misses}
            print(f"## Rewording the dev parts ({', '.join(parts)})")
            print(f"- turns: {len(plain)}, right as written: {len(right)}")
            print("\n| way | turns reworded | right as written, wrong reworded |")
            print("|---|---|---|")
            for way in args.ways.split(","):
                again = run(parts, way, agent)
                changed = {k for k in right if again[k][0] != plain[k][0]}
                broken = sorted(k for k in changed if again[k][1])
                print(f"| {way} | {len(changed)} | {len(broken)} |")
                if args.details:
                    for key in broken:
                        print(f"|   {key} | {again[key][0][:90]!r} | {again[key][1][0][:120]} |")
            print(f"\n- wall time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
