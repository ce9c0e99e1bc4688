"""Confidence normalisation, evaluator clamps and the weighted overall score (DESIGN §4)."""

from __future__ import annotations

import pytest

from masis.judge.citations import CitationAudit
from masis.judge.scoring import clamp_evaluation, normalize_confidence, overall_score

PERFECT = {"faithfulness": 1.0, "relevance": 1.0, "completeness": 1.0, "reasoning_quality": 1.0}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (0.84, 0.84),
        (84, 0.84),
        ("72", 0.72),
        (100, 1.0),
        (250, 1.0),
        (-3, 0.0),
        (None, 0.0),
        ("n/a", 0.0),
        (float("nan"), 0.0),
        (1.0, 1.0),
    ],
)
def test_confidence_over_one_is_percent_and_clamped(raw: object, expected: float) -> None:
    assert normalize_confidence(raw) == pytest.approx(expected)


def test_overall_score_uses_the_design_weights() -> None:
    scores = {"faithfulness": 0.8, "relevance": 0.6, "completeness": 0.4, "reasoning_quality": 1.0}
    assert overall_score(scores) == pytest.approx(0.35 * 0.8 + 0.25 * 0.6 + 0.25 * 0.4 + 0.15 * 1.0)


def _audit(uncited: int = 0, invalid: int = 0) -> CitationAudit:
    return CitationAudit(
        cited_ids=["a#1"] + [f"x#{i}" for i in range(invalid)],
        valid_ids=["a#1"],
        invalid_ids=[f"x#{i}" for i in range(invalid)],
        uncited_sentences=[f"claim {i} here now" for i in range(uncited)],
    )


@pytest.mark.parametrize(
    ("uncited", "invalid", "hallucination", "cap"),
    [
        (0, 0, False, 1.0),
        (4, 0, False, 1.0),
        (5, 0, False, 0.50),
        (9, 0, False, 0.50),
        (10, 0, False, 0.30),
        (0, 1, False, 0.40),
        (0, 0, True, 0.40),
        (12, 1, False, 0.30),
    ],
)
def test_faithfulness_is_clamped_by_the_citation_audit(
    uncited: int, invalid: int, hallucination: bool, cap: float
) -> None:
    result = clamp_evaluation(PERFECT, _audit(uncited, invalid), hallucination)
    assert result["faithfulness"] == pytest.approx(cap)
    assert result["relevance"] == 1.0
    assert result["overall_score"] == pytest.approx(0.35 * cap + 0.65)


def test_a_models_own_overall_score_is_ignored_and_percentages_are_read() -> None:
    result = clamp_evaluation({**PERFECT, "faithfulness": 90, "overall_score": 0.1}, _audit())
    assert result["faithfulness"] == pytest.approx(0.9)
    assert result["overall_score"] == pytest.approx(0.35 * 0.9 + 0.65)


def test_a_passage_holding_the_questions_exact_constraints_is_not_dropped_by_its_meaning() -> None:
    from masis.judge.relevance import SEMANTIC_FLOOR, by_meaning

    far = SEMANTIC_FLOOR - 0.1  # a release table's rows read as a whole are far from "When was Ubuntu 24.04 released?"
    assert by_meaning(0.74, far) < 0.6
    assert by_meaning(0.74, far, anchored=True) == 0.74
