"""An answer: the text with numbered references, its sources, its scores, and the feedback buttons."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.blocks.elements import (
    MAX_FALLBACK_CHARS,
    Message,
    actions,
    button,
    context,
    divider,
    escape,
    fit,
    markdown_to_mrkdwn,
    pack_lines,
    percent,
    score,
    section,
    sections,
    truncate,
)
from bot.blocks.ids import ACTION_FEEDBACK_DOWN, ACTION_FEEDBACK_UP, ACTION_WHY
from masis.citations import renumber
from masis.state import Citation, Outcome

SCORE_LABELS = (
    ("faithfulness", "Faithfulness"),
    ("relevance", "Relevance"),
    ("completeness", "Completeness"),
    ("reasoning_quality", "Reasoning"),
)


def number_citations(answer: str, citations: Sequence[Citation]) -> str:
    """`[strategy_memo.pdf#3]` → `[1]`, numbered as the engine numbered them (order of first use)."""
    return renumber(answer, {c.chunk_id: c.number for c in citations}, raw_id)


def raw_id(chunk_id: str) -> str:
    return f"[`{chunk_id}`]"



def scores_line(confidence: float | None, evaluation: Mapping[str, Any] | None) -> str:
    parts = [f"Confidence *{percent(confidence)}*"]
    evaluation = evaluation or {}
    parts += [f"{label} {score(evaluation.get(key))}" for key, label in SCORE_LABELS]
    return " · ".join(parts)


def sources_lines(citations: Sequence[Citation], snippet_chars: int = 160) -> list[str]:
    lines = []
    for c in sorted(citations, key=lambda c: c.number):
        where = f"`{escape(c.doc_name)}`"
        if c.page is not None:
            where += f", p. {c.page}"
        if c.section:
            where += f" · _{escape(truncate(c.section, 80))}_"
        snippet = escape(truncate(" ".join(c.text.split()), snippet_chars))
        lines.append(f"*[{c.number}]* {where}\n>{snippet}" if snippet else f"*[{c.number}]* {where}")
    return lines


def answer_message(outcome: Outcome) -> Message:
    """The answer with numbered references, its sources, its scores, and the feedback buttons."""
    answer = outcome.answer or ""
    body_text = number_citations(markdown_to_mrkdwn(escape(answer)), outcome.citations)
    body = sections(body_text) or [section("_(empty answer)_")]

    source_blocks: list[dict[str, Any]] = []
    if outcome.citations:
        texts = pack_lines(["*Sources*", *sources_lines(outcome.citations)])
        if len(texts) > 5:
            texts = [*texts[:4], "_…and more sources; see “Why this answer?”_"]
        source_blocks = [divider(), *[section(t) for t in texts]]

    retries = len(outcome.metrics.get("retry_reasons") or [])
    info = [scores_line(outcome.confidence, outcome.evaluation)]
    if retries:
        info.append(f"{retries} retr{'y' if retries == 1 else 'ies'}")
    tail: list[dict[str, Any]] = [*source_blocks, context(" · ".join(info))]
    if outcome.requires_human_review or outcome.warning:
        warning = escape(outcome.warning or "This answer should be checked by a person before it is relied on.")
        tail.append(context(f":warning: {warning}"))
    tail.append(
        actions(
            "answer_actions",
            [
                button(":thumbsup:", ACTION_FEEDBACK_UP, outcome.thread_id),
                button(":thumbsdown:", ACTION_FEEDBACK_DOWN, outcome.thread_id),
                button("Why this answer?", ACTION_WHY, outcome.thread_id),
            ],
        )
    )
    # the fallback text drives notifications: escaped too, so a document's <!channel> cannot ping anyone
    fallback = truncate(number_citations(escape(answer), outcome.citations), MAX_FALLBACK_CHARS)
    return {"text": fallback, "blocks": fit([], body, tail)}
