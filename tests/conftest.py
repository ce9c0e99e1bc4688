"""Shared fixtures: settings on a temporary data directory, engines over the real stores."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from masis.config import Settings
from masis.engine import Engine
from masis.records.presence import close_presences
from tests.postgres import PostgresServer, missing_reason, running_postgres

REPO = Path(__file__).resolve().parent.parent
SAMPLE_DIR = REPO / "data" / "sample"


def make_settings(data_dir: Path, **overrides: object) -> Settings:
    """Offline settings on `data_dir`, whatever the developer's environment or .env says."""
    values: dict[str, object] = {
        "data_dir": data_dir,
        "llm": "extractive",
        "qdrant_url": None,
        "openai_api_key": None,
        "database_url": None,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)


def encoder_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the sentence encoder reads from now on (the process's memory of recent texts emptied first)."""
    from masis.judge import semantic

    loaded = semantic.load()
    assert loaded is not None
    loaded._recent.clear()
    read: list[str] = []
    real_read = semantic.SentenceEncoder._read

    def recording(self: semantic.SentenceEncoder, texts: list[str]) -> object:
        read.extend(texts)
        return real_read(self, texts)

    monkeypatch.setattr(semantic.SentenceEncoder, "_read", recording)
    return read


@contextmanager
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL 15 cluster of the caller's own (skips, saying why, where its binaries are missing); this
    process's presence keepers are closed before it goes."""
    if (reason := missing_reason()) is not None:
        pytest.skip(reason)
    with running_postgres() as server:
        yield server
        close_presences(server.url(""))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL 15 cluster for the session."""
    with own_postgres() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty PostgreSQL database for one test."""
    return postgres_server.create_database()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "data")


@pytest.fixture
def engine(settings: Settings) -> Iterator[Engine]:
    with Engine(settings) as eng:
        yield eng


@pytest.fixture(scope="module")
def sample_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """One engine per module with the sample corpus ingested into the `demo` workspace."""
    settings = make_settings(tmp_path_factory.mktemp("sample") / "data")
    with Engine(settings) as eng:
        report = eng.ingest_paths("demo", [SAMPLE_DIR])
        assert not report.failed, report.failed
        yield eng
