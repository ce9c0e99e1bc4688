"""A clarifying question: what happened, the best draft marked unverified, and one button per choice."""

from __future__ import annotations

from typing import Any

from bot.blocks.answers import raw_id, reading_block, scores_line
from bot.blocks.elements import (
    MAX_ACTIONS_ELEMENTS,
    MAX_FALLBACK_CHARS,
    Message,
    actions,
    button,
    context,
    divider,
    escape,
    fit,
    markdown_to_mrkdwn,
    section,
    sections,
    truncate,
)
from bot.blocks.ids import ACTION_ABOUT_PREFIX, ACTION_ACCEPT, ACTION_CANCEL, ACTION_SOURCE_PREFIX, choice_value
from masis.judge.citations import renumber
from masis.outcome import Clarification, Outcome

KIND_HINTS = {
    "conflict": "The documents disagree. Choose the source to trust below, or reply in this thread to say "
    "which one is right.",
    "near_miss": "The documents cover the topic but not this detail. Reply in this thread with the detail you "
    "mean, or use the nearest passage as it is.",
    "low_confidence": "I could not verify an answer well enough. Reply in this thread with more detail "
    "(a period, a team, a document), or use the draft as it is.",
    "zero_results": "Reply in this thread with a rephrased question, or upload the documents that "
    "cover it with `/masis-upload`.",
    "unclear_reference": "Pick what your question is about below, or reply in this thread with it.",
}


def _clarification_head(clar: Clarification) -> list[dict[str, Any]]:
    head = [
        *sections(f":thinking_face: *I need your help to answer this.*\n{escape(clar.question)}"),
        context(KIND_HINTS.get(clar.kind, "Reply in this thread to continue.")),
    ]
    if clar.draft:
        draft = renumber(markdown_to_mrkdwn(escape(clar.draft)), {}, raw_id)
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
    if clar.kind == "unclear_reference":
        for index, option in enumerate(clar.options[: MAX_ACTIONS_ELEMENTS - 2]):
            buttons.append(button(option, f"{ACTION_ABOUT_PREFIX}{index}",
                                  choice_value(outcome.thread_id, f"about:{option}")))
    buttons.append(button("Cancel", ACTION_CANCEL, choice_value(outcome.thread_id, "cancel"), style="danger"))
    tail = [
        actions("clarify_actions", buttons),
        context("Reply in this thread to answer; no need to mention me."),
    ]
    text = f"I need your help to answer this: {escape(clar.question)}"
    read_as = reading_block(outcome)
    head = [read_as, *_clarification_head(clar)] if read_as else _clarification_head(clar)
    return {"text": truncate(text, MAX_FALLBACK_CHARS), "blocks": fit([], head, tail)}


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

