"""The synthesizer: compresses long evidence, then writes a cited answer (critique-aware on retry), each sentence
cited to the passage that states it when the model left it uncited (masis.judge.attribution)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from masis.agents.context import AgentContext, timed
from masis.agents.researcher import core_question
from masis.judge.attribution import attribute
from masis.judge.citations import neutralise_markers
from masis.judge.findings import Critique
from masis.llm.usage import collect_usage, usage_entries, usage_totals
from masis.state import EvidenceChunk, MASISState


def context_chars(evidence: list[EvidenceChunk]) -> int:
    return sum(len(chunk["text"]) for chunk in evidence)


def synthesizer(state: MASISState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = runtime.context
    ctx.progress("writing")
    question = core_question(state)
    evidence = [{**chunk, "text": neutralise_markers(chunk["text"])} for chunk in state["evidence"]]
    llm_calls = 0
    compressed = False
    with timed("synthesizer") as latency, collect_usage() as usage:
        if context_chars(evidence) > ctx.settings.max_context_chars:
            smaller = ctx.llm.compress(question, evidence, ctx.settings.max_context_chars)
            llm_calls += 1 if ctx.llm.compression_uses_model else 0
            if smaller:
                evidence, compressed = smaller, True
        critique = state.get("critique")
        feedback = Critique.model_validate(critique) if critique and state.get("attempt", 1) > 1 else None
        answer = ctx.llm.synthesize(question, evidence, feedback, relatedness=ctx.relatedness(question))
        llm_calls += 1
        attributed = attribute(answer, evidence, question)
    return {
        "answer": attributed.answer,
        "context": evidence,
        "llm_calls": llm_calls,
        "latencies_ms": [latency],
        "token_usage": usage_entries("synthesizer", usage),
        "trace": [
            {
                "node": "synthesizer",
                "attempt": state.get("attempt", 1),
                "evidence_chunks": len(evidence),
                "context_chars": context_chars(evidence),
                "compressed": compressed,
                "used_feedback": feedback is not None,
                "attribution": attributed.as_dict(),
                "tokens": usage_totals(usage),
            }
        ],
    }
