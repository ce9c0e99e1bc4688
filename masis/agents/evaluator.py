"""The evaluator: four scores, clamped by the citation audit, and the weighted overall score.

It also keeps the best draft so far, which is what a clarification shows and what "use this draft"
returns.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from masis.agents.context import AgentContext, timed
from masis.agents.researcher import core_question
from masis.judge.citations import CitationAudit
from masis.judge.findings import Critique
from masis.judge.scoring import clamp_evaluation
from masis.llm.usage import collect_usage, usage_entries, usage_totals
from masis.state import Draft, MASISState

_AUDIT_FIELDS = ("cited_ids", "valid_ids", "invalid_ids", "uncited_sentences", "hedged_sentences", "sentences")


def evaluator(state: MASISState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = runtime.context
    ctx.progress("scoring")
    critique = Critique.model_validate(state["critique"])
    audit = CitationAudit(**{key: state["citation_audit"][key] for key in _AUDIT_FIELDS})
    with timed("evaluator") as latency, collect_usage() as usage:
        raw = ctx.llm.evaluate(core_question(state), state["answer"], state["context"], critique)
        evaluation = clamp_evaluation(raw.model_dump(), audit, critique.hallucination_detected)
    draft: Draft = {
        "answer": state["answer"],
        "confidence": state["confidence"],
        "evaluation": evaluation,
        "critique": state["critique"],
        "evidence": state["context"],
        "attempt": state.get("attempt", 1),
    }
    best = state.get("best_draft")
    update: dict[str, Any] = {
        "evaluation": evaluation,
        "llm_calls": 1,
        "latencies_ms": [latency],
        "token_usage": usage_entries("evaluator", usage),
        "trace": [
            {"node": "evaluator", "attempt": state.get("attempt", 1), **evaluation, "tokens": usage_totals(usage)}
        ],
    }
    # Strictly better only: on a tie (0.0 and 0.0 after failed audits) a newer draft must not replace an
    # older one, or the last failed attempt becomes what a clarification shows and "accept" returns.
    if best is None or draft["confidence"] > best["confidence"]:
        update["best_draft"] = draft
    return update
