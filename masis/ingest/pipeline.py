"""The ingest pipeline: file bytes -> sections -> chunks -> store, with the registry kept in step.

Each file succeeds or fails alone: a broken PDF in a batch is reported with its reason and the
others are indexed. One writer per document (`masis.records.document_locks`): an upload of a name another upload or
removal is writing waits for it, then replaces what it left (or is `unchanged`). A replacement is written
beside the version it replaces, hidden, and switched to once complete: readers see the old or the new.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import logging
import secrets
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, Literal

from masis.config import Settings
from masis.errors import IngestError
from masis.ingest.budget import parse_slots
from masis.ingest.chunking import chunk_sections
from masis.ingest.isolation import can_isolate, run_isolated
from masis.ingest.loaders import import_parser, load_document
from masis.ingest.sources import FileReader, too_big
from masis.judge.matching import words
from masis.judge.terms import document_vector
from masis.pause import pause_point
from masis.records.document_locks import DocumentLocks
from masis.records.registry import DocumentInfo, Registry, now_iso
from masis.store.base import ChunkRecord, VectorStore
from masis.store.payload import UPSERT_BATCH, index_text

if TYPE_CHECKING:
    from masis.store.embeddings import Embedder

log = logging.getLogger(__name__)

IngestProgress = Callable[[int, int, str], None]
# Told when a file waits for a free parser (masis.ingest.budget): its name and its place in line (1: next).
ParseWaiting = Callable[[str, int], None]


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

    def summary(self) -> str:
        """One line: how many files were indexed (and their chunks), unchanged and failed."""
        if not self.results:
            return "No files to ingest (hidden files are skipped)."
        indexed = self.indexed
        chunks = sum(r.chunks for r in indexed)
        unchanged = len(self.results) - len(indexed) - len(self.failed)
        return (f"{len(indexed)} indexed ({chunks} chunk{'s' if chunks != 1 else ''}), {unchanged} unchanged, "
                f"{len(self.failed)} failed.")


def document_name(name: str) -> str:
    """The name a document is known by: the file's base name, never a path."""
    return PurePath(name.replace("\\", "/")).name.strip()


# Characters that make a name display as something else: bidirectional-text controls reorder what follows
# them ("\u202egpj.exe" shows as "exe.jpg"), control characters break lines and terminals, and the other
# invisible format characters (zero-width joiners and spaces, U+FEFF, the tag characters U+E0001-U+E007F)
# make two names that look the same differ, or smuggle text nobody sees.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_LINE_BREAKING = frozenset({"Cc", "Zl", "Zp"})  # C0 and C1 controls, DEL; line and paragraph separators
_INVISIBLE = "Cf"  # format characters (the bidi controls are among them)


def _hidden(char: str) -> bool:
    return char in _BIDI_CONTROLS or unicodedata.category(char) in {*_LINE_BREAKING, _INVISIBLE}


def _escape(char: str) -> str:
    return f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"


def text_problem(text: str) -> str | None:
    """The first character of `text` that would not show as itself (a control, bidirectional-text or
    invisible format character), described for a user, or None."""
    for char in text:
        if char in _BIDI_CONTROLS:
            return f"the bidirectional-text control U+{ord(char):04X}"
        category = unicodedata.category(char)
        if category in _LINE_BREAKING:
            return f"the control character U+{ord(char):04X}"
        if category == _INVISIBLE:
            return f"the invisible character U+{ord(char):04X}"
    return None


def name_problem(name: str) -> str | None:
    """Why `name` cannot name a document (a character in it that would not show as itself), or None."""
    problem = text_problem(name)
    return f"the name contains {problem}; rename the file" if problem else None


def visible_name(name: str) -> str:
    """`name` with its control, bidirectional-text and invisible characters written as escapes, safe to print."""
    return "".join(_escape(c) if _hidden(c) else c for c in name)


# Files are parsed one by one (each succeeds or fails alone) and then indexed in groups, holding the group's
# names: one registry transaction to record the writes, large store upserts of the new versions (hidden), one
# store update to publish them, one transaction to list them with their term statistics, one store delete of
# the versions they replace, one transaction to close the writes. A group closes at this many chunks (or
# files, or names `DocumentLocks` may hold at once), or before a second file of the same name, which must
# replace the first rather than race it.
GROUP_CHUNKS = 8192
GROUP_FILES = 5000


