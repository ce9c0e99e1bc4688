"""PostgreSQL restarted or down under a running MASIS: every connection comes back by itself (the registry's,
the bot's, the checkpointer's pool, the document locks', the presence lock), an outage is one clear error
(`DatabaseUnavailableError`), and a process that reaches the database but cannot take its presence back
says so (`Engine.problem`, what `/healthz` reports).

These tests restart their own server (`tests.postgres`), not the session's."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from bot.db import BotDB
from bot.dedupe import Deduper
from bot.ledger import Ledger, WorkInFlight
from masis.cli import main
from masis.engine import Engine
from masis.errors import DatabaseUnavailableError
from masis.pause import hooked
from masis.records.db import owner_alive
from masis.records.presence import presence_key
from masis.records.registry import Registry
from tests.conftest import SAMPLE_DIR, make_settings, own_postgres
from tests.postgres import PostgresServer

BOUND = 30.0  # seconds a polled condition may take before the test fails (it returns as soon as it holds)


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    """A PostgreSQL of this module's own, restarted and stopped by its tests."""
    with own_postgres() as pg:
        yield pg


@pytest.fixture
def url(server: PostgresServer) -> Iterator[str]:
    yield server.create_database()
    server.ensure_running()


def eventually(condition: Callable[[], object], what: str, bound: float = BOUND) -> object:
    """Poll `condition` until it is truthy (returned) or `bound` seconds pass (the test fails)."""
    deadline = time.monotonic() + bound
    while True:
        if value := condition():
            return value
        assert time.monotonic() < deadline, f"{what}: not within {bound} s"
        threading.Event().wait(0.05)


def test_an_engine_answers_again_after_the_database_restarts(server: PostgresServer, url: str,
                                                             tmp_path: Path) -> None:
    with Engine(make_settings(tmp_path, database_url=url)) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
        assert engine.ask("demo", "What is the remote work policy?", thread_id="T:C:1.0").status == "answered"
        assert engine.ask("demo", "What was Q3 2026 revenue?", thread_id="T:C:2.0").status == "needs_clarification"

        server.restart()  # every connection the engine holds is cut

        assert engine.ask("demo", "What is the remote work policy?", thread_id="T:C:3.0").status == "answered"
        assert engine.reply("T:C:2.0", choice="source:q3_report.md").status == "answered"  # paused before it
        assert engine.ask("demo", "What is the remote work policy?", thread_id="T:C:1.0").run == 2
        report = engine.ingest("demo", [("after.txt", b"Written after the restart: the herons nest in May.")])
        assert [r.status for r in report.results] == ["indexed"]  # the document locks' connection, too
        assert "after.txt" in {d.name for d in engine.documents("demo")}


def test_the_bots_tables_come_back_after_a_restart(server: PostgresServer, url: str) -> None:
    db = BotDB(url)
    deduper, ledger = Deduper(db), Ledger(db)
    assert deduper.claim("event:Ev1")
    server.restart()
    assert not deduper.claim("event:Ev1") and deduper.claim("event:Ev2")
    ledger.begin_work(WorkInFlight("T:C:9.0", "ask", "C", "9.0", None))
    assert ledger.end_work("T:C:9.0")
    db.close()


def test_while_the_database_is_down_deliveries_are_claimed_in_memory_and_ended_work_is_dropped_later(
    server: PostgresServer, url: str
) -> None:
    db = BotDB(url, wait=1.0)
    deduper, ledger = Deduper(db), Ledger(db)
    ledger.begin_work(WorkInFlight("T:C:7.0", "ask", "C", "7.0", None))
    server.halt()
    assert deduper.claim("event:Ev7")  # the message reaches its thread, which can say the database is down
    assert not deduper.claim("event:Ev7")  # its other delivery (app_mention + message) is still dropped
    ledger.finish_work("T:C:7.0")  # no error: kept, to be dropped once the database is back
    server.resume()
    assert not deduper.claim("event:Ev7")
    assert eventually(lambda: ledger.retry_finishes() == 0, "the ended work dropped") is True
    with db.cursor() as cur:
        assert cur.execute("SELECT count(*) FROM work_in_flight").fetchone()[0] == 0
    db.close()


