"""Block Kit building blocks and Slack's limits, enforced here in one place: a section's text ≤ 3000
characters, ≤ 50 blocks a message (100 a modal), ~12,000 characters of text a message, button labels ≤ 75
characters, values ≤ 2000. Text from documents or the model is escaped, so `<!channel>` or `<@U123>` inside
a document is shown, never executed, and every mrkdwn text is `verbatim` (Slack links nothing by itself).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypedDict

from masis import sizes
from masis.judge.scoring import normalize_confidence

MAX_SECTION_CHARS = 3000
MAX_MESSAGE_BLOCKS = 50
MAX_MODAL_BLOCKS = 100
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_CONTEXT_ELEMENTS = 10
MAX_FALLBACK_CHARS = 3000
MAX_ACTIONS_ELEMENTS = 25
# Slack refuses a message whose blocks hold more than ~12,000 characters of text in all
# (`msg_blocks_too_long`, below the documented per-block limits); keep a margin under it
MAX_MESSAGE_CHARS = 11_000
MAX_MARKDOWN_CHARS = 12_000  # a markdown block, and all of a message's markdown blocks together


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


_MARKDOWN_ESCAPES = str.maketrans({c: "\\" + c for c in "\\&<>[]"})
_WORD_JOINER = "\u2060"  # invisible: breaks what Slack would link or ping, shows the same text


def markdown_safe(text: str) -> str:
    """Text for a standard-Markdown block that keeps the model's formatting (bold, headings, lists, code)
    but can form no link, image, HTML, entity, mention or ping: `& < > [ ] \\` are backslash-escaped, and
    `<`, bare URLs and @channel-style words get an invisible word joiner, so no Slack token (`<!channel>`,
    `<@U…>`, `<http…|…>`) can form and Slack links or pings nothing."""
    text = text.translate(_MARKDOWN_ESCAPES).replace("\\<", "\\<" + _WORD_JOINER)  # no <!…>, <@…>, <http…>
    text = re.sub(r"(?i)(\w)://", rf"\1:{_WORD_JOINER}//", text)
    text = re.sub(r"(?i)\bwww\.", f"www{_WORD_JOINER}.", text)
    return re.sub(r"(?i)@(channel|here|everyone)\b", rf"@{_WORD_JOINER}\1", text)


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
    """A document's size as the limits are written (binary units), or "? B" when unknown."""
    return "? B" if size is None else sizes.human_size(size)


# --- block constructors ----------------------------------------------------------------------------


def mrkdwn(text: str, limit: int = MAX_SECTION_CHARS) -> dict[str, Any]:
    """A mrkdwn text object that Slack shows as written: `verbatim` turns off its own linking of URLs,
    `#channel` names and mentions, which escaping alone does not cover."""
    return {"type": "mrkdwn", "text": truncate(text, limit), "verbatim": True}


def markdown(text: str) -> dict[str, Any]:
    """A standard-Markdown block (Slack renders headings, bold, lists, code); `text` must already be
    `markdown_safe` where it holds anything from a document or the model."""
    return {"type": "markdown", "text": truncate(text, MAX_MARKDOWN_CHARS)}


def section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": mrkdwn(text)}


def sections(text: str) -> list[dict[str, Any]]:
    return [section(piece) for piece in split_text(text)]


def context(*texts: str) -> dict[str, Any]:
    elements = [mrkdwn(t) for t in texts if t]
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


def text_chars(blocks: Iterable[Any]) -> int:
    """The characters of text in blocks, as Slack counts them towards a message's total."""
    total = 0
    for item in blocks:
        if isinstance(item, dict):
            total += sum(len(v) if k == "text" and isinstance(v, str) else text_chars([v]) for k, v in item.items())
        elif isinstance(item, list):
            total += text_chars(item)
    return total


CUT_NOTE = "_…cut to fit Slack's message size._"


def fit(head: list[dict[str, Any]], body: list[dict[str, Any]], tail: list[dict[str, Any]],
        limit: int = MAX_MESSAGE_BLOCKS, max_chars: int | None = MAX_MESSAGE_CHARS) -> list[dict[str, Any]]:
    """head + body + tail within `limit` blocks and `max_chars` of text; an over-long body is cut (its
    last kept section shortened if need be) with a note."""
    room = limit - len(head) - len(tail)
    chars = None if max_chars is None else max_chars - text_chars(head) - text_chars(tail)
    if len(body) <= room and (chars is None or text_chars(body) <= chars):
        return [*head, *body, *tail]
    note = context(CUT_NOTE)
    kept: list[dict[str, Any]] = []
    left = None if chars is None else chars - text_chars([note])
    for block in body[: max(0, room - 1)]:
        size = text_chars([block])
        if left is not None and size > left:
            if block.get("type") == "section" and left > 200:
                kept.append(section(truncate(block["text"]["text"], left)))
            break
        kept.append(block)
        if left is not None:
            left -= size
    return [*head, *kept, note, *tail][:limit]



def plain(text: str, limit: int = 150) -> dict[str, Any]:
    return {"type": "plain_text", "text": truncate(text, limit), "emoji": True}