@dataclass
class _Parsed:
    """A file parsed and chunked, waiting to be indexed with its group."""

    position: int
    info: DocumentInfo
    chunks: list[ChunkRecord]


def ingest_files(
    *,
    store: VectorStore,
    registry: Registry,
    settings: Settings,
    workspace_id: str,
    files: Sequence[tuple[str, bytes | FileReader]],
    uploaded_by: str,
    locks: DocumentLocks,
    on_progress: IngestProgress | None = None,
    embedder: Embedder | None = None,
    on_wait: ParseWaiting | None = None,
) -> IngestReport:
    """Index `files`, each given by its name and its bytes or a reader of them (read when its turn comes,
    so only one file's bytes are in memory at a time)."""
    results: list[FileResult | None] = [None] * len(files)
    group_files = min(GROUP_FILES, locks.max_names or GROUP_FILES)
    done = 0

    def record(position: int, result: FileResult) -> None:
        nonlocal done
        results[position] = result
        done += 1
        if on_progress is not None:
            on_progress(done, len(files), result.name)

    group: list[_Parsed] = []
    group_names: set[str] = set()
    group_chunks = 0

    def index_group() -> None:
        nonlocal group_chunks
        for parsed, result in _index_group(store, registry, locks, workspace_id, group):
            record(parsed.position, result)
        group.clear()
        group_names.clear()
        group_chunks = 0

    for position, (raw_name, content) in enumerate(files):
        name = document_name(raw_name)
        if problem := name_problem(name):
            record(position, FileResult(visible_name(name), "failed", reason=problem))
            continue
        if name in group_names:
            index_group()  # the earlier file of this name first, so this one sees it as the old version
        try:
            data = content() if callable(content) else content
            waiting = functools.partial(on_wait, name) if on_wait is not None else None
            parsed = _parse_file(store, registry, settings, workspace_id, name, data, uploaded_by, embedder, waiting)
        except Exception as exc:
            record(position, _failure(name or raw_name, exc))
            continue
        if isinstance(parsed, FileResult):
            record(position, parsed)
            continue
        group.append(_Parsed(position, parsed[0], parsed[1]))
        group_names.add(name)
        group_chunks += len(parsed[1])
        if group_chunks >= GROUP_CHUNKS or len(group) >= group_files:
            index_group()
    index_group()
    return IngestReport(workspace_id, [result for result in results if result is not None])


def _failure(name: str, exc: Exception) -> FileResult:
    if isinstance(exc, IngestError):
        return FileResult(name, "failed", reason=str(exc))
    log.error("ingest of %s failed", name, exc_info=exc)
    return FileResult(name, "failed", reason="could not be read (unexpected error)")


def _parse_file(
    store: VectorStore,
    registry: Registry,
    settings: Settings,
    workspace_id: str,
    name: str,
    data: bytes,
    uploaded_by: str,
    embedder: Embedder | None = None,
    on_wait: Callable[[int], None] | None = None,
) -> FileResult | tuple[DocumentInfo, list[ChunkRecord]]:
    """The file's document record and chunks, or its result when there is nothing to index."""
    if not name:
        raise IngestError("the file has no name")
    if problem := too_big(len(data), settings.max_file_bytes):
        raise IngestError(problem)
    digest = hashlib.sha256(data).hexdigest()
    existing = registry.document(workspace_id, name)
    if existing is not None and existing.sha256 == digest:
        return FileResult(name, "unchanged", chunks=existing.chunks, pages=existing.pages)
    pages, chunks = _parse(settings, name, data, on_wait)
    if not chunks:
        raise IngestError("no text found to index")
    _refuse_taken_ids(store, workspace_id, name, chunks)
    if embedder is not None and getattr(store, "hybrid", False):
        # Embed (into the embedder's cache) before the old version is touched: an embeddings outage then
        # fails this file while its previous version stays searchable.
        embedder.embed_documents([chunk.text for chunk in chunks])
    info = DocumentInfo(
        name=name,
        chunks=len(chunks),
        size_bytes=len(data),
        pages=pages,
        uploaded_by=uploaded_by,
        uploaded_at=now_iso(),
        sha256=digest,
    )
    return info, chunks


