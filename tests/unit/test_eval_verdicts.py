"""Right / wrong / asked back and the calibration table, on hand-made records (the figures in comments)."""

from __future__ import annotations

import pytest

from masis.eval import verdicts as v
from masis.eval.runner import check_targets, verdict_figures


def test_a_verdict_needs_the_gold_in_an_answer_and_nothing_answered_when_nothing_should_be() -> None:
    assert v.verdict("answered", answerable=True, contains=True) == "right"
    assert v.verdict("answered", answerable=True, contains=False) == "wrong"
    assert v.verdict("answered", answerable=False, contains=None) == "wrong"  # a near miss answered at all
    assert v.verdict("answered", answerable=False, contains=True) == "wrong"  # a withheld source's gold is no excuse
    assert v.verdict("needs_clarification", answerable=True, contains=False) == "asked_back"
    assert v.verdict("needs_clarification", answerable=False, contains=None) == "asked_back"
    assert v.verdict("answered", answerable=True, contains=None) is None  # no gold to judge by (SciFact)
    assert v.verdict("cancelled", answerable=True, contains=False) is None


RECORDS = [
    {"part": "answerable", "kind": "factual", "verdict": "right", "confidence": 0.95},
    {"part": "answerable", "kind": "factual", "verdict": "wrong", "confidence": 0.9},  # the bucket's lower edge
    {"part": "answerable", "kind": "chatty", "verdict": "right", "confidence": 0.8},
    {"part": "answerable", "kind": "chatty", "verdict": "asked_back", "confidence": 0.5},
    {"part": "unanswerable", "kind": "near_miss", "verdict": "wrong", "confidence": 0.7},
    {"part": "unanswerable", "kind": "near_miss", "verdict": "asked_back", "confidence": None},
    {"part": "answerable", "kind": "factual", "verdict": None, "confidence": 1.0},  # not judged: left out
    {"part": "answerable", "kind": "factual", "verdict": "right", "confidence": None},  # answered, no confidence
]


def test_shares_sum_to_one_over_the_judged_records_by_part_and_kind() -> None:
    by_part = v.shares_by(RECORDS, "part", ("answerable", "unanswerable"))
    assert by_part["all"] == {"questions": 7, "right": round(3 / 7, 4), "wrong": round(2 / 7, 4),
                              "asked_back": round(2 / 7, 4)}  # fmt: skip
    assert by_part["answerable"] == {"questions": 5, "right": 0.6, "wrong": 0.2, "asked_back": 0.2}
    assert by_part["unanswerable"] == {"questions": 2, "right": 0.0, "wrong": 0.5, "asked_back": 0.5}
    for figures in by_part.values():
        assert figures["right"] + figures["wrong"] + figures["asked_back"] == pytest.approx(1.0, abs=1e-3)
    assert list(v.shares_by(RECORDS, "kind")) == ["all", "factual", "chatty", "near_miss"]
    assert v.shares([]) == {"questions": 0, "right": None, "wrong": None, "asked_back": None}


def test_calibration_buckets_hold_every_answered_question_once() -> None:
    rows = v.calibration(RECORDS)
    assert rows == [
        {"confidence": "≥ 0.9", "answered": 2, "right": 0.5},  # 0.95 right, 0.9 wrong
        {"confidence": "0.75–0.9", "answered": 1, "right": 1.0},
        {"confidence": "0.65–0.75", "answered": 1, "right": 0.0},  # the near miss answered at 0.7
        {"confidence": "< 0.65", "answered": 1, "right": 1.0},  # no confidence reads as 0
    ]
    answered = sum(1 for r in RECORDS if r["verdict"] in ("right", "wrong"))
    assert sum(row["answered"] for row in rows) == answered == 5
    assert v.bucket_of(0.75) == "0.75–0.9" and v.bucket_of(0.6499) == "< 0.65" and v.bucket_of(1.0) == "≥ 0.9"


def test_verdict_figures_and_the_realdocs_targets_including_an_upper_bound() -> None:
    figures = verdict_figures(RECORDS)
    assert set(figures["verdicts"]) == {"all", "answerable", "unanswerable", "factual", "chatty", "near_miss"}
    assert figures["calibration_right"]["≥ 0.9"] == 0.5
    checks = check_targets({"dataset": "realdocs-check", **figures})
    assert [(c["target"], c["value"], c["met"]) for c in checks] == [
        ("answerable: right ≥ 80 %", 0.6, False),
        ("near misses asked back ≥ 80 %", 0.5, False),
        ("wrong ≤ 5 % of all questions", round(2 / 7, 4), False),
        ("answers at confidence ≥ 0.9: right ≥ 95 %", 0.5, False),
    ]
    perfect = [{"part": "answerable", "kind": "factual", "verdict": "right", "confidence": 0.95}] * 19 + [
        {"part": "unanswerable", "kind": "near_miss", "verdict": "asked_back", "confidence": 0.4}
    ]
    assert all(c["met"] for c in check_targets({"dataset": "realdocs-check", **verdict_figures(perfect)}))
    squad2 = {"dataset": "squad2", "open_book": {"masis": {"refused": 0.6, "containment": 0.79}}}
    assert [c["met"] for c in check_targets(squad2)] == [True, False]
