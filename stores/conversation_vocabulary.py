"""The words that refer back to the conversation, read from ``stores/data/conversation.yaml``.

Two closed classes: how people take back the last change ("undo that", "roll it back",
"go back one step") and how they ask for the same image again ("the same for Debian",
"like before but ..."), plus the filler words that carry no request inside such a clause.
:mod:`oic_ai.tools.references` reads a request with them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from oic_ai.stores.data_files import load_mapping

CONVERSATION_PATH = Path(__file__).parent / "data" / "conversation.yaml"


@dataclass(frozen=True)
class UndoPhrase:
    """One way to take back the last change.

    Attributes:
        pattern: The compiled phrase (lower-case text, word boundaries).
        alone: The phrase counts only when its clause ends right after it.
        names: Its words may name a part of the change ("undo the quiet"); False for
            phrases whose words are all the verb ("go back to before", "cofnij").
    """

    pattern: re.Pattern[str]
    alone: bool
    names: bool = True


@dataclass(frozen=True)
class ConversationVocabulary:
    """Every reference word list, compiled.

    Attributes:
        undo: The phrases that take back the last change.
        undo_negated: Words right before an undo phrase that cancel it ("don't").
        undo_echo: A clause that repeats what the undone change did ("drop that user
            again"): part of the undo.
        back_to: Words right before a target that ask for the session's earlier template
            with that target ("go back to debian").
        restore_before: A verb that asks for something removed earlier, before its object
            ("put back the ssh server").
        restore_around: The same verb around its object ("bring htop back"), with a
            named group ``object``.
        restore_removed: A relative clause after the object that points at the earlier
            turn ("you removed a couple of messages ago").
        same: The phrases that ask for the same image again.
        targeted: Phrases that ask for the same image again only when their sentence
            names a target ("the same worker for aarch64").
        back_only: The subset of ``same`` that refers back without naming a target.
        also: "too", "as well": a clause naming a target and ending so refers back.
        keep_rest: Phrases that say everything not asked for stays as it is ("keep
            everything else", "same everything"): they ask for no change of their own.
        filler: Words that carry no request inside a reference clause.
        aspects: What an undo may name of a change ("the repo", "the partition change",
            "te partycje"), each word with the template keys a change to it touches.
        object_filler: Words inside an undo's object that name nothing ("te", "die").
    """

    undo: tuple[UndoPhrase, ...]
    undo_negated: re.Pattern[str]
    undo_echo: re.Pattern[str]
    same: tuple[re.Pattern[str], ...]
    back_only: re.Pattern[str]
    also: re.Pattern[str]
    filler: frozenset[str]
    keep_rest: re.Pattern[str] = re.compile(r"(?!)")
    back_to: re.Pattern[str] = re.compile(r"(?!)")
    restore_before: re.Pattern[str] = re.compile(r"(?!)")
    restore_around: re.Pattern[str] = re.compile(r"(?!)")
    restore_removed: re.Pattern[str] = re.compile(r"(?!)")
    aspects: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    object_filler: frozenset[str] = frozenset()
    targeted: tuple[re.Pattern[str], ...] = ()


def _bounded(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])")


def parse_conversation(data: Mapping[str, Any]) -> ConversationVocabulary:
    """Compile the parsed YAML document.

    Raises:
        ValueError: the document is malformed (a bug in the shipped data).
    """
    undo = data.get("undo")
    same = data.get("same")
    if not isinstance(undo, Mapping) or not isinstance(same, Mapping):
        raise ValueError("conversation.yaml needs `undo` and `same` sections")
    restore = data.get("restore") or {}
    if not isinstance(restore, Mapping):
        raise ValueError("conversation.yaml `restore` must be a mapping")
    object_words = str(undo.get("object") or "")
    phrases = []
    for entry in undo.get("phrases") or []:
        if not isinstance(entry, Mapping) or not entry.get("pattern"):
            raise ValueError("every undo phrase needs a pattern")
        text = str(entry["pattern"]).replace("{object}", object_words)
        phrases.append(
            UndoPhrase(_bounded(text), bool(entry.get("alone")), entry.get("names") is not False)
        )
    filler = data.get("filler") or []
    if not isinstance(filler, list) or not all(isinstance(word, str) for word in filler):
        raise ValueError(
            "conversation.yaml `filler` must be a list of strings; quote it where a word "
            "is yes, no, on or off (YAML reads those as booleans)"
        )
    return ConversationVocabulary(
        undo=tuple(phrases),
        undo_negated=re.compile(str(undo.get("negated_by") or r"(?!)")),
        undo_echo=_bounded(str(undo.get("echo") or r"(?!)")),
        same=tuple(_bounded(str(p)) for p in same.get("phrases") or []),
        back_only=_bounded(str(same.get("back_only") or r"(?!)")),
        also=re.compile(str(same.get("also") or r"(?!)")),
        filler=frozenset(str(word).lower() for word in filler),
        back_to=_bounded(str(undo.get("back_to") or r"(?!)")),
        restore_before=_bounded(str(restore.get("before") or r"(?!)")),
        restore_around=_bounded(str(restore.get("around") or r"(?!)")),
        restore_removed=_bounded(str(restore.get("removed") or r"(?!)")),
        keep_rest=_bounded("|".join(str(p) for p in data.get("keep_rest") or []) or r"(?!)"),
        aspects=_aspects(undo.get("aspects") or {}),
        object_filler=frozenset(str(w).lower() for w in undo.get("object_filler") or []),
        targeted=tuple(_bounded(str(p)) for p in same.get("targeted") or []),
    )


def _aspects(data: Any) -> dict[str, tuple[str, ...]]:
    """Each aspect word with the template keys it names (``{keys: [...], words: [...]}``)."""
    if not isinstance(data, Mapping):
        raise ValueError("conversation.yaml `undo.aspects` must be a mapping")
    found: dict[str, tuple[str, ...]] = {}
    for name, entry in data.items():
        if not isinstance(entry, Mapping) or not entry.get("keys"):
            raise ValueError(f"undo aspect {name!r} needs `keys`")
        keys = tuple(str(k) for k in entry["keys"])
        for word in [name, *(entry.get("words") or [])]:
            found[str(word).lower()] = keys
    return found


@lru_cache(maxsize=2)
def load_conversation(path: Path | None = None) -> ConversationVocabulary:
    """Load (once) and return the vocabulary shipped in ``stores/data/conversation.yaml``.

    Args:
        path: Another file, for tests; ``None`` means the shipped one.
    """
    return parse_conversation(load_mapping(path or CONVERSATION_PATH))
