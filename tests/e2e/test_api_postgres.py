"""The HTTP API on PostgreSQL while the database restarts or is down: a restart costs no request, an outage is
a 503 that says so (with `Retry-After`), `/readyz` follows the database and `/healthz` does not (a database
that is down is not the process's fault: restarting it would not help)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from masis.engine import Engine
from tests.conftest import SAMPLE_DIR, make_settings, own_postgres
from tests.e2e.api_server import ApiServer
from tests.e2e.conftest import API_TOKEN
from tests.postgres import PostgresServer

BOUND = 30.0
QUESTION = {"query": "What is the remote work policy?"}


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    """A PostgreSQL of this module's own, restarted and stopped by its tests."""
    with own_postgres() as pg:
        yield pg


@pytest.fixture(scope="module")
def api(server: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    settings = make_settings(tmp_path_factory.mktemp("api") / "data", database_url=server.create_database(),
                             api_token=API_TOKEN, database_wait_seconds=3.0)
    with Engine(settings) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
    running = ApiServer(settings).start()
    yield running
    server.ensure_running()
    running.stop()


def test_a_restart_of_the_database_costs_no_request(server: PostgresServer, api: ApiServer) -> None:
    with api.client() as client:
        assert client.post("/masis/workspaces/demo", json=QUESTION).status_code == 200
        server.restart()
        asked = client.post("/masis/workspaces/demo", json=QUESTION)
        assert asked.status_code == 200, asked.text
        assert client.get("/masis/workspaces/demo/documents").status_code == 200
        assert client.get("/readyz").status_code == 200


def test_while_the_database_is_down_requests_get_503_with_a_reason_and_work_again_after(
    server: PostgresServer, api: ApiServer
) -> None:
    with api.client() as client:
        server.halt()
        asked = client.post("/masis/workspaces/demo", json=QUESTION)
        assert asked.status_code == 503, asked.text
        assert "database" in asked.json()["error"] and "try again" in asked.json()["error"]
        assert int(asked.headers["Retry-After"]) >= 1
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["checks"]["registry"] != "ok"
        health = client.get("/healthz")
        assert health.status_code == 200 and health.json()["ok"], health.text  # a restart would not help

        server.resume()
        deadline = time.monotonic() + BOUND
        while (again := client.post("/masis/workspaces/demo", json=QUESTION)).status_code != 200:
            assert again.status_code == 503 and time.monotonic() < deadline, again.text
            threading.Event().wait(0.1)
        assert client.get("/readyz").status_code == 200
