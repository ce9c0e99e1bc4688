"""Right, wrong or asked back: each answer's verdict, their shares by part, and how well confidence predicts
being right (the calibration table). Pure functions over answer records.

A record is a mapping with at least `verdict` (`right`, `wrong`, `asked_back`, or None when it cannot be
judged) and, for answered questions, `confidence`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

RIGHT, WRONG, ASKED_BACK = "right", "wrong", "asked_back"
VERDICTS = (RIGHT, WRONG, ASKED_BACK)

# The calibration buckets: (label, lowest confidence included, highest excluded); None is open-ended.
BUCKETS: tuple[tuple[str, float | None, float | None], ...] = (
    ("≥ 0.9", 0.9, None),
    ("0.75–0.9", 0.75, 0.9),
    ("0.65–0.75", 0.65, 0.75),
    ("< 0.65", None, 0.65),
)

Record = Mapping[str, Any]


def verdict(status: str, answerable: bool, contains: bool | None) -> str | None:
    """Right = answered with the gold in the shown answer; wrong = answered without it, or answered at all
    when nothing should be; asked back = a clarification. None: cancelled, or no gold to judge by."""
    if status == "needs_clarification":
        return ASKED_BACK
    if status != "answered":
        return None
    if not answerable:
        return WRONG
    if contains is None:
        return None
    return RIGHT if contains else WRONG


def shares(records: Iterable[Record]) -> dict[str, Any]:
    """How many questions were judged and the share of each verdict among them (they sum to 1)."""
    judged = [r["verdict"] for r in records if r.get("verdict") in VERDICTS]
    figures: dict[str, Any] = {"questions": len(judged)}
    for name in VERDICTS:
        figures[name] = round(judged.count(name) / len(judged), 4) if judged else None
    return figures


def shares_by(records: Sequence[Record], key: str, order: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """`shares` of all records, then of each value of `key` (values in `order` first, then as they come)."""
    values = list(dict.fromkeys([*order, *(str(r.get(key, "")) for r in records)]))
    parts = {value: [r for r in records if str(r.get(key, "")) == value] for value in values}
    return {"all": shares(records), **{value: shares(part) for value, part in parts.items() if part}}


def bucket_of(confidence: float | None) -> str:
    value = confidence or 0.0
    for label, low, high in BUCKETS:
        if (low is None or value >= low) and (high is None or value < high):
            return label
    raise AssertionError("the buckets cover every confidence")


def calibration(records: Iterable[Record]) -> list[dict[str, Any]]:
    """Answered (judged) questions by confidence bucket: how many, and the share of them that were right."""
    answered = [r for r in records if r.get("verdict") in (RIGHT, WRONG)]
    rows = []
    for label, _, _ in BUCKETS:
        inside = [r for r in answered if bucket_of(r.get("confidence")) == label]
        right = sum(1 for r in inside if r["verdict"] == RIGHT)
        rows.append(
            {"confidence": label, "answered": len(inside), "right": round(right / len(inside), 4) if inside else None}
        )
    return rows


def right_at(rows: Sequence[Mapping[str, Any]], label: str) -> float | None:
    """The share right in one calibration bucket (None when it is empty)."""
    return next((row["right"] for row in rows if row["confidence"] == label), None)
