"""The app's own lifecycle in a team: uninstalled, or its tokens revoked. The work for that team stops;
its documents and conversations are kept (an admin deletes them with `masis docs --remove`, or by
removing the data directory), since a reinstall should find them again."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import App, BoltContext

from bot.jobs import Jobs

log = logging.getLogger(__name__)


def register(app: App, jobs: Jobs) -> None:
    def stop(team_id: str | None, why: str) -> None:
        if not team_id:
            log.warning("%s without a team id; nothing to stop", why)
            return
        jobs.stop_team(team_id)
        log.warning("%s for team %s: its queued work is dropped and new requests are ignored until a "
                    "restart; its documents and conversations are kept", why, team_id)

    @app.event("app_uninstalled")
    def uninstalled(body: dict[str, Any], context: BoltContext) -> None:
        stop(context.team_id or body.get("team_id"), "the app was uninstalled")

    @app.event("tokens_revoked")
    def revoked(event: dict[str, Any], body: dict[str, Any], context: BoltContext) -> None:
        bot_users = (event.get("tokens") or {}).get("bot") or []
        if bot_users:  # only user tokens revoked: the bot (which uses none) goes on working
            stop(context.team_id or body.get("team_id"), "the bot token was revoked")
        else:
            log.info("user tokens were revoked in team %s; the bot does not use them", body.get("team_id"))
