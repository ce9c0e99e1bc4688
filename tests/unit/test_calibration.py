"""The extractive audit's scale: 0.65 means right about two times in three, on a first draft and on a retry."""

import pytest

from masis.judge.calibration import TOP_MEANING, after_retry, calibrated, close_in_meaning, read_in_context


@pytest.mark.parametrize(("raw", "expected"), [(0.0, 0.0), (0.65, 0.39), (0.75, 0.5633), (0.8214, 0.75), (1.0, 1.0),
                                             (1.4, 1.0)])
def test_raw_scores_map_onto_the_two_in_three_scale(raw: float, expected: float) -> None:
    # the word score's knots put raw 0.75 on 0.65; what lands under 0.75 is then scaled under the threshold
    assert calibrated(raw) == pytest.approx(expected, abs=1e-4)


def test_a_score_read_by_meaning_keeps_its_value() -> None:
    assert calibrated(0.7, by_meaning=True) == 0.7


@pytest.mark.parametrize("raw", [0.75, 0.78, 0.82])
def test_the_band_first_runs_on_unseen_documents_got_wrong_half_the_time_is_asked_back(raw: float) -> None:
    # each documentation set's first run: answers at 0.65-0.75 right 25 times in 44 (tune splits), 5 in 20 (check)
    assert calibrated(raw) < 0.65
    assert calibrated(0.8215) >= 0.75  # from 0.75 the scale is kept


@pytest.mark.parametrize("first_draft_score", [0.66, 0.7, 0.74])
def test_a_retried_answer_in_the_band_that_was_right_half_the_time_is_asked_back(first_draft_score: float) -> None:
    # a first draft at this score is answered; a retried one falls under the 0.65 threshold
    assert first_draft_score >= 0.65 > after_retry(first_draft_score)


@pytest.mark.parametrize(("score", "expected"), [(0.75, 0.65), (0.85, 0.7367), (1.0, 0.8667)])
def test_a_retried_answer_from_075_stays_answered_below_the_top_of_the_scale(score: float, expected: float) -> None:
    assert after_retry(score) == pytest.approx(expected, abs=1e-4)
    assert after_retry(score) < 0.9  # never in the bucket that promises "right 95 times in 100"


@pytest.mark.parametrize("score", [0.7, 0.75, 0.79])
def test_a_rewritten_follow_up_in_the_band_where_the_wrong_readings_sat_is_asked_back(score: float) -> None:
    # "And its capacity?" read as "What is the Falcon X2's capacity?" quoted the X2's price at 0.7-0.8
    assert score >= 0.65 > read_in_context(score)


@pytest.mark.parametrize(("score", "expected"), [(0.8, 0.65), (0.9, 0.75), (1.0, 0.85), (1.3, 0.85), (-0.1, 0.0)])
def test_a_rewritten_follow_up_from_08_is_answered_under_the_top_bucket(score: float, expected: float) -> None:
    # the rules' readings of threads they first met were right 4 times in 8 at 0.9 or more: never "right 95 in 100"
    assert read_in_context(score) == pytest.approx(expected, abs=1e-4)
    assert read_in_context(score) < 0.9


@pytest.mark.parametrize(("raw", "expected"), [(0.85, 0.79), (0.9, 0.8527), (0.95, 0.8713), (0.999, 0.8896)])
def test_a_score_short_of_full_stays_under_the_top_bucket(raw: float, expected: float) -> None:
    # on the documentation tune splits, answers at 0.9-0.999 were right 21 times in 25: no better than at 0.85-0.9
    assert calibrated(raw) == pytest.approx(expected, abs=1e-4)
    assert calibrated(raw, by_meaning=True) < 0.9


def test_squeezing_the_top_keeps_the_order_and_a_full_score() -> None:
    scores = [calibrated(raw / 100) for raw in range(60, 101)]
    assert scores == sorted(scores) and len(set(scores)) == len(scores)
    assert calibrated(1.0) == calibrated(1.0, by_meaning=True) == 1.0


@pytest.mark.parametrize(("confidence", "closeness", "expected"), [
    (1.0, 0.70, 0.89),  # a full score whose closest quote is far in meaning: just under the top bucket
    (1.0, TOP_MEANING, 1.0),
    (0.95, 0.3, 0.89),
    (0.85, 0.3, 0.85),  # under the top bucket nothing moves, so no verdict does
    (0.5, 0.0, 0.5),
])
def test_the_top_bucket_is_for_quotes_close_in_meaning(confidence: float, closeness: float, expected: float) -> None:
    # documentation tune splits: full scores with the closest quote's cosine under 0.60 right 54 in 59, else 203 in 205
    assert close_in_meaning(confidence, closeness) == expected
