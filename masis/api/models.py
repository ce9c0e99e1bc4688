"""What the HTTP API reads and writes: request bodies, response bodies, and the ids in its paths.

Request models forbid unknown fields, so a typo (`"question"` for `"query"`) is a 422 that names the field
instead of a silently empty request.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from masis.ingest.pipeline import FileResult
from masis.outcome import Citation, ClarificationKind, Outcome
from masis.records.registry import DocumentInfo
from masis.store.base import WORKSPACE_ID as WORKSPACE_ID  # one rule for every face: the engine's own

# Workspace and thread ids are chosen by the caller. Slack's own ids fit ("T1:C1", "T1:C1:1700000000.0001"),
# so an API workspace "T1:C1" is the Slack channel C1's workspace.
THREAD_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}$")
CHOICE = re.compile(r"^(accept|cancel|source:.+|about:.+)$")
VOTER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}$")  # an id, as Slack's user ids are

ThreadId = Annotated[str, StringConstraints(pattern=THREAD_ID.pattern)]


class AskRequest(BaseModel):
    """A new question in a workspace."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=4000, description="The question.")
    max_retries: int | None = Field(
        None, ge=0, le=5, strict=True,
        description="Retries after a poor audit (default: MASIS_MAX_RETRIES, else 2 with a model, 0 offline).",
    )
    thread_id: ThreadId | None = Field(
        None,
        description="Your id for the conversation (letters, digits and `._:@-`, up to 200). Default: a new one, "
        "returned in the response; use it to reply to a clarification. A question asked in a thread that had "
        "questions is read in their context (a follow-up: `reading` says how).",
    )

    @field_validator("query")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question is empty")
        return value.strip()


class ReplyRequest(BaseModel):
    """The answer to a pending clarification: free text, or one of its choices."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = Field(None, min_length=1, max_length=4000, description="A clarification in your words.")
    choice: Annotated[str, StringConstraints(pattern=CHOICE.pattern, max_length=300)] | None = Field(
        None, description="`accept` (use the unverified draft), `cancel`, `source:<document>` (trust one source), "
        "or `about:<option>` (what a follow-up's unclear word means, for an `unclear_reference`)."
    )
    round: int | None = Field(
        None, ge=1, strict=True,
        description="The clarification round this reply answers (`clarification_round` of the outcome, "
        "`pending.round` of the thread). Optional; when given and another round is pending now (another reply "
        "got there first) or nothing is, the reply is refused with 409 and changes nothing."
    )

    @field_validator("text")
    @classmethod
    def _text_not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("the reply is empty")
        return value

    @model_validator(mode="after")
    def _exactly_one(self) -> ReplyRequest:
        if (self.text is None) == (self.choice is None):
            raise ValueError("send exactly one of 'text' or 'choice'")
        return self


class FeedbackRequest(BaseModel):
    """👍 / 👎 on one answer of a thread."""

    model_config = ConfigDict(extra="forbid")

    value: Literal["up", "down"] = Field(description="`up` (👍) or `down` (👎).")
    run: int | None = Field(
        None, ge=1, strict=True,  # strict: `true` is not answer 1
        description="Which answer of the thread: the `run` of its response. Default: the latest. Only an answer "
        "can be rated: a clarifying question's unverified draft, or a cancelled question, is a 409.",
    )
    user: str = Field("api", pattern=VOTER.pattern,
                      description="Who votes (1-100 letters, digits and ._:@-); a later vote by the same user on "
                      "the same answer replaces theirs.")


class FeedbackResult(BaseModel):
    thread_id: str
    run: int = Field(description="The answer voted on.")
    up: int = Field(description="👍 votes on this answer, all users.")
    down: int = Field(description="👎 votes on this answer, all users.")


class ApiOutcome(BaseModel):
    """The MASIS design's response: an answer, or a question back, with the audit behind it."""

    status: Literal["success", "needs_clarification", "cancelled"]
    thread_id: str
    workspace_id: str
    run: int = Field(description="Which question of the thread this answers (1 = the first); feedback names it.")
    question: str
    reading: str | None = Field(
        None, description="How a follow-up was read in its thread (\"How much will the Falcon X2 cost?\" for \"How "
        "much will it cost?\"), when that differs from `question`; null when read as typed."
    )
    answer: str | None = Field(
        description="The answer with `[chunk_id]` citations; while a clarification is pending, the best "
        "(unverified) draft so far. Null only when there is no draft or the thread was cancelled."
    )
    confidence: float | None
    requires_human_review: bool
    clarification_question: str | None
    clarification_kind: ClarificationKind | None
    clarification_options: list[str] = Field(
        description="For a conflict: the documents you can trust (`source:<option>`); for an unclear reference: "
        "what the follow-up may be about (`about:<option>`)."
    )
    clarification_round: int | None = Field(
        description="The pending clarification's round (1, 2, …); send it back as `round` in the reply."
    )
    citations: list[Citation]
    critique: dict[str, Any] | None
    evaluation: dict[str, Any] | None
    warning: str | None
    trace: list[dict[str, Any]]
    metrics: dict[str, Any]

    @classmethod
    def from_outcome(cls, outcome: Outcome) -> ApiOutcome:
        clarification = outcome.clarification
        return cls(
            status="success" if outcome.status == "answered" else outcome.status,
            thread_id=outcome.thread_id,
            workspace_id=outcome.workspace_id,
            run=outcome.run,
            question=outcome.question,
            reading=outcome.reading,
            answer=outcome.answer,
            confidence=outcome.confidence,
            requires_human_review=outcome.requires_human_review,
            clarification_question=clarification.question if clarification else None,
            clarification_kind=clarification.kind if clarification else None,
            clarification_options=list(clarification.options) if clarification else [],
            clarification_round=clarification.round if clarification else None,
            citations=outcome.citations,
            critique=outcome.critique,
            evaluation=outcome.evaluation,
            warning=outcome.warning,
            trace=outcome.trace,
            metrics=outcome.metrics,
        )


