"""A model critic's findings read against the draft they are about (issue 23).

A small model's critic names text the draft does not hold: Qwen2.5-Coder-0.5B flagged the memo's heading "AI
Investment Strategy FY2026" as an unsupported claim of a draft that never wrote it, and each such finding forced
a retry of a right draft (and went back to the synthesizer as feedback, which the model copied as its answer).
Before the floors run, each finding of a *model* critic is checked here, deterministically:

- an unsupported claim is acted on only when it names a sentence of the draft (quotes it, in part or whole, or
  holds most of one sentence's words) that is not its cited passage's own words;
- a conflict only when its sides are passages of at least two documents of the evidence;
- the hallucination flag only when a cited id is not in the evidence or an unsupported claim stands;
- a retry request, or a confidence under the threshold, only when some finding stands (a gap, a claim, a
  conflict, a hallucination): a verdict that names nothing wrong with the draft is not a reason to rewrite it.

A finding that fails its check is dismissed and recorded (`metrics.dismissed_findings`), never silently dropped.
Nothing here touches the floors (`masis.judge.grounding.apply` runs after, unchanged, and adds its own findings),
nor cites anything: a sentence no passage supports stays as unsupported as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from masis.judge.citations import CITATION, CitationAudit, answer_sentences, strip_citations
from masis.judge.findings import Critique
from masis.judge.grounding import quotes_passage
from masis.judge.scoring import normalize_confidence
from masis.state import EvidenceChunk

HELD_SHARE = 0.8  # a finding names a sentence holding at least this share of its words
# a citation as a model writes it inside a finding: "[doc.md#2]" or "(doc.md#2)"
_WRITTEN_ID = re.compile(r"[\[(][^\[\]()\n]{0,120}#[^\[\]()\n]{0,40}[\])]")
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Dismissed:
    """One finding of a model critic that MASIS did not act on, and why."""

    kind: str  # "unsupported_claim" | "conflict" | "hallucination" | "needs_retry" | "confidence"
    text: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "text": self.text, "reason": self.reason}


def _words(text: str) -> list[str]:
    return _WORD.findall(_WRITTEN_ID.sub(" ", strip_citations(text)).lower())


def named_sentences(finding: str, answer: str) -> list[str]:
    """The draft's sentences a finding names: one it quotes (in part or whole, several in a row too), or one that
    holds at least `HELD_SHARE` of the finding's words."""
    said = _words(finding)
    if not said:
        return []
    text = f" {' '.join(said)} "
    named: list[str] = []
    for sentence in answer_sentences(answer):
        words = _words(sentence)
        if not words:
            continue
        own = f" {' '.join(words)} "
        share = len(set(said) & set(words)) / len(set(said))
        if own in text or text in own or share >= HELD_SHARE:
            named.append(sentence)
    return named


def _quoted_from_its_sources(sentence: str, by_id: dict[str, EvidenceChunk]) -> bool:
    """True when the sentence is, word for word, a passage it validly cites."""
    claim = strip_citations(sentence)
    return any(quotes_passage(claim, by_id[chunk_id]) for chunk_id in CITATION.findall(sentence) if chunk_id in by_id)


def dismiss(
    critique: Critique,
    answer: str,
    evidence: Sequence[EvidenceChunk],
    audit: CitationAudit,
    threshold: float,
) -> tuple[Critique, list[Dismissed]]:
    """The model critique with the findings the draft does not hold taken out, and those findings."""
    by_id = {chunk["chunk_id"]: chunk for chunk in evidence}
    update = critique.model_copy(deep=True)
    dismissed: list[Dismissed] = []

    kept_claims: list[str] = []
    for claim in critique.unsupported_claims:
        named = named_sentences(claim, answer)
        if not named:
            dismissed.append(Dismissed("unsupported_claim", claim, "the draft holds no such sentence"))
        elif all(_quoted_from_its_sources(sentence, by_id) for sentence in named):
            dismissed.append(Dismissed("unsupported_claim", claim, "the draft quotes it from the passage it cites"))
        else:
            kept_claims.append(claim)
    update.unsupported_claims = kept_claims

    kept_conflicts = []
    for conflict in critique.conflicts:
        documents = {claim.doc_name for claim in conflict.claims if claim.chunk_id in by_id}
        if len(documents) >= 2:
            kept_conflicts.append(conflict)
        else:
            dismissed.append(
                Dismissed("conflict", conflict.topic or conflict.model_dump_json(),
                          "its sides are not passages of two documents of the evidence")
            )
    update.conflicts = kept_conflicts

    if update.hallucination_detected and not audit.invalid_ids and not kept_claims:
        update.hallucination_detected = False
        dismissed.append(
            Dismissed("hallucination", critique.reasoning,
                      "every cited id is in the evidence and no unsupported sentence of the draft is named")
        )

    stands = bool(kept_claims or kept_conflicts or update.logical_gaps or update.hallucination_detected)
    if not stands:
        if update.needs_retry:
            update.needs_retry = False
            dismissed.append(Dismissed("needs_retry", critique.reasoning, "no finding about the draft stands"))
        confidence = normalize_confidence(update.confidence)
        if confidence < threshold:
            update.confidence = threshold
            dismissed.append(
                Dismissed("confidence", f"{confidence:.2f}", f"no finding about the draft stands; read as {threshold}")
            )
    return update, dismissed
