"""`masis migrate`: a SQLite installation (registry, checkpoints, the bot's bookkeeping) copied into PostgreSQL;
a second run copies nothing twice; a paused question is answered on PostgreSQL; errors are one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.db import BotDB
from bot.dedupe import Deduper
from bot.ledger import Ledger
from masis.cli import main
from masis.engine import Engine
from tests.conftest import SAMPLE_DIR, make_settings

WORKSPACE = "T1:C1"
ANSWERED, PENDING = "T1:C1:1.0", "T1:C1:2.0"


@pytest.fixture
def installation(tmp_path: Path) -> Path:
    """A data directory a SQLite MASIS and its bot have used."""
    data = tmp_path / "data"
    with Engine(make_settings(data)) as engine:
        assert not engine.ingest_paths(WORKSPACE, [SAMPLE_DIR]).failed
        assert engine.ask(WORKSPACE, "What is the remote work policy?", thread_id=ANSWERED).status == "answered"
        engine.record_feedback(ANSWERED, "U1", "up")
        assert engine.ask(WORKSPACE, "What was Q3 2026 revenue?", thread_id=PENDING).status == "needs_clarification"
    db = BotDB(data / "slack.db")
    assert Deduper(db).claim("event:Ev1")
    ledger = Ledger(db)
    ledger.record_clarification(PENDING, "C1", "2.5", {"status": "needs_clarification"})
    ledger.record_answer("C1", "1.5", ANSWERED, {"status": "answered"})
    ledger.set_context("T1", "U1", "C1")
    with db.cursor() as cur:  # work a bot that is gone left in flight
        cur.execute("INSERT INTO work_in_flight (key, kind, channel_id, thread_ts, status_ts, started_at, owner) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", ("T1:C1:3.0", "ask", "C1", "3.0", None, 1.0, "gone-host:1"))
    db.close()
    return data


def _migrate(monkeypatch: pytest.MonkeyPatch, data: Path, url: str | None, *args: str) -> int:
    monkeypatch.setenv("MASIS_DATA_DIR", str(data))
    monkeypatch.setenv("MASIS_LLM", "extractive")
    if url is None:
        monkeypatch.delenv("MASIS_DATABASE_URL", raising=False)
    else:
        monkeypatch.setenv("MASIS_DATABASE_URL", url)
    return main(["migrate", *args])


def test_a_sqlite_installation_moves_to_postgres_once(
    installation: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _migrate(monkeypatch, installation, postgres_url) == 0
    first = capsys.readouterr().out.strip().splitlines()
    assert f"registry: workspace {WORKSPACE}: 6 documents" in first
    summary = first[-1]
    assert summary.startswith(f"Migrated {installation} into PostgreSQL: 1 workspaces (6 documents), "
                              "2 conversations, "), summary
    assert "1 votes, 5 Slack records; already there: 0 workspaces, 0 rows, 0 checkpoints." in summary

    assert _migrate(monkeypatch, installation, postgres_url) == 0  # again: nothing is copied twice
    second = capsys.readouterr().out.strip().splitlines()[-1]
    assert "0 workspaces (0 documents), 0 conversations, 0 checkpoints of 0 runs, 0 votes, 0 Slack records" in second
    assert "already there: 1 workspaces, 8 rows, " in second, second

    settings = make_settings(installation, database_url=postgres_url)  # the same store, now beside PostgreSQL
    with Engine(settings) as engine:
        assert len(engine.documents(WORKSPACE)) == 6
        assert engine.registry.feedback_tally(ANSWERED, 1) == {"up": 1, "down": 0}
        assert engine.pending(ANSWERED) is None
        pending = engine.pending(PENDING)
        assert pending is not None and pending.kind == "conflict"
        resumed = engine.reply(PENDING, choice="source:q3_report.md")
        assert resumed.status == "answered" and "$12.4 million" in (resumed.answer or "")
        assert engine.ask(WORKSPACE, "What is the remote work policy?", thread_id=ANSWERED).run == 2
    db = BotDB(postgres_url)
    ledger = Ledger(db)
    assert not Deduper(db).claim("event:Ev1")  # a delivery seen before the move is still a repeat
    assert ledger.clarification(PENDING) is not None and ledger.answer("C1", "1.5") == {"status": "answered"}
    assert ledger.context("T1", "U1") == "C1"
    assert [w.key for w in ledger.unfinished_work()] == ["T1:C1:3.0"]  # its thread will be told
    db.close()
    assert (installation / "masis.db").exists() and (installation / "slack.db").exists()  # the source stays


def test_migrate_errors_are_one_line(
    installation: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _migrate(monkeypatch, installation, None) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("masis: masis migrate copies into the PostgreSQL database of MASIS_DATABASE_URL"), err

    empty = tmp_path / "empty"
    empty.mkdir()
    assert _migrate(monkeypatch, installation, "postgresql://u@127.0.0.1:1/x", "--from", str(empty)) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"masis: No MASIS installation in {empty}: none of masis.db"), err

    unreachable = "postgresql://u:s3cret-pw@127.0.0.1:1/x?connect_timeout=2"
    assert _migrate(monkeypatch, installation, unreachable) == 1
    out, err = capsys.readouterr()
    assert err.startswith("masis: Cannot reach the database of MASIS_DATABASE_URL"), err
    assert "s3cret-pw" not in out + err and len(err.strip().splitlines()) == 1
