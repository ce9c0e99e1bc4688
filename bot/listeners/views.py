"""The upload modal's submission: validate in the ack (errors show in the modal), index afterwards."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, BoltContext

from bot import blocks
from bot.uploads import Uploads


def register(app: App, uploads: Uploads) -> None:
    @app.view(blocks.UPLOAD_CALLBACK)
    def upload_submitted(ack: Ack, body: dict[str, Any], view: dict[str, Any], context: BoltContext) -> None:
        team_id = context.team_id or (body.get("team") or {}).get("id") or ""
        submission = uploads.parse_submission(view, fallback_team=team_id)
        errors = uploads.validate(submission)
        if errors:
            ack(response_action="errors", errors=errors)
            return
        ack()
        uploads.submit(submission, body["user"]["id"])
