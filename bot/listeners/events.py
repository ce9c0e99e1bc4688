"""Events API: @mentions and messages (channels, private channels, DMs). Bolt acks events at once."""

from __future__ import annotations

from typing import Any

from slack_bolt import App, BoltContext

from bot.conversation import Conversations


def register(app: App, conversations: Conversations) -> None:
    def handle(event: dict[str, Any], body: dict[str, Any], context: BoltContext) -> None:
        team_id = context.team_id or body.get("team_id") or event.get("team") or ""
        conversations.on_message(event, team_id=team_id, bot_user_id=context.bot_user_id)

    app.event("app_mention")(handle)
    app.event("message")(handle)
