"""Scalars read as the composer's yaml.v3 reads them, not as PyYAML's YAML 1.1 does."""

from __future__ import annotations

import math

import pytest

from oic_ai.stores.yaml_composer import go_int, resolve_plain
from oic_ai.stores.yaml_document import YamlSyntaxError, load_document


def composer(value: str) -> object:
    return load_document(f"k: {value}\n", as_composer=True).data["k"]


def pyyaml(value: str) -> object:
    return load_document(f"k: {value}\n").data["k"]


@pytest.mark.parametrize(
    ("plain", "read"),
    [
        ("yes", "yes"),  # YAML 1.1: True
        ("no", "no"),
        ("on", "on"),
        ("Off", "Off"),
        ("1:20", "1:20"),  # YAML 1.1: sexagesimal 80
        ("1e3", 1000.0),  # YAML 1.1: a string
        ("0o17", 15),  # YAML 1.1: a string
        ("017", 15),  # Go reads a leading 0 as octal
        ("08", 8.0),  # not octal, so Go's float reading
        ("0x1F", 31),
        ("0b101", 5),
        ("1_000", 1000),
        ("+5", 5),
        (".5", 0.5),
        ("1.", 1.0),
        ("99999999999999999999", 1e20),  # past uint64: a float
        ("true", True),
        ("TRUE", True),
        ("tRue", "tRue"),
        ("~", None),
        ("NULL", None),
        ("2024-01-01", "2024-01-01T00:00:00Z"),  # a time, written as JSON writes it
        ("2024-1-2 3:04:05", "2024-01-02T03:04:05Z"),
        ("2024-01-01T10:00:00+02:00", "2024-01-01T10:00:00+02:00"),
        ("2024-13-45", "2024-13-45"),  # no such date: text
        ("!!binary aGVsbG8=", "hello"),
        ("'yes'", "yes"),
        ("!!str 5", "5"),
    ],
)
def test_plain_scalars_mean_what_the_composer_reads(plain: str, read: object) -> None:
    assert composer(plain) == read


def test_the_default_reading_stays_pyyaml_for_everything_else() -> None:
    assert pyyaml("yes") is True
    assert pyyaml("1e3") == "1e3"


def test_special_floats() -> None:
    assert math.isnan(composer(".nan"))  # type: ignore[arg-type]
    assert composer("-.inf") == -math.inf
    assert composer(".iNf") == ".iNf"  # not one of yaml.v3's spellings


def test_go_int_follows_strconv() -> None:
    assert go_int("0x") is None
    assert go_int("9" * 25) is None
    assert go_int(str(2**64 - 1)) == 2**64 - 1  # ParseUint
    assert go_int("-" + str(2**63)) == -(2**63)
    assert go_int("-" + str(2**64 - 1)) is None  # a sign never reaches ParseUint
    assert resolve_plain("-") == "str"


def test_values_no_tag_can_hold_are_syntax_errors_not_crashes() -> None:
    for text in ("!!bool maybe", "!!timestamp nope", "!!int x", "!!float y", "!!binary ***"):
        with pytest.raises(YamlSyntaxError):
            composer(text)
    # PyYAML's own constructors crash on these; the loader turns that into a finding too
    for text in ("!!bool maybe", "!!timestamp nope"):
        with pytest.raises(YamlSyntaxError):
            pyyaml(text)
