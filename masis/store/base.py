"""The vector store contract every backend honours, and the one place store scopes (tenant filters) are built."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from masis.errors import InvalidWorkspaceError

TENANT_KEY = "workspace_id"
# What a workspace id may be, for every face alike (the CLI, the API's paths, Slack's "<team_id>:<channel_id>").
WORKSPACE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$")
WORKSPACE_RULE = "A workspace id is 1-128 letters, digits and ._:@- (starting with a letter or digit)"
DOCUMENT_KEY = "doc_name"
SPARSE_VECTOR = "bm25"
DENSE_VECTOR = "dense"

# A chunk's BM25 vector as `masis.judge.terms.document_vector` builds it: (token ids, weights).
SparseVec = tuple[list[int], list[float]]


@dataclass(frozen=True, slots=True)
class ChunkRecord:
    """One chunk as stored: `chunk_id` is readable and stable within a workspace."""

    chunk_id: str
    doc_name: str
    text: str
    ordinal: int
    page: int | None = None
    section: str | None = None
    title: str | None = None  # its document's title (`masis.ingest.chunking.document_title`), when it has one


@dataclass(frozen=True, slots=True)
class Hit:
    """A retrieved chunk with the engine's raw score (higher is better): BM25 with per-tenant IDF, or the
    RRF-fused rank score of BM25 and dense retrieval, with the dense cosine when the chunk has a vector."""

    chunk_id: str
    doc_name: str
    text: str
    score: float
    page: int | None = None
    section: str | None = None
    dense_score: float | None = None
    title: str | None = None


# A replacement writes the document's new version beside the old one. Its points carry VERSION_KEY (one id per
# upload) and, until the whole version is in, the workspace's unpublished tenant value instead of the workspace
# id: every query, count and IDF corpus matches the workspace id alone, so they leave them out at no cost, and
# publishing sets the tenant value to the workspace id. Points written before versions existed have no
# version and the workspace id: visible, as they always were.
VERSION_KEY = "version"
_UNPUBLISHED = "\x00unpublished"  # no workspace id holds a NUL (tenant_scope refuses one)


@dataclass(frozen=True, slots=True)
class Scope:
    """Which points a store operation touches, as payload conditions. Only `tenant_scope` makes one, and each
    backend's filter builder only translates it, so every filter carries its tenant."""

    workspace_id: str
    doc_names: tuple[str, ...] | None = None  # one of these documents
    versions: tuple[str, ...] | None = None  # of one of these versions
    other_than: tuple[str, ...] = ()  # of none of these versions
    # True: only visible points (every query and count); False: only unfinished versions' points; None: both
    published: bool | None = True

    @property
    def tenants(self) -> tuple[str, ...]:
        """The tenant values the points must hold (one of)."""
        visible, hidden = (self.workspace_id,), (unpublished_tenant(self.workspace_id),)
        return visible if self.published is True else hidden if self.published is False else visible + hidden


def unpublished_tenant(workspace_id: str) -> str:
    """The tenant value of a workspace's points that are not published yet."""
    return workspace_id + _UNPUBLISHED


def tenant_scope(
    workspace_id: str,
    doc_name: str | None = None,
    *,
    doc_names: Sequence[str] | None = None,
    versions: Sequence[str] | None = None,
    other_than: Sequence[str] = (),
    published: bool | None = True,
) -> Scope:
    """The scope of a store operation: always one workspace (an empty one is refused here, so that an
    unscoped query cannot happen by accident), by default only its visible points."""
    if not isinstance(workspace_id, str) or not workspace_id.strip():
        raise InvalidWorkspaceError("A workspace id is required for every store operation.")
    if not WORKSPACE_ID.fullmatch(workspace_id):
        raise InvalidWorkspaceError(f"{WORKSPACE_RULE}; {workspace_id[:130]!r} is not one.")
    names = (doc_name,) if doc_name is not None else None
    if doc_names is not None:
        names = (*(names or ()), *doc_names)
    return Scope(
        workspace_id,
        doc_names=names,
        versions=tuple(versions) if versions is not None else None,
        other_than=tuple(other_than),
        published=published,
    )


class VectorStore(Protocol):
    """What the engine needs from a store. Every method is scoped to one workspace."""

    def upsert(
        self,
        workspace_id: str,
        chunks: Sequence[ChunkRecord],
        vectors: Sequence[SparseVec] | None = None,
        versions: Mapping[str, str] | None = None,
    ) -> None:
        """Write `chunks`; `vectors`, when given, are their BM25 vectors, already built from `index_text`.

        With `versions` (document name -> a new version id), each chunk is written as a point of its
        document's new version: under an id of its own, beside the points of the version it replaces, and
        left out of every search and count until `publish`."""
        ...

    def publish(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        """Make these new versions (document name -> version id) visible. Until `delete_other_versions`, a document
        may have two visible versions; a search shows only one of them (that of its best hit)."""
        ...

    def delete_other_versions(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        """Delete every point of these documents that is not of the given version: the versions it replaced,
        and any version an interrupted upload left."""
        ...

    def delete_versions(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        """Delete every point of these versions, published or not (a replacement rolled back)."""
        ...

    def delete_document(self, workspace_id: str, doc_name: str) -> None:
        """Delete every point of the document, of every version."""
        ...

    def search(self, workspace_id: str, query: str, limit: int, doc_name: str | None = None) -> list[Hit]: ...

    def count(self, workspace_id: str, doc_name: str | None = None, *, unpublished: bool = False) -> int:
        """The visible points (with `unpublished`: the points of versions not yet published)."""
        ...

    def passages(self, workspace_id: str, doc_names: Sequence[str] | None = None) -> Iterator[list[str]]:
        """The texts of the workspace's visible chunks (of these documents only, if given), a page at a time."""
        ...

    def owners(self, workspace_id: str, chunk_ids: Sequence[str]) -> dict[str, str]:
        """The document each of these chunk ids is stored under, for the ids that are stored."""
        ...

    def renumber_document(self, workspace_id: str, doc_name: str) -> int:
        """Give the document's stored chunks the ids `masis.chunk_ids.chunk_id` gives them now (vectors
        copied, not recomputed); returns how many chunks changed id."""
        ...

    def close(self) -> None: ...
