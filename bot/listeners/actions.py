"""Buttons: clarification choices, 👍 / 👎 feedback (native feedback buttons), and "Why this answer?"."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App

from bot import blocks
from bot.conversation import Conversations
from bot.deps import BotDeps
from bot.ids import parse_thread_id

log = logging.getLogger(__name__)


def _where(body: dict[str, Any]) -> tuple[str, str]:
    """(channel id, message ts) of the message that carries the button."""
    container = body.get("container") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id") or ""
    ts = container.get("message_ts") or (body.get("message") or {}).get("ts") or ""
    return channel, ts


def _thread_in_channel(thread_id: str, channel_id: str) -> bool:
    """A button only acts on a thread of the channel it was clicked in."""
    try:
        return parse_thread_id(thread_id).channel_id == channel_id
    except ValueError:
        return False


def register(app: App, conversations: Conversations, deps: BotDeps) -> None:
    def choice(ack: Ack, body: dict[str, Any], action: dict[str, Any]) -> None:
        ack()
        thread_id, chosen = blocks.parse_choice_value(action["value"])
        channel_id, message_ts = _where(body)
        if not _thread_in_channel(thread_id, channel_id):
            log.warning("ignoring a clarification button for %s clicked in %s", thread_id, channel_id)
            return
        conversations.on_choice(
            thread_id=thread_id, choice=chosen, user_id=body["user"]["id"],
            channel_id=channel_id, message_ts=message_ts,
        )

    app.action(blocks.ACTION_ACCEPT)(choice)
    app.action(blocks.ACTION_CANCEL)(choice)
    app.action(blocks.ACTION_SOURCE)(choice)
    app.action(blocks.ACTION_ABOUT)(choice)

    def feedback(ack: Ack, body: dict[str, Any], action: dict[str, Any]) -> None:
        ack()
        channel_id, _ = _where(body)
        thread_id, run, vote = blocks.parse_feedback_value(action.get("value") or "")
        if not _thread_in_channel(thread_id, channel_id):
            return
        if vote is None:  # an older 👍 / 👎 button: the vote is its action id
            vote = "up" if action["action_id"] == blocks.ACTION_FEEDBACK_UP else "down"
        conversations.on_feedback(thread_id=thread_id, run=run, user_id=body["user"]["id"], value=vote)

    app.action(blocks.ACTION_FEEDBACK)(feedback)
    app.action(blocks.ACTION_FEEDBACK_UP)(feedback)
    app.action(blocks.ACTION_FEEDBACK_DOWN)(feedback)

    @app.action(blocks.ACTION_WHY)
    def why(ack: Ack, body: dict[str, Any]) -> None:
        ack()
        channel_id, message_ts = _where(body)
        outcome = deps.ledger.answer(channel_id, message_ts)
        view = blocks.why_modal(outcome) if outcome else blocks.why_missing_modal()
        deps.client.views_open(trigger_id=body["trigger_id"], view=view)  # the client that redacts
