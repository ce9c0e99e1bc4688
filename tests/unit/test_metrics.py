"""The metrics' labels stay bounded: workspaces label only the queue gauges, at most MAX_WORKSPACE_SERIES of them."""

from __future__ import annotations

import threading

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from masis import metrics
from masis.fairness import FairPool
from tests.gates import STUCK


def queue_series() -> dict[str, float]:
    text = generate_latest(metrics.enable()).decode()
    return {s.labels["workspace"]: s.value for family in text_string_to_metric_families(text)
            for s in family.samples if s.name == "masis_queue_running"}


def test_the_busiest_workspaces_are_named_and_the_rest_summed() -> None:
    workspaces = 25
    release, started = threading.Event(), threading.Semaphore(0)

    def hold() -> None:
        started.release()
        assert release.wait(STUCK)

    pool = FairPool(workspaces, per_workspace=1)
    try:
        for i in range(workspaces):
            pool.submit(hold, workspace=f"T1:C{i:03d}")
            if i < 3:  # three busier workspaces: one running, one waiting
                pool.submit(hold, workspace=f"T1:C{i:03d}")
        for _ in range(workspaces):
            assert started.acquire(timeout=STUCK)
        series = queue_series()
        named = {w for w in series if w.startswith("T1:C")}
        assert len(named) == metrics.MAX_WORKSPACE_SERIES and {"T1:C000", "T1:C001", "T1:C002"} <= named
        assert series[metrics.OTHER_WORKSPACES] == workspaces - metrics.MAX_WORKSPACE_SERIES
    finally:
        release.set()
        pool.shutdown()
    assert not {w for w in queue_series() if w.startswith("T1:C")}  # idle workspaces leave the gauges


def test_file_formats_are_a_fixed_set() -> None:
    assert metrics.file_format("Q3 Report.PDF") == "pdf"
    assert metrics.file_format("notes") == metrics.file_format("evil.$(rm -rf)") == "other"
