"""Immutability said by what it means, and secure boot asked for by its keys alone.

The sentences are written for these tests, not taken from the labelled conversations.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES

AZL = (OUR_TEMPLATES / "azl3-x86_64-minimal-raw.yml").read_text("utf-8")


def _plan(said: str) -> EditPlan:
    return plan_request(said, AZL, mode="refine")


def _immutability(plan: EditPlan) -> dict[str, Any]:
    ops = [o.model_dump() for o in plan.operations if o.op == "set_immutability"]
    return ops[0] if ops else {}


def _values(plan: EditPlan) -> dict[str, Any]:
    return {o.path: o.value for o in plan.operations if o.op == "set"}


@pytest.mark.parametrize(
    "said",
    [
        "our auditors require that the operating system cannot be modified while it runs",
        "the system must be unchangeable in the field",
        "we need an unmodifiable OS for the kiosk",
    ],
)
def test_an_os_nobody_can_change_is_immutability(said: str) -> None:
    plan = _plan(said)
    assert _immutability(plan).get("enabled") is True
    assert plan.not_applied == []


def test_a_changeable_config_file_is_no_immutability() -> None:
    plan = _plan("hostname lab-7, the config cannot be modified by users")
    assert _immutability(plan) == {}


def test_signature_database_keys_ask_for_secure_boot_with_them() -> None:
    plan = _plan(
        "turn it on please. the db key and certificate files are at /etc/sb/db.key and "
        "/etc/sb/db.crt, the DER one is /etc/sb/db.cer"
    )
    assert _immutability(plan).get("secure_boot") is True
    assert _values(plan) == {
        "systemConfig.immutability.secureBootDBKey": "/etc/sb/db.key",
        "systemConfig.immutability.secureBootDBCrt": "/etc/sb/db.crt",
        "systemConfig.immutability.secureBootDBCer": "/etc/sb/db.cer",
    }
    assert plan.not_applied == []


def test_a_tls_certificate_path_asks_for_no_secure_boot() -> None:
    plan = _plan("add nginx, its certificate will live at /etc/ssl/site.crt")
    assert _immutability(plan) == {}
