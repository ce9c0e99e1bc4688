"""The "Why this answer?" modal: the audit trail of one answer."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.blocks.answers import scores_line, sources_lines
from bot.blocks.elements import (
    MAX_MODAL_BLOCKS,
    escape,
    fit,
    pack_lines,
    percent,
    plain,
    score,
    section,
    sections,
    truncate,
)
from masis.outcome import Citation


def _render_value(value: Any, limit: int = 300) -> str:
    if isinstance(value, float):
        return score(value)
    if isinstance(value, str):
        return escape(truncate(" ".join(value.split()), limit))
    return escape(truncate(json.dumps(value, default=str), limit))


def _mapping_lines(mapping: Mapping[str, Any], max_items: int = 8) -> list[str]:
    lines = []
    for key, value in mapping.items():
        label = escape(str(key).replace("_", " "))
        if isinstance(value, list | tuple):
            if not value:
                lines.append(f"• {label}: none")
                continue
            lines.append(f"• {label}:")
            lines += [f"    ◦ {_render_value(v)}" for v in value[:max_items]]
            if len(value) > max_items:
                lines.append(f"    ◦ …and {len(value) - max_items} more")
        elif value is not None:
            lines.append(f"• {label}: {_render_value(value)}")
    return lines


def why_modal(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """The audit trail of one answer: attempts, why it retried, what the critic and the audit found."""
    metrics = outcome.get("metrics") or {}
    history = [h for h in (metrics.get("confidence_history") or []) if isinstance(h, int | float)]
    reasons = metrics.get("retry_reasons") or []
    attempts = len(history) or 1 + len(reasons)
    blocks: list[dict[str, Any]] = [
        *sections(f"*Question*\n{escape(str(outcome.get('question') or ''))}"),
        section(
            f"*Result*: {escape(str(outcome.get('status', '')))} after {attempts} attempt"
            f"{'s' if attempts != 1 else ''} · "
            + scores_line(outcome.get("confidence"), outcome.get("evaluation"))
            + f" · {metrics.get('llm_calls', 'n/a')} LLM calls"
        ),
    ]
    citations = [Citation.model_validate(c) for c in outcome.get("citations") or []]
    if citations:
        blocks += [section(t) for t in pack_lines(["*Sources*", *sources_lines(citations, snippet_chars=0)])]
    if history:
        blocks.append(section("*Confidence by attempt*: " + " → ".join(percent(h) for h in history)))
    if reasons:
        lines = ["*Why it retried*"] + [f"{i}. {_render_value(r, 500)}" for i, r in enumerate(reasons, 1)]
    else:
        lines = ["*Why it retried*", "It did not: the first draft passed the audit."]
    blocks += [section(t) for t in pack_lines(lines)]
    critique = outcome.get("critique")
    if isinstance(critique, Mapping) and critique:
        blocks += [section(t) for t in pack_lines(["*What the critic found*", *_mapping_lines(critique)])]
    audit = metrics.get("last_citation_audit")
    if isinstance(audit, Mapping) and audit:
        blocks += [section(t) for t in pack_lines(["*Citation audit*", *_mapping_lines(audit)])]
    trace = outcome.get("trace") or []
    if trace:
        steps = ["*Steps*"]
        for i, step in enumerate(trace[:40], 1):
            if not isinstance(step, Mapping):
                continue
            node = escape(str(step.get("node", "?")))
            decision = step.get("decision")
            reason = step.get("reason")
            line = f"{i}. *{node}*"
            if decision:
                line += f" → {_render_value(decision, 80)}"
            if reason:
                line += f": {_render_value(reason, 300)}"
            steps.append(line)
        if len(trace) > 40:
            steps.append(f"…and {len(trace) - 40} more steps")
        blocks += [section(t) for t in pack_lines(steps)]
    return {
        "type": "modal",
        "title": plain("Why this answer?", 24),
        "close": plain("Close", 24),
        "blocks": fit([], blocks, [], limit=MAX_MODAL_BLOCKS),
    }


def why_missing_modal() -> dict[str, Any]:
    return {
        "type": "modal",
        "title": plain("Why this answer?", 24),
        "close": plain("Close", 24),
        "blocks": [section("I no longer have the audit trail of this answer. Ask the question again to see it.")],
    }
