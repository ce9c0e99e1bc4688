"""Background work after the ack: the engine's fair worker pool, where work on one Slack thread runs one at a time.

Slack wants an ack within 3 s; answering takes longer. Listeners ack, then `submit` the work here, in the
line of its workspace (a channel) and of the user who asked (`masis.fairness`: workspaces take turns, and
one never holds every worker). A job that fails calls its `on_error` (which posts a friendly message in the
thread); nothing is ever silent. A full line raises `QueueFull` at once, for the listener to say so.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future

from masis.fairness import FairPool
from masis.records.locks import KeyedLocks

log = logging.getLogger(__name__)

BOT_LANE = "(bot)"  # the bot's own work, in no workspace (restart notices)


class Jobs:
    def __init__(self, max_workers: int = 8, locks: KeyedLocks | None = None, pool: FairPool | None = None) -> None:
        """Work runs on `pool` (the engine's, shared with the HTTP API), or on a pool of its own with no
        cap per workspace."""
        self.pool = pool or FairPool(max_workers, per_workspace=max_workers, name="masis-job")
        self.locks = locks or KeyedLocks()
        self._count_lock = threading.Lock()
        self._in_flight = 0
        self._stopped_teams: set[str] = set()

    def stop_team(self, team_id: str) -> None:
        """Run no more work for `team_id` (the app was uninstalled there, or its token revoked): jobs
        already queued are skipped when their turn comes. Until the process restarts."""
        with self._count_lock:
            self._stopped_teams.add(team_id)

    def is_stopped(self, team_id: str | None) -> bool:
        with self._count_lock:
            return team_id in self._stopped_teams

    def submit(
        self,
        fn: Callable[[], None],
        *,
        key: str | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        name: str = "job",
        team: str | None = None,
        workspace: str = BOT_LANE,
        user: str | None = None,
    ) -> Future[None]:
        """Run `fn` in the background, under the lock of `key` when given; skipped if `team` is stopped.
        Raises `QueueFull` when `workspace`'s line (or `user`'s in it) is full."""

        def guarded() -> None:  # checked once it is this job's turn (after the thread's lock)
            if self.is_stopped(team):
                log.info("%s: skipped, the app no longer works for team %s", name, team)
            else:
                fn()

        def run() -> None:
            try:
                if key is None:
                    guarded()
                else:
                    with self.locks.hold(key):
                        guarded()
            except Exception as exc:
                log.exception("%s failed", name)
                if on_error is not None:
                    try:
                        on_error(exc)
                    except Exception:
                        log.exception("%s: reporting the failure failed too", name)
            finally:
                with self._count_lock:
                    self._in_flight -= 1

        with self._count_lock:
            self._in_flight += 1
        try:
            return self.pool.submit(run, workspace=workspace, user=user)
        except BaseException:  # a full line, or shutting down: it never ran
            with self._count_lock:
                self._in_flight -= 1
            raise

    @property
    def in_flight(self) -> int:
        with self._count_lock:
            return self._in_flight

    def shutdown(self, *, wait: bool = True) -> None:
        """Stop taking work; with `wait`, let running jobs finish (queued ones are dropped)."""
        self.pool.shutdown(wait=wait)
