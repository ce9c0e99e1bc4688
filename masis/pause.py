"""A test-only pause point, so a crash test kills a process at an exact place instead of sleeping and hoping.

`MASIS_TEST_PAUSE_AT=<point>=<path>`: the process that reaches `<point>` writes its pid to `<path>` and then
waits until it is killed. Unset (always, outside tests), `pause_point` is one environment lookup. Points:
`ingest:upserted-batch` (a document's first batch of chunks is in the store, the rest are not) and
`ask:<stage>` (a run reached a progress stage: researching, writing, auditing, scoring).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

ENV = "MASIS_TEST_PAUSE_AT"


def pause_point(name: str) -> None:
    spec = os.environ.get(ENV)
    if not spec:
        return
    point, _, path = spec.partition("=")
    if point != name or not path:
        return
    reached = Path(path)
    partial = reached.with_name(reached.name + ".tmp")
    partial.write_text(str(os.getpid()))
    partial.rename(reached)  # whole or absent: the test never reads half a pid
    threading.Event().wait()
