"""Point ids: one stable id per (workspace, chunk), the same in every backend."""

from __future__ import annotations

import hashlib
import uuid
from functools import lru_cache

NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "masis:chunk")
_NAMESPACE_BYTES = NAMESPACE.bytes


@lru_cache(maxsize=1 << 15)  # an ingest asks twice per chunk: which document owns it, then to write it
def point_id(workspace_id: str, chunk_id: str) -> str:
    """A UUID derived from the tenant and the chunk id, so re-ingesting a chunk overwrites it.

    The workspace is part of the id because chunk ids are only unique within a workspace: two channels
    uploading the same file must not overwrite each other's points.

    It is `str(uuid.uuid5(NAMESPACE, f"{workspace_id}\\x00{chunk_id}"))`, computed without building a
    `uuid.UUID` (twice as fast, and ingest makes one a chunk).
    """
    digest = bytearray(hashlib.sha1(_NAMESPACE_BYTES + f"{workspace_id}\x00{chunk_id}".encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    h = digest.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
