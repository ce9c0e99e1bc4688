"""One writer per document: uploads, replacements and removals of one (workspace, document name) go one at a
time, in this process (a lock per name) and, on PostgreSQL, across replicas (an advisory lock per name).

A group of files holds all its names at once. Every holder takes its names in one fixed order (sorted; on
PostgreSQL, by lock key) and takes all of this process's locks before any of PostgreSQL's, so two writers
whose groups share names wait for each other but never in a cycle.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from masis.errors import DocumentBusyError
from masis.pause import pause_point
from masis.records.locks import KeyedLocks

if TYPE_CHECKING:
    from masis.records.db import Postgres

# PostgreSQL keeps every advisory lock in a shared table sized for about 64 per connection (the default
# max_locks_per_transaction); a group of thousands of names would crowd out other sessions, so on PostgreSQL a
# group closes at this many names.
POSTGRES_NAMES_PER_HOLD = 256


def _waiting() -> None:
    pause_point("documents:waiting")


class DocumentLocks:
    def __init__(self, postgres: Postgres | None = None) -> None:
        self._local = KeyedLocks()
        self._postgres = postgres

    @property
    def max_names(self) -> int | None:
        """How many names one `hold` may take (None: no limit)."""
        return POSTGRES_NAMES_PER_HOLD if self._postgres is not None else None

    @contextmanager
    def hold(self, workspace_id: str, names: Sequence[str], *, wait: bool = True) -> Iterator[None]:
        """Hold the documents `names` of a workspace for the block. With `wait=False`, a name another writer
        holds raises `DocumentBusyError` instead of waiting."""
        keys = [f"masis:document:{workspace_id}\x00{name}" for name in names]
        with self._local.hold_all(keys, wait=wait, on_wait=_waiting) as held:
            if not held:
                raise DocumentBusyError(_busy(names))
            if self._postgres is None:
                yield
                return
            with self._postgres.hold_locks(keys, wait=wait, on_wait=_waiting) as held:
                if not held:
                    raise DocumentBusyError(_busy(names))
                yield


def _busy(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"One of {', '.join(names)}"
