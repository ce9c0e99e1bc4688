"""An answer: the text with numbered references, its sources, its scores, and the feedback buttons."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.blocks.elements import (
    CUT_NOTE,
    MAX_BUTTON_TEXT,
    MAX_FALLBACK_CHARS,
    MAX_MESSAGE_CHARS,
    Message,
    actions,
    button,
    context,
    divider,
    escape,
    fit,
    markdown,
    markdown_safe,
    pack_lines,
    percent,
    plain,
    score,
    section,
    text_chars,
    truncate,
)
from bot.blocks.ids import ACTION_FEEDBACK, ACTION_WHY
from masis.judge.citations import renumber
from masis.outcome import Citation, Outcome

ANSWER_ACTIONS_BLOCK = "answer_actions"
MAX_SOURCE_SECTIONS = 5
SOURCES_MIN_ROOM = 3000  # an answer longer than the room leaves is cut before the sources are

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


def source_line(c: Citation, snippet_chars: int = 160) -> str:
    """`*[n]* `doc`, p. 3 · _section_` and, with `snippet_chars`, the cited passage quoted below."""
    where = f"`{escape(c.doc_name)}`"
    if c.page is not None:
        where += f", p. {c.page}"
    if c.section:
        where += f" · _{escape(truncate(c.section, 80))}_"
    snippet = escape(truncate(" ".join(c.text.split()), snippet_chars)) if snippet_chars else ""
    return f"*[{c.number}]* {where}\n>{snippet}" if snippet else f"*[{c.number}]* {where}"


def sources_lines(citations: Sequence[Citation], snippet_chars: int = 160) -> list[str]:
    return [source_line(c, snippet_chars) for c in sorted(citations, key=lambda c: c.number)]


def sources_blocks(citations: Sequence[Citation], budget: int) -> list[dict[str, Any]]:
    """The Sources part within `budget` characters of text: each source quoted while there is room, then
    named without its quote, then "…and N more" (all of them are in "Why this answer?")."""
    ordered = sorted(citations, key=lambda c: c.number)
    lines = ["*Sources*"]
    used = len(lines[0])
    more_note = 60  # room kept for the "…and N more sources" line
    for index, c in enumerate(ordered):
        left = budget - used - more_note
        for line in (source_line(c), source_line(c, 0)):
            if len(line) + 1 <= left:
                lines.append(line)
                used += len(line) + 1
                break
        else:
            lines.append(f"_…and {len(ordered) - index} more sources; see “Why this answer?”_")
            break
    texts = pack_lines(lines)
    if len(texts) > MAX_SOURCE_SECTIONS:
        texts = [*texts[: MAX_SOURCE_SECTIONS - 1], "_…and more sources; see “Why this answer?”_"]
    return [divider(), *[section(t) for t in texts]]


def feedback_value(outcome: Outcome, vote: str) -> str:
    """A feedback button's value: the answer it rates (its thread and run) and the vote."""
    return json.dumps({"thread": outcome.thread_id, "run": outcome.run, "vote": vote}, separators=(",", ":"))


def parse_feedback_value(value: str) -> tuple[str, int | None, str | None]:
    """(thread id, run, vote). Older buttons carried a bare thread id (rates the latest answer; the vote
    is then in the button's action id)."""
    if not value.startswith("{"):
        return value, None, None
    data = json.loads(value)
    vote = data.get("vote")
    return str(data["thread"]), int(data["run"]), vote if vote in ("up", "down") else None


def feedback_block(outcome: Outcome) -> dict[str, Any]:
    """Slack's native 👍 / 👎 (`feedback_buttons` in a `context_actions` block): the client shows the
    chosen state itself, so a vote never edits the message (an edit would reset it)."""
    return {
        "type": "context_actions",
        "block_id": f"feedback-{outcome.run}",
        "elements": [{
            "type": "feedback_buttons",
            "action_id": ACTION_FEEDBACK,
            "positive_button": {"text": plain("👍", MAX_BUTTON_TEXT), "value": feedback_value(outcome, "up"),
                                "accessibility_label": "Mark this answer as helpful"},
            "negative_button": {"text": plain("👎", MAX_BUTTON_TEXT), "value": feedback_value(outcome, "down"),
                                "accessibility_label": "Mark this answer as not helpful"},
        }],
    }


def answer_block(answer: str, citations: Sequence[Citation], limit: int) -> dict[str, Any]:
    """The answer as standard Markdown (the model's bold, headings and lists render as written), made
    inert by `markdown_safe`, with `[chunk_id]` as `[n]`; cut with a note past `limit` characters."""
    text = markdown_safe(number_citations(answer, citations)).strip() or "_(empty answer)_"
    if len(text) > limit:
        note = f"\n\n{CUT_NOTE}"
        text = truncate(text[: limit - len(note)].rstrip("\\"), limit - len(note)) + note
    return markdown(text)


def reading_block(outcome: Outcome) -> dict[str, Any] | None:
    """"Reading this as: …" above a follow-up's answer, when the thread changed how its question is read: the
    user can correct it in one reply."""
    if not outcome.reading:
        return None
    return context(f":speech_balloon: Reading this as: _{escape(truncate(outcome.reading, 500))}_")


def answer_message(outcome: Outcome) -> Message:
    """The answer with numbered references, its sources, its scores, the feedback buttons and "Why this
    answer?". The whole message stays within Slack's limits: the answer first, then as many sources as
    the rest of the room allows."""
    answer = outcome.answer or ""
    retries = len(outcome.metrics.get("retry_reasons") or [])
    info = [scores_line(outcome.confidence, outcome.evaluation)]
    if retries:
        info.append(f"{retries} retr{'y' if retries == 1 else 'ies'}")
    tail: list[dict[str, Any]] = [context(" · ".join(info))]
    if outcome.requires_human_review or outcome.warning:
        warning = escape(outcome.warning or "This answer should be checked by a person before it is relied on.")
        tail.append(context(f":warning: {warning}"))
    tail.append(actions(ANSWER_ACTIONS_BLOCK, [button("Why this answer?", ACTION_WHY, outcome.thread_id)]))
    tail.append(feedback_block(outcome))
    # the answer keeps at least half the room; the sources get what the answer leaves
    room = MAX_MESSAGE_CHARS - text_chars(tail) - (SOURCES_MIN_ROOM if outcome.citations else 0)
    body = [answer_block(answer, outcome.citations, max(MAX_MESSAGE_CHARS // 2, room))]
    if (read_as := reading_block(outcome)) is not None:
        body.insert(0, read_as)
    if outcome.citations:
        budget = MAX_MESSAGE_CHARS - text_chars(body) - text_chars(tail) - 50
        tail = [*sources_blocks(outcome.citations, budget), *tail]
    # the fallback text drives notifications: escaped too, so a document's <!channel> cannot ping anyone
    fallback = truncate(number_citations(escape(answer), outcome.citations), MAX_FALLBACK_CHARS)
    return {"text": fallback, "blocks": fit([], body, tail)}
