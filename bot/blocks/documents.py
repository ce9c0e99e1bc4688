"""Documents: what an upload indexed, the channel's document list, and the upload modal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.blocks.elements import (
    MAX_FALLBACK_CHARS,
    Message,
    context,
    escape,
    fit,
    human_size,
    pack_lines,
    plain,
    section,
    truncate,
    user_ref,
)
from bot.blocks.ids import (
    UPLOAD_CALLBACK,
    UPLOAD_FILES_ACTION,
    UPLOAD_FILES_BLOCK,
    UPLOAD_NAME_ACTION,
    UPLOAD_NAME_BLOCK,
    UPLOAD_TEXT_ACTION,
    UPLOAD_TEXT_BLOCK,
)

# masis.ingest's formats: documents, then configuration files read as text
UPLOAD_FILETYPES = ["pdf", "docx", "pptx", "xlsx", "txt", "md", "rst", "html", "csv", "conf", "cfg", "ini", "toml",
                    "yaml", "yml"]


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



def upload_modal(private_metadata: str, channel_label: str | None = None) -> dict[str, Any]:
    where = f"*{escape(channel_label)}*" if channel_label else "this channel"
    return {
        "type": "modal",
        "callback_id": UPLOAD_CALLBACK,
        "private_metadata": private_metadata,
        "title": plain("Upload documents", 24),
        "submit": plain("Index", 24),
        "close": plain("Cancel", 24),
        "blocks": [
            section(f"Documents you add here are searchable from {where} only."),
            {
                "type": "input",
                "block_id": UPLOAD_FILES_BLOCK,
                "optional": True,
                "label": plain(f"Files ({', '.join(UPLOAD_FILETYPES)}; up to 10)"),
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
                "label": plain("Or paste text"),
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
                "label": plain("Name for the pasted text"),
                "hint": plain("Used in citations, e.g. meeting_notes.md"),
                "element": {
                    "type": "plain_text_input",
                    "action_id": UPLOAD_NAME_ACTION,
                    "max_length": 80,
                    "placeholder": plain("pasted_text.md"),
                },
            },
        ],
    }
