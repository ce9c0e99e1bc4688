"""A worker pool shared fairly: round robin over workspaces, then over users, with a cap and bounded lines.

One FIFO queue lets one busy channel starve every other (24 heavy questions in one channel made a simple
question in another wait 44 s). Here each workspace has its own line, and each user their own line within
it. A free worker takes the next job of the next workspace in turn, skipping a workspace that already runs
`per_workspace` jobs, so a busy workspace never holds every worker and another's question starts at once.
The lines are bounded: past `workspace_backlog` waiting jobs in a workspace, or `user_backlog` waiting jobs
of one user in it, `submit` refuses with `QueueFull` (a message in the Slack thread, HTTP 429 from the API).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from masis import metrics
from masis.errors import MasisError

T = TypeVar("T")
MAX_RETRY_AFTER = 300  # seconds: a hint to come back, never a promise


class QueueFull(MasisError):
    """The workspace (or this user in it) has as much work waiting as it may; nothing was queued."""

    def __init__(self, message: str, *, scope: Literal["workspace", "user"], limit: int, retry_after: int) -> None:
        super().__init__(message)
        self.scope = scope
        self.limit = limit  # the jobs that may wait: in the workspace, or of this user in it
        self.retry_after = retry_after  # seconds: a rough estimate of when a place frees


@dataclass
class _Job:
    fn: Callable[[], Any]
    future: Future[Any]
    queued_at: float


@dataclass
class _Lane:
    """One workspace: its users' lines in turn order (the next user first), and its running count."""

    lines: dict[str | None, deque[_Job]] = field(default_factory=dict)
    waiting: int = 0
    running: int = 0

    def push(self, user: str | None, job: _Job) -> None:
        self.lines.setdefault(user, deque()).append(job)
        self.waiting += 1

    def pop(self) -> _Job:
        """The next user's oldest job; that user goes to the back of the turn order."""
        user = next(iter(self.lines))
        line = self.lines.pop(user)
        job = line.popleft()
        if line:
            self.lines[user] = line
        self.waiting -= 1
        return job


class FairPool:
    def __init__(
        self,
        workers: int = 8,
        *,
        per_workspace: int | None = None,
        workspace_backlog: int = 50,
        user_backlog: int = 10,
        name: str = "masis-work",
    ) -> None:
        if workers < 1 or workspace_backlog < 1 or user_backlog < 1:
            raise ValueError("workers and backlogs must be at least 1")
        self.workers = workers
        self.per_workspace = max(1, min(workers, per_workspace or workers // 2))
        self.workspace_backlog = workspace_backlog
        self.user_backlog = user_backlog
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._lock = threading.Lock()
        self._lanes: dict[str, _Lane] = {}  # in turn order: the workspace served last is at the back
        self._running = 0
        self._closed = False
        self._mean_seconds: float | None = None  # a moving average of how long a job runs
        metrics.track_pool(self)

    def submit(self, fn: Callable[[], T], *, workspace: str, user: str | None = None) -> Future[T]:
        """Queue `fn` in `workspace`'s line (and `user`'s within it); it starts when a worker is free and it
        is the workspace's turn. Raises `QueueFull` when the line is full, `RuntimeError` after shutdown."""
        future: Future[T] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the worker pool is shut down")
            lane = self._lanes.get(workspace) or _Lane()
            if user is not None and len(lane.lines.get(user, ())) >= self.user_backlog:
                raise self._full(lane, "user")  # first: when it is the user's own doing, say so
            if lane.waiting >= self.workspace_backlog:
                raise self._full(lane, "workspace")
            self._lanes.setdefault(workspace, lane).push(user, _Job(fn, future, time.monotonic()))
            ready = self._take_ready()
        self._start(ready)
        return future

    def waiting(self, workspace: str) -> int:
        """How many jobs wait in `workspace`'s line."""
        with self._lock:
            lane = self._lanes.get(workspace)
            return lane.waiting if lane else 0

    def snapshot(self) -> dict[str, tuple[int, int]]:
        """Each workspace with work: (jobs waiting, jobs running)."""
        with self._lock:
            return {workspace: (lane.waiting, lane.running) for workspace, lane in self._lanes.items()}

    def shutdown(self, *, wait: bool = True) -> None:
        """Take no more work and drop what waits; with `wait`, let running jobs finish."""
        with self._lock:
            self._closed = True
            dropped = [job for lane in self._lanes.values() for line in lane.lines.values() for job in line]
            for lane in self._lanes.values():
                lane.lines.clear()
                lane.waiting = 0
            self._lanes = {workspace: lane for workspace, lane in self._lanes.items() if lane.running}
        for job in dropped:
            job.future.cancel()
        self._executor.shutdown(wait=wait)

    # --- internals ------------------------------------------------------------------------------------

    def _full(self, lane: _Lane, scope: Literal["workspace", "user"]) -> QueueFull:
        metrics.count_refusal(scope)
        mean = self._mean_seconds or 1.0
        retry_after = min(MAX_RETRY_AFTER, max(1, math.ceil(mean * (lane.waiting / self.per_workspace + 1))))
        if scope == "workspace":
            limit = self.workspace_backlog
            message = (f"This workspace already has {limit} requests waiting (the most one workspace may have); "
                       f"this one was not queued. Try again in about {retry_after} s.")
        else:
            limit = self.user_backlog
            message = (f"You already have {limit} requests waiting in this workspace (the most one person may "
                       "have); this one was not queued. Try again when some are done.")
        return QueueFull(message, scope=scope, limit=limit, retry_after=retry_after)

    def _take_ready(self) -> list[tuple[str, _Job]]:
        """Under the lock: the jobs that may start now, in turn order, counted as running."""
        ready: list[tuple[str, _Job]] = []
        while not self._closed and self._running < self.workers:
            workspace = next((w for w, lane in self._lanes.items()
                              if lane.waiting and lane.running < self.per_workspace), None)
            if workspace is None:
                break
            lane = self._lanes.pop(workspace)
            self._lanes[workspace] = lane  # served: to the back of the turn order
            lane.running += 1
            self._running += 1
            ready.append((workspace, lane.pop()))
        return ready

    def _start(self, ready: list[tuple[str, _Job]]) -> None:
        for workspace, job in ready:
            try:
                self._executor.submit(self._run, workspace, job)
            except RuntimeError:  # shut down between taking the job and starting it
                job.future.cancel()
                self._finished(workspace, None)

    def _run(self, workspace: str, job: _Job) -> None:
        started = time.monotonic()
        try:
            if job.future.set_running_or_notify_cancel():
                metrics.observe_queue_wait(started - job.queued_at)
                try:
                    job.future.set_result(job.fn())
                except BaseException as exc:
                    job.future.set_exception(exc)
        finally:
            self._finished(workspace, time.monotonic() - started)

    def _finished(self, workspace: str, seconds: float | None) -> None:
        with self._lock:
            self._running -= 1
            lane = self._lanes.get(workspace)
            if lane is not None:
                lane.running -= 1
                if not lane.running and not lane.waiting:
                    del self._lanes[workspace]
            if seconds is not None:
                mean = self._mean_seconds
                self._mean_seconds = seconds if mean is None else 0.8 * mean + 0.2 * seconds
            ready = self._take_ready()
        self._start(ready)
