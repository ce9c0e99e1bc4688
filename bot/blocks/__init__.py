"""Block Kit rendering: every message and modal the bot shows, as pure functions of the engine's results.

One module per surface: `answers` (answers and their sources), `clarifications`, `status` (progress,
errors, help), `documents` (uploads and the document list), `why` (the audit-trail modal); the shared
building blocks and Slack's limits are in `elements`, the action ids in `ids`.
"""

from bot.blocks.answers import SCORE_LABELS, answer_message, number_citations, scores_line, sources_lines
from bot.blocks.clarifications import (
    KIND_HINTS,
    cancelled_message,
    clarification_message,
    resolved_clarification_message,
)
from bot.blocks.documents import UPLOAD_FILETYPES, documents_message, ingest_summary_message, upload_modal
from bot.blocks.elements import (
    MAX_ACTIONS_ELEMENTS,
    MAX_BUTTON_TEXT,
    MAX_BUTTON_VALUE,
    MAX_CONTEXT_ELEMENTS,
    MAX_FALLBACK_CHARS,
    MAX_MESSAGE_BLOCKS,
    MAX_MODAL_BLOCKS,
    MAX_SECTION_CHARS,
    Message,
    actions,
    button,
    context,
    divider,
    escape,
    fit,
    human_size,
    markdown_to_mrkdwn,
    pack_lines,
    percent,
    score,
    section,
    sections,
    split_text,
    truncate,
    user_ref,
)
from bot.blocks.ids import (
    ACTION_ACCEPT,
    ACTION_CANCEL,
    ACTION_FEEDBACK_DOWN,
    ACTION_FEEDBACK_UP,
    ACTION_SOURCE,
    ACTION_SOURCE_PREFIX,
    ACTION_WHY,
    UPLOAD_CALLBACK,
    UPLOAD_FILES_ACTION,
    UPLOAD_FILES_BLOCK,
    UPLOAD_NAME_ACTION,
    UPLOAD_NAME_BLOCK,
    UPLOAD_TEXT_ACTION,
    UPLOAD_TEXT_BLOCK,
    choice_value,
    parse_choice_value,
)
from bot.blocks.outcome import outcome_message
from bot.blocks.status import STAGES, error_message, help_message, notice_message, progress_message
from bot.blocks.why import why_missing_modal, why_modal

__all__ = [
    "ACTION_ACCEPT", "ACTION_CANCEL", "ACTION_FEEDBACK_DOWN", "ACTION_FEEDBACK_UP", "ACTION_SOURCE",
    "ACTION_SOURCE_PREFIX", "ACTION_WHY", "KIND_HINTS", "MAX_ACTIONS_ELEMENTS", "MAX_BUTTON_TEXT",
    "MAX_BUTTON_VALUE", "MAX_CONTEXT_ELEMENTS", "MAX_FALLBACK_CHARS", "MAX_MESSAGE_BLOCKS", "MAX_MODAL_BLOCKS",
    "MAX_SECTION_CHARS", "SCORE_LABELS", "STAGES", "UPLOAD_CALLBACK", "UPLOAD_FILES_ACTION", "UPLOAD_FILES_BLOCK",
    "UPLOAD_FILETYPES", "UPLOAD_NAME_ACTION", "UPLOAD_NAME_BLOCK", "UPLOAD_TEXT_ACTION", "UPLOAD_TEXT_BLOCK",
    "Message", "actions", "answer_message", "button", "cancelled_message", "choice_value",
    "clarification_message", "context", "divider", "documents_message", "error_message", "escape", "fit",
    "help_message", "human_size", "ingest_summary_message", "markdown_to_mrkdwn", "notice_message",
    "number_citations", "outcome_message", "pack_lines", "parse_choice_value", "percent", "progress_message",
    "resolved_clarification_message", "score", "scores_line", "section", "sections", "sources_lines",
    "split_text", "truncate", "upload_modal", "user_ref", "why_missing_modal", "why_modal",
]
