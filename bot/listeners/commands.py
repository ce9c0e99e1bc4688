"""`/masis-upload` (opens the upload modal), `/masis-upload list`, `/masis-upload remove NAME`.

`list` and `remove` are quick registry operations, answered in the ack itself (an ephemeral reply that
works even in channels the bot has not joined).
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App, Respond

from bot import blocks
from bot.friendly import user_message
from bot.uploads import Uploads

log = logging.getLogger(__name__)

COMMAND = "/masis-upload"


def register(app: App, uploads: Uploads) -> None:
    @app.command(COMMAND)
    def masis_upload(ack: Ack, command: dict[str, Any], respond: Respond) -> None:
        text = " ".join((command.get("text") or "").split())
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        team_id, channel_id = command.get("team_id", ""), command.get("channel_id", "")
        if verb in ("", "upload", "add"):
            ack()
            try:
                uploads.deps.client.views_open(  # the client that redacts
                    trigger_id=command["trigger_id"],
                    view=uploads.modal(team_id, channel_id, command.get("channel_name")),
                )
            except Exception as exc:
                log.exception("opening the upload modal failed")
                message = blocks.error_message(user_message(exc, doing="opening the upload form"))
                respond(response_type="ephemeral", replace_original=False, **message)
            return
        try:
            if verb in ("list", "ls", "docs"):
                message = uploads.documents(team_id, channel_id)
            elif verb in ("remove", "rm", "delete"):
                message = uploads.remove(team_id, channel_id, rest)
            else:
                message = blocks.help_message()
        except Exception as exc:
            log.exception("%s %s failed", COMMAND, verb)
            message = blocks.error_message(user_message(exc, doing=f"running {COMMAND} {verb}"))
        ack(response_type="ephemeral", **message)
