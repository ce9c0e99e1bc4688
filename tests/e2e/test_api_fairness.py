"""The HTTP API shares the fair worker pool: a workspace past its share of the line gets 429 with Retry-After at
once, another workspace is answered meanwhile, and the queue gauges of `GET /metrics` show the line."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from masis.pause import hooked
from tests.e2e.api_server import ApiServer
from tests.e2e.test_api import WS, seeded
from tests.e2e.test_metrics import METRICS_TOKEN, SCRAPE
from tests.e2e.test_slack_fairness import Holder

QUESTION = "What is our AI investment strategy?"


def queue(http: httpx.Client, workspace: str) -> tuple[float, float]:
    """(waiting, running) of `workspace` as `GET /metrics` shows them."""
    response = http.get("/metrics", headers=SCRAPE)
    found = {(s.name, s.labels.get("workspace")): s.value
             for family in text_string_to_metric_families(response.text) for s in family.samples}
    return found.get(("masis_queue_depth", workspace), 0.0), found.get(("masis_queue_running", workspace), 0.0)


def until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        threading.Event().wait(0.01)


@contextlib.contextmanager
def server(data_dir: Path) -> Iterator[ApiServer]:
    api = ApiServer(seeded(data_dir, workers=4, workspace_concurrency=2, workspace_backlog=2,
                           metrics_token=METRICS_TOKEN)).start()
    try:
        yield api
    finally:
        api.stop()


def test_a_full_workspace_gets_429_and_another_workspace_is_served(tmp_path: Path) -> None:
    holder = Holder()
    with server(tmp_path / "data") as api, api.client() as http, ThreadPoolExecutor(4) as senders, \
            hooked("ask:writing", holder):
        try:
            def ask() -> httpx.Response:
                with api.client() as own:
                    return own.post(f"/masis/workspaces/{WS}", json={"query": QUESTION})

            busy = [senders.submit(ask) for _ in range(4)]
            holder.wait_held(2)
            until(lambda: queue(http, WS) == (2.0, 2.0), "two asks running and two waiting in the busy workspace")

            refused = http.post(f"/masis/workspaces/{WS}", json={"query": QUESTION}, timeout=20)
            assert refused.status_code == 429, refused.text
            assert int(refused.headers["Retry-After"]) >= 1
            assert "2 requests waiting" in refused.json()["error"] and refused.json()["detail"]["limit"] == 2

            other = http.post("/masis/workspaces/quiet", json={"query": QUESTION}, timeout=20)
            assert other.status_code == 200 and other.json()["status"] == "needs_clarification"
            assert holder.held == 2 and queue(http, WS) == (2.0, 2.0)
        finally:
            holder.release.set()
        assert [f.result().status_code for f in busy] == [200] * 4
        until(lambda: queue(http, WS) == (0.0, 0.0), "the busy workspace's line to empty")
