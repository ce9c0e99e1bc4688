"""At-most-once handling of Slack deliveries, persisted so a restarted bot still recognises a retry.

Slack redelivers an event (with `X-Slack-Retry-Num`) when the ack was slow or lost, and an @mention
arrives twice, as `app_mention` and as `message`, with different event ids. Both are claimed here: the
first caller of `claim(key)` gets True, every later one False, until the key expires.
"""

from __future__ import annotations

import time

from bot.db import BotDB

DEFAULT_TTL_SECONDS = 24 * 3600  # Slack retries for minutes; a day is generous and keeps the table small


class Deduper:
    def __init__(self, db: BotDB, ttl_seconds: float = DEFAULT_TTL_SECONDS) -> None:
        self._db = db
        self._ttl = ttl_seconds
        self._claims = 0
        self.purge()

    def claim(self, key: str) -> bool:
        """True the first time `key` is seen (within the expiry), False for a repeat."""
        now = time.time()
        with self._db.cursor() as cur:
            cur.execute("DELETE FROM deliveries WHERE key = ? AND seen_at < ?", (key, now - self._ttl))
            # the unique key decides, across replicas too: only one INSERT of a key inserts a row
            first = cur.execute(
                "INSERT INTO deliveries (key, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING", (key, now)
            ).rowcount == 1
        self._claims += 1
        if self._claims % 500 == 0:
            self.purge()
        return first

    def purge(self) -> int:
        """Forget expired keys; returns how many."""
        with self._db.cursor() as cur:
            return int(cur.execute("DELETE FROM deliveries WHERE seen_at < ?", (time.time() - self._ttl,)).rowcount)


def event_key(event_id: str) -> str:
    return f"event:{event_id}"


def message_key(channel_id: str, ts: str) -> str:
    return f"message:{channel_id}:{ts}"
