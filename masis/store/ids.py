"""Point ids: one stable id per (workspace, chunk), the same in every backend."""

from __future__ import annotations

import hashlib
import uuid
from functools import lru_cache

NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "masis:chunk")


@lru_cache(maxsize=1 << 15)  # an ingest asks twice per chunk: which document owns it, then to write it
def point_id(workspace_id: str, chunk_id: str) -> str:
    """A UUID derived from the tenant and the chunk id, so re-ingesting a chunk overwrites it.

    The workspace is part of the id because chunk ids are only unique within a workspace: two channels
    uploading the same file must not overwrite each other's points.
    """
    return str(uuid.uuid5(NAMESPACE, f"{workspace_id}\x00{chunk_id}"))


def version_point_id(workspace_id: str, chunk_id: str, version: str) -> str:
    """The id of a chunk of one version of its document: a replacement's points sit beside the old version's
    (whose ids are `point_id`s, or another version's) until the switch. A 128-bit hash written as a UUID
    (Qdrant asks only for the form): a seventh of `uuid5`'s time, which an ingest pays once per chunk."""
    h = hashlib.blake2b(f"{workspace_id}\x00{chunk_id}\x00{version}".encode(), digest_size=16).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
