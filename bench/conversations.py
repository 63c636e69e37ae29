"""Understanding on labelled conversations: the development part and the held-out part.

Runs every conversation of ``tests/data/conversations/dev.yaml`` to ``dev10.yaml`` and
``bench/heldout/conversations.yaml`` turn by turn through the graph with the builtin planner
(the bundled library, the local embedder, a fresh data folder), checks each turn against its
label (``tests/support/conversations.py``), and asks the composer's own loader (``upval``,
``make upval``) about every template a turn returned as usable. Prints, per part: turns, the
share fully right, invented packages, templates the composer rejects or cannot build, the
most frequent kinds of miss, and turn times.

The held-out part is for measuring only: never change the planner because of one of its
turns. Its misses are listed only with ``--details heldout``.

Usage: python bench/conversations.py [--part PART|all] [--details PART|none] [--provider builtin]
PART: dev, dev2 ... dev10 or heldout.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import _common  # noqa: F401  (puts the repository root on sys.path)

from tests.support.conversations import (
    DEV_PARTS,
    HELDOUT,
    TurnOutcome,
    composer_verdicts,
    known_packages,
    load_conversations,
    run_conversation,
)
from tests.support.upval import upval_path


def _kind(failure: str) -> str:
    """A miss's kind: its first words without names and numbers."""
    words = re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]|\{[^}]*\}|[0-9.]+\w*", "_", failure).split()
    return " ".join(words[:3])


def run_part(path: Path, data: Path, provider: str) -> list[TurnOutcome]:
    """Run one labelled file in its own data folder."""
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.settings import load_settings

    conversations = load_conversations(path)
    known = known_packages()
    outcomes: list[TurnOutcome] = []
    with TemplateAgent(load_settings(data_dir=data, env={}, provider=provider)) as agent:
        agent.generate("a minimal debian image")  # index the library before timing turns
        for conversation in conversations:
            outcomes += run_conversation(agent, conversation, known)
    upval = upval_path()
    if upval is None:
        print(f"(no upval: run `make upval`; the composer's verdict is missing for {path.name})")
    else:
        composer_verdicts(outcomes, upval, data / "upval")
    return outcomes


def report(label: str, outcomes: list[TurnOutcome], details: bool) -> None:
    """Print one part's figures."""
    n = len(outcomes)
    right = sum(o.right for o in outcomes)
    invented = [(o, name) for o in outcomes for name in o.invented]
    composer = [o for o in outcomes if any(f.startswith("the composer") for f in o.failures)]
    times = sorted(o.seconds for o in outcomes)
    conversations = len({o.conversation for o in outcomes})
    print(f"\n## {label}: {conversations} conversations, {n} turns")
    print(f"- fully right: {right}/{n} = {right / n:.1%}")
    print(f"- invented packages: {len(invented)}")
    print(f"- templates the composer rejects or cannot build: {len(composer)}")
    print(
        f"- turn time: median {statistics.median(times) * 1000:.0f} ms,"
        f" p95 {times[int(n * 0.95)] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
    )
    kinds = Counter(_kind(f) for o in outcomes for f in o.failures)
    kinds.update("invented package" for _ in invented)
    print("- misses by kind: " + ", ".join(f"{k} ({c})" for k, c in kinds.most_common(12)))
    if not details:
        return
    for outcome in outcomes:
        if outcome.right:
            continue
        print(f"\n  [{outcome.conversation} turn {outcome.turn}] {outcome.say}")
        for failure in outcome.failures:
            print(f"    - {failure}")
        for name in outcome.invented:
            print(f"    - invented package {name}")


def main() -> None:
    """Run the parts asked for and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    names = [*DEV_PARTS, "heldout"]
    parser.add_argument("--part", choices=[*names, "all"], default="all")
    parser.add_argument("--details", choices=[*names, "none"], default="dev")
    parser.add_argument("--provider", default="builtin")
    args = parser.parse_args()
    parts = {name: [(name, path)] for name, path in DEV_PARTS.items()}
    parts["heldout"] = [("held-out", HELDOUT)]
    chosen = [p for ps in parts.values() for p in ps] if args.part == "all" else parts[args.part]
    for label, path in chosen:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="oic-conversations-") as folder:
            outcomes = run_part(path, Path(folder) / "data", args.provider)
        report(label, outcomes, details=args.details == label.replace("-", ""))
        print(f"- wall time for the part: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
