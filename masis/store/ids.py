"""Point ids: one stable id per (workspace, chunk), the same in every backend."""

from __future__ import annotations

import hashlib
import uuid
from functools import lru_cache

NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "masis:chunk")
_NAMESPACE_BYTES = NAMESPACE.bytes


@lru_cache(maxsize=1 << 15)  # an upload asks which document holds each of its chunks
def point_id(workspace_id: str, chunk_id: str) -> str:
    """A UUID derived from the tenant and the chunk id, so re-ingesting a chunk overwrites it.

    The workspace is part of the id because chunk ids are only unique within a workspace: two channels
    uploading the same file must not overwrite each other's points.
    """
    # uuid.uuid5 (RFC 4122's name-based SHA-1 UUID) written out: a fifth of its time, since no UUID object is built
    digest = bytearray(hashlib.sha1(_NAMESPACE_BYTES + f"{workspace_id}\x00{chunk_id}".encode()).digest()[:16])
    digest[6] = digest[6] & 0x0F | 0x50  # version 5
    digest[8] = digest[8] & 0x3F | 0x80  # the RFC 4122 variant
    return _uuid_form(digest.hex())


def _uuid_form(h: str) -> str:
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def version_point_id(workspace_id: str, chunk_id: str, version: str) -> str:
    """The id of a chunk of one version of its document: a replacement's points sit beside the old version's
    (whose ids are `point_id`s, or another version's) until the switch. A 128-bit hash written as a UUID
    (Qdrant asks only for the form): a seventh of `uuid5`'s time, which an ingest pays once per chunk."""
    name = f"{workspace_id}\x00{chunk_id}\x00{version}"
    return _uuid_form(hashlib.blake2b(name.encode(), digest_size=16).hexdigest())
