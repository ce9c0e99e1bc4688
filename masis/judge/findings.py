"""What an audit finds: the critique and evaluation every critic and evaluator returns, and its conflicts."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel, Field

# the question's closeness in meaning to each text, in [0, 1] on the relevance scale (masis.judge.semantic)
Relatedness = Callable[[Sequence[str]], list[float]]


class ConflictClaim(BaseModel):
    chunk_id: str
    doc_name: str
    value: str
    sentence: str


class Conflict(BaseModel):
    topic: str = Field(description="What the sources disagree about")
    claims: list[ConflictClaim] = Field(default_factory=list)

    @property
    def documents(self) -> list[str]:
        return list(dict.fromkeys(claim.doc_name for claim in self.claims))


class Critique(BaseModel):
    """The critic's audit of a draft, judged only against the evidence."""

    hallucination_detected: bool = False
    unsupported_claims: list[str] = Field(default_factory=list)
    logical_gaps: list[str] = Field(default_factory=list)
    conflicts: list[Conflict] = Field(default_factory=list)
    confidence: float = Field(0.0, description="0..1 (values above 1 are read as percent)")
    needs_retry: bool = False
    reasoning: str = ""


class Evaluation(BaseModel):
    """The evaluator's four scores (0..1); the overall score is computed, never taken from a model."""

    faithfulness: float = 0.0
    relevance: float = 0.0
    completeness: float = 0.0
    reasoning_quality: float = 0.0
    reasoning: str = ""
