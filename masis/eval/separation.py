"""How well a score tells right answers from wrong ones: AUC, and the share right among the answers it ranks highest.

Pure functions over answer records (`masis eval ... --records FILE`): a record counts when it was answered and
judged (`verdict` right or wrong). Wrong answers come in two kinds, kept apart because a checker may catch one and
miss the other: a wrong answer to a question the documents answer (`part` answerable) and any answer to a question
they do not (`part` unanswerable: SQuAD 2.0's unanswerable half, the real-documentation near misses)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from masis.eval.verdicts import RIGHT, WRONG

Record = Mapping[str, Any]
TOP_SHARES = (0.25, 0.5, 0.75, 1.0)


def auc(positives: Sequence[float], negatives: Sequence[float]) -> float | None:
    """The chance that a random right answer scores above a random wrong one (ties count half): 0.5 is no
    separation, 1.0 a perfect one. None when either side is empty."""
    if not positives or not negatives:
        return None
    above = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in positives for n in negatives)
    return above / (len(positives) * len(negatives))


def auc_standard_error(value: float, positives: int, negatives: int) -> float:
    """Hanley & McNeil's (1982) standard error of an AUC from `positives` and `negatives` examples: how far apart
    two AUCs on the same few records must be before the difference means anything."""
    q1 = value / (2 - value)
    q2 = 2 * value * value / (1 + value)
    variance = (
        value * (1 - value) + (positives - 1) * (q1 - value * value) + (negatives - 1) * (q2 - value * value)
    ) / (positives * negatives)
    return math.sqrt(max(variance, 0.0))


def right_among_top(scored: Sequence[tuple[float, bool]], share: float) -> float | None:
    """The share right among the `share` of answers with the highest scores (at least one answer; ties at the cut
    are all kept, so the score alone decides)."""
    if not scored:
        return None
    ranked = sorted(scored, key=lambda pair: pair[0], reverse=True)
    cut = ranked[max(1, math.ceil(share * len(ranked))) - 1][0]
    kept = [right for value, right in ranked if value >= cut]
    return sum(kept) / len(kept)


def judged_answers(records: Iterable[Record]) -> list[Record]:
    """The answered records with a verdict (right or wrong)."""
    return [r for r in records if r.get("status") == "answered" and r.get("verdict") in (RIGHT, WRONG)]


def separation(records: Iterable[Record], score: Callable[[Record], float]) -> dict[str, Any]:
    """How well `score` separates the right answers among `records` from the wrong ones: counts, AUC against all
    wrong answers (with its standard error) and against each kind, and the share right among the top-scored."""
    judged = judged_answers(records)
    values = {id(r): float(score(r)) for r in judged}
    right = [values[id(r)] for r in judged if r["verdict"] == RIGHT]
    wrong = [r for r in judged if r["verdict"] == WRONG]
    wrong_answerable = [values[id(r)] for r in wrong if r.get("part") == "answerable"]
    wrong_unanswerable = [values[id(r)] for r in wrong if r.get("part") != "answerable"]
    overall = auc(right, wrong_answerable + wrong_unanswerable)
    scored = [(values[id(r)], r["verdict"] == RIGHT) for r in judged]
    return {
        "right": len(right),
        "wrong_answerable": len(wrong_answerable),
        "wrong_unanswerable": len(wrong_unanswerable),
        "auc": _round(overall),
        "auc_se": _round(
            auc_standard_error(overall, len(right), len(wrong)) if overall is not None else None
        ),
        "auc_vs_wrong_answerable": _round(auc(right, wrong_answerable)),
        "auc_vs_answered_unanswerable": _round(auc(right, wrong_unanswerable)),
        **{f"right_top_{round(share * 100)}pct": _round(right_among_top(scored, share)) for share in TOP_SHARES},
    }


def right_at_or_above(records: Iterable[Record], key: str, threshold: float) -> dict[str, Any]:
    """How many judged answers have `key` ≥ `threshold`, and the share of them right."""
    above = [r for r in judged_answers(records) if float(r.get(key) or 0.0) >= threshold]
    right = sum(1 for r in above if r["verdict"] == RIGHT)
    return {"answered": len(above), "right": _round(right / len(above)) if above else None}


def _round(value: float | None) -> float | None:
    return round(value, 4) if value is not None else None
