"""Events API: @mentions and messages (channels, private channels, DMs), and the assistant split view's
thread events. Bolt acks events at once."""

from __future__ import annotations

from typing import Any

from slack_bolt import App, BoltContext

from bot.assistant import AssistantView
from bot.conversation import Conversations


def register(app: App, conversations: Conversations, assistant: AssistantView) -> None:
    def handle(event: dict[str, Any], body: dict[str, Any], context: BoltContext) -> None:
        team_id = context.team_id or body.get("team_id") or event.get("team") or ""
        conversations.on_message(event, team_id=team_id, bot_user_id=context.bot_user_id)

    app.event("app_mention")(handle)
    app.event("message")(handle)

    @app.event("assistant_thread_started")
    def started(event: dict[str, Any], body: dict[str, Any], context: BoltContext) -> None:
        assistant.on_context(event, team_id=context.team_id or body.get("team_id") or "", started=True)

    @app.event("assistant_thread_context_changed")
    def changed(event: dict[str, Any], body: dict[str, Any], context: BoltContext) -> None:
        assistant.on_context(event, team_id=context.team_id or body.get("team_id") or "", started=False)
