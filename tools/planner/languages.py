"""Other languages' everyday words, read as the English words the planner's rules know.

People write in their own language or mix it with English: "usuario ops sin sudo",
"Benutzer ops mit sudo", "tira o gstreamer", "dysk 32 GB". The tables in
``stores/data/languages.yaml`` map each language's function words, greetings, yes/no and
the few nouns and verbs the rules are built on ("user", "disk", "remove", "also") one to
one. A language's table is used for a message only when the message holds enough of its
words that are not also English words; greetings no English sentence uses are read in any
message. Every word of every table is also never a package name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from oic_ai.stores.data_files import load_mapping

_DATA = Path(__file__).resolve().parents[2] / "stores" / "data" / "languages.yaml"
# a word of any alphabet: letters, digits and inner apostrophes ("s'il")
_WORD = re.compile(r"[^\W_](?:[\w']*[^\W_])?")


@dataclass(frozen=True)
class Languages:
    """The tables: per language, its words and phrases with their English reading."""

    tables: dict[str, dict[str, str]]
    anywhere: dict[str, str]
    # per language, its words that follow the word they govern ("sudo ke saath")
    postpositions: dict[str, tuple[str, ...]]
    # per language, the marks only it writes ("¿"): each counts as one of its words
    marks: dict[str, tuple[str, ...]]
    english: frozenset[str]
    min_hits: int

    def words(self) -> frozenset[str]:
        """Every single word of every table (never a package name)."""
        found: set[str] = set()
        for table in (*self.tables.values(), self.anywhere):
            for key in table:
                found.update(key.split())
        return frozenset(found)


@lru_cache(maxsize=1)
def load_languages(path: Path = _DATA) -> Languages:
    """Load (once) the language tables."""
    data = load_mapping(path)
    tables = {
        str(code): {str(k).lower(): str(v) for k, v in (entry.get("words") or {}).items()}
        for code, entry in (data.get("languages") or {}).items()
    }
    anywhere = {str(k).lower(): str(v) for k, v in (data.get("anywhere") or {}).items()}
    english = frozenset(str(w).lower() for w in data.get("english") or ())
    postpositions = {
        str(code): tuple(str(p).lower() for p in entry.get("postpositions") or ())
        for code, entry in (data.get("languages") or {}).items()
    }
    marks = {
        str(code): tuple(str(m) for m in entry.get("marks") or ())
        for code, entry in (data.get("languages") or {}).items()
    }
    return Languages(tables, anywhere, postpositions, marks, english, int(data.get("min_hits", 2)))


def foreign_words() -> frozenset[str]:
    """The words of the tables that are no English word: never a package name."""
    tables = load_languages()
    return tables.words() - tables.english


def detect(text: str) -> list[str]:
    """The languages whose tables ``text`` uses, most words first.

    A language counts when at least ``min_hits`` different words of its table, none of
    them also an English word, appear in ``text``; a word spelt with letters English
    does not use counts twice, and a mark only the language writes ("¿") once.
    """
    tables = load_languages()
    lowered = text.lower()
    # whole words only: "com" of "example.com" or "de" of a path is no word of a language
    tokens = {w.strip(".,;:!?¿¡()[]\"'`") for w in lowered.split()}
    tokens = {w for w in tokens if _WORD.fullmatch(w)}
    scores = []
    for code, table in tables.tables.items():
        hits = set()
        for key in table:
            parts = key.split()
            if any(p in tables.english for p in parts) and len(parts) == 1:
                continue
            if len(parts) == 1 and key in tokens:
                hits.add(key)
            elif len(parts) > 1 and re.search(rf"(?<!\w){re.escape(key)}(?!\w)", lowered):
                hits.add(key)
        # a word spelt with letters English does not use ("perdón", "dzięki") counts twice
        weight = sum(1 if key.isascii() else 2 for key in hits)
        weight += sum(mark in text for mark in tables.marks[code])  # "¿tiene X?"
        if weight >= tables.min_hits:
            scores.append((weight, code))
    return [code for _, code in sorted(scores, key=lambda s: -s[0])]


def translate(text: str) -> str:
    """``text`` with the detected languages' words read as English.

    Only whole words that stand alone are read: a word inside a path, a URL, an option
    (``key=value``), a hyphenated or dotted name, or quotes stays as written.
    """
    tables = load_languages()
    table: dict[str, str] = {}
    detected = detect(text)
    for code in reversed(detected):  # the language with most words wins a clash
        table.update(tables.tables[code])
    for code in detected:
        text = _postpositions_first(text, tables.postpositions[code])
    table = {**tables.anywhere, **table}
    if not table:
        return text
    keys = sorted(table, key=lambda k: (-len(k.split()), -len(k)))
    alternatives = "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in keys)
    pattern = re.compile(
        rf"(?<![\w./=:@$'`\"-])(?:{alternatives})(?![\w/=@'`\"-]|\.\w)", re.IGNORECASE
    )

    def english(match: re.Match[str]) -> str:
        return table[" ".join(match.group().lower().split())]

    return pattern.sub(english, text)


def _postpositions_first(text: str, postpositions: Sequence[str]) -> str:
    """``text`` with each postposition before the word it follows ("ke saath sudo").

    Read as English, the word of "sudo ke saath" ("with sudo") must come first; only one
    word is governed, so "/opt ke liye alag partition" is read "ke liye /opt alag partition".
    """
    if not postpositions:
        return text
    alternatives = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in postpositions)
    pattern = re.compile(rf"(?<!\S)([^\s,;!?()]+?)([.,;!?)]*)\s+({alternatives})(?!\w)", re.I)
    return pattern.sub(lambda m: f"{m[3]} {m[1]}{m[2]}" if not m[2] else m[0], text)


# words that name something a rule changes: a clause holding one is never a mere remark
_OPERATION_WORDS = frozenset(
    "user users account disk group groups package packages add remove install include "
    "kernel partition partitions hostname repo repository sudo shell size".split()
)


# a lower-case name joined by hyphens ("nfs-common", "wireguard-tools"): a package's shape
_PACKAGE_SHAPED = re.compile(r"[a-z][a-z0-9+]*(?:-[a-z0-9+]+)+")
# letters of Latin-script languages that English does not use ("küçük", "kullanıyor", "ł")
_NOT_ENGLISH_LETTERS = re.compile(r"[^\x00-\x7f]")


def foreign_remark(message: str, words: list[str], known: frozenset[str]) -> bool:
    """Whether a clause no rule read is a remark in another language.

    "que no salgan los mensajes en la pantalla", "bizde henüz sertifikalı değil": in a
    message written in another language, a clause whose words are mostly that language's
    words the tables do not map (besides the English words they were read as), and that
    names no package, size, path, option or operation, explains; it does not ask. More
    of its words must be foreign than English, so an English clause is still reported.
    """
    from oic_ai.tools.planner.lexicon import is_english

    if not words:
        return False
    tables = load_languages()
    table_words = tables.words()
    if all(w in table_words and w not in tables.english and not is_english(w) for w in words):
        return True  # "quiero...", "terakhir": only words of the tables, read or not
    if not detect(message) and not any(_NOT_ENGLISH_LETTERS.search(w) for w in words):
        return False  # neither a language of the tables nor letters English never uses
    english = {w for t in tables.tables.values() for v in t.values() for w in v.lower().split()}
    foreign = plain = 0
    for word in words:
        if word in _OPERATION_WORDS or word in known or re.search(r"[\d/=@:.]", word):
            return False
        if _PACKAGE_SHAPED.fullmatch(word):
            return False  # "nfs-common": a package's shape, not a word of any language
        if word in english or word in tables.english:
            continue
        if is_english(word):
            plain += 1  # an English word ("local") or a loanword ("nova")
        else:
            foreign += 1
    return foreign > plain
