"""The relevance score in [0, 1] that the 0.60 / 0.55 thresholds apply to (BM25-only retrieval).

BM25 scores rank well but have no fixed scale, so a threshold on them means nothing across questions
or workspaces. MASIS ranks with BM25 and then scores each candidate by **IDF-weighted query-term
coverage**: the share of the question's information (each distinct stemmed term weighted by its
inverse document frequency in this workspace) that the chunk contains.

    relevance(chunk) = Σ idf(t) for question terms t in the chunk  /  Σ idf(t) for all question terms

A chunk holding every meaningful word of the question scores 1.0; one that shares only a common word
scores near 0; a question about something no document mentions scores 0 everywhere, so off-topic
questions fall to zero results. A term absent from the workspace weighs as much as its rarest
present term (df counted as 1): it still counts against every chunk (a question about "cafeteria
menu" is not answered from a chunk that merely mentions "menu"), but in a channel with one or two
documents it does not outweigh everything the chunk does match.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from collections.abc import Set as AbstractSet

# Below this cosine (the sentence encoder's) a passage is about something else, whatever words it shares with the
# question ("Where is this housing style being developed?" / "the formal style of Prayers in the House of Commons").
SEMANTIC_FLOOR = 0.2
# A passage whose words clear the threshold by this much is not read by the sentence encoder. Measured, not proven:
# on the quality tracks (realdocs tune, SQuAD 2.0 and open-book seed 0, conversations tune, sample: 1,529 passages
# read) no passage that cleared it by more than 0.19 read as about something else. Not read, it keeps its words'
# score, which a reading raises now and then (docs/performance.md, "Reading only where it can change a choice").
CLEAR_MARGIN = 0.25


def idf(document_frequency: int, total: int) -> float:
    """BM25's IDF, always positive: ln(1 + (N - df + 0.5) / (df + 0.5))."""
    df = max(0, min(document_frequency, total))
    return math.log(1.0 + (total - df + 0.5) / (df + 0.5))


def term_weights(frequencies: Mapping[int, int], total: int) -> dict[int, float]:
    return {term: idf(max(df, 1), total) for term, df in frequencies.items()}


def coverage(weights: Mapping[int, float], found: Mapping[int, float] | AbstractSet[int]) -> float:
    """IDF-weighted share of the question's terms found in a chunk, in [0, 1]. `found` holds the terms the
    chunk matches, or each matched term with its credit (`matching.Question.credits`)."""
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    credit = found if isinstance(found, Mapping) else dict.fromkeys(found, 1.0)
    matched = sum(weight * credit[term] for term, weight in weights.items() if term in credit)
    return round(matched / total, 4)


def with_dense(term_coverage: float, dense_cosine: float | None) -> float:
    """What the thresholds apply to: the dense cosine when the chunk has one, or the IDF-weighted term
    coverage, whichever is higher, so hybrid retrieval adds paraphrase matches without dropping a chunk
    that holds every word of the question (real embedding cosines of relevant passages often sit below 0.6)."""
    return term_coverage if dense_cosine is None else max(term_coverage, round(dense_cosine, 4))


def by_meaning(relevance: float, cosine: float, *, anchored: bool = False) -> float:
    """A passage's relevance once the sentence encoder has read it: far in meaning (below `SEMANTIC_FLOOR`) it is
    about something else and takes the meaning's score; otherwise the higher of its words' and its meaning's.
    A passage that holds the question's exact constraints (`anchored`: its version, code or figure) keeps its
    words' score however its meaning reads: a table's rows read as a whole are far from any one question
    ("When was Ubuntu 24.04 LTS released?" / the rows 20.04 to 24.04 of a release table)."""
    from masis.judge.semantic import relevance_scale  # numpy loads only for a question the encoder reads

    meaning = relevance_scale(cosine)
    return meaning if cosine < SEMANTIC_FLOOR and not anchored else max(relevance, meaning)


def clear_by_words(relevance: float, threshold: float) -> bool:
    """Whether a passage's words alone pass it: they clear `threshold` by `CLEAR_MARGIN` or more."""
    return relevance >= threshold + CLEAR_MARGIN