class PendingClarification(BaseModel):
    kind: ClarificationKind
    question: str
    options: list[str]
    draft: str | None
    round: int


class ThreadState(BaseModel):
    thread_id: str
    workspace_id: str
    pending: PendingClarification | None = Field(description="The clarification waiting for a reply, if any.")


class DocumentList(BaseModel):
    """A workspace's documents; `masis docs --json` prints the same object."""

    workspace_id: str
    documents: list[DocumentInfo]  # the registry's own type: one definition for the API, the CLI and the engine


class FileOutcome(BaseModel):
    name: str
    status: Literal["indexed", "unchanged", "failed"]
    chunks: int
    pages: int | None
    reason: str | None = Field(description="Why the file failed; null otherwise.")

    @classmethod
    def from_result(cls, result: FileResult) -> FileOutcome:
        return cls(name=result.name, status=result.status, chunks=result.chunks, pages=result.pages,
                   reason=result.reason)


class IngestResponse(BaseModel):
    workspace_id: str
    results: list[FileOutcome] = Field(description="One entry per file; each succeeds or fails on its own.")


class Removed(BaseModel):
    workspace_id: str
    removed: str


class Readiness(BaseModel):
    ready: bool
    checks: dict[str, str] = Field(description="`ok`, or why the part is not reachable.")
    encoder: str = Field(description="The local sentence encoder: `ok`, `off (MASIS_SEMANTIC=false)`, or why it is "
                         "not in use (not installed, damaged weights); relevance is then judged from the words "
                         "alone. It never makes the server unready.")


class ErrorBody(BaseModel):
    error: str = Field(description="What went wrong and what to do about it.")
    detail: Any = Field(None, description="Structured detail: the validation errors, the per-file results, …")
