"""The labelled LLM-reply benchmark keeps its promise: >= 95% plans used, compact operations."""

from __future__ import annotations

from bench.llm_plans import ALL_ITEMS, ITEMS, REASONING_ITEMS, operation_tokens, run


def test_the_labelled_set_uses_the_models_plan_in_at_least_95_percent_of_turns() -> None:
    assert len(ITEMS) >= 30 and len(REASONING_ITEMS) >= 15
    figures = run()
    assert figures["n"] == len(ALL_ITEMS)
    assert figures["used_share"] >= 0.95
    assert figures["used_by_group"]["reasoning / gateway"] == f"{len(REASONING_ITEMS)}/15"
    assert figures["ops_dropped"] >= 1  # the invented op beside a good one
    assert figures["retried"] >= 6  # prose-only, cut-off, all-reasoning, deep nesting...
    fallbacks = [t for t in figures["turns"] if not t["used"]]
    assert all(("refused" in t["cause"]) or ("echoed" in t["cause"]) for t in fallbacks)
    assert figures["label_matches"] >= figures["used"]
    reasoning = [t for t in figures["turns"] if "reasoning tokens" in t["cause"]]
    assert reasoning and all(t["requests"] == 2 for t in reasoning)


def test_an_operation_costs_a_constrained_model_tens_of_tokens_not_hundreds() -> None:
    tokens = operation_tokens()
    assert tokens["operations"] >= 100
    assert tokens["compact_per_operation"] < 60
    assert tokens["flat_per_operation"] > 4 * tokens["compact_per_operation"]
