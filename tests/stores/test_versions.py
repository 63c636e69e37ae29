"""Debian and RPM version order, and pins, against documented orderings and dpkg itself.

Debian's examples come from the Debian Policy Manual (5.6.12: ``~`` sorts before
anything, even the end of a part; the epoch decides first). RPM's come from rpm's own
``rpmvercmp`` test cases. Property tests check that both are total orders, and the
Debian comparator against ``dpkg --compare-versions`` on generated versions.
"""

from __future__ import annotations

import functools
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oic_ai.stores.versions import (
    compare,
    deb_compare,
    parse_pin,
    pin_matches,
    rpm_compare,
    rpm_vercmp,
)
from tests.support.system import find_program

# each list is in ascending order; equal neighbours are grouped in a tuple
DEB_ORDER: list[str | tuple[str, ...]] = [
    "0~~",
    "0~~a",
    "0~",
    "0",
    "0a",
    "0.1~rc1",
    "0.1",
    "1.0~rc1",
    ("1.0-0", "1.0", "1.00"),
    "1.0-1",
    "1.0-1ubuntu1",
    "1.0-2",
    "1.0+b1",
    "1.0.1",
    "1.2",
    "1.10",
    "1.20",
    "2.0",
    "1:0.1",
    "1:1.0~beta",
    "1:1.0",
    "2:0",
]

RPM_ORDER: list[str | tuple[str, ...]] = [
    "1.0~rc1~git123",
    "1.0~rc1",
    "1.0~rc1^git1",
    "1.0~rc2",
    ("1.0", "1_0", "1..0"),
    "1.0^",
    "1.0^git1",
    "1.0^git2",
    "1.0a",
    "1.0.1",
    "1.01.1",
    "1.2",
    "1.10",
    "1.20",
    "2.0",
    "2.0.1",
    "2.0.1a",
    "10.1xyz",
    "1:0.1",
]

RPM_PAIRS = [  # (a, b, rpmvercmp(a, b)) from rpm's tests
    ("1.0", "1.0", 0),
    ("1.0", "2.0", -1),
    ("5.5p1", "5.5p2", -1),
    ("5.5p10", "5.5p1", 1),
    ("10xyz", "10.1xyz", -1),
    ("xyz10", "xyz10.1", -1),
    ("xyz.4", "8", -1),
    ("8", "xyz.4", 1),
    ("5.5p1", "5.5.p1", 0),
    ("1.0a", "1.0.1", -1),
    ("a+", "a_", 0),
    ("+a", "_a", 0),
    ("1.0^", "1.0.1", -1),
    ("1.0^20160101", "1.0.1", -1),
    ("1.0^git1", "1.01", -1),
]


def _flatten(order: list[str | tuple[str, ...]]) -> list[tuple[int, str]]:
    ranked = []
    for rank, group in enumerate(order):
        for version in group if isinstance(group, tuple) else (group,):
            ranked.append((rank, version))
    return ranked


@pytest.mark.parametrize(
    ("family", "order"), [("deb", DEB_ORDER), ("rpm", RPM_ORDER)], ids=["deb", "rpm"]
)
def test_documented_orderings(family: str, order: list[str | tuple[str, ...]]) -> None:
    ranked = _flatten(order)
    for rank_a, a in ranked:
        for rank_b, b in ranked:
            expected = (rank_a > rank_b) - (rank_a < rank_b)
            assert compare(a, b, family) == expected, (a, b)


def test_debian_policy_examples() -> None:
    assert deb_compare("1.0~rc1", "1.0") == -1
    assert deb_compare("1:0.1", "2.0") == 1
    assert deb_compare("1.2", "1.20") == -1
    assert deb_compare("1.02", "1.2") == 0  # digits compare as numbers


@pytest.mark.parametrize(("a", "b", "expected"), RPM_PAIRS)
def test_rpmvercmp_cases(a: str, b: str, expected: int) -> None:
    assert rpm_vercmp(a, b) == expected
    assert rpm_vercmp(b, a) == -expected


def test_rpm_release_counts_only_when_both_sides_have_one() -> None:
    assert rpm_compare("6.17.11-1.emt3", "6.17.11-2.emt3") == -1
    assert rpm_compare("6.17.11", "6.17.11-2.emt3") == 0
    assert rpm_compare("1:1.0", "2.0") == 1


# --- properties -----------------------------------------------------------------------