def _index_group(
    store: VectorStore, registry: Registry, locks: DocumentLocks, workspace_id: str, group: Sequence[_Parsed]
) -> list[tuple[_Parsed, FileResult]]:
    """Index a group of parsed files; if the group fails as a whole, each file is tried again alone, so
    that each one still succeeds or fails on its own."""
    if not group:
        return []
    try:
        return _index_held(store, registry, locks, workspace_id, group)
    except Exception as exc:
        if len(group) == 1:
            return [(group[0], _failure(group[0].info.name, exc))]
        log.warning("indexing %d files together failed; indexing them one by one", len(group), exc_info=True)
        return [
            result for parsed in group for result in _index_group(store, registry, locks, workspace_id, [parsed])
        ]


def _index_held(
    store: VectorStore, registry: Registry, locks: DocumentLocks, workspace_id: str, group: Sequence[_Parsed]
) -> list[tuple[_Parsed, FileResult]]:
    """Index a group holding its names; a file whose content is what is listed now (another upload of it
    finished while this one waited) is `unchanged`."""
    with locks.hold(workspace_id, [parsed.info.name for parsed in group]):
        listed = registry.documents_named(workspace_id, [parsed.info.name for parsed in group])
        results: list[tuple[_Parsed, FileResult]] = []
        fresh: list[_Parsed] = []
        for parsed in group:
            existing = listed.get(parsed.info.name)
            if existing is not None and existing.sha256 == parsed.info.sha256:
                results.append((parsed, FileResult(existing.name, "unchanged", existing.chunks, pages=existing.pages)))
            else:
                fresh.append(parsed)
        if fresh:
            _index(store, registry, workspace_id, fresh)
    return results + [(parsed, _indexed(parsed)) for parsed in fresh]


def _indexed(parsed: _Parsed) -> FileResult:
    return FileResult(parsed.info.name, "indexed", chunks=parsed.info.chunks, pages=parsed.info.pages)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block (it re-enables what it found enabled).

    Indexing a group makes hundreds of thousands of small lists, tuples and dicts, none of them in a
    reference cycle, yet each 700 allocations wake the collector to scan the young ones and now and then
    every object of the process: a sixth of a text ingest's time. Nothing in a group's indexing leaves a
    cycle behind, so nothing waits to be collected because of the pause."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _index(store: VectorStore, registry: Registry, workspace_id: str, group: Sequence[_Parsed]) -> None:
    with _collector_paused():
        _index_paused(store, registry, workspace_id, group)


def _index_paused(store: VectorStore, registry: Registry, workspace_id: str, group: Sequence[_Parsed]) -> None:
    chunks = [chunk for parsed in group for chunk in parsed.chunks]
    owners = [i for i, parsed in enumerate(group) for _ in parsed.chunks]
    counts: list[Counter[int]] = [Counter() for _ in group]  # per document: chunks holding each term
    texts: list[list[str]] = [[] for _ in group]  # per document: what BM25 indexes of each chunk
    versions = {parsed.info.name: secrets.token_hex(8) for parsed in group}
    # Crash safety: the writes are recorded before the store is touched; the new versions' points stay hidden
    # until all are in, then are published, then listed (the commit point), and only then are the versions
    # they replace deleted. A process killed before the listing leaves writes that start-up recovery rolls
    # back (the previous versions were never touched); one killed after, writes it rolls forward
    # (masis.ingest.recovery).
    registry.begin_writes(workspace_id, versions)
    try:
        for start in range(0, len(chunks), UPSERT_BATCH):  # vectors a batch at a time: memory stays flat
            batch = chunks[start : start + UPSERT_BATCH]
            indexed = [index_text(chunk) for chunk in batch]
            vectors = [document_vector(text) for text in indexed]
            # Each chunk is tokenised once: the registry counts the token ids of its BM25 vector, so the
            # relevance score's statistics are those of the text BM25 indexes (a heading included).
            for offset, (text, vector) in enumerate(zip(indexed, vectors, strict=True)):
                counts[owners[start + offset]].update(vector[0])
                texts[owners[start + offset]].append(text)
            store.upsert(workspace_id, batch, vectors, versions)
            pause_point("ingest:upserted-batch")
        store.publish(workspace_id, versions)
        pause_point("ingest:published")
        # A document's words are those of its chunks' texts, read in one pass: a line break ends a word as the
        # end of a chunk's text does.
        registry.save_documents(
            workspace_id,
            [(parsed.info, n, _words(text)) for parsed, n, text in zip(group, counts, texts, strict=True)],
            versions,
        )
    except BaseException:
        _roll_back(store, registry, workspace_id, versions)
        raise
    pause_point("ingest:recorded")
    try:
        store.delete_other_versions(workspace_id, versions)
        registry.end_writes(workspace_id, versions)
    except Exception:  # the new versions are listed and answer; start-up recovery deletes the old ones
        log.warning("could not delete the previous versions of %s", ", ".join(versions), exc_info=True)


