"""The parse budget through the real ingest path: real forked parses, the real store, two uploads at once.

The parse itself is held in the child by a pipe: the child-side loader writes which file it reached and,
for the file the test gates, reads one byte before it goes on. Every wait is on a pipe, a queue or a
thread, never on a clock.
"""

from __future__ import annotations

import os
import queue
import threading
from pathlib import Path

import pytest

from masis.engine import Engine
from masis.ingest import pipeline
from tests.conftest import make_settings

PAGE = "<html><body><h1>{title}</h1><p>The {title} budget is $2 million.</p></body></html>"


class Gate:
    """Pipes from the parse children: `reached` names each file a child starts to parse; `gated` files wait
    in the child until `open()`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, gated: set[str]) -> None:
        self._reached_r, reached_w = os.pipe()
        gate_r, self._gate_w = os.pipe()
        real = pipeline.load_document

        def load(name: str, data: bytes) -> object:
            os.write(reached_w, f"{name}\n".encode())
            if name in gated:
                os.read(gate_r, 1)
            return real(name, data)

        monkeypatch.setattr(pipeline, "load_document", load)
        self._buffer = b""

    def next_reached(self) -> str:
        while b"\n" not in self._buffer:
            self._buffer += os.read(self._reached_r, 1024)
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    def nothing_else_reached(self) -> bool:
        os.set_blocking(self._reached_r, False)
        try:
            return not self._buffer and not os.read(self._reached_r, 1024)
        except BlockingIOError:
            return True
        finally:
            os.set_blocking(self._reached_r, True)

    def open(self) -> None:
        os.write(self._gate_w, b"go")


def start(engine: Engine, workspace: str, name: str, events: queue.Queue[tuple[str, ...]]) -> threading.Thread:
    def run() -> None:
        report = engine.ingest(
            workspace, [(name, PAGE.format(title=name.removesuffix(".html")).encode())],
            on_progress=lambda done, total, file: events.put(("done", file)),
            on_wait=lambda file, place: events.put(("waiting", file, str(place))),
        )
        events.put(("report", name, ",".join(r.status for r in report.results)))

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


def test_with_one_slot_a_second_parse_waits_until_the_first_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(monkeypatch, gated={"first.html"})
    events: queue.Queue[tuple[str, ...]] = queue.Queue()
    with Engine(make_settings(tmp_path / "data", parse_concurrency=1)) as engine:
        first = start(engine, "team:one", "first.html", events)
        assert gate.next_reached() == "first.html"  # the first parse runs in its child, holding the only slot
        second = start(engine, "team:two", "second.html", events)
        assert events.get(timeout=60) == ("waiting", "second.html", "1")  # told it is next in line
        assert gate.nothing_else_reached(), "the second file must not be parsed while the first holds the slot"

        gate.open()
        assert gate.next_reached() == "second.html"  # only now
        first.join(timeout=60)
        second.join(timeout=60)
        rest = [events.get(timeout=60) for _ in range(4)]
        assert ("report", "first.html", "indexed") in rest and ("report", "second.html", "indexed") in rest
        assert [d.name for d in engine.documents("team:two")] == ["second.html"]


def test_with_two_slots_two_parses_run_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate(monkeypatch, gated={"first.html", "second.html"})
    events: queue.Queue[tuple[str, ...]] = queue.Queue()
    with Engine(make_settings(tmp_path / "data", parse_concurrency=2)) as engine:
        threads = [start(engine, "team:one", "first.html", events), start(engine, "team:two", "second.html", events)]
        assert {gate.next_reached(), gate.next_reached()} == {"first.html", "second.html"}  # both children parse
        gate.open()
        gate.open()
        for thread in threads:
            thread.join(timeout=60)
        reports = []
        while not events.empty():
            event = events.get_nowait()
            assert event[0] != "waiting", "nobody waited with a slot each"
            if event[0] == "report":
                reports.append(event)
        assert sorted(reports) == [("report", "first.html", "indexed"), ("report", "second.html", "indexed")]


def test_a_large_text_file_is_parsed_in_a_child_and_a_small_one_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Splitting a long text makes calls that hold the GIL for a while: a file over IN_PROCESS_MAX_BYTES is
    parsed and chunked in a child (with its own GIL), where a small one is not worth a fork."""
    pids_r, pids_w = os.pipe()
    real = pipeline.load_document

    def load(name: str, data: bytes) -> object:
        os.write(pids_w, f"{name} {os.getpid()}\n".encode())
        return real(name, data)

    monkeypatch.setattr(pipeline, "load_document", load)
    large = b"The Falcon budget is $2 million. " * (pipeline.IN_PROCESS_MAX_BYTES // 33 + 1)
    with Engine(make_settings(tmp_path / "data")) as engine:
        report = engine.ingest("ws", [("small.txt", b"The Osprey launch is in April."), ("large.txt", large)])
    assert [r.status for r in report.results] == ["indexed", "indexed"]
    parsed = dict(line.split() for line in os.read(pids_r, 4096).decode().splitlines())
    assert parsed["small.txt"] == str(os.getpid())
    assert parsed["large.txt"] != str(os.getpid())
