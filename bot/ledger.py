"""What the bot posted that it must find again later, persisted across restarts.

- the message that asked a thread's current clarifying question: a reply written before it was posted,
  or a button on an older question, does not answer it;
- each answer's Outcome, for its "Why this answer?" button;
- each user's last channel context in the assistant split view (the channel they opened it from);
- the work under way (a question being answered, documents being indexed), so that after a crash the
  restarted bot can tell each thread its work was lost instead of leaving it silent.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any, NamedTuple

from bot.db import BotDB
from masis.errors import DatabaseUnavailableError
from masis.records.db import process_owner

log = logging.getLogger(__name__)


class WorkInFlight(NamedTuple):
    key: str
    kind: str  # "ask" | "reply" | "upload"
    channel_id: str
    thread_ts: str | None
    status_ts: str | None


class ClarificationPost(NamedTuple):
    channel_id: str
    message_ts: str
    outcome: dict[str, Any]


ANSWER_TTL_SECONDS = 90 * 24 * 3600  # how long "Why this answer?" keeps working


class Ledger:
    def __init__(self, db: BotDB) -> None:
        self._db = db
        self._opened_at = time.time()
        self._unended: set[str] = set()  # work that ended while the database was down
        self._unended_guard = threading.Lock()
        with self._db.cursor() as cur:
            cur.execute("DELETE FROM answers WHERE posted_at < ?", (time.time() - ANSWER_TTL_SECONDS,))

    # --- clarifications ----------------------------------------------------------------------------
    def record_clarification(
        self, thread_id: str, channel_id: str, message_ts: str, outcome: dict[str, Any]
    ) -> None:
        with self._db.cursor() as cur:
            cur.execute(
                "INSERT INTO clarification_posts "
                "(thread_id, channel_id, message_ts, outcome_json, posted_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (thread_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "message_ts = excluded.message_ts, outcome_json = excluded.outcome_json, "
                "posted_at = excluded.posted_at",
                (thread_id, channel_id, message_ts, json.dumps(outcome, default=str), time.time()),
            )

    def clarification(self, thread_id: str) -> ClarificationPost | None:
        with self._db.cursor() as cur:
            row = cur.execute(
                "SELECT channel_id, message_ts, outcome_json FROM clarification_posts WHERE thread_id = ?",
                (thread_id,),
            ).fetchone()
        return ClarificationPost(row[0], row[1], json.loads(row[2])) if row else None

    def forget_clarification(self, thread_id: str) -> None:
        with self._db.cursor() as cur:
            cur.execute("DELETE FROM clarification_posts WHERE thread_id = ?", (thread_id,))

    # --- answers -----------------------------------------------------------------------------------
    def record_answer(self, channel_id: str, message_ts: str, thread_id: str, outcome: dict[str, Any]) -> None:
        with self._db.cursor() as cur:
            cur.execute(
                "INSERT INTO answers (channel_id, message_ts, thread_id, outcome_json, posted_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_id, message_ts) DO UPDATE SET "
                "thread_id = excluded.thread_id, outcome_json = excluded.outcome_json, posted_at = excluded.posted_at",
                (channel_id, message_ts, thread_id, json.dumps(outcome, default=str), time.time()),
            )

    def answer(self, channel_id: str, message_ts: str) -> dict[str, Any] | None:
        with self._db.cursor() as cur:
            row = cur.execute(
                "SELECT outcome_json FROM answers WHERE channel_id = ? AND message_ts = ?",
                (channel_id, message_ts),
            ).fetchone()
        return json.loads(row[0]) if row else None

    # --- the assistant split view -----------------------------------------------------------------
    def set_context(self, team_id: str, user_id: str, channel_id: str) -> None:
        with self._db.cursor() as cur:
            cur.execute(
                "INSERT INTO assistant_contexts (team_id, user_id, channel_id, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (team_id, user_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "updated_at = excluded.updated_at",
                (team_id, user_id, channel_id, time.time()),
            )

    def context(self, team_id: str, user_id: str) -> str | None:
        """The channel the user last had open beside the assistant, if Slack told us one."""
        with self._db.cursor() as cur:
            row = cur.execute(
                "SELECT channel_id FROM assistant_contexts WHERE team_id = ? AND user_id = ?", (team_id, user_id)
            ).fetchone()
        return str(row[0]) if row else None

    # --- work in flight ----------------------------------------------------------------------------
    def begin_work(self, work: WorkInFlight) -> None:
        with self._db.cursor() as cur:
            cur.execute(
                "INSERT INTO work_in_flight (key, kind, channel_id, thread_ts, status_ts, started_at, owner) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, "
                "channel_id = excluded.channel_id, thread_ts = excluded.thread_ts, status_ts = excluded.status_ts, "
                "started_at = excluded.started_at, owner = excluded.owner",
                (*work, time.time(), process_owner()),
            )

    def end_work(self, key: str) -> bool:
        """Drop a piece of work; True if this call dropped it (so, across replicas, one caller tells its
        thread that it was lost)."""
        with self._db.cursor() as cur:
            return bool(cur.execute("DELETE FROM work_in_flight WHERE key = ?", (key,)).rowcount == 1)

    def finish_work(self, key: str) -> None:
        """`end_work` for this process's own work: while the database is down the key is kept and dropped by a
        later `retry_finishes`, so the row is not left for a successor to take for lost work."""
        try:
            self.end_work(key)
        except DatabaseUnavailableError as exc:
            log.warning("could not record that the work of %s ended; will retry: %s", key, exc)
            with self._unended_guard:
                self._unended.add(key)

    def retry_finishes(self) -> int:
        """Drop the rows of work that ended during an outage; returns how many are still kept."""
        with self._unended_guard:
            keys = sorted(self._unended)
        for key in keys:
            try:
                self.end_work(key)
            except DatabaseUnavailableError:
                break
            with self._unended_guard:
                self._unended.discard(key)
        with self._unended_guard:
            return len(self._unended)

    def unfinished_work(self) -> list[WorkInFlight]:
        """The work begun by bot processes that are gone (on a shared PostgreSQL, a live replica's is not
        unfinished). Rows naming this process count only when begun before it opened the ledger (a restarted
        container can get its old pid back); its own work since is never taken for lost."""
        own = process_owner()
        with self._db.cursor() as cur:
            rows = cur.execute(
                "SELECT key, kind, channel_id, thread_ts, status_ts, owner, started_at FROM work_in_flight "
                "ORDER BY started_at"
            ).fetchall()
        return [WorkInFlight(*row[:5]) for row in rows
                if (row[6] < self._opened_at if row[5] == own else not self._db.owner_alive(row[5]))]
