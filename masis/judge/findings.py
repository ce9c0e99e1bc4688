"""What an audit finds: the critique and evaluation every critic and evaluator returns, and its conflicts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, Field, model_validator

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

    @model_validator(mode="before")
    @classmethod
    def _one_side_without_topic(cls, data: Any) -> Any:
        """A conflict written as one of its sides, without a topic (Qwen2.5-Coder-0.5B in function_calling mode:
        {"chunk_id", "doc_name", "value", "sentence"}), is read as that one side: the critic's audit is not lost
        to a missing label, and a conflict with one side is no conflict (`masis.judge.dismissal`)."""
        if isinstance(data, dict) and "topic" not in data:
            if "claims" not in data and "chunk_id" in data:
                return {"topic": "", "claims": [data]}
            return {**data, "topic": ""}
        return data

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