_WORDS_CHUNKS = 256


def _words(texts: Sequence[str]) -> frozenset[str]:
    """A document's words: those of its chunks' texts, read a few hundred chunks per call (one call on a
    20 MiB document held the GIL for a third of a second); a line break ends a word as the end of a chunk's
    text does."""
    found: set[str] = set()
    for start in range(0, len(texts), _WORDS_CHUNKS):
        found |= words("\n".join(texts[start : start + _WORDS_CHUNKS]))
    return frozenset(found)


# Formats whose parsers unpack or interpret the file (compressed streams, zip parts, markup) are parsed and
# chunked in a child process, and so is any file larger than IN_PROCESS_MAX_BYTES: a long text's sentence
# splitting makes calls that each hold the GIL for a while (a quarter of a second on 20 MiB), and the child
# has a GIL of its own. Small plain text (txt, md, csv) is parsed here, in time linear in its size whatever it
# holds (tests/unit/test_linear_parsing.py), because a fork per file costs more than such a parse: bulk
# ingest of small text files ran 5× slower forked.
_ISOLATED_SUFFIXES = frozenset({".pdf", ".docx", ".pptx", ".xlsx", ".html", ".htm"})
IN_PROCESS_MAX_BYTES = 256 * 1024


def _parse(
    settings: Settings, name: str, data: bytes, on_wait: Callable[[int], None] | None = None
) -> tuple[int | None, list[ChunkRecord]]:
    """The file's page count (PDFs) and chunks. Risky formats and large files are parsed in a child process
    with a time limit and a memory cap, at most `parse_concurrency` at once (masis.ingest.budget), the others
    waiting in line."""

    def parse() -> tuple[int | None, list[ChunkRecord]]:
        sections = load_document(name, data)
        with _collector_paused():  # sentences and chunks are many small objects, none in a cycle
            chunks = chunk_sections(name, sections, settings.chunk_chars, settings.chunk_overlap_chars)
        return max((s.page for s in sections if s.page is not None), default=None), chunks

    isolate = PurePath(name).suffix.lower() in _ISOLATED_SUFFIXES or len(data) > IN_PROCESS_MAX_BYTES
    if not isolate or settings.parse_timeout_seconds <= 0 or not can_isolate():
        return parse()
    import_parser(name)  # once in this process, not again in every forked child
    with parse_slots(settings).hold(on_wait):
        return run_isolated(
            parse, timeout=settings.parse_timeout_seconds, memory_bytes=settings.parse_memory_mb * 1024 * 1024
        )


def _roll_back(store: VectorStore, registry: Registry, workspace_id: str, versions: dict[str, str]) -> None:
    """Undo writes that failed half-way: the new versions' points go, the versions they replace stay."""
    try:
        store.delete_versions(workspace_id, versions)
        registry.end_writes(workspace_id, versions)
    except Exception:  # start-up recovery finishes the job
        log.warning("could not clean up after the failed ingest of %s", ", ".join(versions), exc_info=True)


def _refuse_taken_ids(store: VectorStore, workspace_id: str, name: str, chunks: Sequence[ChunkRecord]) -> None:
    """Refuse a document whose chunk ids are stored under another document, instead of overwriting it.

    Keys are distinct per name (masis.chunk_ids), so this happens only beside documents indexed by an older
    MASIS, whose lossy ids `masis reindex` renumbers."""
    taken = sorted({owner for owner in store.owners(workspace_id, [c.chunk_id for c in chunks]).values()
                    if owner != name})
    if taken:
        raise IngestError(
            f"its chunk ids ({chunks[0].chunk_id}, ...) are already used by {', '.join(taken)}, indexed by an "
            "older MASIS; nothing was changed. Run `masis reindex` to give every document its own ids, "
            "then upload it again."
        )
