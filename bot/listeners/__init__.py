"""Bolt listeners grouped by Slack surface; each module has `register(app, ...)`. Handlers stay short:
they ack, read the payload, and hand over to `bot.conversation` / `bot.uploads`."""

from __future__ import annotations

from slack_bolt import App

from bot.assistant import AssistantView
from bot.conversation import Conversations
from bot.deps import BotDeps
from bot.listeners import actions, commands, events, lifecycle, views
from bot.uploads import Uploads


def register_all(app: App, deps: BotDeps) -> None:
    uploads = Uploads(deps)
    assistant = AssistantView(deps)
    conversations = Conversations(deps, uploads, assistant)
    events.register(app, conversations, assistant)
    commands.register(app, uploads)
    views.register(app, uploads)
    actions.register(app, conversations, deps)
    lifecycle.register(app, deps.jobs)
