"""Thread memory: the earlier questions of a thread, carried from one run's checkpointed state into the next.

Each question in a thread is a graph run of its own (`masis.records.registry.run_key_of`). A new run starts with
the `history` of the previous run plus the previous run itself, read from the previous run's last checkpoint, so
the memory lives where the graph's state lives (SQLite, or PostgreSQL for several replicas), survives restarts,
and outlives `masis gc`, which prunes only runs before the latest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from masis.judge.citations import cited_documents
from masis.judge.reading import Earlier
from masis.state import Turn

MAX_TURNS = 4  # earlier questions a thread remembers
MAX_ANSWER_CHARS = 1500  # of each remembered answer


def remembered(values: Mapping[str, Any], workspace_id: str) -> list[Turn]:
    """The turns a new question in the thread reads: the previous run's history and the previous run itself. Only
    a run of the same workspace counts (a thread never moves, but its memory is checked all the same)."""
    if not values or values.get("workspace_id") != workspace_id or not values.get("user_query"):
        return []
    return [*(values.get("history") or []), turn_of(values)][-MAX_TURNS:]


def turn_of(values: Mapping[str, Any]) -> Turn:
    """A finished (or paused, or cancelled) run as a turn: what was asked, how it was read, what was answered."""
    status = str(values.get("status") or "")
    answer = values.get("answer") if status == "answered" else None
    docs = cited_documents(answer or "", values.get("context") or [])
    question = str(values["user_query"])
    return Turn(
        question=question,
        reading=str(values.get("reading") or question),
        answer=answer[:MAX_ANSWER_CHARS] if answer else None,
        docs=docs,
        about=values.get("reading_about"),
        status=status or "interrupted",
    )


def earlier(history: Sequence[Turn]) -> list[Earlier]:
    """The turns as the reading rules take them."""
    return [Earlier(t["question"], t["reading"], t.get("answer") or "", t.get("about")) for t in history]
