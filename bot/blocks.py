"""Block Kit rendering: every message and modal the bot shows. Pure functions of the engine's results.

Slack's limits are enforced here, in one place: a section's text ≤ 3000 characters, ≤ 50 blocks a
message (100 a modal), button labels ≤ 75 characters, button values ≤ 2000. Text that came from documents
or the model is escaped, so `<!channel>` or `<@U123>` inside a document is shown, never executed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict

from masis.citations import renumber
from masis.scoring import normalize_confidence
from masis.state import Citation, Clarification, Outcome

MAX_SECTION_CHARS = 3000
MAX_MESSAGE_BLOCKS = 50
MAX_MODAL_BLOCKS = 100
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_CONTEXT_ELEMENTS = 10
MAX_FALLBACK_CHARS = 3000
MAX_ACTIONS_ELEMENTS = 25

UPLOAD_FILETYPES = ["pdf", "docx", "txt", "md", "html", "csv"]

# action ids and callback ids the listeners register for
ACTION_FEEDBACK_UP = "feedback_up"
ACTION_FEEDBACK_DOWN = "feedback_down"
ACTION_WHY = "why_answer"
ACTION_ACCEPT = "clarify_accept"
ACTION_CANCEL = "clarify_cancel"
ACTION_SOURCE_PREFIX = "clarify_source_"
ACTION_SOURCE = re.compile(rf"^{ACTION_SOURCE_PREFIX}\d+$")
UPLOAD_CALLBACK = "masis_upload"
UPLOAD_FILES_BLOCK, UPLOAD_FILES_ACTION = "files", "files"
UPLOAD_TEXT_BLOCK, UPLOAD_TEXT_ACTION = "paste", "text"
UPLOAD_NAME_BLOCK, UPLOAD_NAME_ACTION = "paste_name", "name"

STAGES = {
    "researching": (":mag:", "Searching this channel's documents"),
    "writing": (":writing_hand:", "Writing a cited draft"),
    "auditing": (":face_with_monocle:", "Auditing every citation"),
    "scoring": (":bar_chart:", "Scoring the answer"),
}

SCORE_LABELS = (
    ("faithfulness", "Faithfulness"),
    ("relevance", "Relevance"),
    ("completeness", "Completeness"),
    ("reasoning_quality", "Reasoning"),
)


class Message(TypedDict):
    text: str
    blocks: list[dict[str, Any]]


# --- text helpers -----------------------------------------------------------------------------------


def escape(text: str) -> str:
    """Slack mrkdwn escaping: `&`, `<`, `>` — which also neutralises mentions and links."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def markdown_to_mrkdwn(text: str) -> str:
    """The few Markdown habits of language models that Slack's mrkdwn spells differently."""
    text = re.sub(r"\*\*(.+?)\*\*", r"*\1*", text)
    text = re.sub(r"(?m)^#{1,6}\s+(.+)$", r"*\1*", text)
    return text


def truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def split_text(text: str, limit: int = MAX_SECTION_CHARS) -> list[str]:
    """Pieces of `text`, each ≤ `limit` characters, cut at paragraph, line, sentence or word ends."""
    text = text.strip()
    pieces: list[str] = []
    while len(text) > limit:
        window = text[:limit]
        cut = -1
        for sep in ("\n\n", "\n", ". ", " "):
            cut = window.rfind(sep)
            if cut > limit // 3:
                cut += len(sep) if sep == ". " else 0
                break
        if cut <= 0:
            cut = limit
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    if text:
        pieces.append(text)
    return pieces


def number_citations(answer: str, citations: Sequence[Citation]) -> str:
    """`[strategy_memo.pdf#3]` → `[1]`, numbered as the engine numbered them (order of first use)."""
    return renumber(answer, {c.chunk_id: c.number for c in citations}, _raw_id)


def _raw_id(chunk_id: str) -> str:
    return f"[`{chunk_id}`]"


