"""The researcher: retrieves the workspace's chunks, scores their relevance, drops the weak ones."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langgraph.graph import END
from langgraph.runtime import Runtime

from masis.agents.clarify import escalate
from masis.agents.context import AgentContext, timed
from masis.judge import anchors, several
from masis.judge.matching import Question, question, related
from masis.judge.relevance import by_meaning, clear_by_words, coverage, term_weights, with_dense
from masis.judge.terms import alternative_words, implied_words, question_terms
from masis.judge.typed import without_aside
from masis.records.registry import Registry
from masis.state import EvidenceChunk, MASISState
from masis.store.base import Hit
from masis.store.payload import index_text

if TYPE_CHECKING:
    from masis.judge.semantic import KeptVectors, SentenceEncoder

SHARED_START = 3  # a related word shares at least its first letters (matching.related asks for more)
MAX_RELATED_WORDS = 3  # per question word
# Unless a passage holds every word of the question, the local sentence encoder (masis.judge.semantic) reads the first
# three passages that pass by their words, and the first three candidates when none passes
# (`masis.judge.relevance.by_meaning` says what a reading does to a passage's relevance).
SEMANTIC_CANDIDATES = 3


def readings(state: MASISState) -> list[str]:
    """The user's question (as read in its thread, `reading`) and the clarifications they gave, from the latest
    rephrasing on (a reply to "nothing matched, please rephrase" replaces the question; a reply to any other
    clarification narrows it)."""
    texts = [without_aside(state.get("reading") or state["user_query"]), *state.get("clarifications", [])]
    return texts[state.get("question_start", 0) :]


def core_question(state: MASISState) -> str:
    """What relevance and the audit are measured against: the question's `readings`, joined."""
    return " ".join(readings(state))


def retrieval_query(state: MASISState, retry: bool) -> str:
    """On a retry the query is sharpened with what the critic found missing or unsupported."""
    query = core_question(state)
    critique = state.get("critique") or {}
    if retry and critique:
        extra = [*critique.get("unsupported_claims", []), *critique.get("logical_gaps", [])]
        query = " ".join([query, *extra])
    return query


def search_query(registry: Registry, workspace_id: str, state: MASISState, retry: bool) -> str:
    """The text the store is searched with: the retrieval query, plus the workspace's own words related to
    each question word no document holds ("acquiring" finds "acquisition", "charecterized" finds
    "characterized"), since BM25 matches stems exactly."""
    query = retrieval_query(state, retry)
    asked = question(query)
    absent = [term for term, df in registry.document_frequencies(workspace_id, asked.terms).items() if df == 0]
    extra: list[str] = []
    for term in absent:
        for word in asked.surface.get(term, ()):
            vocabulary = registry.words_starting(workspace_id, word[:SHARED_START])
            extra += [other for other in vocabulary if related(word, other)][:MAX_RELATED_WORDS]
    return " ".join([query, *implied_words(query), *alternative_words(query), *dict.fromkeys(extra)])


def question_weights(registry: Registry, workspace_id: str, question: str) -> dict[int, float]:
    """Each term of the question with its IDF in this workspace: the weights of `relevance.coverage`."""
    return _weights(registry, workspace_id, question_terms(question))


def _weights(registry: Registry, workspace_id: str, wanted: frozenset[int]) -> dict[int, float]:
    return term_weights(registry.document_frequencies(workspace_id, wanted), registry.chunk_total(workspace_id))


def _evidence(hit: Hit, asked: Question, weights: Mapping[int, float], document_terms: set[int]) -> EvidenceChunk:
    credits = asked.credits_in(index_text(hit), document_terms)
    in_text = asked.credits_in(hit.text)
    return {
        "chunk_id": hit.chunk_id,
        "doc_name": hit.doc_name,
        "text": hit.text,
        "page": hit.page,
        "section": hit.section,
        "relevance": with_dense(coverage(weights, credits), hit.dense_score),
        "score": round(hit.score, 4),
        "context_terms": sorted(term for term in credits if term not in in_text),
        "title": hit.title,
    }


def _read_closely(ctx: AgentContext, question_text: str, scored: list[EvidenceChunk], threshold: float) -> bool:
    """Check the passages that pass by some of the question's words against their meaning; when none passes, let
    the sentence encoder read the first few candidates: a passage that says the same thing in other words ("how
    many trucks does the company run" / "a fleet of 212 vehicles") passes by meaning. When a passage holds every
    word of the question, the words decide and nothing is read; nor is a passing passage read whose words clear the
    threshold by a margin (`relevance.clear_by_words`) or that holds the question's exact constraints (its reading
    could only raise it). Returns whether the encoder read anything."""
    if not scored or any(chunk["relevance"] >= 1.0 for chunk in scored):
        return False
    encoder = ctx.encoder()
    if encoder is None:
        return False
    partly = [chunk for chunk in scored if chunk["relevance"] >= threshold][:SEMANTIC_CANDIDATES]
    # a passage that holds the question's exact constraints passes whatever its meaning reads (`by_meaning`)
    exact = _exact_anchors(question_text)
    unclear = [c for c in partly if not clear_by_words(c["relevance"], threshold) and not _anchored(exact, c)]
    _by_meaning(encoder, ctx.vectors, question_text, unclear)
    if not any(chunk["relevance"] >= threshold for chunk in scored):
        _by_meaning(encoder, ctx.vectors, question_text, [c for c in scored[:SEMANTIC_CANDIDATES] if c not in partly])
        return True
    return bool(unclear)


