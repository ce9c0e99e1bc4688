"""The message for an engine Outcome, whichever kind it is."""

from __future__ import annotations

from bot.blocks.answers import answer_message, number_citations
from bot.blocks.clarifications import cancelled_message, clarification_message
from bot.blocks.elements import MAX_FALLBACK_CHARS, Message, escape, section, truncate
from masis.outcome import Outcome


def outcome_message(outcome: Outcome) -> Message:
    if outcome.status == "answered":
        return answer_message(outcome)
    if outcome.status == "needs_clarification":
        return clarification_message(outcome)
    return cancelled_message()


FALLBACK_ANSWER_CHARS = 2500


def fallback_message(outcome: Outcome) -> Message:
    """A short version of the outcome for when Slack refuses the full message: one section, no buttons,
    still escaped. A pending question can still be answered by replying in the thread."""
    if outcome.status == "answered":
        answer = truncate(number_citations(escape(outcome.answer or ""), outcome.citations), FALLBACK_ANSWER_CHARS)
        names = ", ".join(dict.fromkeys(f"[{c.number}] {escape(c.doc_name)}" for c in outcome.citations))
        text = f"{answer}\n\nSources: {names}" if names else answer
        text += "\n_(Slack could not show this answer in full; this is a short version.)_"
        if outcome.reading:
            text = f"_Reading this as: {escape(outcome.reading)}_\n{text}"
    elif outcome.status == "needs_clarification" and outcome.clarification is not None:
        text = (f"I need your help to answer this: {escape(outcome.clarification.question)}\n"
                "Reply in this thread to continue.")
    else:
        return cancelled_message()
    text = truncate(text, MAX_FALLBACK_CHARS)
    return {"text": text, "blocks": [section(text)]}
