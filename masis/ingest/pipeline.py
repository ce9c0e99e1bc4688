"""The ingest pipeline: file bytes -> sections -> chunks -> store, with the registry kept in step.

Each file succeeds or fails alone: a broken PDF in a batch is reported with its reason and the
others are indexed.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Literal

from masis.config import Settings
from masis.errors import IngestError
from masis.ingest.chunking import chunk_sections
from masis.ingest.loaders import load_document
from masis.registry import DocumentInfo, Registry, now_iso
from masis.store.base import VectorStore
from masis.text import terms

log = logging.getLogger(__name__)

IngestProgress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class FileResult:
    name: str
    status: Literal["indexed", "unchanged", "failed"]
    chunks: int = 0
    reason: str | None = None
    pages: int | None = None


@dataclass
class IngestReport:
    workspace_id: str
    results: list[FileResult] = field(default_factory=list)

    @property
    def indexed(self) -> list[FileResult]:
        return [r for r in self.results if r.status == "indexed"]

    @property
    def failed(self) -> list[FileResult]:
        return [r for r in self.results if r.status == "failed"]


def document_name(name: str) -> str:
    """The name a document is known by: the file's base name, never a path."""
    return PurePath(name.replace("\\", "/")).name.strip()


def ingest_files(
    *,
    store: VectorStore,
    registry: Registry,
    settings: Settings,
    workspace_id: str,
    files: Sequence[tuple[str, bytes]],
    uploaded_by: str,
    on_progress: IngestProgress | None = None,
) -> IngestReport:
    report = IngestReport(workspace_id)
    for done, (raw_name, data) in enumerate(files, start=1):
        name = document_name(raw_name)
        try:
            result = _ingest_one(store, registry, settings, workspace_id, name, data, uploaded_by)
        except IngestError as exc:
            result = FileResult(name or raw_name, "failed", reason=str(exc))
        except Exception:
            log.exception("ingest of %s failed", name)
            result = FileResult(name or raw_name, "failed", reason="could not be read (unexpected error)")
        report.results.append(result)
        if on_progress is not None:
            on_progress(done, len(files), name)
    return report


def _ingest_one(
    store: VectorStore,
    registry: Registry,
    settings: Settings,
    workspace_id: str,
    name: str,
    data: bytes,
    uploaded_by: str,
) -> FileResult:
    if not name:
        raise IngestError("the file has no name")
    if len(data) > settings.max_file_bytes:
        raise IngestError(f"{name} is {len(data) / 1e6:.1f} MB; the limit is {settings.max_file_bytes / 1e6:.0f} MB")
    digest = hashlib.sha256(data).hexdigest()
    existing = registry.document(workspace_id, name)
    if existing is not None and existing.sha256 == digest:
        return FileResult(name, "unchanged", chunks=existing.chunks, pages=existing.pages)
    sections = load_document(name, data)
    chunks = chunk_sections(name, sections, settings.chunk_chars, settings.chunk_overlap_chars)
    if not chunks:
        raise IngestError("no text found to index")
    pages = max((s.page for s in sections if s.page is not None), default=None)
    store.delete_document(workspace_id, name)
    store.upsert(workspace_id, chunks)
    info = DocumentInfo(
        name=name,
        chunks=len(chunks),
        size_bytes=len(data),
        pages=pages,
        uploaded_by=uploaded_by,
        uploaded_at=now_iso(),
        sha256=digest,
    )
    registry.save_document(workspace_id, info, (terms(chunk.text) for chunk in chunks))
    return FileResult(name, "indexed", chunks=len(chunks), pages=pages)
