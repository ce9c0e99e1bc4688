"""The supervisor's routing rule, driven by a table of seed examples, and a termination property."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from masis.agents.supervisor import decide

CLEAN: dict[str, Any] = {"conflicts": [], "unsupported_claims": [], "needs_retry": False}
CONFLICT = {**CLEAN, "conflicts": [{"topic": "Q3 revenue", "claims": []}], "needs_retry": True}
HALLUCINATION = {**CLEAN, "hallucination_detected": True, "needs_retry": True}

SEEDS = [
    # (attempt, retries, confidence, critique, audit, expected route, expected kind)
    (0, 0, 0.0, None, None, "first_run", None),
    (1, 0, 0.92, CLEAN, {"uncited_count": 0}, "finalize", None),
    (1, 0, 0.65, CLEAN, {"uncited_count": 0}, "finalize", None),
    (1, 0, 0.64, CLEAN, {"uncited_count": 0}, "retry", None),
    (2, 1, 0.50, CLEAN, {"uncited_count": 0}, "retry", None),
    (3, 2, 0.50, CLEAN, {"uncited_count": 0}, "escalate", "low_confidence"),
    (1, 0, 0.90, CONFLICT, {"uncited_count": 0}, "retry", None),
    (3, 2, 0.90, CONFLICT, {"uncited_count": 0}, "escalate", "conflict"),
    (1, 0, 0.95, HALLUCINATION, {"hallucination": True}, "retry", None),
    (1, 0, 0.95, CLEAN, {"uncited_count": 5}, "retry", None),
    (1, 0, 0.95, CLEAN, {"uncited_count": 4}, "finalize", None),
    (1, 0, 0.95, {**CLEAN, "needs_retry": True}, {"uncited_count": 0}, "retry", None),
]


@pytest.mark.parametrize(("attempt", "retries", "confidence", "critique", "audit", "route", "kind"), SEEDS)
def test_seed_examples(
    attempt: int, retries: int, confidence: float, critique: Any, audit: Any, route: str, kind: str | None
) -> None:
    decision = decide(
        attempt=attempt,
        retries=retries,
        max_retries=2,
        confidence=confidence,
        critique=critique,
        citation_audit=audit,
        low_confidence_threshold=0.65,
    )
    assert decision.route == route
    assert decision.kind == kind
    if route in {"retry", "escalate"}:
        assert decision.reason, "a retry or escalation must say why"


critiques = st.fixed_dictionaries(
    {
        "conflicts": st.lists(st.just({"topic": "x", "claims": []}), max_size=1),
        "unsupported_claims": st.lists(st.text(min_size=1, max_size=5), max_size=2),
        "needs_retry": st.booleans(),
        "hallucination_detected": st.booleans(),
    }
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), critiques, st.integers(0, 12)), min_size=12, max_size=12), st.integers(0, 4))
def test_the_loop_always_ends_within_max_retries_plus_one_attempts(
    outcomes: list[tuple[float, dict[str, Any], int]], max_retries: int
) -> None:
    attempt, retries = 0, 0
    decision = decide(
        attempt=0,
        retries=0,
        max_retries=max_retries,
        confidence=0,
        critique=None,
        citation_audit=None,
        low_confidence_threshold=0.65,
    )
    while decision.route in {"first_run", "retry"}:
        if decision.route == "retry":
            retries += 1
        attempt += 1
        confidence, critique, uncited = outcomes[attempt - 1]
        decision = decide(
            attempt=attempt,
            retries=retries,
            max_retries=max_retries,
            confidence=confidence,
            critique=critique,
            citation_audit={"uncited_count": uncited},
            low_confidence_threshold=0.65,
        )
    assert decision.route in {"finalize", "escalate"}
    assert attempt <= max_retries + 1


@pytest.mark.parametrize(("critique", "kind"), [(CONFLICT, "conflict"), (CLEAN, "low_confidence")])
def test_a_retry_that_would_repeat_the_last_one_escalates_with_retries_left(critique: Any, kind: str) -> None:
    decision = decide(attempt=2, retries=1, max_retries=2, confidence=0.5, critique=critique,
                      citation_audit={"uncited_count": 0}, low_confidence_threshold=0.65,
                      repeats_last_retry=True)  # fmt: skip
    assert decision.route == "escalate" and decision.kind == kind
    assert "a retry would repeat the last one" in decision.reason


def test_a_repeat_never_stops_an_answer_that_passed() -> None:
    decision = decide(attempt=2, retries=1, max_retries=2, confidence=0.9, critique=CLEAN,
                      citation_audit={"uncited_count": 0}, low_confidence_threshold=0.65,
                      repeats_last_retry=True)  # fmt: skip
    assert decision.route == "finalize"
