"""Background jobs: a stopped team's queued work is skipped when its turn comes; other teams' runs."""

from __future__ import annotations

import threading

from bot.jobs import Jobs


def test_work_queued_for_a_team_that_is_then_stopped_never_runs() -> None:
    jobs = Jobs(max_workers=3)
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def hold() -> None:  # the thread's lock is held while the next job waits behind it
        started.set()
        release.wait(10)

    jobs.submit(hold, key="T1:C1:1", team="T1")
    assert started.wait(10)
    queued = jobs.submit(lambda: ran.append("T1 queued"), key="T1:C1:1", team="T1")
    other = jobs.submit(lambda: ran.append("T2"), key="T2:C1:1", team="T2")
    other.result(10)
    jobs.stop_team("T1")
    release.set()
    queued.result(10)
    jobs.submit(lambda: ran.append("T1 new"), team="T1").result(10)
    jobs.shutdown()
    assert ran == ["T2"]
    assert jobs.is_stopped("T1") and not jobs.is_stopped("T2") and not jobs.is_stopped(None)
