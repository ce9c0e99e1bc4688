"""Files on disk as ingest sources: refused before they are read when they are not documents or too big, and
read one at a time as the pipeline reaches them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from masis.engine import Engine
from masis.errors import IngestError
from masis.ingest import pipeline, sources
from masis.ingest.sources import read_document
from tests.conftest import make_settings


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    with pytest.raises(IngestError, match=r"^not a regular file but a named pipe \(FIFO\); give the path"):
        read_document(fifo, 1024)


def test_a_device_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="not a regular file but a character device"):
        read_document(Path("/dev/zero"), 1024)


def test_a_file_over_the_limit_is_refused_without_being_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.pdf"
    with big.open("wb") as file:
        file.truncate(3 * 1024 * 1024)
    opened: list[object] = []
    real_open = os.open
    monkeypatch.setattr(sources.os, "open", lambda *args, **kwargs: opened.append(args) or real_open(*args, **kwargs))
    with pytest.raises(IngestError, match=r"^the file is 3.0 MiB; the limit is 2.0 MiB$"):
        read_document(big, 2 * 1024 * 1024)
    assert opened == []


def test_a_file_at_the_limit_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "fits.txt"
    path.write_bytes(b"x" * 4096)
    assert read_document(path, 4096) == b"x" * 4096


def test_ingest_paths_reads_each_file_when_its_turn_comes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """c.md is deleted while a.md is parsed: read up front (as before), it would be indexed all the same; read
    when its turn comes, it is gone, and only it fails."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a.md", "b.md", "c.md"):
        (folder / name).write_text(f"# {name}\n\nThe {name} budget is $2 million.")
    os.mkfifo(folder / "pipe.md")  # not a file: skipped, as before, and never opened
    parsed: list[str] = []
    real_load = pipeline.load_document

    def load(name: str, data: bytes) -> object:
        parsed.append(name)
        if name == "a.md":
            (folder / "c.md").unlink()
        return real_load(name, data)

    monkeypatch.setattr(pipeline, "load_document", load)
    with Engine(make_settings(tmp_path / "data")) as engine:
        report = engine.ingest_paths("ws", [folder])
    assert [(r.name, r.status) for r in report.results] == [("a.md", "indexed"), ("b.md", "indexed"),
                                                             ("c.md", "failed")]
    assert report.failed[0].reason == "the file is gone; it was moved or deleted after the ingest started"
    assert parsed == ["a.md", "b.md"]


def test_a_file_that_cannot_be_read_fails_alone(tmp_path: Path) -> None:
    good, gone = tmp_path / "good.md", tmp_path / "gone.md"
    good.write_text("The Falcon deadline is March 2027.")
    gone.write_text("Soon deleted.")
    with Engine(make_settings(tmp_path / "data")) as engine:
        reader = sources.path_reader(gone, engine.settings.max_file_bytes)
        gone.unlink()
        report = engine.ingest("ws", [("gone.md", reader), ("good.md", good.read_bytes())])
    assert [(r.name, r.status) for r in report.results] == [("gone.md", "failed"), ("good.md", "indexed")]
    assert report.failed[0].reason == "the file is gone; it was moved or deleted after the ingest started"
