"""The graph's state and its input. What a run returns to the faces is `masis.outcome`."""

from __future__ import annotations

import operator
from typing import Annotated, Any, NotRequired, TypedDict

from pydantic import BaseModel, Field, field_validator

from masis.outcome import OutcomeStatus
from masis.storable import unstorable


class EvidenceChunk(TypedDict):
    chunk_id: str
    doc_name: str
    text: str
    page: int | None
    section: str | None
    relevance: float  # in [0, 1]: what the 0.60 / 0.55 thresholds apply to
    score: float  # the engine's raw ranking score
    # the question's terms the chunk's heading or document holds outside its text: the context a quote from
    # it is read in ("the board of Kestrel Labs" on the minutes' first page, the "Fleet" heading)
    context_terms: NotRequired[list[int]]
    # its document's title (a Markdown file's H1, a Word file's Title) when the passage's own heading is another:
    # "Customers" under "Kestrel Labs Quarterly Report: Q3 2026" is read as about Q3 2026
    title: NotRequired[str | None]


class Draft(TypedDict):
    """An answer the synthesizer wrote, with the audit's verdict once it has one."""

    answer: str
    confidence: float
    evaluation: dict[str, Any] | None
    critique: dict[str, Any] | None
    evidence: list[EvidenceChunk]
    attempt: int


class Turn(TypedDict):
    """An earlier question of the thread, as a follow-up reads it (`masis.agents.memory`)."""

    question: str  # as typed
    reading: str  # as it was read (the standalone question)
    answer: str | None  # its answer, citations and all; None when it ended without one
    docs: list[str]  # the documents its answer cited
    about: str | None  # what its pronoun was read as, if it had one
    status: str


class MASISState(TypedDict, total=False):
    # --- the question ---------------------------------------------------------------------------
    user_query: str  # exactly what the user asked; never rewritten
    history: list[Turn]  # the thread's earlier questions, oldest first (same thread, same workspace only)
    reading: str | None  # the question read in the thread's context, when that differs from `user_query`
    reading_about: str | None  # what the question's pronoun was read as
    antecedent: str | None  # the user's answer to "which one do you mean?"
    workspace_id: str
    thread_id: str
    clarifications: Annotated[list[str], operator.add]
    question_start: int  # index into [user_query, *clarifications] where the current question begins
    source_filter: str | None  # restrict retrieval to one document (a conflict's chosen source)
    max_retries: int

    # --- the loop -------------------------------------------------------------------------------
    query: str  # the retrieval query of the current attempt
    attempt: int  # attempts in the current clarification round, 1-based once research ran
    retries: int
    clarification_rounds: int
    candidates_found: int
    evidence: list[EvidenceChunk]
    context: list[EvidenceChunk]  # the evidence the synthesizer saw (compressed when long)
    answer: str
    critique: dict[str, Any] | None
    citation_audit: dict[str, Any] | None
    evaluation: dict[str, Any] | None
    confidence: float
    missing_anchors: list[str]  # the question's exact constraints the last draft's quotes do not hold
    drifted_to: list[str]  # a follow-up's draft quotes only these documents, which its thread never used
    retry_inputs: str | None  # what the last retry sent (query and feedback findings): an identical one is not made
    best_draft: Draft | None
    decision: str
    clarification: dict[str, Any] | None
    status: OutcomeStatus
    requires_human_review: bool
    warning: str | None

    # --- telemetry (accumulated by reducers) ----------------------------------------------------
    trace: Annotated[list[dict[str, Any]], operator.add]
    llm_calls: Annotated[int, operator.add]
    retrieval_calls: Annotated[int, operator.add]
    confidence_history: Annotated[list[float], operator.add]
    retry_reasons: Annotated[list[str], operator.add]
    dismissed_findings: Annotated[list[dict[str, Any]], operator.add]  # a model critic's, not acted on
    latencies_ms: Annotated[list[dict[str, Any]], operator.add]
    token_usage: Annotated[list[dict[str, Any]], operator.add]  # one entry per model request (masis.llm.usage)


class MASISInput(BaseModel):
    """A validated new question; the engine turns it into the graph's first state."""

    user_query: str = Field(min_length=1, max_length=4000)
    workspace_id: str = Field(min_length=1)
    thread_id: str = Field(min_length=1)
    max_retries: int | None = Field(default=None, ge=0, le=5)

    @field_validator("user_query")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("the question is empty")
        if problem := unstorable(value):
            raise ValueError(f"the question contains {problem}")
        return value
