"""Run a parser in a forked child with a time limit and a memory cap, so one hostile file cannot hang or
kill the process that owns the store (the bot, or `masis ingest`).

The child is a plain `os.fork()`: it shares the parent's loaded modules copy-on-write, so there is no
interpreter start-up and nothing to pickle on the way in (a few milliseconds per file; see
bench/bench_isolation.py). The child only parses bytes into Python objects and never touches the store,
the databases or another thread's locks; the result comes back pickled over a pipe.

The memory cap is RLIMIT_AS set in the child to its inherited address space plus `memory_bytes`: the
parent's own mappings (store segments, thread stacks) are not the parser's fault and would otherwise eat
the budget.
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import os
import pickle
import resource
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

from masis.errors import IngestError

T = TypeVar("T")

_OK, _RAISED, _NO_MEMORY = b"o", b"r", b"m"
_PR_SET_PDEATHSIG = 1


def can_isolate() -> bool:
    return hasattr(os, "fork") and sys.platform != "win32"


def run_isolated(fn: Callable[[], T], *, timeout: float, memory_bytes: int) -> T:
    """`fn()` in a forked child. Its return value or the exception it raised comes back here.

    Raises IngestError when the child runs out of memory, exceeds `timeout` seconds or dies.
    """
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(fn, write_fd, memory_bytes, timeout)
    os.close(write_fd)
    try:
        payload = _read_all(read_fd, pid, timeout)
    finally:
        os.close(read_fd)
        _reap(pid)
    kind, body = payload[:1], payload[1:]
    if kind == _OK:
        return pickle.loads(body)  # type: ignore[no-any-return]
    if kind == _RAISED:
        raise pickle.loads(body)
    if kind == _NO_MEMORY:
        raise IngestError(_too_much_memory(memory_bytes))
    raise IngestError("the file reader crashed on this file; it may be damaged - re-export it and upload again")


def _too_much_memory(memory_bytes: int) -> str:
    return (f"reading this file needs more than the {memory_bytes // (1024 * 1024)} MB allowed; it may be damaged "
            "or built to exhaust memory - split it or re-export it, then upload again")


def _child(fn: Callable[[], Any], write_fd: int, memory_bytes: int, timeout: float) -> None:
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        faulthandler.disable()  # a parser crash is reported once, in words, not as a stack dump
        with contextlib.suppress(ValueError, OSError):
            limit = _address_space() + memory_bytes
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        # backstops for when the parent is gone (killed) and cannot enforce the timeout itself
        with contextlib.suppress(ValueError, OSError):
            seconds = int(timeout) + 5
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
        with contextlib.suppress(Exception):
            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # Linux: die with the parent
        try:
            payload = _OK + pickle.dumps(fn(), protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            payload = _NO_MEMORY
        except Exception as exc:
            try:
                payload = _RAISED + pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # an exception that does not pickle is reported as a crash
                payload = b""
        view = memoryview(payload)
        while view:
            view = view[os.write(write_fd, view) :]
    except BaseException:
        code = 1
    finally:
        os._exit(code)  # no atexit handlers, no flushing of the parent's buffers, no finalizers


def _address_space() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _read_all(fd: int, pid: int, timeout: float) -> bytes:
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            raise IngestError(
                f"reading this file took longer than {timeout:g} s; it may be damaged or far too complex - "
                "re-export or split it, then upload again"
            )
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
