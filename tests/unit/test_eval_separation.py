"""AUC and the share right among the top-scored answers, on hand-made records (the figures in comments)."""

from __future__ import annotations

import pytest

from masis.eval import separation as s

RECORDS = [
    {"id": "a", "status": "answered", "part": "answerable", "verdict": "right", "confidence": 0.95},
    {"id": "b", "status": "answered", "part": "answerable", "verdict": "right", "confidence": 0.7},
    {"id": "c", "status": "answered", "part": "answerable", "verdict": "wrong", "confidence": 0.9},
    {"id": "d", "status": "answered", "part": "unanswerable", "verdict": "wrong", "confidence": 0.6},
    {"id": "e", "status": "answered", "part": "unanswerable", "verdict": "wrong", "confidence": 0.6},
    {"id": "f", "status": "needs_clarification", "part": "answerable", "verdict": "asked_back", "confidence": 0.99},
    {"id": "g", "status": "answered", "part": "answerable", "verdict": None, "confidence": 1.0},  # not judged
]


def test_auc_counts_the_pairs_a_right_answer_wins_and_ties_as_half() -> None:
    assert s.auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert s.auc([0.1], [0.9]) == 0.0
    assert s.auc([0.5], [0.5]) == 0.5
    assert s.auc([0.95, 0.7], [0.9, 0.6, 0.6]) == pytest.approx(5 / 6)  # 0.7 loses only to 0.9
    assert s.auc([], [0.3]) is None and s.auc([0.3], []) is None


def test_the_standard_error_shrinks_with_more_records_and_vanishes_at_a_perfect_split() -> None:
    few, many = s.auc_standard_error(0.6, 10, 10), s.auc_standard_error(0.6, 100, 100)
    assert many < few
    assert few == pytest.approx(0.1291, abs=1e-4)  # √((0.24 + 9·(0.4286 − 0.36) + 9·(0.45 − 0.36)) / 100)
    assert s.auc_standard_error(1.0, 30, 30) == 0.0


def test_right_among_top_keeps_ties_at_the_cut_and_at_least_one_answer() -> None:
    scored = [(0.9, True), (0.8, False), (0.8, True), (0.1, False)]
    assert s.right_among_top(scored, 0.25) == 1.0  # the 0.9 alone
    assert s.right_among_top(scored, 0.5) == pytest.approx(2 / 3)  # 0.9 and both 0.8s
    assert s.right_among_top(scored, 1.0) == 0.5
    assert s.right_among_top(scored, 0.01) == 1.0
    assert s.right_among_top([], 0.5) is None


def test_separation_reads_only_judged_answers_and_splits_the_wrong_ones_by_part() -> None:
    figures = s.separation(RECORDS, lambda r: r["confidence"])
    assert figures["right"] == 2 and figures["wrong_answerable"] == 1 and figures["wrong_unanswerable"] == 2
    assert figures["auc"] == round(5 / 6, 4)
    assert figures["auc_vs_wrong_answerable"] == 0.5  # 0.95 beats 0.9, 0.7 does not
    assert figures["auc_vs_answered_unanswerable"] == 1.0
    assert figures["right_top_25pct"] == 0.5  # the top 2 of 5 (a quarter, rounded up): 0.95 right, 0.9 wrong
    assert figures["right_top_50pct"] == round(2 / 3, 4)  # the top 3: 0.95, 0.9, 0.7
    assert figures["right_top_100pct"] == 0.4
    assert 0 < figures["auc_se"] < 0.5


def test_right_at_or_above_a_confidence() -> None:
    assert s.right_at_or_above(RECORDS, "confidence", 0.65) == {"answered": 3, "right": round(2 / 3, 4)}
    assert s.right_at_or_above(RECORDS, "confidence", 0.99) == {"answered": 0, "right": None}
