"""Test-only pause points, so a test stops work at an exact place instead of sleeping and hoping.

Across processes, `MASIS_TEST_PAUSE_AT=<point>=<path>`: the process that reaches `<point>` writes its pid to
`<path>` and then waits until it is killed (a crash test), or until the test creates `<path>.resume`; from then
on the point lets every thread through. Within a process, `hooked(point, hook)` calls `hook`
in whichever thread reaches `<point>` (a test blocks it on an event, then lets it go). Unset (always, outside
tests), `pause_point` is a dict check and one environment lookup. Points: `ingest:upserted-batch` (a batch of a
group's new versions is in the store, hidden, the rest are not), `ingest:published` (the group's new versions
are visible, the registry still lists the versions they replace), `ingest:recorded` (the registry lists the
new versions, the replaced versions' points are not deleted yet), `remove:checked` (a removal found its
document, nothing is deleted yet), `documents:waiting` (a writer found a document it needs held by another
writer and is about to wait for it) and `ask:<stage>` (a run reached a progress stage: researching, writing,
auditing, scoring), `presence:beat` and `watch:sweep` (a replica's heartbeat and its sweep for other
replicas' lost work, each about to run).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ENV = "MASIS_TEST_PAUSE_AT"

_hooks: dict[str, Callable[[], None]] = {}


@contextmanager
def hooked(point: str, hook: Callable[[], None]) -> Iterator[None]:
    """Within the block, every thread of this process that reaches `point` calls `hook` there."""
    if point in _hooks:
        raise RuntimeError(f"the pause point {point!r} is already hooked")
    _hooks[point] = hook
    try:
        yield
    finally:
        del _hooks[point]


def pause_point(name: str) -> None:
    if _hooks and (hook := _hooks.get(name)) is not None:
        hook()
    spec = os.environ.get(ENV)
    if not spec:
        return
    point, _, path = spec.partition("=")
    if point != name or not path:
        return
    reached = Path(path)
    resume = reached.with_name(reached.name + ".resume")
    if resume.exists():
        return
    if not reached.exists():
        partial = reached.with_name(reached.name + ".tmp")
        partial.write_text(str(os.getpid()))
        partial.rename(reached)  # whole or absent: the test never reads half a pid
    while not resume.exists():  # test-only: a file another process creates is the one signal it can send here
        threading.Event().wait(0.05)
