"""What `Engine.ask` and `Engine.reply` return, and every face (CLI, Slack, HTTP) renders: an answer with
its citations, a question back to the user, or a cancellation. Kept apart from the graph's state
(`masis.state`), so the faces depend on the result, not on the graph."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

ClarificationKind = Literal["conflict", "near_miss", "low_confidence", "zero_results", "unclear_reference"]
OutcomeStatus = Literal["answered", "needs_clarification", "cancelled"]


class Citation(BaseModel):
    number: int
    chunk_id: str
    doc_name: str
    page: int | None = None
    section: str | None = None
    text: str


class Clarification(BaseModel):
    kind: ClarificationKind
    question: str
    options: list[str] = Field(default_factory=list)
    draft: str | None = None
    draft_confidence: float | None = None
    draft_evaluation: dict[str, Any] | None = None
    round: int = 1

    def answered_by(self, text: str) -> bool:
        """Whether `text`, a message typed in the thread while this question waits, answers it (True) or is a new
        question (False): `masis.agents.clarify.answers`."""
        # imported here, not above: the agents import masis.state, which imports this module
        from masis.agents.clarify import answers

        return answers(self.kind, self.options, text)


class Outcome(BaseModel):
    """The result of `ask` or `reply`: an answer, a question back to the user, or a cancellation."""

    status: OutcomeStatus
    thread_id: str
    workspace_id: str
    run: int = 1  # which question of the thread this is the outcome of (1 = the first): feedback's key
    question: str = ""
    # how a follow-up was read in its thread ("How much will the Falcon X2 cost?" for "How much will it cost?"),
    # when that differs from `question`; None for a question read as typed
    reading: str | None = None
    answer: str | None = None
    confidence: float | None = None
    citations: list[Citation] = Field(default_factory=list)
    clarification: Clarification | None = None
    evaluation: dict[str, Any] | None = None
    critique: dict[str, Any] | None = None
    requires_human_review: bool = False
    warning: str | None = None
    trace: list[dict[str, Any]] = Field(default_factory=list)
    metrics: dict[str, Any] = Field(default_factory=dict)
