"""The remark model: a clause no rule read and no bank example is near, naming nothing.

None of the wordings below is in the bank or in the writer's set a (the training data):
they check that the model generalises. The near-misses name a value, a field or a
package, or head a list, and must still be reported or applied.
"""

from __future__ import annotations

import numpy as np
import pytest

from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
from oic_ai.stores.operation_bank import load_bank_data
from oic_ai.stores.shipped_vectors import load_shipped
from oic_ai.tools.planner import accounting, remark_model
from oic_ai.tools.planner.bank import stand_ins
from tests.tools.planner.helpers import plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"


def test_the_shipped_weights_are_what_training_gives_now() -> None:
    bank = load_bank_data()
    shipped = load_shipped(
        remark_model.WEIGHTS_FILE, remark_model.digest(MiniLMEmbedder.model_id, bank)
    )
    assert shipped is not None, "stale: run python scripts/build_operation_bank.py"
    examples = remark_model.training_texts(bank)
    vectors = MiniLMEmbedder().embed_array([stand_ins(t) or t for t, _ in examples])
    trained = remark_model.train(vectors, [label for _, label in examples])
    assert np.allclose(shipped, trained, atol=1e-4), "stale: run make vectors"


def test_training_holds_the_bank_and_set_a_only() -> None:
    examples = remark_model.training_texts(load_bank_data())
    texts = {text for text, _ in examples}
    assert "Change control board meets Fridays." in texts  # set a, a remark
    assert ("Need curl and jq in there.", 0) in examples  # set a, a request
    assert len(examples) == len(load_bank_data().examples) + 300


@pytest.mark.parametrize(
    "remark",
    [
        "Blame the vendor for the delay.",
        "Enjoy the weekend.",
        "Pardon the late reply.",
    ],
)
def test_a_remark_naming_nothing_is_quiet(remark: str) -> None:
    plan = plan_on(DEBIAN, remark)
    assert plan.operations == [] and plan.not_applied == []
    assert [c.outcome for c in plan.clauses] == ["context"]


def test_without_the_model_the_same_remark_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounting, "load_remark_model", lambda: None)
    plan = plan_on(DEBIAN, "Blame the vendor for the delay.")
    assert plan.not_applied and "no rule for this" in plan.not_applied[0]


@pytest.mark.parametrize(
    ("request_text", "reported"),
    [
        ("pw policy: min 12 chars", "pw policy"),  # a header: it asks for what follows
        ("Schedule a weekly reboot.", "Schedule a weekly reboot"),
        ("Excuse the mess in that config.", "Excuse the mess"),  # names a field (config)
        ("make it boot faster", "boot time"),
    ],
)
def test_what_names_or_heads_something_is_still_reported(request_text: str, reported: str) -> None:
    plan = plan_on(DEBIAN, request_text)
    assert any(reported in line for line in plan.not_applied), plan.not_applied


def test_a_verb_of_change_at_the_head_is_never_read_as_a_remark() -> None:
    model = remark_model.load_remark_model()
    assert model is not None
    said = "Lock in the plan for Friday."
    assert model.probabilities([said])[0] >= remark_model.REMARK_FLOOR
    assert plan_on(DEBIAN, said).not_applied  # "lock" asks for a change; reported


def test_a_clause_with_a_number_is_never_read_as_a_remark() -> None:
    model = remark_model.load_remark_model()
    assert model is not None
    said = "Blame the vendor for the 3 day delay."
    assert model.probabilities([said])[0] >= remark_model.REMARK_FLOOR
    plan = plan_on(DEBIAN, said)
    assert plan.not_applied  # the model would call it a remark; the number keeps it asked


def test_training_separates_what_it_was_given() -> None:
    vectors = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]], dtype=np.float32)
    weights = remark_model.train(vectors, [1, 1, 0, 0])
    logits = vectors @ weights[:-1] + weights[-1]
    assert (logits[:2] > 0).all() and (logits[2:] < 0).all()
