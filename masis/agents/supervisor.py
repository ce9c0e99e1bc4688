"""The supervisor: reads the audit and decides to research, retry, finalize or ask the user."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from langgraph.runtime import Runtime

from masis.agents.clarify import escalate
from masis.agents.context import AgentContext, timed
from masis.agents.researcher import retrieval_query
from masis.judge.grounding import NO_VALID_CITATION
from masis.state import MASISState

REPEATS_LAST_RETRY = "a retry would repeat the last one (the same evidence and the same feedback)"

Route = Literal["first_run", "retry", "finalize", "escalate"]


@dataclass(frozen=True)
class Decision:
    route: Route
    reasons: tuple[str, ...] = ()
    kind: Literal["conflict", "near_miss", "low_confidence"] | None = None

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)


def decide(
    *,
    attempt: int,
    retries: int,
    max_retries: int,
    confidence: float,
    critique: dict[str, Any] | None,
    citation_audit: dict[str, Any] | None,
    low_confidence_threshold: float,
    missing_anchors: list[str] | None = None,
    repeats_last_retry: bool = False,
) -> Decision:
    """The routing rule of DESIGN §4, as a pure function of the last audit.

    Any problem (invalid citations, too many uncited sentences, conflicting sources, the critic's
    request, an exact constraint of the question that the quotes miss, or confidence under the threshold)
    earns a retry while the budget lasts; conflicts are retried first and escalated only when retries are spent.
    A retry that would send the same retrieval query and the same feedback as the last retry (`repeats_last_retry`)
    cannot change the outcome (at temperature 0 it is the same request) and is not made: the budget counts as spent.
    """
    if attempt == 0:
        return Decision("first_run")
    critique = critique or {}
    audit = citation_audit or {}
    problems: list[str] = []
    if critique.get("hallucination_detected") or audit.get("hallucination"):
        problems.append("invalid citation")
    if audit.get("no_valid_citation"):
        problems.append("no valid citation")
    if audit.get("uncited_count", 0) >= 5:
        problems.append(f"{audit['uncited_count']} uncited sentences")
    if critique.get("conflicts"):
        problems.append("conflicting evidence")
    if critique.get("unsupported_claims"):
        problems.append(f"{len(critique['unsupported_claims'])} unsupported claim(s)")
    if missing_anchors:
        problems.append(f"the quoted passages do not mention {', '.join(missing_anchors)}")
    if confidence < low_confidence_threshold:
        problems.append(f"confidence {confidence:.2f} below {low_confidence_threshold:.2f}")
    if critique.get("needs_retry") and not problems:
        problems.append("critic requested a retry")
    if not problems:
        return Decision("finalize")
    if retries < max_retries and not repeats_last_retry:
        return Decision("retry", tuple(problems))
    if repeats_last_retry and retries < max_retries:
        problems.append(REPEATS_LAST_RETRY)
    kind = "conflict" if critique.get("conflicts") else "near_miss" if missing_anchors else "low_confidence"
    return Decision("escalate", tuple(problems), kind)


def retry_inputs(state: MASISState) -> str:
    """What a retry from this state would send: its retrieval query and the findings its feedback is made of (the
    critic's prose only when it found nothing concrete, as `masis.llm.prompts.feedback_text` does)."""
    critique = state.get("critique") or {}
    concrete = {
        "unsupported": sorted(" ".join(c.lower().split()) for c in critique.get("unsupported_claims", [])),
        "gaps": sorted(" ".join(g.lower().split()) for g in critique.get("logical_gaps", [])),
        "conflicts": sorted(
            sorted(str(side.get("chunk_id")) for side in c.get("claims", [])) for c in critique.get("conflicts", [])
        ),
        "hallucination": bool(critique.get("hallucination_detected")),
        "no_valid_citation": NO_VALID_CITATION in (critique.get("reasoning") or ""),
    }
    if not any(concrete.values()):
        concrete["reasoning"] = critique.get("reasoning") or ""
    return json.dumps([retrieval_query(state, retry=True), concrete], sort_keys=True)


def supervisor(state: MASISState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    settings = runtime.context.settings
    with timed("supervisor") as latency:
        max_retries = state.get("max_retries", settings.retries)  # 0 means no retries, not the default
        attempt = state.get("attempt", 0)
        next_inputs = retry_inputs(state) if attempt else None
        decision = decide(
            attempt=state.get("attempt", 0),
            retries=state.get("retries", 0),
            max_retries=max_retries,
            confidence=state.get("confidence", 0.0),
            critique=state.get("critique"),
            citation_audit=state.get("citation_audit"),
            low_confidence_threshold=settings.low_confidence_threshold,
            missing_anchors=state.get("missing_anchors"),
            repeats_last_retry=next_inputs is not None and next_inputs == state.get("retry_inputs"),
        )
        update: dict[str, Any] = {"decision": decision.route}
        if decision.route == "retry":
            update["retries"] = state.get("retries", 0) + 1
            update["retry_reasons"] = [decision.reason]
            update["retry_inputs"] = next_inputs
        elif decision.route == "finalize":
            update.update(status="answered", requires_human_review=False)
        elif decision.route == "escalate":
            assert decision.kind is not None
            update.update(escalate(state, settings, decision.kind, decision.reason))
            update["decision"] = "escalate" if update.get("clarification") else "finalize"
    trace = {
        "node": "supervisor",
        "decision": update["decision"],
        "reason": decision.reason,
        "attempt": state.get("attempt", 0),
        "retries": update.get("retries", state.get("retries", 0)),
    }
    return {**update, "trace": [trace], "latencies_ms": [latency]}


def route_after_supervisor(state: MASISState) -> str:
    return state["decision"]