def _by_meaning(
    encoder: SentenceEncoder, kept: KeptVectors | None, question_text: str, chunks: list[EvidenceChunk]
) -> None:
    cosines = encoder.similarities(question_text, [c["text"] for c in chunks], kept)
    exact = _exact_anchors(question_text)
    for chunk, cosine in zip(chunks, cosines, strict=True):
        chunk["relevance"] = by_meaning(chunk["relevance"], cosine, anchored=_anchored(exact, chunk))


def _exact_anchors(question_text: str) -> list[str]:
    return [anchor for anchor in anchors.anchors(question_text) if not anchors.is_name(anchor)]


def _anchored(exact: list[str], chunk: EvidenceChunk) -> bool:
    return bool(exact) and not anchors.missing(exact, [("", chunk)])


@dataclass(frozen=True)
class _Search:
    hits: list[Hit]
    scored: list[EvidenceChunk]
    dense: bool  # an embedding model of the OpenAI path scored the hits by meaning
    semantic: bool  # the sentence encoder read some of them


def _search(
    ctx: AgentContext, workspace: str, text: str, query: str, limit: int, threshold: float, doc_name: str | None
) -> _Search:
    """The passages found for `query`, each scored against the question `text`."""
    hits = ctx.store.search(workspace, query, limit, doc_name=doc_name)
    asked = question(text)
    weights = _weights(ctx.registry, workspace, asked.terms)
    in_documents = ctx.registry.terms_in_documents(workspace, (hit.doc_name for hit in hits), asked.terms)
    scored = [_evidence(hit, asked, weights, in_documents.get(hit.doc_name, set())) for hit in hits]
    dense = any(hit.dense_score is not None for hit in hits)
    return _Search(hits, scored, dense, not dense and _read_closely(ctx, text, scored, threshold))


def _merged(lists: list[list[EvidenceChunk]]) -> list[EvidenceChunk]:
    """The passages of the whole question's search, then each part's new ones in turn (a passage found twice keeps
    its better score): the parts' best passages stand beside the whole question's, not after all of them."""
    best: dict[str, EvidenceChunk] = {}
    order: list[str] = []
    for rank in range(max(map(len, lists), default=0)):
        for chunks in lists:
            if rank < len(chunks):
                chunk = chunks[rank]
                known = best.get(chunk["chunk_id"])
                if known is None:
                    order.append(chunk["chunk_id"])
                if known is None or chunk["relevance"] > known["relevance"]:
                    best[chunk["chunk_id"]] = chunk
    return [best[chunk_id] for chunk_id in order]


def researcher(state: MASISState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = runtime.context
    settings = ctx.settings
    attempt = state.get("attempt", 0) + 1
    reasons = state.get("retry_reasons") or []
    ctx.progress("researching", reasons[-1] if attempt > 1 and reasons else None)
    retry = attempt > 1
    limit = settings.retry_top_k if retry else settings.top_k
    threshold = settings.retry_relevance_threshold if retry else settings.relevance_threshold
    workspace = state["workspace_id"]
    with timed("researcher") as latency:
        query = search_query(ctx.registry, workspace, state, retry)
        asked_text = core_question(state)
        searches = [(asked_text, query), *((part, part) for part in several.parts(asked_text))]
        found = [_search(ctx, workspace, text, search, limit, threshold, state.get("source_filter"))
                 for text, search in searches]
        candidates = len({hit.chunk_id for result in found for hit in result.hits})
        scored = _merged([result.scored for result in found])
        dense = any(result.dense for result in found)
        semantic = any(result.semantic for result in found)
        evidence = [chunk for chunk in scored if chunk["relevance"] >= threshold]
    update: dict[str, Any] = {
        "attempt": attempt,
        "query": query,
        "evidence": evidence,
        "candidates_found": candidates,
        "retrieval_calls": len(searches),
        "latencies_ms": [latency],
        "trace": [
            {
                "node": "researcher",
                "attempt": attempt,
                "query": query,
                "candidates": candidates,
                "kept": len(evidence),
                "threshold": threshold,
                "top_relevance": max((c["relevance"] for c in scored), default=0.0),
                "dense": dense,
                "semantic": semantic,
            }
        ],
    }
    if not evidence:
        documents = len(ctx.registry.documents(workspace))
        kind = "low_confidence" if state.get("best_draft") else "zero_results"
        reason = f"no passage reached relevance {threshold:.2f}"
        update.update(escalate(state, settings, kind, reason, candidates=candidates, documents=documents))
        if kind == "low_confidence":
            update["retry_reasons"] = [reason]
    return update


def route_after_research(state: MASISState) -> str:
    if state.get("evidence"):
        return "synthesizer"
    return "clarify" if state.get("clarification") else END
