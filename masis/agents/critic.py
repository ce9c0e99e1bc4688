"""The critic: the model's audit plus the deterministic citation engine, its penalties, and the grounding
floors (masis.judge.grounding) that no model can talk its way past."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from langgraph.runtime import Runtime

from masis.agents.context import AgentContext, timed
from masis.agents.researcher import core_question, question_weights, readings
from masis.judge import calibration, citations, continuity, dismissal, grounding
from masis.judge.anchors import latest_anchors
from masis.judge.names import candidates, document_words, names, ordinary_words
from masis.judge.reading import points_back
from masis.judge.scoring import normalize_confidence
from masis.judge.terms import terms
from masis.llm.usage import collect_usage, usage_entries, usage_totals
from masis.state import EvidenceChunk, MASISState


def critic(state: MASISState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = runtime.context
    ctx.progress("auditing")
    evidence = state["context"]
    with timed("critic") as latency, collect_usage() as usage:
        question = core_question(state)
        weights = question_weights(ctx.registry, state["workspace_id"], question)
        critique = ctx.llm.critique(
            question, state["answer"], evidence, term_weights=weights, relatedness=ctx.relatedness(question)
        )
        audit = citations.audit(state["answer"], [chunk["chunk_id"] for chunk in evidence])
        dismissed: list[dismissal.Dismissed] = []
        if ctx.llm.audit_uses_model:
            # a model's finding about text the draft does not hold is not acted on; the floors below stay as strict
            critique, dismissed = dismissal.dismiss(
                critique, state["answer"], evidence, audit, ctx.settings.low_confidence_threshold
            )
        # a tool or package named in plain words must be held by the quotes, as a version or a code must
        named = _names(ctx, state["workspace_id"], question) if state["answer"] else []
        floors = grounding.check(question, state["answer"], evidence, latest_anchors(readings(state)), named)
        critique = grounding.apply(critique, floors, audit)
        confidence = citations.penalised_confidence(normalize_confidence(critique.confidence), audit)
        if grounding.no_valid_citation(audit):
            confidence = 0.0  # an answer that cites nothing real is never answered, however sure the model is
        if floors.missing_anchors or floors.untyped or floors.unspoken_attribute or floors.unstated_limit:
            # a quote that misses the question's version, code or name answers another question; one without the
            # date or number asked for, that never speaks of the attribute asked for, or that says no limit when one
            # is asked, does not answer it
            confidence = min(confidence, grounding.NEAR_MISS_CONFIDENCE)
        if citations.leads_with_hedge(state["answer"]) or grounding.restates_question(question, state["answer"]):
            # a draft that opens with "it is unclear whether …" answers that the documents do not know; one that opens
            # with a question and gives nothing of the kind asked after it quotes what was asked
            confidence = min(confidence, grounding.NEAR_MISS_CONFIDENCE)
        if floors.unmet_negation:
            # "Who never captured Fort Beauséjour?" is not answered by who captured it
            confidence = min(confidence, grounding.UNMET_NEGATION_CONFIDENCE)
        if (floors.contradicted or floors.swapped or floors.figure_elsewhere or floors.reversed_role
                or floors.span_for_moment or floors.stitched or floors.default_elsewhere or floors.undescribed):
            # "The smallest party sits in the middle of what?" is not answered by where the largest one sits, nor
            # "Who runs the Santiago office?" by who runs the Oslo one, nor "How many Protestants are in the
            # Cévennes?" by France's count, nor "Who did King Charles III swear fealty to?" by who swore to him, nor
            # "When did Bismarck die?" by the years of his chancellorship, nor "What is the default delay of
            # setInterval?" by what the event loop does by default
            confidence = min(confidence, grounding.CONTRADICTED_CONFIDENCE)
        if state.get("attempt", 1) > 1 and not ctx.llm.audit_uses_model:
            confidence = calibration.after_retry(confidence)
        if state.get("reading") and not ctx.llm.reading_uses_model:
            confidence = calibration.read_in_context(confidence)
        drifted = _drifted(ctx, state, evidence) if not ctx.llm.reading_uses_model else []
        if drifted:
            # a follow-up answered from a document its thread never used, which it does not name: a misreading
            confidence = min(confidence, continuity.DRIFTED_CONFIDENCE)
        if audit.hallucination:
            critique.hallucination_detected = True
        if audit.forces_retry:
            critique.needs_retry = True
        critique.confidence = confidence
    return {
        "critique": critique.model_dump(),
        "citation_audit": audit.as_dict(),
        "confidence": confidence,
        "missing_anchors": floors.missing_anchors,
        "drifted_to": drifted,
        "confidence_history": [confidence],
        "dismissed_findings": [{"attempt": state.get("attempt", 1), **d.as_dict()} for d in dismissed],
        "llm_calls": 1,
        "latencies_ms": [latency],
        "token_usage": usage_entries("critic", usage),
        "trace": [
            {
                "node": "critic",
                "attempt": state.get("attempt", 1),
                "confidence": confidence,
                "hallucination": critique.hallucination_detected,
                "unsupported": len(critique.unsupported_claims),
                "gaps": len(critique.logical_gaps),
                "conflicts": len(critique.conflicts),
                "dismissed": len(dismissed),
                "missing_anchors": floors.missing_anchors,
                "drifted_to": drifted,
                "invalid_citations": audit.invalid_ids,
                "uncited_sentences": len(audit.uncited_sentences),
                "reasoning": critique.reasoning,
                "tokens": usage_totals(usage),
            }
        ],
    }


def _drifted(ctx: AgentContext, state: MASISState, evidence: list[EvidenceChunk]) -> list[str]:
    """The documents a follow-up's draft quotes, when its thread never used them (`masis.judge.continuity`)."""
    history = state.get("history") or []
    if not history or not state.get("answer"):
        return []
    if not state.get("reading") and not points_back(state["user_query"]):
        return []  # read as typed, and self-contained in its words: a new subject may well be a new document
    quoted = citations.cited_documents(state["answer"], evidence)
    # what the user wrote for this question and how it was read: a reading that names the other product switches too
    asked = [state["user_query"], state.get("reading") or "", state.get("antecedent") or "",
             *state.get("clarifications", [])]
    earlier = [turn["question"] for turn in history]
    cited = [doc for turn in history for doc in turn.get("docs") or []]
    if set(quoted) & set(cited):
        return []  # the draft quotes a document the thread used: no drift, and no need to list the workspace
    named = continuity.named_documents(earlier, (info.name for info in ctx.registry.documents(state["workspace_id"])))
    return continuity.drifted(" ".join(asked), quoted, earlier, [*cited, *named])


def _names(ctx: AgentContext, workspace_id: str, question: str) -> list[str]:
    """The question's plain words that name a thing (`masis.judge.names`), read against the workspace."""
    ordinary = ordinary_words()
    # the workspace's documents are listed only for a word that looks ordinary but is no listed word ("certifi")
    titles = lru_cache(maxsize=1)(lambda: document_words(info.name for info in ctx.registry.documents(workspace_id)))
    words = candidates(question, ordinary, titles)
    if not words:
        return []
    by_term = {word: next(iter(found)) for word in words if (found := terms(word))}
    counts = ctx.registry.document_frequencies(workspace_id, frozenset(by_term.values()))
    frequencies = {word: counts.get(term, 0) for word, term in by_term.items()}
    return names(by_term, frequencies, lambda start: ctx.registry.words_starting(workspace_id, start), ordinary)
