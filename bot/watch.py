"""While replicas share a PostgreSQL: every two heartbeats, each live replica tells the threads whose work a
dead replica lost (and removes that work's stale status line), settles the dead replica's runs, and drops the
rows of its own work that ended while the database was down.

A replica is dead when its presence lock is free and it has not beaten for three heartbeats
(`masis.records.db.owner_alive`); a replica judges others only once it has itself held its presence that
long (`Presence.steady`), so after an outage nobody is taken for dead for being slower to reconnect. Each
lost piece of work is claimed by deleting its row, so one replica tells it, once.
"""

from __future__ import annotations

import logging
import threading

from bot.deps import BotDeps
from bot.restart import notify_unfinished_work
from masis.pause import pause_point

log = logging.getLogger(__name__)

SWEEP_BEATS = 2


class ReplicaWatch:
    def __init__(self, deps: BotDeps) -> None:
        assert deps.engine.postgres is not None, "replicas share a PostgreSQL database"
        self._deps = deps
        self._presence = deps.engine.postgres.presence
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="masis-replica-watch", daemon=True)
        self.sweeps = 0  # completed sweeps that judged other replicas (shown on /healthz)

    def start(self) -> ReplicaWatch:
        self._thread.start()
        return self

    def tick(self) -> int:
        """One sweep; returns how many threads were told their work was lost."""
        self._deps.ledger.retry_finishes()
        if not self._presence.steady():
            return 0
        for thread_id, status in self._deps.engine.settle_stale_runs():
            log.info("settled %s, left running by a replica that is gone: %s", thread_id, status)
        told = notify_unfinished_work(self._deps)
        self.sweeps += 1
        if told:
            log.warning("told %d threads that a replica that is gone lost their work", told)
        return told

    def _loop(self) -> None:
        while not self._stop.wait(SWEEP_BEATS * self._presence.heartbeat):
            pause_point("watch:sweep")
            try:
                self.tick()
            except Exception:
                log.warning("the sweep for other replicas' lost work failed; next one in %s s",
                            SWEEP_BEATS * self._presence.heartbeat, exc_info=True)

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()
