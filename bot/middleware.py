"""Global Bolt middleware: drop repeated deliveries of one event (Slack's retries) before any listener."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_bolt import BoltResponse

from bot.dedupe import Deduper, event_key

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