def percent(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{round(normalize_confidence(value) * 100)}%"


def score(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, int | float) and not isinstance(value, bool) else "n/a"


def user_ref(user: str | None) -> str:
    """`<@U123>` for a Slack user id, the escaped text otherwise (e.g. "cli")."""
    if user and re.fullmatch(r"[UW][A-Z0-9]{2,}", user):
        return f"<@{user}>"
    return escape(user or "unknown")


def human_size(size: int | None) -> str:
    if size is None:
        return "? B"
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


# --- block constructors ----------------------------------------------------------------------------


def section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": truncate(text, MAX_SECTION_CHARS)}}


def sections(text: str) -> list[dict[str, Any]]:
    return [section(piece) for piece in split_text(text)]


def context(*texts: str) -> dict[str, Any]:
    elements = [{"type": "mrkdwn", "text": truncate(t, MAX_SECTION_CHARS)} for t in texts if t]
    return {"type": "context", "elements": elements[:MAX_CONTEXT_ELEMENTS]}


def divider() -> dict[str, Any]:
    return {"type": "divider"}


def button(text: str, action_id: str, value: str, style: str | None = None) -> dict[str, Any]:
    if len(value) > MAX_BUTTON_VALUE:
        raise ValueError(f"button value of {len(value)} characters exceeds Slack's {MAX_BUTTON_VALUE}")
    element: dict[str, Any] = {
        "type": "button",
        "text": {"type": "plain_text", "text": truncate(text, MAX_BUTTON_TEXT), "emoji": True},
        "action_id": action_id,
        "value": value,
    }
    if style:
        element["style"] = style
    return element


def actions(block_id: str, elements: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "actions", "block_id": block_id, "elements": elements[:MAX_ACTIONS_ELEMENTS]}


def pack_lines(lines: Iterable[str], limit: int = MAX_SECTION_CHARS) -> list[str]:
    """Join lines into as few texts of ≤ `limit` characters as possible."""
    texts: list[str] = []
    current = ""
    for line in lines:
        line = truncate(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            texts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        texts.append(current)
    return texts


def fit(head: list[dict[str, Any]], body: list[dict[str, Any]], tail: list[dict[str, Any]],
        limit: int = MAX_MESSAGE_BLOCKS) -> list[dict[str, Any]]:
    """head + body + tail within `limit` blocks; an over-long body is cut with a note."""
    room = limit - len(head) - len(tail)
    if len(body) > room:
        body = [*body[: max(0, room - 1)], context("_…cut to fit Slack's message size._")]
    return [*head, *body, *tail][:limit]


def choice_value(thread_id: str, choice: str) -> str:
    return json.dumps({"thread": thread_id, "choice": choice}, separators=(",", ":"))


def parse_choice_value(value: str) -> tuple[str, str]:
    data = json.loads(value)
    return str(data["thread"]), str(data["choice"])


# --- answers ---------------------------------------------------------------------------------------


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


# --- clarifications --------------------------------------------------------------------------------

KIND_HINTS = {
    "conflict": "The documents disagree. Choose the source to trust below, or reply in this thread to say "
    "which one is right.",
    "low_confidence": "I could not verify an answer well enough. Reply in this thread with more detail "
    "(a period, a team, a document), or use the draft as it is.",
    "zero_results": "Reply in this thread with a rephrased question, or upload the documents that "
    "cover it with `/masis-upload`.",
}


def _clarification_head(clar: Clarification) -> list[dict[str, Any]]:
    head = [
        *sections(f":thinking_face: *I need your help to answer this.*\n{escape(clar.question)}"),
        context(KIND_HINTS.get(clar.kind, "Reply in this thread to continue.")),
    ]
    if clar.draft:
        draft = renumber(markdown_to_mrkdwn(escape(clar.draft)), {}, _raw_id)
        quoted = "\n".join(f">{line}" if line.strip() else ">" for line in draft.splitlines())
        head.append(divider())
        head.append(section("*Best draft so far — :warning: unverified, not yet an answer*"))
        head.extend(sections(quoted)[:10])
        head.append(
            context(
                "Unverified draft · "
                + scores_line(clar.draft_confidence, clar.draft_evaluation)
            )
        )
    return head


def clarification_message(outcome: Outcome) -> Message:
    """The question back to the user, the best draft marked unverified, and one button per choice."""
    clar = outcome.clarification
    if clar is None:
        raise ValueError("the outcome has no clarification to render")
    buttons = []
    if clar.draft:
        buttons.append(button("Use this draft", ACTION_ACCEPT, choice_value(outcome.thread_id, "accept"),
                              style="primary"))
    if clar.kind == "conflict":
        for index, option in enumerate(clar.options[: MAX_ACTIONS_ELEMENTS - 2]):
            buttons.append(
                button(f"Trust {option}", f"{ACTION_SOURCE_PREFIX}{index}",
                       choice_value(outcome.thread_id, f"source:{option}"))
            )
    buttons.append(button("Cancel", ACTION_CANCEL, choice_value(outcome.thread_id, "cancel"), style="danger"))
    tail = [
        actions("clarify_actions", buttons),
        context("Reply in this thread to answer; no need to mention me."),
    ]
    text = f"I need your help to answer this: {escape(clar.question)}"
    return {"text": truncate(text, MAX_FALLBACK_CHARS), "blocks": fit([], _clarification_head(clar), tail)}


def resolved_clarification_message(outcome: Outcome, note: str) -> Message:
    """The clarification as it was, without its buttons, plus who resolved it and how."""
    clar = outcome.clarification
    head = _clarification_head(clar) if clar else [section("_Clarification_")]
    return {
        "text": truncate(f"Clarification resolved: {note}", MAX_FALLBACK_CHARS),
        "blocks": fit([], head, [context(f":white_check_mark: {note}")]),
    }


def cancelled_message() -> Message:
    text = "Okay, I've dropped that question. Mention me to ask another one."
    return {"text": text, "blocks": [section(f":wave: {text}")]}


def outcome_message(outcome: Outcome) -> Message:
    if outcome.status == "answered":
        return answer_message(outcome)
    if outcome.status == "needs_clarification":
        return clarification_message(outcome)
    return cancelled_message()


# --- progress, errors, help -------------------------------------------------------------------------


def progress_message(stage: str | None = None, attempt: int = 1) -> Message:
    if stage is None:
        emoji, label = ":hourglass_flowing_sand:", "Working on it"
    else:
        emoji, label = STAGES.get(stage, (":hourglass_flowing_sand:", escape(stage.capitalize())))
    suffix = f" (attempt {attempt})" if attempt > 1 else ""
    text = f"{emoji} {label}…{suffix}"
    return {"text": text, "blocks": [context(text)]}


def error_message(text: str) -> Message:
    return {"text": text, "blocks": [section(f":warning: {escape(text)}")]}


def help_message() -> Message:
    text = (
        "Ask me about this channel's documents, e.g. `@masis What is our AI investment strategy?` "
        "I answer in a thread with numbered sources. Add documents with `/masis-upload`; "
        "`/masis-upload list` shows them and `/masis-upload remove NAME` deletes one."
    )
    return {"text": text, "blocks": [section(text)]}


def notice_message(text: str) -> Message:
    """A short plain notice (already safe mrkdwn from the bot itself)."""
    return {"text": text, "blocks": [section(text)]}


# --- documents -------------------------------------------------------------------------------------


def ingest_summary_message(results: Sequence[Any], uploaded_by: str | None = None) -> Message:
    """Per file: chunks indexed, unchanged, or the reason it failed. `results` are FileResult-like."""
    indexed = [r for r in results if r.status == "indexed"]
    failed = [r for r in results if r.status == "failed"]
    total = len(results)
    if not results:
        title = ":books: Nothing to index: no files or text were given."
    elif failed and not indexed:
        title = f":x: I could not index {'the file' if total == 1 else f'any of the {total} files'}."
    else:
        title = f":books: Indexed {len(indexed)} of {total} file{'s' if total != 1 else ''} for this channel."
    lines = [f"*{title}*"]
    for r in results:
        name = f"`{escape(r.name)}`"
        if r.status == "indexed":
            lines.append(f":white_check_mark: {name} — {r.chunks} chunk{'s' if r.chunks != 1 else ''}")
        elif r.status == "unchanged":
            lines.append(f":recycle: {name} — unchanged, already indexed")
        else:
            lines.append(f":x: {name} — {escape(r.reason or 'failed')}")
    footer = "Ask with `@masis <question>`."
    if uploaded_by:
        footer = f"Uploaded by {user_ref(uploaded_by)}. {footer}"
    blocks = fit([], [section(t) for t in pack_lines(lines)], [context(footer)])
    return {"text": truncate(title, MAX_FALLBACK_CHARS), "blocks": blocks}


def documents_message(documents: Sequence[Any]) -> Message:
    """The channel's documents (DocumentInfo-like), newest knowledge of what the bot can cite."""
    if not documents:
        text = "No documents in this channel yet. Add some with `/masis-upload`."
        return {"text": text, "blocks": [section(f":books: {text}")]}
    lines = [f"*:books: {len(documents)} document{'s' if len(documents) != 1 else ''} in this channel*"]
    for d in documents:
        parts = [f"{d.chunks} chunk{'s' if d.chunks != 1 else ''}"]
        if getattr(d, "pages", None):
            parts.append(f"{d.pages} page{'s' if d.pages != 1 else ''}")
        parts.append(human_size(getattr(d, "size_bytes", None)))
        added = f"added by {user_ref(getattr(d, 'uploaded_by', None))}"
        when = str(getattr(d, "uploaded_at", "") or "")[:10]
        if when:
            added += f" on {when}"
        parts.append(added)
        lines.append(f"• `{escape(d.name)}` — " + " · ".join(parts))
    blocks = fit([], [section(t) for t in pack_lines(lines)],
                 [context("Remove one with `/masis-upload remove NAME`.")])
    return {"text": f"{len(documents)} documents in this channel", "blocks": blocks}


# --- modals ----------------------------------------------------------------------------------------


def _plain(text: str, limit: int = 150) -> dict[str, Any]:
    return {"type": "plain_text", "text": truncate(text, limit), "emoji": True}


def upload_modal(private_metadata: str, channel_label: str | None = None) -> dict[str, Any]:
    where = f"*{escape(channel_label)}*" if channel_label else "this channel"
    return {
        "type": "modal",
        "callback_id": UPLOAD_CALLBACK,
        "private_metadata": private_metadata,
        "title": _plain("Upload documents", 24),
        "submit": _plain("Index", 24),
        "close": _plain("Cancel", 24),
        "blocks": [
            section(f"Documents you add here are searchable from {where} only."),
            {
                "type": "input",
                "block_id": UPLOAD_FILES_BLOCK,
                "optional": True,
                "label": _plain("Files (pdf, docx, txt, md, html, csv; up to 10)"),
                "element": {
                    "type": "file_input",
                    "action_id": UPLOAD_FILES_ACTION,
                    "filetypes": UPLOAD_FILETYPES,
                    "max_files": 10,
                },
            },
            {
                "type": "input",
                "block_id": UPLOAD_TEXT_BLOCK,
                "optional": True,
                "label": _plain("Or paste text"),
                "element": {
                    "type": "plain_text_input",
                    "action_id": UPLOAD_TEXT_ACTION,
                    "multiline": True,
                    "max_length": 3000,
                },
            },
            {
                "type": "input",
                "block_id": UPLOAD_NAME_BLOCK,
                "optional": True,
                "label": _plain("Name for the pasted text"),
                "hint": _plain("Used in citations, e.g. meeting_notes.md"),
                "element": {
                    "type": "plain_text_input",
                    "action_id": UPLOAD_NAME_ACTION,
                    "max_length": 80,
                    "placeholder": _plain("pasted_text.md"),
                },
            },
        ],
    }


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
        "title": _plain("Why this answer?", 24),
        "close": _plain("Close", 24),
        "blocks": fit([], blocks, [], limit=MAX_MODAL_BLOCKS),
    }


def why_missing_modal() -> dict[str, Any]:
    return {
        "type": "modal",
        "title": _plain("Why this answer?", 24),
        "close": _plain("Close", 24),
        "blocks": [section("I no longer have the audit trail of this answer. Ask the question again to see it.")],
    }
