"""Scores: confidence normalisation, the evaluator's clamps and the weighted overall score (pure)."""

from __future__ import annotations

from typing import Any

from masis.judge.citations import CitationAudit

WEIGHTS = {"faithfulness": 0.35, "relevance": 0.25, "completeness": 0.25, "reasoning_quality": 0.15}
SCORE_KEYS = tuple(WEIGHTS)

FAITHFULNESS_CAP_HALLUCINATION = 0.40
FAITHFULNESS_CAP_MANY_UNCITED = 0.30  # at >= 10 uncited sentences
FAITHFULNESS_CAP_SOME_UNCITED = 0.50  # at >= 5 uncited sentences


def normalize_confidence(value: Any) -> float:
    """A model's confidence as a fraction: values above 1 are percentages; the result is in [0, 1]."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    if number != number:  # NaN
        return 0.0
    if number > 1.0:
        number /= 100.0
    return max(0.0, min(1.0, number))


def overall_score(scores: dict[str, float]) -> float:
    return round(sum(weight * normalize_confidence(scores.get(key, 0.0)) for key, weight in WEIGHTS.items()), 4)


def clamp_evaluation(
    scores: dict[str, Any], citation_audit: CitationAudit, hallucination: bool = False
) -> dict[str, Any]:
    """Normalise the four scores, cap faithfulness when the citations say the answer is not grounded,
    and recompute the overall score from the weights (a model's own overall score is never trusted)."""
    clamped: dict[str, Any] = {key: normalize_confidence(scores.get(key, 0.0)) for key in SCORE_KEYS}
    uncited = len(citation_audit.uncited_sentences)
    cap = 1.0
    if hallucination or citation_audit.hallucination:
        cap = min(cap, FAITHFULNESS_CAP_HALLUCINATION)
    if uncited >= 10:
        cap = min(cap, FAITHFULNESS_CAP_MANY_UNCITED)
    elif uncited >= 5:
        cap = min(cap, FAITHFULNESS_CAP_SOME_UNCITED)
    clamped["faithfulness"] = min(clamped["faithfulness"], cap)
    clamped["overall_score"] = overall_score(clamped)
    if "reasoning" in scores:
        clamped["reasoning"] = str(scores["reasoning"])
    return clamped
