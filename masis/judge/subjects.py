"""The figure asked for is said about the question's subject, not about a neighbour of it.

"How many Protestants are there in the Cévennes?" is not answered by "Approximately one million Protestants in
modern France" quoted beside a sentence that names the Cévennes, nor "How many cores does the Falcon X2 have?" by
"The Heron S1 has 8 cores" quoted after a sentence about the Falcon X2: the passage holds every constraint of the
question, but the sentence that gives the number holds another subject's. A "how many / how much" answer counts only
when a quote that gives the number holds the question's anchors itself — read with the sentence before it when it
leans on it ("It has 8 cores"), its section heading, its document's title and name — not only its passage.
"""

from __future__ import annotations

from collections.abc import Sequence

from masis.judge import anchors
from masis.judge.answer_type import expected_type, gives_type
from masis.judge.quotes import document_title, leans_on_before
from masis.state import EvidenceChunk


def figure_elsewhere(question: str, quotes: Sequence[tuple[str, EvidenceChunk]]) -> list[str]:
    """The question's anchors that no quote giving the number asked for holds in its own reading (the quote, the
    quote before it from the same passage when it leans on it, its heading, its document's title and name); [] when
    the question asks for no number, names no anchor, or no quote gives a number (the type floor's case)."""
    if expected_type(question) != "number" or not (wanted := anchors.anchors(question)):
        return []
    readings: list[str] = []
    for index, (quote, chunk) in enumerate(quotes):
        if not gives_type(quote, "number", question):
            continue
        before = quotes[index - 1]
        leaned = before[0] if index and before[1]["chunk_id"] == chunk["chunk_id"] and leans_on_before(quote) else ""
        name = chunk["doc_name"]
        around = [chunk.get("section") or "", chunk.get("title") or "", name, document_title(name)]
        readings.append("\n".join([leaned, quote, *around]))
    if not readings:
        return []
    return min(([a for a in wanted if not anchors.holds(text, a)] for text in readings), key=len)
