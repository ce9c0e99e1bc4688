"""`masis migrate`, the Slack side: copy the bot's bookkeeping (`slack.db`) into PostgreSQL.

Every table is copied row by row; a row whose key PostgreSQL already has stays as it is, so a second run copies
nothing twice. Work the SQLite bot left in flight comes along: the PostgreSQL replicas tell its threads it was
lost, as the SQLite bot would have on its next start.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.db import BotDB
from masis.records.db import copy_rows

TABLES = ("deliveries", "clarification_posts", "answers", "assistant_contexts", "work_in_flight")


def migrate_bot_state(path: Path, url: str, progress: Callable[[str], None]) -> tuple[int, int]:
    """Copy `slack.db` into the database at `url`; returns (rows copied, rows already there)."""
    import sqlite3

    BotDB(path).close()  # an older file is brought up to date first, as the bot would
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    target = BotDB(url)
    copied = present = 0
    try:
        for table in TABLES:
            with target.cursor() as conn:
                done, there = copy_rows(source, conn, table)
            copied, present = copied + done, present + there
            progress(f"slack: {table}: {done} copied" + (f", {there} already there" if there else ""))
    finally:
        target.close()
        source.close()
    return copied, present
