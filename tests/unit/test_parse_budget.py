"""The parse budget's semaphore: first come, first served, resizable, and it never leaks a slot.

Every wait here ends on an event another thread sets; `on_wait` is called before a waiter blocks, so it is
the signal that the waiter is in line."""

from __future__ import annotations

import os
import queue
import threading
from pathlib import Path

import pytest

from masis.ingest.budget import FairSlots, parse_concurrency
from tests.conftest import make_settings


class Holder:
    """A thread that takes a slot, says so, and keeps it until released."""

    def __init__(self, slots: FairSlots, name: str, entered: queue.Queue[str], places: queue.Queue[tuple[str, int]]):
        self.release = threading.Event()
        self.inside = threading.Event()

        def run() -> None:
            with slots.hold(on_wait=lambda place: places.put((name, place))):
                entered.put(name)
                self.inside.set()
                self.release.wait()

        self.thread = threading.Thread(target=run, name=name, daemon=True)
        self.thread.start()


Line = tuple[queue.Queue[str], queue.Queue[tuple[str, int]]]


@pytest.fixture
def line() -> Line:
    """Who entered, in order, and who was told which place in line."""
    return queue.Queue(), queue.Queue()


def test_waiters_enter_in_the_order_they_came(line: Line) -> None:
    entered, places = line
    slots = FairSlots(1)
    first = Holder(slots, "first", entered, places)
    assert entered.get(timeout=10) == "first"
    waiting = []
    for place, name in enumerate(["b", "c", "d"], start=1):
        waiting.append(Holder(slots, name, entered, places))
        assert places.get(timeout=10) == (name, place)  # in line, at this place, before the next one comes
    assert entered.empty(), "nobody enters while the only slot is held"

    for holder in waiting:
        holder.release.set()  # each leaves as soon as it is in
    first.release.set()
    assert [entered.get(timeout=10) for _ in waiting] == ["b", "c", "d"]
    for holder in [first, *waiting]:
        holder.thread.join(timeout=10)


def test_more_slots_let_waiters_in_at_once(line: Line) -> None:
    entered, places = line
    slots = FairSlots(1)
    first = Holder(slots, "first", entered, places)
    entered.get(timeout=10)
    second = Holder(slots, "second", entered, places)
    assert places.get(timeout=10) == ("second", 1)
    slots.resize(2)
    assert entered.get(timeout=10) == "second"  # while the first still holds its slot
    assert not first.release.is_set()
    first.release.set()
    second.release.set()


class Interrupted(BaseException):
    """Stands for a KeyboardInterrupt arriving while a parse waits in line."""


def test_a_waiter_interrupted_in_line_leaves_it_and_takes_no_slot(
    line: Line,
) -> None:
    entered, places = line
    slots = FairSlots(1)
    first = Holder(slots, "first", entered, places)
    entered.get(timeout=10)

    def interrupt(place: int) -> None:
        raise Interrupted

    with pytest.raises(Interrupted), slots.hold(on_wait=interrupt):
        pytest.fail("entered while the only slot was held")
    first.release.set()
    first.thread.join(timeout=10)
    told: list[int] = []
    with slots.hold(on_wait=told.append):  # the slot is free again: no waiting
        assert told == []


def test_a_waiter_interrupted_just_as_its_turn_came_gives_the_slot_back(line: Line) -> None:
    entered, places = line
    slots = FairSlots(1)
    first = Holder(slots, "first", entered, places)
    entered.get(timeout=10)

    def interrupt_after_admission(place: int) -> None:
        first.release.set()
        first.thread.join(timeout=10)  # the first has left and handed its slot to this waiter
        raise Interrupted

    with pytest.raises(Interrupted), slots.hold(on_wait=interrupt_after_admission):
        pytest.fail("entered although interrupted")
    told: list[int] = []
    with slots.hold(on_wait=told.append):
        assert told == []


def test_a_failing_on_wait_does_not_fail_the_parse(line: Line) -> None:
    entered, places = line
    slots = FairSlots(1)
    first = Holder(slots, "first", entered, places)
    entered.get(timeout=10)
    done = threading.Event()

    def broken(place: int) -> None:
        first.release.set()  # lets the waiter in once it has been told
        raise RuntimeError("Slack is down")

    def wait_in_line() -> None:
        with slots.hold(on_wait=broken):
            done.set()

    thread = threading.Thread(target=wait_in_line, daemon=True)
    thread.start()
    assert done.wait(timeout=10)
    thread.join(timeout=10)


def test_the_concurrency_is_the_setting_or_what_cpus_and_memory_allow(tmp_path: Path) -> None:
    assert parse_concurrency(make_settings(tmp_path, parse_concurrency=3)) == 3
    # a cap larger than any machine's memory: one parse at a time, never none
    assert parse_concurrency(make_settings(tmp_path, parse_memory_mb=1 << 40)) == 1
    automatic = parse_concurrency(make_settings(tmp_path))
    assert 1 <= automatic <= (os.cpu_count() or 1)


def test_a_negative_concurrency_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="parse_concurrency"):
        make_settings(tmp_path, parse_concurrency=-1)
