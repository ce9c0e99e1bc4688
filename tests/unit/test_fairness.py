"""The fair worker pool: workspaces take turns, users take turns within one, a workspace never holds every
worker, and full lines refuse at once. Real threads; every wait is for an event."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError

import pytest

from masis.fairness import FairPool, QueueFull
from tests.gates import STUCK


class Held:
    """Jobs that wait for `release`; `started` counts how many got a worker."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self._count = 0
        self._cond = threading.Condition()

    def job(self) -> None:
        with self._cond:
            self._count += 1
            self._cond.notify_all()
        assert self.release.wait(STUCK)

    def wait_started(self, count: int) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: self._count >= count, STUCK), f"{self._count} of {count} started"

    @property
    def started(self) -> int:
        with self._cond:
            return self._count


@pytest.fixture
def held() -> Iterator[Held]:
    gate = Held()
    yield gate
    gate.release.set()


def recorder(order: list[str], name: str) -> Callable[[], str]:
    def run() -> str:
        order.append(name)
        return name
    return run


def test_a_busy_workspace_leaves_workers_for_the_others(held: Held) -> None:
    pool = FairPool(8, per_workspace=4)
    busy = [pool.submit(held.job, workspace="T1:CBUSY") for _ in range(24)]
    held.wait_started(4)
    other = pool.submit(lambda: "served", workspace="T1:CQUIET")
    assert other.result(STUCK) == "served"  # while all of the busy workspace's running jobs are held
    assert held.started == 4 and pool.snapshot()["T1:CBUSY"] == (20, 4)
    held.release.set()
    for future in busy:
        future.result(STUCK)
    pool.shutdown()
    assert pool.snapshot() == {}


def test_workspaces_take_turns_and_users_take_turns_within_one(held: Held) -> None:
    pool = FairPool(1, per_workspace=1)
    blocker = pool.submit(held.job, workspace="X")
    held.wait_started(1)
    order: list[str] = []
    futures = [pool.submit(recorder(order, name), workspace=ws, user=user) for name, ws, user in [
        ("A/u1/1", "A", "u1"), ("A/u1/2", "A", "u1"), ("A/u1/3", "A", "u1"), ("A/u2/1", "A", "u2"),
        ("B/u3/1", "B", "u3"), ("C/u4/1", "C", "u4"), ("B/u3/2", "B", "u3"),
    ]]
    held.release.set()
    blocker.result(STUCK)
    for future in futures:
        future.result(STUCK)
    pool.shutdown()
    assert order == ["A/u1/1", "B/u3/1", "C/u4/1", "A/u2/1", "B/u3/2", "A/u1/2", "A/u1/3"]


def test_full_lines_refuse_at_once_and_say_which_line(held: Held) -> None:
    pool = FairPool(2, per_workspace=1, workspace_backlog=3, user_backlog=2)
    pool.submit(held.job, workspace="A", user="u1")
    held.wait_started(1)
    pool.submit(held.job, workspace="A", user="u1")
    pool.submit(held.job, workspace="A", user="u1")
    with pytest.raises(QueueFull) as mine:
        pool.submit(held.job, workspace="A", user="u1")
    assert mine.value.scope == "user" and mine.value.limit == 2 and mine.value.retry_after >= 1
    assert "2 requests waiting" in str(mine.value)
    pool.submit(held.job, workspace="A", user="u2")  # a colleague still gets in line
    with pytest.raises(QueueFull) as channel:
        pool.submit(held.job, workspace="A", user="u3")
    assert channel.value.scope == "workspace" and channel.value.limit == 3
    assert pool.submit(lambda: "other", workspace="B", user="u1").result(STUCK) == "other"
    assert pool.snapshot()["A"] == (3, 1)
    held.release.set()
    pool.shutdown()


def test_errors_reach_the_caller_and_shutdown_drops_what_waits(held: Held) -> None:
    pool = FairPool(1)

    def boom() -> None:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        pool.submit(boom, workspace="A").result(STUCK)
    running = pool.submit(held.job, workspace="A")
    held.wait_started(1)
    waiting = pool.submit(lambda: None, workspace="B")
    stopper = threading.Thread(target=pool.shutdown)
    stopper.start()
    with pytest.raises(CancelledError):
        waiting.result(STUCK)
    held.release.set()
    stopper.join(STUCK)
    assert running.done() and running.exception() is None
    with pytest.raises(RuntimeError, match="shut down"):
        pool.submit(lambda: None, workspace="A")


def test_the_cap_defaults_to_half_the_workers() -> None:
    assert FairPool(8).per_workspace == 4
    assert FairPool(1).per_workspace == 1
    assert FairPool(4, per_workspace=9).per_workspace == 4
    with pytest.raises(ValueError):
        FairPool(0)
