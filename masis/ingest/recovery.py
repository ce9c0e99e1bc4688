"""Start-up check that the registry and the store agree, repairing what a crash left behind.

- A write (a new version of a document) a dead process left unfinished is rolled back: its points (hidden,
  or published but not yet listed) are removed, and the version it was replacing, never touched, stays. A
  first upload cut off so is absent afterwards, and a re-run of the ingest indexes it whole. A write already
  listed is rolled forward: the versions it replaced are deleted. So a document whose upload was answered
  "indexed" is never removed by recovery.
- A document an older MASIS left 'indexing' (it deleted the previous version first) is removed, points and row.
- A workspace whose store holds a different number of points than its ready documents list is drift
  (e.g. a crash between the two halves of a removal): each document is counted, and one whose points
  are not all there is removed so it can be uploaded again. Points the registry knows nothing about
  cannot be found by name and are only reported.
- A document whose chunks were overwritten by another document's (an older MASIS gave `Budget.md` and
  `budget.md` the same chunk ids) is removed too, and said so loudly: which document took its chunks and
  what to do (upload it again; `masis reindex` renumbers the older documents' chunks).

Each repair holds its document (`masis.records.document_locks`); a document another live writer holds is left to it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from masis.chunk_ids import legacy_key
from masis.errors import DocumentBusyError
from masis.records.document_locks import DocumentLocks
from masis.records.registry import Registry, Write
from masis.store.base import VectorStore

log = logging.getLogger(__name__)


@dataclass
class RecoveryReport:
    removed_unfinished: list[tuple[str, str]] = field(default_factory=list)  # (workspace, document)
    # replacements cut off before they were listed: the previous version kept
    rolled_back: list[tuple[str, str]] = field(default_factory=list)
    # replacements cut off after they were listed: the versions they replaced deleted
    rolled_forward: list[tuple[str, str]] = field(default_factory=list)
    removed_incomplete: list[tuple[str, str]] = field(default_factory=list)
    # (workspace, document, the documents that overwrote its chunks): also in removed_incomplete
    collisions: list[tuple[str, str, list[str]]] = field(default_factory=list)
    unexplained: dict[str, int] = field(default_factory=dict)  # workspace -> extra points in the store
    # (thread, status) of each answer a killed process left 'running', settled from its checkpoint
    settled_runs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.removed_unfinished or self.rolled_back or self.rolled_forward or self.removed_incomplete
                    or self.unexplained or self.settled_runs)


def recover(store: VectorStore, registry: Registry, locks: DocumentLocks) -> RecoveryReport:
    report = RecoveryReport()
    for write in registry.abandoned_writes():
        try:
            with locks.hold(write.workspace_id, [write.name], wait=False):
                _settle(store, registry, write, report)
        except DocumentBusyError:
            log.info("%s in %s is being written by a live process; left to it", write.name, write.workspace_id)
    for workspace_id, name in registry.unfinished_documents():
        with locks.hold(workspace_id, [name]):  # an older MASIS's row: no writer of today holds it
            store.delete_document(workspace_id, name)
            registry.delete_document(workspace_id, name)
        report.removed_unfinished.append((workspace_id, name))
        log.warning("%s in %s was being indexed when MASIS stopped; removed it - upload it again",
                    name, workspace_id)
    for workspace_id, expected in registry.chunk_totals().items():
        stored = store.count(workspace_id)
        if stored == expected:
            continue
        for doc in registry.documents(workspace_id):
            try:
                with locks.hold(workspace_id, [doc.name], wait=False):
                    _check_complete(store, registry, workspace_id, doc.name, doc.chunks, report)
            except DocumentBusyError:
                continue
        extra = store.count(workspace_id) - registry.chunk_total(workspace_id)
        if extra:
            report.unexplained[workspace_id] = extra
            log.warning("the store holds %d chunks in %s that no document accounts for", extra, workspace_id)
    return report


def _settle(store: VectorStore, registry: Registry, write: Write, report: RecoveryReport) -> None:
    """Roll an abandoned write forward (it was listed) or back."""
    version = {write.name: write.version}
    where = (write.workspace_id, write.name)
    if write.recorded:
        store.delete_other_versions(write.workspace_id, version)
        report.rolled_forward.append(where)
        log.warning("%s in %s was replaced when MASIS stopped; finished deleting its previous version",
                    write.name, write.workspace_id)
    else:
        store.delete_versions(write.workspace_id, version)
        if registry.document(write.workspace_id, write.name) is not None:
            report.rolled_back.append(where)
            log.warning("%s in %s was being replaced when MASIS stopped; kept the previous version - upload the "
                        "new one again", write.name, write.workspace_id)
        else:
            report.removed_unfinished.append(where)
            log.warning("%s in %s was being indexed when MASIS stopped; removed it - upload it again",
                        write.name, write.workspace_id)
    registry.end_writes(write.workspace_id, version)


def _check_complete(
    store: VectorStore, registry: Registry, workspace_id: str, name: str, chunks: int, report: RecoveryReport
) -> None:
    """Remove a listed document whose points are not all in the store, saying why."""
    kept = store.count(workspace_id, name)
    if kept == chunks:
        return
    takers = _overwritten_by(store, workspace_id, name, chunks)
    store.delete_document(workspace_id, name)
    registry.delete_document(workspace_id, name)
    report.removed_incomplete.append((workspace_id, name))
    if takers:
        report.collisions.append((workspace_id, name, takers))
        log.error(
            "%s in %s lost %d of its %d chunks to %s: an older MASIS gave these documents the same chunk "
            "ids. Removed %s - upload it again (documents now get ids of their own; run `masis reindex` "
            "to renumber the older documents' chunks).",
            name, workspace_id, chunks - kept, chunks, ", ".join(takers), name,
        )
    else:
        log.warning("%s in %s had lost some of its chunks; removed it - upload it again", name, workspace_id)


def _overwritten_by(store: VectorStore, workspace_id: str, name: str, chunks: int) -> list[str]:
    """The other documents now stored under the ids the pre-per-document-key scheme gave this one's chunks."""
    legacy = [f"{legacy_key(name)}#{n}" for n in range(1, chunks + 1)]
    return sorted({owner for owner in store.owners(workspace_id, legacy).values() if owner != name})
