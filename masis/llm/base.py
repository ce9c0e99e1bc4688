"""The role-level protocol the agents call, and the structured results the audit roles return."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from pydantic import BaseModel, Field

from masis.state import EvidenceChunk

# the question's closeness in meaning to each text, in [0, 1] on the relevance scale (masis.semantic)
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


class LLMProvider(Protocol):
    """What the agents need from a language model, one method per role."""

    name: str
    compression_uses_model: bool

    def synthesize(
        self,
        question: str,
        evidence: Sequence[EvidenceChunk],
        feedback: Critique | None = None,
        relatedness: Relatedness | None = None,
    ) -> str: ...

    def compress(self, question: str, evidence: Sequence[EvidenceChunk], max_chars: int) -> list[EvidenceChunk]: ...

    def critique(
        self,
        question: str,
        answer: str,
        evidence: Sequence[EvidenceChunk],
        term_weights: Mapping[int, float] | None = None,
        relatedness: Relatedness | None = None,
    ) -> Critique:
        """Audit a draft. `term_weights` are the question's terms with their IDF in the workspace (what the
        researcher's relevance score weighs): a provider that scores coverage itself weighs with them.
        `relatedness` measures the question's closeness in meaning to texts (the local sentence encoder), for a
        provider that would otherwise miss an answer given in other words."""
        ...

    def evaluate(
        self, question: str, answer: str, evidence: Sequence[EvidenceChunk], critique: Critique
    ) -> Evaluation: ...
