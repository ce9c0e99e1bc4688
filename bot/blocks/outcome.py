"""The message for an engine Outcome, whichever kind it is."""

from __future__ import annotations

from bot.blocks.answers import answer_message
from bot.blocks.clarifications import cancelled_message, clarification_message
from bot.blocks.elements import Message
from masis.state import Outcome


def outcome_message(outcome: Outcome) -> Message:
    if outcome.status == "answered":
        return answer_message(outcome)
    if outcome.status == "needs_clarification":
        return clarification_message(outcome)
    return cancelled_message()
