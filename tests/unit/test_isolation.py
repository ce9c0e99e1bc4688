"""The parse sandbox: a real forked child with a real time limit and memory cap."""

from __future__ import annotations

import os
import time

import pytest

from masis.errors import IngestError
from masis.ingest.isolation import run_isolated

MB = 1024 * 1024


def test_the_result_comes_back_from_the_child() -> None:
    parent = os.getpid()
    assert run_isolated(lambda: ("sections", os.getpid() != parent), timeout=10, memory_bytes=256 * MB) == (
        "sections", True)


def test_the_childs_exception_is_raised_here() -> None:
    def refuse() -> None:
        raise IngestError("this PDF is password-protected")

    with pytest.raises(IngestError, match=r"^this PDF is password-protected$"):
        run_isolated(refuse, timeout=10, memory_bytes=256 * MB)


def test_a_parser_that_hangs_is_killed_at_the_time_limit() -> None:
    started = time.monotonic()
    with pytest.raises(IngestError, match=r"took longer than 0.5 s; it may be damaged"):
        run_isolated(lambda: time.sleep(30), timeout=0.5, memory_bytes=256 * MB)
    assert time.monotonic() - started < 5


def test_a_parser_that_eats_memory_stops_at_the_cap_and_the_parent_lives_on() -> None:
    with pytest.raises(IngestError, match=r"needs more than the 64 MB allowed"):
        run_isolated(lambda: bytearray(512 * MB), timeout=20, memory_bytes=64 * MB)
    assert len(bytearray(128 * MB)) == 128 * MB  # the cap was the child's only


def test_a_parser_that_crashes_the_interpreter_is_reported() -> None:
    with pytest.raises(IngestError, match="the file reader crashed on this file"):
        run_isolated(lambda: os.abort(), timeout=10, memory_bytes=256 * MB)
