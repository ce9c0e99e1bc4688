"""The separation benchmarks' helpers on hand-made records: the text they score and the figures they print.
(They print figures; nothing here asserts a timing.)"""

from __future__ import annotations

import sys

import numpy as np

from ..conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import bench_frozen_reader_head as head
import bench_reader_separation as separation

RECORDS = [
    {"id": "q1", "question": "When was the release?", "status": "answered", "part": "answerable", "verdict": "right",
     "confidence": 0.9, "answer": "It shipped on 2 May 2024 [notes.md#1]. Builds are weekly [notes.md#2]."},
    {"id": "q2", "question": "Who wrote it?", "status": "answered", "part": "unanswerable", "verdict": "wrong",
     "confidence": 0.95, "answer": "The team maintains it [notes.md#3]."},
    {"id": "q3", "question": "What is the default?", "status": "needs_clarification", "part": "answerable",
     "verdict": "asked_back", "confidence": 0.3, "answer": "The documents do not say."},
]  # fmt: skip


def test_the_scored_answer_is_the_shown_claims_without_their_markers() -> None:
    assert separation.shown_answer(RECORDS[0]) == "It shipped on 2 May 2024 Builds are weekly"
    assert separation.shown_answer({"answer": None}) == ""


def test_the_report_holds_each_score_and_the_confidence_thresholds() -> None:
    figures = separation.report(RECORDS, {"confidence (anchor)": lambda r: r["confidence"]})
    anchor = figures["confidence (anchor)"]
    assert (anchor["right"], anchor["wrong_answerable"], anchor["wrong_unanswerable"]) == (1, 0, 1)
    assert anchor["auc"] == 0.0  # the wrong answer had the higher confidence
    assert figures["confidence_at_or_above"]["0.9"] == {"answered": 2, "right": 0.5}


def test_the_head_learns_a_separable_pair_feature_and_scores_by_it() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 3))
    y = (x[:, 0] > 0).astype(float)
    scores = head.Head(x, y, ridge=1.0).score(x)
    assert ((scores > 0.5) == (y == 1)).mean() > 0.95
    u = np.array([1.0, 0.0])
    assert head.features(u, u).tolist() == [1.0, 0.0, 0.0, 0.0, 1.0]  # u·v, |u−v|, cosine
