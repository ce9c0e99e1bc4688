"""Global Bolt middleware, before any listener: drop repeated deliveries of one event (Slack's retries),
drop requests from a team the app no longer works for, and note Slack's `app_rate_limited` notices."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_bolt import BoltContext, BoltResponse

from bot.dedupe import Deduper, event_key
from bot.jobs import Jobs

log = logging.getLogger(__name__)


def dedupe_events(deduper: Deduper) -> Callable[..., BoltResponse | None]:
    def dedupe(body: dict[str, Any], next: Callable[[], None]) -> BoltResponse | None:
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        if event_id and not deduper.claim(event_key(str(event_id))):
            log.info("ignoring a repeated delivery of %s", event_id)
            return BoltResponse(status=200, body="")
        next()
        return None

    return dedupe


LIFECYCLE_EVENTS = frozenset({"app_uninstalled", "tokens_revoked"})


def skip_stopped_teams(jobs: Jobs) -> Callable[..., BoltResponse | None]:
    """After `app_uninstalled` / `tokens_revoked`, a team's events, commands and clicks start no work."""

    def skip(body: dict[str, Any], context: BoltContext, next: Callable[[], None]) -> BoltResponse | None:
        event_type = (body.get("event") or {}).get("type")
        if event_type not in LIFECYCLE_EVENTS and jobs.is_stopped(context.team_id):
            log.info("ignoring a %s from team %s: the app no longer works there", body.get("type"), context.team_id)
            return BoltResponse(status=200, body="")
        next()
        return None

    return skip


def note_rate_limits(body: dict[str, Any], next: Callable[[], None]) -> BoltResponse | None:
    """Slack's `app_rate_limited` (no inner event, so no listener matches it): Slack is dropping this
    team's events for a minute because the app got over 30,000 an hour. Logged, and acknowledged."""
    if body.get("type") == "app_rate_limited":
        log.warning("Slack is rate-limiting this app's events for team %s (minute %s): some events are lost",
                    body.get("team_id"), body.get("minute_rate_limited"))
        return BoltResponse(status=200, body="")
    next()
    return None
