"""What a thing does is said by a sentence about it.

"What does Route Optimiser 2.0 do?" and "What does the AI Governance Council look at?" (do, look at, check, cover,
handle, offer, provide, include, review, manage, own) name nothing but their subject, a name: every word the
question is about is the subject's, so any sentence that mentions it holds all of the question ("The board asked
the product team to keep the Route Optimiser 2.0 launch date fixed", "Every production model is reviewed by the AI
Governance Council before launch") and its words cannot tell. What the thing does is said by a sentence whose
subject it is: one that opens with its name ("Route Optimiser 2.0 plans routes for mixed fleets", "The AI
Governance Council checks each model for …"), or one under a heading that names it. When no quote is one, the
quotes mention the thing rather than describe it, and the answer is asked back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from masis.judge.anchors import anchors, parts
from masis.judge.terms import question_terms, terms
from masis.state import EvidenceChunk

# "What does X do?", "What do the AI Governance Council look at?": a what-question about what its subject does
_WHAT_DOES = re.compile(
    r"^\W*what\s+(?:does|do|did|will|would|can|should)\s+(?P<subject>.+?)\s+(?:do|look\s+at|check|cover|handle|offer|"
    r"provide|include|review|manage|own)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
_DETERMINERS = frozenset({"the", "a", "an", "our", "their", "its", "this", "that"})


def _name_parts(text: str) -> list[str]:
    """The text's parts (`anchors.parts`) less the determiners it opens with: "the AI Governance Council" -> ai,
    governance, council."""
    found = parts(text)
    while found and found[0] in _DETERMINERS:
        found = found[1:]
    return found


def _opens_with(text: str, name: list[str]) -> bool:
    return _name_parts(text)[: len(name)] == name


def undescribed(question: str, quotes: Sequence[tuple[str, EvidenceChunk]]) -> str | None:
    """The subject of a "what does X do?" question that names nothing else, when no quote is about it (opens with
    its name, or sits under a heading that opens with it); None otherwise."""
    match = _WHAT_DOES.match(question)
    if match is None or not quotes:
        return None
    subject = match.group("subject")
    name = _name_parts(subject)
    asked = question_terms(question)
    # the subject is a name the question gives (an anchor: "Route Optimiser 2.0", "AI Governance Council"), not a
    # phrase ("What do supportive teachers do?")
    named = {part for anchor in anchors(question) for part in parts(anchor)}
    if not name or not asked or not asked <= terms(subject) or not set(name) <= named:
        return None
    if any(_opens_with(sentence, name) or _opens_with(chunk.get("section") or "", name) for sentence, chunk in quotes):
        return None
    return " ".join(subject.split())
