"""Chunk ids: `<document key>#<n>`, unique per document by construction and readable in a citation.

The key of a document is its exact name when the name is short and made only of letters, digits and
`._-` (any script: `Budget.md`, `отчёт.md`, `résumé.md` are their own keys, so `budget.md` and `Budget.md`
differ). Any other name (spaces, punctuation, over 48 characters) gets a readable slug and `~` plus 8 hex
digits of the SHA-256 of the exact name: `Q3 report.md` -> `Q3-report.md~5c0e83b1`. A key without `~` is a
name, and a name never contains `~`, so two names share a key only if their slugs and 32-bit hashes both
match; ingest checks the store before writing (`VectorStore.owners`) and refuses rather than overwrite.

Stores written before this scheme used `legacy_key` (a lower-case ASCII slug, so `Budget.md` and
`budget.md` shared ids); `masis reindex` renumbers their chunks to the keys above.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

# What a chunk id may contain, for the citation pattern: `\w` is Unicode (letters, digits, `_`).
ID_CHARS = r"\w.~-"
CHUNK_ID_PATTERN = rf"[{ID_CHARS}]+#\d+"

MAX_KEY_CHARS = 48
_SLUG_CHARS = 39  # slug + "~" + 8 hex digits = 48
_SAFE_NAME = re.compile(r"[\w.-]+")
_UNSAFE_RUN = re.compile(r"[^\w.-]+")

_LEGACY_UNSAFE = re.compile(r"[^a-z0-9._-]+")
_LEGACY_DASHES = re.compile(r"-{2,}")


def document_key(doc_name: str) -> str:
    """The prefix of a document's chunk ids; distinct names give distinct keys (see the module doc)."""
    if len(doc_name) <= MAX_KEY_CHARS and _SAFE_NAME.fullmatch(doc_name):
        return doc_name
    slug = _UNSAFE_RUN.sub("-", doc_name).strip("-")[:_SLUG_CHARS].strip("-") or "document"
    digest = hashlib.sha256(doc_name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{slug}~{digest}"


def chunk_id(doc_name: str, ordinal: int) -> str:
    """The id of a document's chunk number `ordinal` (0-based; ids count from 1)."""
    return f"{document_key(doc_name)}#{ordinal + 1}"


def legacy_key(doc_name: str) -> str:
    """The key MASIS used before per-document keys: lossy, so different names could share it."""
    ascii_name = unicodedata.normalize("NFKD", doc_name).encode("ascii", "ignore").decode("ascii")
    slug = _LEGACY_DASHES.sub("-", _LEGACY_UNSAFE.sub("-", ascii_name.lower())).strip("-")
    return slug or "document"


def key_of(chunk_id_: str) -> str:
    """The document key part of a chunk id."""
    return chunk_id_.rpartition("#")[0]