_PART = st.text(alphabet="0123456789abz.+~", min_size=1, max_size=6)
DEB_VERSIONS = st.builds(
    lambda epoch, digit, upstream, revision: (
        (f"{epoch}:" if epoch is not None else "")
        + digit
        + upstream
        + (f"-{revision}" if revision else "")
    ),
    st.one_of(st.none(), st.integers(0, 3)),
    st.sampled_from("0123456789"),
    st.text(alphabet="0123456789ab.+~", max_size=6),
    st.one_of(st.none(), _PART),
)
RPM_VERSIONS = st.text(alphabet="0123456789abz._~^", min_size=1, max_size=8)
FAMILIES = [("deb", DEB_VERSIONS), ("rpm", RPM_VERSIONS)]


@pytest.mark.parametrize(("family", "versions"), FAMILIES, ids=["deb", "rpm"])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_total_order(family: str, versions: st.SearchStrategy[str], data: st.DataObject) -> None:
    items = data.draw(st.lists(versions, min_size=1, max_size=8))
    a, b = items[0], items[-1]
    assert compare(a, a, family) == 0
    assert compare(a, b, family) == -compare(b, a, family)
    ordered = sorted(items, key=functools.cmp_to_key(lambda x, y: compare(x, y, family)))
    for i, low in enumerate(ordered):
        for high in ordered[i:]:
            assert compare(low, high, family) <= 0, (low, high, ordered)


def _dpkg_order(dpkg: str, a: str, b: str) -> int:
    def holds(relation: str) -> bool:
        done = subprocess.run([dpkg, "--compare-versions", a, relation, b], check=False)
        return done.returncode == 0

    return -1 if holds("lt") else (1 if holds("gt") else 0)


@settings(max_examples=150, deadline=None)
@given(a=DEB_VERSIONS, b=DEB_VERSIONS)
def test_debian_order_agrees_with_dpkg(a: str, b: str) -> None:
    dpkg = find_program("dpkg")
    if dpkg is None:
        pytest.skip("dpkg is not installed")
    assert deb_compare(a, b) == _dpkg_order(str(dpkg), a, b), (a, b)


@settings(max_examples=200, deadline=None)
@given(
    head=st.integers(0, 99),
    minor=st.integers(0, 9),
    extra=st.integers(1, 9),
    family=st.sampled_from(["deb", "rpm"]),
)
def test_a_pin_never_matches_a_longer_number(
    head: int, minor: int, extra: int, family: str
) -> None:
    pin = f"{head}.{minor}"
    assert not pin_matches("=", pin, f"{head}.{minor}{extra}-1", family)
    assert pin_matches("=", pin, f"{head}.{minor}-1", family)
    assert pin_matches("=", pin, f"{head}.{minor}.{extra}-1", family)  # a leading-parts pin


@pytest.mark.parametrize(
    ("op", "pin", "candidate", "family", "expected"),
    [
        ("=", "1.2", "1.20-1", "deb", False),
        ("=", "1.2", "1.2-1", "deb", True),
        ("=", "5:27.1.1-1", "5:27.1.1-1", "deb", True),
        ("=", "4:27.1.1-1", "5:27.1.1-1", "deb", False),
        ("=", "27.1.1", "5:27.1.1-1", "deb", True),  # no epoch written: any epoch
        ("=", "27.1.1-2", "5:27.1.1-1", "deb", False),
        ("=", "2025.2", "2025.2.0-1", "deb", True),
        ("=", "6.17.11", "6.17.11-1.emt3", "rpm", True),
        ("=", "6.17.1", "6.17.11-1.emt3", "rpm", False),
        ("=", "6.6.57.1-6.azl3", "6.6.57.1-6.azl3", "rpm", True),
        ("=", "6.6.57.1-5.azl3", "6.6.57.1-6.azl3", "rpm", False),
        (">=", "1.24", "1.24.0-1", "deb", True),
        (">=", "1.24", "1.3-1", "deb", False),  # 3 < 24: numbers, not strings
        ("<", "1.0", "1.0~rc1-1", "deb", True),
        (">", "1.0", "1.0~rc1-1", "deb", False),
        ("!=", "1.2", "1.20", "rpm", True),
    ],
)
def test_pins(op: str, pin: str, candidate: str, family: str, expected: bool) -> None:
    assert pin_matches(op, pin, candidate, family) is expected


def test_parse_pin_forms() -> None:
    assert parse_pin("docker-ce=5:27.1.1-1") == parse_pin("docker-ce==5:27.1.1-1")
    pin = parse_pin("nginx (>= 1.24)")
    assert pin is not None and (pin.name, pin.op, pin.version) == ("nginx", ">=", "1.24")
    pin = parse_pin("libc6 >> 2.36")
    assert pin is not None and pin.op == ">"
    assert parse_pin("gcc-14-base") is None  # name-version is ambiguous on its own
