"""The SQL seam's pure parts: `?` SQL and a SQLite schema in PostgreSQL's terms, and the URL setting."""

from __future__ import annotations

import sys

import pytest

from masis.records.db import lock_key, schema_to_postgres, to_postgres
from tests.conftest import make_settings


def test_placeholders_and_literal_percent_signs() -> None:
    assert to_postgres("SELECT a FROM t WHERE s LIKE 'run%' AND b = ? AND c IN (?, ?)") == (
        "SELECT a FROM t WHERE s LIKE 'run%%' AND b = %s AND c IN (%s, %s)")


def test_a_sqlite_schema_in_postgres_types() -> None:
    script = ("CREATE TABLE IF NOT EXISTS x (name TEXT NOT NULL, terms BLOB NOT NULL, term INTEGER, "
              "seen_at REAL, PRIMARY KEY (name)) WITHOUT ROWID;")
    assert schema_to_postgres(script) == (
        'CREATE TABLE IF NOT EXISTS x (name TEXT COLLATE "C" NOT NULL, terms BYTEA NOT NULL, term BIGINT, '
        "seen_at DOUBLE PRECISION, PRIMARY KEY (name));")


def test_lock_keys_are_signed_64_bit_and_stable() -> None:
    keys = {lock_key(f"masis:thread:T{i}") for i in range(1000)}
    assert len(keys) == 1000 and all(-(2**63) <= k < 2**63 for k in keys)
    assert lock_key("masis:thread:T1") == lock_key("masis:thread:T1")


def test_the_database_url_must_be_postgres(tmp_path: object) -> None:
    assert make_settings(tmp_path).postgres_url is None  # type: ignore[arg-type]
    url = "postgresql://u:p@db:5432/masis"
    assert make_settings(tmp_path, database_url=url).registry_target == url  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must be a postgresql:// URL"):
        _ = make_settings(tmp_path, database_url="sqlite:///x.db").postgres_url  # type: ignore[arg-type]
    assert "p@db" not in repr(make_settings(tmp_path, database_url=url))  # type: ignore[arg-type]


def test_without_the_postgres_extra_the_url_is_one_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    from masis.errors import MasisError
    from masis.records.db import connect

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as when the extra is not installed
    with pytest.raises(MasisError, match=r"pip install 'masis\[postgres\]'"):
        connect("postgresql://u:secret@127.0.0.1:1/x")


def test_an_unreachable_server_is_one_clear_message_without_the_password() -> None:
    from masis.errors import MasisError
    from masis.records.db import connect

    with pytest.raises(MasisError, match="Cannot reach the database") as caught:
        connect("postgresql://u:s3cret-pw@127.0.0.1:1/x?connect_timeout=2")
    assert "s3cret-pw" not in str(caught.value)


def test_only_a_lost_or_refused_connection_counts_as_the_database_being_unavailable() -> None:
    import psycopg
    from psycopg import errors
    from psycopg_pool import PoolTimeout

    from masis.errors import DatabaseUnavailableError
    from masis.records.pg import database_errors, is_outage

    outages = [psycopg.OperationalError("the connection is closed"), errors.AdminShutdown(),
               errors.CannotConnectNow(), errors.ConnectionFailure(), PoolTimeout("no connection after 10 s")]
    refusals = [errors.QueryCanceled(), errors.DeadlockDetected(), errors.UniqueViolation(), ValueError("x")]
    assert [is_outage(e) for e in outages] == [True] * len(outages)
    assert [is_outage(e) for e in refusals] == [False] * len(refusals)
    one_line = r"unavailable right now \(the server restarts\)"
    with pytest.raises(DatabaseUnavailableError, match=one_line), database_errors():
        raise errors.AdminShutdown("the server\n\trestarts")
    with pytest.raises(errors.DeadlockDetected), database_errors():
        raise errors.DeadlockDetected()
