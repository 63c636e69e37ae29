"""``oic-ai validate`` never accepts what the composer's own loader rejects.

The judge is ``upval`` (``make upval``, :mod:`tests.support.upval`): the composer's
``validate`` and ``validate --merged``, built from its source. Hypothesis mutates real
templates (ours and the composer's reference ones): values set to YAML scalars that YAML
1.1 and yaml.v3 read differently, to other types, NaN, nested maps with odd keys; keys
deleted, added, repeated; list items repeated; lines doubled, tagged, aliased; a second
document. For every mutant:

- when ``validate`` accepts it, the loader accepts it too;
- when ``validate`` refuses what the loader accepts, every error is one the validator
  documents as stricter on purpose, with its reason
  (:data:`~oic_ai.tools.validate_template.STRICTER_THAN_THE_COMPOSER`).

Each example is a batch of mutants judged by one loader process, so a run covers a few
hundred mutants in about a minute on 2 cores (marked ``slow``). The named findings below
run in ``make test-fast`` too.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oic_ai.tools.validate_template import STRICTER_THAN_THE_COMPOSER, validate_text
from tests.conftest import OUR_TEMPLATES, REFERENCE_TEMPLATES
from tests.support import tree_paths
from tests.support.upval import Verdict, judge, require_upval

SOURCES: dict[str, Any] = {}
for _folder in (OUR_TEMPLATES, REFERENCE_TEMPLATES):
    for _path in sorted(_folder.glob("*.yml")) if _folder.is_dir() else []:
        _data = yaml.safe_load(_path.read_text(encoding="utf-8"))
        if isinstance(_data, dict):
            SOURCES[f"{_folder.parent.name}/{_path.name}"] = _data

# Plain scalars that YAML 1.1 (PyYAML) and yaml.v3 read differently, or that JSON cannot hold.
PLAIN = [
    "yes", "no", "on", "off", "Yes", "NO", "y", "n", "1:20", "017", "08", "0o17", "0x1F",
    "1e3", "1_000", ".5", "1.", "+5", ".inf", "-.inf", ".nan", "~", "null", "NULL", "true",
    "True", "tRue", "2024-01-01", "2024-1-2", "2024-01-01T10:00:00Z", "2024-13-45",
    "99999999999999999999", "0b101", "-0x10", "0x", "00", "'quoted'", "!!binary aGVsbG8=",
    "!!str 5", "!!int 7", "!!float 1", "[]", "{}", "[a, 1]", "{1: a}", "{true: a}",
    "{? [a]: b}", "&anchor value", "\"\\t\"", "\"\"", "-5MiB", "10 GiB", "8GiB", "0",
]  # fmt: skip
TYPED = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.lists(st.integers() | st.text(max_size=4), max_size=2),
    st.dictionaries(st.text(max_size=6) | st.integers(), st.integers() | st.none(), max_size=2),
)
KEYS = st.sampled_from(["extra", "name", "Name", "type", "size", "cmd", "enabled", "id"])
_MARK = "@@PLAIN{}@@"
_LINE = re.compile(r"^(\s*)([A-Za-z_][A-Za-z0-9_]*): (\S.*)$")


@st.composite
def mutants(draw: st.DrawFn) -> tuple[str, str]:
    """A real template with one to three changes, as text."""
    name = draw(st.sampled_from(sorted(SOURCES)))
    doc = copy.deepcopy(SOURCES[name])
    plain: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        paths = tree_paths.paths(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = tree_paths.at(doc, path[:-1]), path[-1]
        kind = draw(st.sampled_from(["plain", "plain", "typed", "delete", "add", "repeat"]))
        if kind == "plain":
            parent[key] = _MARK.format(len(plain))
            plain.append(draw(st.sampled_from(PLAIN)))
        elif kind == "typed":
            parent[key] = draw(TYPED)
        elif kind == "delete":
            del parent[key]
        elif kind == "add":
            target = tree_paths.at(doc, path)
            target = target if isinstance(target, dict) else parent
            if isinstance(target, dict):
                target[draw(KEYS | st.integers(0, 9))] = draw(TYPED)
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=10**6)
    for number, raw in enumerate(plain):
        text = text.replace(f"'{_MARK.format(number)}'", raw).replace(_MARK.format(number), raw)
    return name, _text_change(draw, text)


def _text_change(draw: st.DrawFn, text: str) -> str:
    """Maybe one change only text can make: a repeated line, a tag, an alias, a key..."""
    change = draw(
        st.sampled_from(
            ["none", "none", "line", "tag", "alias", "key", "document", "crlf", "flow", "quote"]
        )
    )
    lines = text.splitlines(keepends=True)
    index = draw(st.integers(0, len(lines) - 1))
    match = _LINE.match(lines[index].rstrip("\n"))
    if change == "line":
        lines.insert(index, lines[index])
    elif change == "document":
        lines.append("---\nimage: {name: second}\n")
    elif change == "crlf":
        lines = [line.replace("\n", "\r\n") for line in lines]
    elif match is not None:
        indent, key, value = match.groups()
        if change == "tag":
            tag = draw(st.sampled_from(["!!str", "!!int", "!!bool", "!!timestamp", "!thing"]))
            lines[index] = f"{indent}{key}: {tag} {value}\n"
        elif change == "alias":
            lines[index] = f"{indent}{key}: &shared {value}\n"
            lines.append("extraAlias: *shared\n")
        elif change == "key":
            odd = draw(st.sampled_from(["7", "true", "~", "2024-01-01", "1.5", "'7'"]))
            lines.insert(index, f"{indent}{odd}: x\n")
        elif change == "flow":
            lines[index] = f"{indent}{key}: [{value}]\n"
        elif change == "quote":
            lines[index] = f'{indent}"{key}": {value}\n'
    return "".join(lines)


def _disagreements(upval: Path, folder: Path, batch: list[tuple[str, str]]) -> list[str]:
    files = []
    for number, (_, text) in enumerate(batch):
        path = folder / f"mutant-{number:03d}.yml"
        path.write_text(text, encoding="utf-8")
        files.append(path)
    verdicts: dict[Path, Verdict] = judge(upval, files)
    problems = []
    for (name, text), path in zip(batch, files, strict=True):
        verdict = verdicts[path.resolve()]
        accepted = verdict.user_ok and verdict.merged_ok
        report = validate_text(text, source=path.name)
        if report.valid and not accepted:
            problems.append(f"LENIENT {name}: the loader says {verdict.error[-240:]}\n{text}")
        elif not report.valid and accepted:
            unexplained = [
                f"{e.code} at {e.path}: {e.message}"
                for e in report.errors
                if e.code not in STRICTER_THAN_THE_COMPOSER
            ]
            if unexplained:
                problems.append(f"STRICTER WITHOUT A REASON {name}: {unexplained}\n{text}")
    return problems


@pytest.mark.slow
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(batch=st.lists(mutants(), min_size=8, max_size=12))
def test_validate_never_accepts_what_the_composer_loader_rejects(
    batch: list[tuple[str, str]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    upval = require_upval()
    assert len(SOURCES) >= 40
    folder = tmp_path_factory.mktemp("mutants")
    problems = _disagreements(upval, folder, batch)
    assert problems == [], "\n\n".join(problems)


# --- the findings, by name (what the property test found, each a regression test) -------

BASE = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8")


def _with(line: str, after: str = "  packages:\n") -> str:
    assert after in BASE
    return BASE.replace(after, after + line, 1)


def _configurations(extra: str) -> str:
    """BASE with one configuration item that also holds ``extra`` (items are free-form)."""
    item = f'  configurations:\n    - cmd: "true"\n      {extra}\n'
    return BASE.replace("  immutability:\n", item + "  immutability:\n", 1)


# text -> what the composer's loader says (True: accepts), and so what validate must say
FINDINGS = {
    # YAML 1.1 reads these as strings, yaml.v3 as numbers: a package list item must be text
    "number 1e3": (_with("    - 1e3\n"), False),
    "octal 0o17": (_with("    - 0o17\n"), False),
    "octal 017": (_with("    - 017\n"), False),
    # YAML 1.1 reads these as booleans, yaml.v3 as text: fine as a package name...
    "word yes": (_with("    - yes\n"), True),
    "word off": (_with("    - off\n"), True),
    # ... and wrong for a boolean field
    "yes for a boolean": (
        BASE.replace("  immutability:\n    enabled: false", "  immutability:\n    enabled: yes"),
        False,
    ),
    # JSON has no NaN, and a map with a non-text key cannot become JSON at all
    "NaN in a free-form item": (_configurations("weight: .nan"), False),
    "number key in a free-form item": (_configurations("7: x"), False),
    # a date is a time to yaml.v3, which JSON writes as RFC 3339 text: fine as a package name
    "date": (_with("    - 2024-01-01\n"), True),
}


def test_the_named_findings_are_read_as_the_composer_reads_them() -> None:
    assert "immutability:\n    enabled: false" in BASE
    for case, (text, accepted) in FINDINGS.items():
        assert validate_text(text).valid is accepted, case


def test_the_named_findings_agree_with_the_composer_loader(tmp_path: Path) -> None:
    upval = require_upval()
    files = {}
    for number, (case, (text, _)) in enumerate(FINDINGS.items()):
        path = tmp_path / f"finding-{number}.yml"
        path.write_text(text, encoding="utf-8")
        files[case] = path
    verdicts = judge(upval, list(files.values()))
    for case, path in files.items():
        verdict = verdicts[path.resolve()]
        assert (verdict.user_ok and verdict.merged_ok) is FINDINGS[case][1], (case, verdict)


def test_tags_the_loader_cannot_read_are_findings_not_crashes() -> None:
    for text in ("a: !!bool maybe\n", "a: !!timestamp nope\n", "a: !!int x\n"):
        report = validate_text(text)
        assert [e.code for e in report.errors] == ["yaml-syntax"], text
    second = validate_text(BASE + "---\nimage: {name: second}\n")
    assert [e.code for e in second.errors] == ["yaml-multiple-documents"]
    assert "reads only the first" in second.errors[0].message


def test_every_stricter_code_is_one_the_validator_can_give() -> None:
    project = Path(__file__).parents[2]
    schema = (project / "tools" / "schemas" / "oic-template.schema.json").read_text("utf-8")
    sources = "".join(
        (project / part).read_text(encoding="utf-8")
        for part in ("tools/template_checks.py", "stores/yaml_document.py")
    )
    for code, reason in STRICTER_THAN_THE_COMPOSER.items():
        assert f'"{code}"' in schema + sources, code
        assert len(reason) > 20, code
