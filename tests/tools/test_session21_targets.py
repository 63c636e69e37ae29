"""An embedded build system (Yocto, Buildroot) is refused like any system the composer lacks."""

from __future__ import annotations

import pytest

from oic_ai.tools.target_support import find_unsupported


@pytest.mark.parametrize(
    "request_text",
    [
        "Could you do a Yocto-based variant for the tiny boxes we have in the smaller sites?",
        "a buildroot image for the sensors",
        "can we get this as a Yocto Project build instead",
        "make an OpenEmbedded version for the old boards",
    ],
)
def test_a_request_for_an_embedded_build_system_is_refused(request_text: str) -> None:
    found = find_unsupported(request_text)
    assert found is not None and found.system == "Yocto or Buildroot"


@pytest.mark.parametrize(
    "request_text",
    [
        "our old units run a Yocto build, we want ubuntu 24.04 now",
        "the older units run a Yocto build nobody maintains; give me an arm64 image of eLxr 12",
        "migrating off buildroot to debian 13",
        'the Yocto build also had EXTRA_USERS_PARAMS = "useradd gwadmin" - same user here pls',
        "our fedora boxes still run docker, so keep docker",
    ],
)
def test_a_build_system_said_as_context_or_left_behind_is_not_refused(request_text: str) -> None:
    assert find_unsupported(request_text) is None


@pytest.mark.parametrize(
    "request_text",
    [
        "the yocto layers were a pain to maintain",
        "add htop; our buildroot config had it too",
        "fwiw the openembedded recipes pinned an old kernel",
    ],
)
def test_talk_of_a_build_system_is_no_target_and_reports_nothing(request_text: str) -> None:
    from tests.tools.planner.helpers import plan_on

    plan = plan_on("ubuntu24-x86_64-minimal-raw.yml", request_text)
    assert not [op for op in plan.operations if op.op == "set_target"]
    assert not any("not a target" in entry for entry in plan.not_applied)
    assert find_unsupported(request_text) is None


@pytest.mark.parametrize(
    "request_text",
    [
        "ok forget armv7. back to arm64 - add user gw w/ sudo, pw later",
        "skip the windows one, just ubuntu",
        "never mind the armhf build, x86 only",
    ],
)
def test_a_system_set_aside_is_not_refused(request_text: str) -> None:
    assert find_unsupported(request_text) is None


def test_a_system_asked_for_after_one_set_aside_is_still_refused() -> None:
    found = find_unsupported("forget debian, an armv7 build please")
    assert found is not None and found.arch == "armv7hl"
