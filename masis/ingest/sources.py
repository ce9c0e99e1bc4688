"""Files on disk as ingest sources: checked before they are read (a regular file, within the size limit) and
read one at a time, when the pipeline comes to them, so a directory of large files never sits in memory."""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Callable
from pathlib import Path

from masis.errors import IngestError
from masis.sizes import human_size

# What the pipeline takes for a file's content: its bytes, or a function that reads them (and raises
# IngestError with the reason when it cannot).
FileReader = Callable[[], bytes]

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def too_big(size: int, limit: int) -> str | None:
    """Why a file of `size` bytes is refused under a limit of `limit` bytes, or None."""
    if size <= limit:
        return None
    return f"the file is {human_size(size)}; the limit is {human_size(limit)}"


def not_a_regular_file(mode: int) -> str | None:
    """Why a path of this stat mode cannot be read as a document, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    return f"not a regular file but {kind}; give the path of a document or of a directory of documents"


def path_reader(path: Path, max_bytes: int) -> FileReader:
    """A reader of the document at `path` for the pipeline, refusing it unread when it is too big."""
    return functools.partial(read_document, path, max_bytes)


def read_document(path: Path, max_bytes: int) -> bytes:
    """The bytes of the regular file at `path`; a device, a FIFO or a file over `max_bytes` is refused
    without being read."""
    try:
        # Checked before opening (opening some devices does something), and again on what was opened, in
        # case the path changed in between. O_NONBLOCK: opening a FIFO must not wait for a writer.
        found = os.stat(path)
        _check(found.st_mode, found.st_size, max_bytes)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise IngestError("the file is gone; it was moved or deleted after the ingest started") from None
    except PermissionError:
        raise IngestError("permission denied; make the file readable and try again") from None
    except OSError as exc:
        raise IngestError(f"could not open the file ({exc.strerror or 'error'})") from None
    with os.fdopen(fd, "rb") as file:
        opened = os.fstat(fd)
        _check(opened.st_mode, opened.st_size, max_bytes)
        data = file.read(max_bytes + 1)
    if problem := too_big(len(data), max_bytes):  # it grew after it was checked
        raise IngestError(problem)
    return data


def _check(mode: int, size: int, max_bytes: int) -> None:
    if problem := not_a_regular_file(mode) or too_big(size, max_bytes):
        raise IngestError(problem)