def test_a_question_in_flight_when_the_database_goes_down_ends_with_a_clear_error(
    server: PostgresServer, url: str, tmp_path: Path
) -> None:
    settings = make_settings(tmp_path, database_url=url, database_wait_seconds=3.0)
    with Engine(settings) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
        down = threading.Event()

        def outage() -> None:  # the run is between two checkpoints
            if not down.is_set():
                down.set()
                server.halt()

        with hooked("ask:writing", outage), pytest.raises(DatabaseUnavailableError) as caught:
            engine.ask("demo", "What is the remote work policy?", thread_id="T:C:5.0")
        assert "database" in str(caught.value) and "try again" in str(caught.value)
        with pytest.raises(DatabaseUnavailableError):  # while it is down: each call says so, soon
            engine.documents("demo")

        server.resume()
        again = engine.ask("demo", "What is the remote work policy?", thread_id="T:C:5.0")
        assert again.status == "answered" and again.run == 2


def test_the_cli_says_the_database_is_unavailable_in_one_line(
    server: PostgresServer, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with Engine(make_settings(tmp_path, database_url=url)) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
    for name, value in {"MASIS_DATA_DIR": str(tmp_path), "MASIS_DATABASE_URL": url, "MASIS_LLM": "extractive",
                        "MASIS_DATABASE_WAIT_SECONDS": "3"}.items():
        monkeypatch.setenv(name, value)
    down = threading.Event()

    def outage() -> None:
        if not down.is_set():
            down.set()
            server.halt()

    with hooked("ask:writing", outage):
        code = main(["ask", "--workspace", "demo", "--json", "What is the remote work policy?"])
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert err.startswith("masis: The database (MASIS_DATABASE_URL) is unavailable right now"), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def _presence_holder(url: str, owner: str) -> int | None:
    """The backend pid holding `owner`'s presence lock, if any session does (a bigint advisory key shows in
    pg_locks as its high and low 32 bits)."""
    key = presence_key(owner) & 0xFFFFFFFFFFFFFFFF
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND classid = %s::bigint::oid AND objid = %s::bigint::oid AND objsubid = 1",
            (key >> 32, key & 0xFFFFFFFF)).fetchone()
    return int(row[0]) if row else None


def test_a_process_takes_its_presence_back_after_a_restart(server: PostgresServer, url: str) -> None:
    registry = Registry(url)
    owner = registry_owner()
    assert _presence_holder(url, owner) is not None
    server.restart()  # PostgreSQL frees every session's locks
    eventually(lambda: _presence_holder(url, owner), "the presence lock taken back")
    registry.close()


def registry_owner() -> str:
    from masis.records.db import process_owner

    return process_owner()


def test_an_owner_is_dead_only_when_its_lock_is_free_and_its_heartbeat_stale(url: str) -> None:
    Registry(url).close()  # the presence table
    beat = "INSERT INTO masis_replicas (owner, seen_at) VALUES (%s, now() - make_interval(secs => %s))"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(beat, ("host-a:1", 1))  # beat a second ago: alive, whatever its lock (a restart freed it)
        conn.execute(beat, ("host-b:2", 3600))  # silent for an hour, lock free: dead
        conn.execute(beat, ("host-c:3", 3600))  # silent for an hour, lock held: alive
        conn.execute("SELECT pg_advisory_lock(%s)", (presence_key("host-c:3"),))
        with psycopg.connect(url, autocommit=True) as other:
            alive = {owner: owner_alive(other, owner, heartbeat=5.0)
                     for owner in ("host-a:1", "host-b:2", "host-c:3", "host-d:4")}
    assert alive == {"host-a:1": True, "host-b:2": False, "host-c:3": True, "host-d:4": False}


def test_a_process_that_reaches_the_database_but_cannot_take_its_presence_back_says_so(
    url: str, tmp_path: Path
) -> None:
    settings = make_settings(tmp_path, database_url=url, replica_heartbeat_seconds=0.2)
    other_url = url  # the engine's presence is per URL: a fresh database keeps other tests' presences apart
    with Engine(settings) as engine:
        assert engine.problem() is None
        owner = registry_owner()
        with psycopg.connect(other_url, autocommit=True) as thief:
            pid = _presence_holder(url, owner)
            assert pid is not None
            thief.execute("SELECT pg_terminate_backend(%s)", (pid,))
            thief.execute("SELECT pg_advisory_lock(%s)", (presence_key(owner),))  # it cannot take it back
            problem = eventually(engine.problem, "the engine saying it cannot recover")
            assert "presence" in str(problem)
        eventually(lambda: engine.problem() is None, "the engine recovering once the lock is free")
