"""Progress, errors, help and short notices."""

from __future__ import annotations

from bot.blocks.elements import Message, context, escape, section

STAGES = {
    "researching": (":mag:", "Searching this channel's documents"),
    "writing": (":writing_hand:", "Writing a cited draft"),
    "auditing": (":face_with_monocle:", "Auditing every citation"),
    "scoring": (":bar_chart:", "Scoring the answer"),
}


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

