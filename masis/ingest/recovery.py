"""Start-up check that the registry and the store agree, repairing what a crash left behind.

- A document still marked 'indexing' was being written when its process died: its points (some, all or
  none) are removed and so is its row, so it is absent and a re-run of the ingest indexes it whole.
- A workspace whose store holds a different number of points than its ready documents list is drift
  (e.g. a crash between the two halves of a removal): each document is counted, and one whose points
  are not all there is removed so it can be uploaded again. Points the registry knows nothing about
  cannot be found by name and are only reported.
- A document whose chunks were overwritten by another document's (an older MASIS gave `Budget.md` and
  `budget.md` the same chunk ids) is removed too, and said so loudly: which document took its chunks and
  what to do (upload it again; `masis reindex` renumbers the older documents' chunks).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from masis.chunk_ids import legacy_key
from masis.records.registry import Registry
from masis.store.base import VectorStore

log = logging.getLogger(__name__)


@dataclass
class RecoveryReport:
    removed_unfinished: list[tuple[str, str]] = field(default_factory=list)  # (workspace, document)
    removed_incomplete: list[tuple[str, str]] = field(default_factory=list)
    # (workspace, document, the documents that overwrote its chunks): also in removed_incomplete
    collisions: list[tuple[str, str, list[str]]] = field(default_factory=list)
    unexplained: dict[str, int] = field(default_factory=dict)  # workspace -> extra points in the store
    # (thread, status) of each answer a killed process left 'running', settled from its checkpoint
    settled_runs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.removed_unfinished or self.removed_incomplete or self.unexplained or self.settled_runs)


def recover(store: VectorStore, registry: Registry) -> RecoveryReport:
    report = RecoveryReport()
    for workspace_id, name in registry.unfinished_documents():
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
            kept = store.count(workspace_id, doc.name)
            if kept == doc.chunks:
                continue
            takers = _overwritten_by(store, workspace_id, doc.name, doc.chunks)
            store.delete_document(workspace_id, doc.name)
            registry.delete_document(workspace_id, doc.name)
            report.removed_incomplete.append((workspace_id, doc.name))
            if takers:
                report.collisions.append((workspace_id, doc.name, takers))
                log.error(
                    "%s in %s lost %d of its %d chunks to %s: an older MASIS gave these documents the same chunk "
                    "ids. Removed %s - upload it again (documents now get ids of their own; run `masis reindex` "
                    "to renumber the older documents' chunks).",
                    doc.name, workspace_id, doc.chunks - kept, doc.chunks, ", ".join(takers), doc.name,
                )
            else:
                log.warning("%s in %s had lost some of its chunks; removed it - upload it again",
                            doc.name, workspace_id)
        extra = store.count(workspace_id) - registry.chunk_total(workspace_id)
        if extra:
            report.unexplained[workspace_id] = extra
            log.warning("the store holds %d chunks in %s that no document accounts for", extra, workspace_id)
    return report


def _overwritten_by(store: VectorStore, workspace_id: str, name: str, chunks: int) -> list[str]:
    """The other documents now stored under the ids the pre-per-document-key scheme gave this one's chunks."""
    legacy = [f"{legacy_key(name)}#{n}" for n in range(1, chunks + 1)]
    return sorted({owner for owner in store.owners(workspace_id, legacy).values() if owner != name})
