"""The role-level protocol the agents call (the audit roles return `masis.judge.findings` types)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Protocol

from masis.judge.findings import Critique, Evaluation, Relatedness
from masis.judge.reading import Earlier, Reading
from masis.state import EvidenceChunk


class LLMProvider(Protocol):
    """What the agents need from a language model, one method per role."""

    name: str
    compression_uses_model: bool
    reading_uses_model: bool
    audit_uses_model: bool  # the critic is a model, whose findings are checked against the draft (judge.dismissal)

    def read_in_context(
        self,
        question: str,
        earlier: Sequence[Earlier],
        antecedent: str | None = None,
        names: Sequence[str] = (),
        tools: AbstractSet[str] = frozenset(),
    ) -> Reading:
        """The question read in the context of the thread's earlier turns (oldest first): a standalone question,
        whether it depended on them, and, when they do not settle what a word refers to, the candidates. With
        `antecedent`, the user's answer to "which one do you mean?"; `names`, the products the workspace's
        documents are named after; `tools`, the tools and packages they are named after (`masis.judge.names`)."""
        ...

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
