"""Random YAML, random bytes and mutated real templates through the parser and the validator.

The template parser may refuse a text only with ``ValueError`` (``YamlSyntaxError`` for bad
YAML), the library scan and the validator never raise at all: whatever the input, they
answer with a reason or with findings that ``validate --json`` can print.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from oic_ai.stores.template_index import template_metadata
from oic_ai.stores.template_library import load_template_file
from oic_ai.stores.template_model import Template, parse_template
from oic_ai.stores.yaml_document import MAX_DEPTH, YamlSyntaxError, load_document
from oic_ai.tools.validate_template import FileReport, validate_file, validate_text
from tests.conftest import OUR_TEMPLATES
from tests.support import tree_paths

TEMPLATES = {p.name: p.read_text(encoding="utf-8") for p in sorted(OUR_TEMPLATES.glob("*.yml"))}
NAMES = st.sampled_from(sorted(TEMPLATES))
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# a `key: value` line of block style (not a list item, not a comment)
_KEY_LINE = re.compile(r"^(\s*)([A-Za-z][A-Za-z0-9_]*):(\s.*)?$")

NASTY = st.sampled_from(
    [
        "\x00",
        "\x07",
        "\x1b[31m",
        "\ufeff",
        "\u202e",
        "\u2028",
        "\ud83d\ude80",
        "🚀",
        "\t",
        "\r",
        "'",
        '"',
        ": ",
        "- ",
        "{",
        "]",
        "&a ",
        "*a",
        "!!python/object:os.system ",
        "!!binary ",
        "%YAML 1.1\n",
        "---\n",
        "? ",
        "<<: ",
        "9" * 5000,
        "1e999999",
        "2024-13-45",
        "0x" + "f" * 40,
        "\ud800",
    ]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.binary(max_size=10)
    | st.dates()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=12) | st.integers(), inner, max_size=5)
    ),
    max_leaves=25,
)
TOP_KEYS = st.sampled_from(
    ["image", "target", "disk", "systemConfig", "metadata", "packageRepositories", "other"]
)


def _check_report(report: FileReport) -> None:
    """A report is well-formed and printable as ``validate --json``."""
    assert report.valid == (not report.errors)
    for finding in (*report.errors, *report.warnings):
        assert finding.code and isinstance(finding.code, str)
        assert finding.message and isinstance(finding.message, str)
        assert finding.path.startswith("$")
        assert finding.line is None or finding.line >= 1
    json.dumps(report.to_json(), ensure_ascii=False).encode("utf-8")


def _check_parse(text: str | bytes) -> Template | None:
    """Parse, allowing only ValueError; a parsed template can be indexed and embedded."""
    try:
        template = parse_template(text, "fuzz/t.yml")
    except ValueError:
        return None
    assert isinstance(template.searchable_text(), str)
    meta = template_metadata(template, "model")
    assert all(isinstance(v, (str, int, float, bool)) for v in meta.values())
    return template


def _both(text: str) -> FileReport:
    """Validate and parse one text; bad YAML must be bad YAML to each reader.

    The validator reads scalars as the composer's yaml.v3 does ("2024-13-45" is text
    there), the template parser as PyYAML does: each refuses what its own reading cannot
    build.
    """
    report = validate_text(text, source="fuzz.yml")
    _check_report(report)
    try:
        load_document(text, as_composer=True)
    except YamlSyntaxError as exc:
        # (Python's str.strip() also strips \x1c-\x1f, which YAML refuses: "empty file")
        expected = exc.code if text.strip() else "empty-file"
        assert any(f.code == expected for f in report.errors)
    try:
        load_document(text)
    except YamlSyntaxError:
        with pytest.raises(ValueError):
            parse_template(text, "fuzz/t.yml")
        return report
    _check_parse(text)
    return report


# --- random input ----------------------------------------------------------------------


@FUZZ
@given(st.text(max_size=400))
@example("a: " + "[" * 5000 + "]" * 5000)  # nesting past every recursion limit
@example("image: " + "[" * 30_000 + "]" * 30_000 + "\n")  # past the C stack: once SIGSEGV
@example("image:\n  " + "- " * 30_000 + "x\n")  # the same depth in block style
@example("a: &a [*a]\n")  # an alias that contains itself
@example("image: {name: a, version: " + "9" * 5000 + "}\n")  # int() refuses > 4300 digits
@example("image: {name: a, version: 2024-13-45}\n")  # a timestamp that is no date
@example('image: {name: "\ud800"}\n')  # a lone surrogate (json.loads makes these)
@example(
    "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
)  # an alias bomb: 43 million values from 300 bytes
def test_random_text_is_answered_with_findings(text: str) -> None:
    _both(text)


@FUZZ
@given(st.dictionaries(TOP_KEYS | st.text(max_size=8), VALUES, max_size=6))
def test_random_yaml_documents_are_answered_with_findings(data: dict[Any, Any]) -> None:
    text = yaml.dump(data, sort_keys=False, allow_unicode=True)
    report = _both(text)
    if "image" not in data or "target" not in data:
        assert not report.valid


@FUZZ
@given(st.binary(max_size=400) | NAMES.map(lambda n: TEMPLATES[n].encode()[:300] + b"\xff\xfe"))
def test_random_bytes_never_break_the_scan_or_the_validator(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "random.yml"
    path.write_bytes(raw)
    report = validate_file(path)
    _check_report(report)
    scanned = load_template_file(path, "random.yml")
    assert isinstance(scanned, (Template, str))
    if isinstance(scanned, str):
        assert scanned  # a reason to show, never an empty one
    _check_parse(raw)


# --- mutated real templates ------------------------------------------------------------


@FUZZ
@given(NAMES, st.data())
def test_a_dropped_key_is_a_finding_or_harmless(name: str, data: st.DataObject) -> None:
    tree = yaml.safe_load(TEMPLATES[name])
    path = data.draw(st.sampled_from(tree_paths.paths(tree)), label="path")
    del tree_paths.at(tree, path[:-1])[path[-1]]
    report = _both(yaml.safe_dump(tree, sort_keys=False))
    if path in (("image",), ("target",), ("image", "name"), ("target", "arch")):
        assert any(path[-1] in f.message or path[-1] in f.path for f in report.errors)


@FUZZ
@given(NAMES, st.data(), VALUES)
def test_a_value_of_another_type_is_a_finding_or_harmless(
    name: str, data: st.DataObject, value: Any
) -> None:
    tree = yaml.safe_load(TEMPLATES[name])
    path = data.draw(st.sampled_from(tree_paths.paths(tree)), label="path")
    tree_paths.at(tree, path[:-1])[path[-1]] = value
    report = _both(yaml.dump(tree, sort_keys=False, allow_unicode=True))
    if path == ("systemConfig", "packages") and not isinstance(value, list):
        assert not report.valid  # packages must be a list


def _key_lines(lines: list[str], *, scalar: bool = False) -> list[int]:
    """Lines holding one whole ``key: value`` (a quoted value may go on over lines)."""
    found = []
    for index, line in enumerate(lines):
        match = _KEY_LINE.match(line)
        if match is None or (scalar and not (match.group(3) or "").strip()):
            continue
        following = next((n for n in lines[index + 1 :] if n.strip()), "")
        indent = len(match.group(1))
        if not (match.group(3) or "").strip() or len(following) - len(following.lstrip()) <= indent:
            found.append(index)
    return found


@FUZZ
@given(NAMES, st.data())
def test_a_duplicated_key_is_reported(name: str, data: st.DataObject) -> None:
    lines = TEMPLATES[name].splitlines(keepends=True)
    candidates = _key_lines(lines)
    index = data.draw(st.sampled_from(candidates), label="line")
    key = _KEY_LINE.match(lines[index]).group(2)  # type: ignore[union-attr]
    mutated = "".join(lines[: index + 1] + [lines[index]] + lines[index + 1 :])
    report = _both(mutated)
    duplicates = [f for f in report.errors if f.code == "duplicate-key"]
    assert duplicates and any(key in f.message and f.line == index + 2 for f in duplicates)


@FUZZ
@given(NAMES, st.data())
def test_a_truncated_template_is_answered_with_findings(name: str, data: st.DataObject) -> None:
    text = TEMPLATES[name]
    cut = data.draw(st.integers(min_value=0, max_value=len(text) - 1), label="cut")
    report = _both(text[:cut])
    if not text[:cut].strip():
        assert [f.code for f in report.errors] == ["empty-file"]


@FUZZ
@given(NAMES, st.data(), st.lists(NASTY | st.text(min_size=1, max_size=5), min_size=1, max_size=4))
def test_injected_characters_are_answered_with_findings(
    tmp_path: Path, name: str, data: st.DataObject, pieces: list[str]
) -> None:
    text = TEMPLATES[name]
    for piece in pieces:
        at = data.draw(st.integers(min_value=0, max_value=len(text)), label="offset")
        text = text[:at] + piece + text[at:]
    _both(text)
    path = tmp_path / "injected.yml"  # as an editor would save it: surrogates pass through
    path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
    _check_report(validate_file(path))


@FUZZ
@given(NAMES, st.data(), st.integers(min_value=1, max_value=3 * MAX_DEPTH))
def test_deep_nesting_is_answered_with_findings(name: str, data: st.DataObject, depth: int) -> None:
    tree = yaml.safe_load(TEMPLATES[name])
    path = data.draw(st.sampled_from(tree_paths.paths(tree)), label="path")
    value: Any = "x"
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    tree_paths.at(tree, path[:-1])[path[-1]] = value
    text = yaml.safe_dump(tree, sort_keys=False)
    report = _both(text)
    if len(path) + depth + 1 > MAX_DEPTH:
        assert any("deeper than" in f.message for f in report.errors)


NUMBERS = {
    "5000 nines": "9" * 5000,
    "-4400 ones": "-" + "1" * 4400,
    "1e999999": "1e999999",
    ".nan": ".nan",
    "2**64": str(2**64),
}


@FUZZ
@given(NAMES, st.data(), st.sampled_from(sorted(NUMBERS)))
def test_huge_numbers_are_answered_with_findings(
    name: str, data: st.DataObject, number: str
) -> None:
    lines = TEMPLATES[name].splitlines(keepends=True)
    index = data.draw(st.sampled_from(_key_lines(lines, scalar=True)), label="line")
    indent, key = _KEY_LINE.match(lines[index]).group(1, 2)  # type: ignore[union-attr]
    lines[index] = f"{indent}{key}: {NUMBERS[number]}\n"
    report = _both("".join(lines))
    if len(NUMBERS[number]) > 4300:  # Python refuses to build the int: a finding, no line
        assert [f.code for f in report.errors] == ["yaml-syntax"]


def test_every_real_template_survives_the_same_checks() -> None:
    for name, text in TEMPLATES.items():
        report = _both(text)
        assert report.valid, (name, [f.message for f in report.errors])
        assert _check_parse(text) is not None
