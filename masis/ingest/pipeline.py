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
from typing import TYPE_CHECKING, Literal

from masis.config import Settings
from masis.errors import IngestError
from masis.ingest.chunking import chunk_sections
from masis.ingest.isolation import can_isolate, run_isolated
from masis.ingest.loaders import Section, import_parser, load_document
from masis.registry import DocumentInfo, Registry, now_iso
from masis.store.base import VectorStore
from masis.text import terms

if TYPE_CHECKING:
    from masis.embeddings import Embedder

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
    embedder: Embedder | None = None,
) -> IngestReport:
    report = IngestReport(workspace_id)
    for done, (raw_name, data) in enumerate(files, start=1):
        name = document_name(raw_name)
        try:
            result = _ingest_one(store, registry, settings, workspace_id, name, data, uploaded_by, embedder)
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
    embedder: Embedder | None = None,
) -> FileResult:
    if not name:
        raise IngestError("the file has no name")
    if len(data) > settings.max_file_bytes:
        raise IngestError(f"{name} is {len(data) / 2**20:.1f} MB; the limit is {settings.max_file_bytes / 2**20:g} MB")
    digest = hashlib.sha256(data).hexdigest()
    existing = registry.document(workspace_id, name)
    if existing is not None and existing.sha256 == digest:
        return FileResult(name, "unchanged", chunks=existing.chunks, pages=existing.pages)
    sections = _parse(settings, name, data)
    chunks = chunk_sections(name, sections, settings.chunk_chars, settings.chunk_overlap_chars)
    if not chunks:
        raise IngestError("no text found to index")
    if embedder is not None and getattr(store, "hybrid", False):
        # Embed (into the embedder's cache) before the old version is touched: an embeddings outage then
        # fails this file while its previous version stays searchable.
        embedder.embed_documents([chunk.text for chunk in chunks])
    pages = max((s.page for s in sections if s.page is not None), default=None)
    info = DocumentInfo(
        name=name,
        chunks=len(chunks),
        size_bytes=len(data),
        pages=pages,
        uploaded_by=uploaded_by,
        uploaded_at=now_iso(),
        sha256=digest,
    )
    # Crash safety: the registry says 'indexing' before the store is touched and 'ready' only after every
    # point is in, so a process killed in between leaves a row that start-up recovery cleans away
    # (masis.ingest.recovery) instead of a half-indexed document listed as complete.
    registry.begin_document(workspace_id, info)
    try:
        store.delete_document(workspace_id, name)
        store.upsert(workspace_id, chunks)
    except BaseException:
        _abandon(store, registry, workspace_id, name)
        raise
    registry.save_document(workspace_id, info, (terms(chunk.text) for chunk in chunks))
    return FileResult(name, "indexed", chunks=len(chunks), pages=pages)


# Formats whose parsers unpack or interpret the file (compressed streams, zip parts, markup) run in a child
# process. Plain text is decoded and split by our own code in time and memory linear in its (capped) size,
# and a fork per file would cost more than the parse itself: bulk ingest of small text files ran 5× slower.
_ISOLATED_SUFFIXES = frozenset({".pdf", ".docx", ".html", ".htm"})


def _parse(settings: Settings, name: str, data: bytes) -> list[Section]:
    """The file's sections; risky formats are parsed in a child process with a time limit and a memory cap."""
    isolate = PurePath(name).suffix.lower() in _ISOLATED_SUFFIXES
    if not isolate or settings.parse_timeout_seconds <= 0 or not can_isolate():
        return load_document(name, data)
    import_parser(name)  # once in this process, not again in every forked child
    return run_isolated(
        lambda: load_document(name, data),
        timeout=settings.parse_timeout_seconds,
        memory_bytes=settings.parse_memory_mb * 1024 * 1024,
    )


def _abandon(store: VectorStore, registry: Registry, workspace_id: str, name: str) -> None:
    """Undo a replacement that failed half-way, so the document is absent rather than half there."""
    try:
        store.delete_document(workspace_id, name)
        registry.delete_document(workspace_id, name)
    except Exception:  # start-up recovery finishes the job
        log.warning("could not clean up after the failed ingest of %s", name, exc_info=True)
