"""The kept vectors' file: each vector remembers the day it was last used, and the unused ones can be forgotten."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from masis.store.embeddings import SECONDS_A_DAY, VectorCache

VECTOR = b"\x00\x00\x80\x3f" * 4  # four float32 ones


class Clock:
    def __init__(self, day: int) -> None:
        self.day = day

    def __call__(self) -> float:
        return self.day * SECONDS_A_DAY + 3600.0


def test_a_vector_read_again_is_kept_and_one_nobody_read_is_forgotten(tmp_path: Path) -> None:
    clock = Clock(100)
    cache = VectorCache(tmp_path / "embeddings.db", clock=clock)
    try:
        cache.put("m", {"old passage": VECTOR, "passage read again": VECTOR})
        clock.day = 120
        assert cache.get("m", ["passage read again", "never kept"]) == {"passage read again": VECTOR}
        clock.day = 140
        assert cache.forget_unused(30) == 1  # used on day 100: more than 30 days ago
        assert cache.get("m", ["old passage", "passage read again"]) == {"passage read again": VECTOR}
        assert cache.forget_unused(30) == 0
    finally:
        cache.close()


def test_a_file_from_before_the_used_day_counts_its_vectors_as_used_today(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE embeddings (model TEXT NOT NULL, sha256 TEXT NOT NULL, vector BLOB NOT NULL, "
                     "PRIMARY KEY (model, sha256)) WITHOUT ROWID")
        conn.execute("INSERT INTO embeddings VALUES ('m', "
                     "'9a0364b9e99bb480dd25e1f0284c8555b5e4e0b2e2f3e1f5c5c0bd6d3b4f0a1e', ?)", (VECTOR,))
    clock = Clock(200)
    cache = VectorCache(path, clock=clock)
    try:
        assert cache.forget_unused(0) == 0  # migrated today, not on day 0
        clock.day = 231
        assert cache.forget_unused(30) == 1
    finally:
        cache.close()
